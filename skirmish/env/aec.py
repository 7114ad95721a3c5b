"""The PettingZoo AEC environment (docs/RL.md), named as PettingZoo's own environments are: `env()` is
`raw_env()` in PettingZoo's standard wrappers.

One agent per side (`side_0`, `side_1`, … in the scenario's order). `agent_selection` is always the side of
the battle's pending Request, so one side may act many times in a row (each of its units declares, then
acts in its phase). Observations: `{"observation": planes, "action_mask": int8 mask}`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from skirmish.content.scenario import Scenario
from skirmish.env.game import Game


def env(scenario: Scenario | str | Path | None = None, seed: int | None = None, **kwargs: Any) -> AECEnv:
    """The environment in PettingZoo's standard wrappers: actions checked against the space, and the order
    of calls enforced (reset before step, no observing before reset)."""
    wrapped: AECEnv = raw_env(scenario=scenario, seed=seed, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped environment
    """A skirmish battle as a PettingZoo AEC game (docs/RL.md)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  (PettingZoo reads it from the class)
        "render_modes": ["human", "ansi"], "name": "skirmish_v0", "is_parallelizable": False, "render_fps": 4}

    def __init__(self, scenario: Scenario | str | Path | None = None, seed: int | None = None, *,
                 casualty_reward: float = 0.0, illegal_reward: float = 0.0, max_steps: int | None = None,
                 render_mode: str | None = None) -> None:
        """`scenario`: a Scenario, a path, or None for the default scenario. `seed`: the first battle's seed
        (default: the scenario's). `casualty_reward`: shaping per enemy put out of action (and minus per own;
        off by default). `illegal_reward`: added when a masked action is answered (it is refused and the unit
        loses that decision). `max_steps`: truncate after that many steps (default: none; the battle's round
        limit ends it as a draw)."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {', '.join(self.metadata['render_modes'])}")
        self.game = Game(scenario, seed, casualty_reward=casualty_reward)
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = list(self.game.agents)
        self.agents: list[str] = []
        size = self.game.table.size
        shape = self.game.observer.shape
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.channels = self.game.channels
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The Dict space of `agent`'s observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Discrete over the scenario's action table (docs/RL.md)."""
        return self.action_spaces[agent]

    @property
    def table(self) -> Any:
        """The index <-> Action table (skirmish.env.actions.ActionTable)."""
        return self.game.table

    @property
    def battle(self) -> Any:
        """The battle under way (skirmish.battle.Battle)."""
        return self.game.live()

    def observe(self, agent: str) -> dict[str, Any]:
        """`agent`'s observation from its side's `Battle.observe`, with its action mask."""
        return self.game.observe(self.game.side_of[agent])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a battle (its seed: `seed`, else the game's next one; see Game.start)."""
        self.game.start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self._select()

    def _select(self) -> None:
        acting = self.game.acting_agent()
        self.agent_selection = acting if acting is not None else self.agents[0]
        for a in self.agents:
            self.infos[a] = {"unit": self.game.pending.unit if acting == a and self.game.pending else None}

    def step(self, action: Any) -> None:
        """The selected side's pending unit takes the action at index `action`."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        refusal = self.game.act(int(action))
        self.steps += 1
        for side, reward in self.game.rewards().items():
            self.rewards[self.game.agent_of[side]] += reward
        if refusal is not None:
            self.rewards[agent] += self.illegal_reward
        if self.game.outcome is not None:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select()
        if refusal is not None:
            self.infos[agent]["refused"] = refusal
        if self.game.outcome is not None:
            for a in self.agents:
                self.infos[a]["result"] = self.game.outcome.summary()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The battle as text ("ansi" returns it, "human" prints it)."""
        return self.game.render(self.render_mode)

    def close(self) -> None:
        """Free the battle's world."""
        self.game.close()
