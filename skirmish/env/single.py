"""A Gymnasium single-agent environment (docs/RL.md): one side of a battle against a named AI.

Each `step` answers one decision of the agent's side; the AI answers the other sides' decisions in
between, from their own views. The mask is in the observation (`obs["action_mask"]`), in
`info["action_mask"]`, and from `action_masks()` (the method sb3-contrib's MaskablePPO looks for).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from skirmish.ai.controllers import make_ai
from skirmish.battle import Controller
from skirmish.content.scenario import Scenario
from skirmish.env.game import Game


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """Play `side` (default: the scenario's first) against `opponent` (a `make_ai` name: hold, rush, utility,
    random, focus, spread, utility:hard, …) on every other side."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012  (Gymnasium's)

    def __init__(self, scenario: Scenario | str | Path | None = None, side: str | None = None,
                 opponent: str = "utility", seed: int | None = None, *, casualty_reward: float = 0.0,
                 illegal_reward: float = 0.0, max_steps: int | None = None, render_mode: str | None = None) -> None:
        """As skirmish.env.raw_env, plus `side` (a side's name or agent name, e.g. "Raiders" or "side_0") and
        `opponent`; ValueError naming the known sides or AIs for a bad one."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of {', '.join(self.metadata['render_modes'])}")
        self.game = Game(scenario, seed, casualty_reward=casualty_reward)
        sides = self.game.sides
        if side is None:
            side = sides[0]
        side = self.game.side_of.get(side, side)
        if side not in sides:
            raise ValueError(f"side {side!r}: expected one of {', '.join(sides)} (or {', '.join(self.game.agents)})")
        self.side = side
        make_ai(opponent, self.game.ruleset)  # a bad name fails here, naming the known AIs
        self.opponent = opponent
        self._opponents: dict[str, Controller] = {}
        self.illegal_reward = float(illegal_reward)
        self.max_steps = max_steps
        self.render_mode = render_mode
        size = self.game.table.size
        self.action_space = spaces.Discrete(size)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=self.game.observer.shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(size,), dtype=np.int8),
        })
        self.channels = self.game.channels
        self.steps = 0
        self._pending_reward = 0.0

    @property
    def table(self) -> Any:
        """The index <-> Action table (skirmish.env.actions.ActionTable)."""
        return self.game.table

    @property
    def battle(self) -> Any:
        """The battle under way (skirmish.battle.Battle)."""
        return self.game.live()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a battle and play the other sides until the agent's side must decide."""
        super().reset(seed=seed)
        self.game.start(seed)
        self._np_random = self.game.rng  # one generator: the one that draws later episodes' seeds
        self._opponents = {s: make_ai(self.opponent, self.game.ruleset) for s in self.game.sides if s != self.side}
        self.steps = 0
        self._pending_reward = self._reward(self._others())  # an AI may already have changed things
        obs = self.game.observe(self.side)
        return obs, self._info(obs, None)

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Answer the agent's decision with the action at index `action`, then play the other sides."""
        if self.game.outcome is not None:
            raise RuntimeError("the battle is over: call reset()")
        refusal = self.game.act(int(action))
        self.steps += 1
        reward = self._pending_reward + self._reward(self.game.rewards())
        reward += self._reward(self._others())
        self._pending_reward = 0.0
        if refusal is not None:
            reward += self.illegal_reward
        terminated = self.game.outcome is not None
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        obs = self.game.observe(self.side)
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, self._info(obs, refusal)

    def _others(self) -> dict[str, float]:
        """Let the opponents answer until the agent's side must decide or the battle ends; their rewards."""
        total = dict.fromkeys(self.game.sides, 0.0)
        while (req := self.game.pending) is not None and req.side != self.side:
            self.game.play(self._opponents[req.side])
            for s, r in self.game.rewards().items():
                total[s] += r
        return total

    def _reward(self, rewards: dict[str, float]) -> float:
        return rewards[self.side]

    def _info(self, obs: dict[str, Any], refusal: str | None) -> dict[str, Any]:
        req = self.game.pending
        info: dict[str, Any] = {"action_mask": obs["action_mask"], "unit": req.unit if req else None}
        if refusal is not None:
            info["refused"] = refusal
        if self.game.outcome is not None:
            info["result"] = self.game.outcome.summary()
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The current mask as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self.game.mask(self.side).astype(bool)

    def render(self) -> str | None:
        """The battle as text ("ansi" returns it, "human" prints it)."""
        return self.game.render(self.render_mode)

    def close(self) -> None:
        """Free the battle's world."""
        self.game.close()
