"""The battle behind both RL environments (docs/RL.md): one scenario, its fixed action table and observer,
seeds, and rewards. No PettingZoo or Gymnasium here: `aec.py` and `single.py` wrap it.

Agents are sides: `side_0`, `side_1`, … in the scenario's order. The agent to act is always the side of
the battle's pending Request, and its action is taken by the Request's unit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.battle import Battle, Controller, Outcome, Request, consult
from skirmish.content.scenario import Scenario, default_scenario_path, load_scenario
from skirmish.env.spec import spec_for

WIN, LOSS, DRAW = 1.0, -1.0, 0.0
SEED_BOUND = 2**31  # seeds drawn for later episodes lie in [0, SEED_BOUND)


def load(scenario: Scenario | str | Path | None) -> Scenario:
    """A scenario given as a loaded Scenario, a path, or None for the default scenario (as `skirmish run`)."""
    if isinstance(scenario, Scenario):
        return scenario
    return load_scenario(Path(scenario) if scenario is not None else default_scenario_path())


def agent_name(index: int) -> str:
    """The agent of the side at `index` in the scenario (PettingZoo's `<descriptor>_<number>` names)."""
    return f"side_{index}"


class Game:
    """Battles of one scenario seen as an RL game: observations, masks, answers and rewards."""

    def __init__(self, scenario: Scenario | str | Path | None = None, seed: int | None = None, *,
                 casualty_reward: float = 0.0) -> None:
        self.scenario = load(scenario)
        self.spec = spec_for(self.scenario)  # the ruleset's action table and observer (env/spec.py)
        self.ruleset = self.scenario.spec.ruleset
        self.sides = tuple(s.name for s in self.scenario.spec.sides)
        self.agents = tuple(agent_name(i) for i in range(len(self.sides)))
        self.side_of = dict(zip(self.agents, self.sides, strict=True))
        self.agent_of = dict(zip(self.sides, self.agents, strict=True))
        with Battle(self.scenario) as probe:  # the layout depends on the scenario only, not on the seed
            views = [probe.observe(s) for s in self.sides]
        self.table = self.spec.table(self.scenario, views)
        self.observer = self.spec.observer(self.scenario, views)
        self.channels = getattr(self.observer, "channels", self.spec.channels)  # (FI with mounts: their planes too)
        self.seed = seed
        self.casualty_reward = float(casualty_reward)
        self.rng: np.random.Generator | None = None  # draws the seeds of episodes reset without one
        self.battle: Battle | None = None
        self._down: dict[str, int] = {}
        self._paid = False
        self._mask: tuple[tuple[int, int], npt.NDArray[np.int8]] | None = None  # the last mask, for act()

    # ------------------------------------------------------------------ episodes
    def start(self, seed: int | None = None) -> Battle:
        """A new battle. Its seed: `seed` if given; else, the first time, the seed given to the game or the
        scenario's own; else the next one drawn from the generator the last given seed started."""
        if seed is None and self.rng is not None:
            seed = int(self.rng.integers(SEED_BOUND))
        else:
            if seed is None:
                seed = self.seed if self.seed is not None else self.scenario.spec.seed
            self.rng = np.random.default_rng(seed)
        self.close()
        self._mask = None
        self.battle = Battle(self.scenario, seed=seed)
        self._down = self._casualties() if self.casualty_reward else {}
        self._paid = False  # the end's reward is given once
        return self.battle

    def close(self) -> None:
        """Free the battle's world."""
        if self.battle is not None:
            self.battle.close()
            self.battle = None

    def live(self) -> Battle:
        """The battle under way (RuntimeError before the first reset)."""
        if self.battle is None:
            raise RuntimeError("no battle yet: call reset() first")
        return self.battle

    @property
    def pending(self) -> Request | None:
        """The decision the battle waits for (None once it is over)."""
        return self.live().pending

    @property
    def outcome(self) -> Outcome | None:
        """How the battle ended, once it has."""
        return self.live().outcome

    def acting_agent(self) -> str | None:
        """The agent whose side must decide now."""
        req = self.pending
        return self.agent_of[req.side] if req is not None else None

    # ------------------------------------------------------------------ observations
    def mask(self, side: str) -> npt.NDArray[np.int8]:
        """The action mask of `side`: its pending unit's legal actions, all 0 if it has no decision now."""
        battle = self.live()
        req = battle.pending
        if req is None or req.side != side:
            return np.zeros(self.table.size, dtype=np.int8)
        key = (id(battle), len(battle.answers))  # one answer is given per decision: the key of this one
        if self._mask is None or self._mask[0] != key:
            self._mask = (key, self.table.mask(battle.legal_actions(req.unit), battle.check))
        return self._mask[1].copy()

    def observe(self, side: str) -> dict[str, Any]:
        """`{"observation": planes, "action_mask": mask}` for `side`, from `Battle.observe(side)` only."""
        battle = self.live()
        req = battle.pending
        acting = req.unit if req is not None and req.side == side else None
        planes = self.observer.observe(battle.observe(side), side, acting,
                                       declaring=req is not None and req.kind == self.spec.declare_kind)
        return {"observation": planes, "action_mask": self.mask(side)}

    # ------------------------------------------------------------------ decisions
    def act(self, index: int) -> str | None:
        """Answer the pending request with the action at `index`. An unmasked action is accepted; a masked one
        is refused as any controller's would be (`Battle.answer`: logged, and the unit loses the decision:
        the ruleset's fallback, e.g. FI's NORMAL declaration or end of turn). Returns the refusal ("rule: reason") or None."""
        battle = self.live()
        req = battle.pending
        if req is None:
            raise RuntimeError("the battle is over: call reset()")
        action = self.table.decode(int(index), req.unit)
        cached = self._mask
        listed = cached is not None and cached[0] == (id(battle), len(battle.answers)) and cached[1][index]
        refusal = None if listed else battle.check(action)  # a listed action is accepted (legal_actions)
        battle.answer(req, action)
        if refusal is None:
            return None
        return f"{refusal.rule}: {refusal.reason}" if refusal.rule else refusal.reason

    def play(self, controller: Controller) -> None:
        """Let an AI answer the pending request from its own side's view (it sees what observe shows)."""
        battle = self.live()
        req = battle.pending
        if req is None:
            raise RuntimeError("the battle is over: call reset()")
        action, trace = consult(controller, battle.observe(req.side), req)
        battle.answer(req, action, trace)

    # ------------------------------------------------------------------ rewards
    def _casualties(self) -> dict[str, int]:
        """Each side's own units out of action, as that side knows them."""
        battle = self.live()
        return {s: sum(u.out_of_action for u in battle.observe(s).units if u.side == s) for s in self.sides}

    def rewards(self) -> dict[str, float]:
        """Each side's reward since the last call: at the end +1 the winner, -1 every other side, 0 all on a
        draw (once); with `casualty_reward` c, also +c for each enemy put out of action and -c for each own."""
        out = dict.fromkeys(self.sides, 0.0)
        if self.casualty_reward:
            now = self._casualties()
            new = {s: now[s] - self._down.get(s, 0) for s in self.sides}
            self._down = now
            total = sum(new.values())
            for s in self.sides:
                out[s] += self.casualty_reward * (total - 2 * new[s])
        outcome = self.outcome
        if outcome is not None and not self._paid:
            self._paid = True
            for s in self.sides:
                out[s] += DRAW if outcome.winner is None else WIN if outcome.winner == s else LOSS
        return out

    def render(self, mode: str | None) -> str | None:
        """The battle as text in a render mode: None draws nothing, "ansi" returns it, "human" prints it."""
        if mode is None:
            return None
        text = self.render_text()
        if mode == "human":
            print(text)
            return None
        return text

    def render_text(self) -> str:
        """The battle as text for a person watching (all-seeing, as the board's AI-vs-AI watch; agents never
        get this): the round, phase and decision, then the map (`#` blocks sight, `+` cover, `~` slow
        ground, `=` impassable) with each unit as its side's letter (A, B, …), lower case when out of action."""
        battle = self.live()
        view = battle.view()
        grid = view.grid
        rows = [["#" if grid.blocks_sight[y, x] else "+" if grid.cover[y, x] else
                 "=" if grid.move_cost[y, x] <= 0 else "~" if grid.move_cost[y, x] > 1 else "."
                 for x in range(grid.width)] for y in range(grid.height)]
        for u in view.units:
            letter = chr(ord("A") + u.side_index)
            rows[u.cell[1]][u.cell[0]] = letter.lower() if u.out_of_action else letter
        req, outcome = battle.pending, battle.outcome
        now = f"{req.kind} {req.unit} ({req.side})" if req else outcome.summary() if outcome else ""
        return "\n".join([f"round {view.round} phase {view.phase or '-'}: {now}", *("".join(r) for r in rows)])
