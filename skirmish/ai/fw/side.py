"""The side's intent for the Future*World utility AI (as FI's utility AI has one, docs/AI.md "Squad leader"):
press when the side is as strong as the enemy it knows of or the clock is running out (a draw is only half a
win) and it is not much weaker (a loss is none: as FI's side intent, skirmish/ai/utility/intent.py), fall back
when it is much weaker, else hold.

Strength: the HP of the figures still able to act (R-9.7) times the HP their guns would put through the enemy a
round (`firepower`: skill, burst, and the enemy's armour and screen or its grav car's, R-9.6, R-9.8, R-9.12), so
the ratio is how much longer we would last than they: three riders behind a scout car's 30-point screen are not
three men in the open (issue 13 item 9, scout run: a picket that counted HP only pressed under the car)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from skirmish.ai.fw import estimate as est
from skirmish.ai.utility.intent import Goal, objective_goals
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rulesets.fw import FwUnitView

PRESS_AT = 0.8  # our strength / theirs at or above which the side presses
FALL_BACK_BELOW = 0.4  # ... and below which it falls back
LATE = 0.5  # pressing anyway once this share of the round limit is gone ...
LATE_AT = 0.4  # ... unless our strength / theirs is below this (a draw is half a win; a loss is none)


@dataclass(frozen=True)
class Intent:
    """What the side means to do, and why (traced)."""

    mode: str  # "press", "hold" or "fall back"
    why: str
    goal: Goal | None = None  # a scenario objective's cell the side makes for (issue 15), the nearest to the unit

    @property
    def press(self) -> bool:
        return self.mode == "press"

    @property
    def fall_back(self) -> bool:
        return self.mode == "fall back"

    @property
    def text(self) -> str:
        """The trace's line: "press: strength 1.20, round 3 of 15"."""
        towards = f", towards {self.goal.why} at {self.goal.cell[0]},{self.goal.cell[1]}" if self.goal else ""
        return f"{self.mode}: {self.why}{towards}"


def goal_walk(grid: geo.GridMap, cell: geo.Cell) -> npt.NDArray[np.float64]:
    """The way from every cell to an objective's `cell` (movement cost in cells, figures ignored; inf where there
    is none), kept with the map (a door makes a new map, so a new field)."""
    kept: dict[geo.Cell, npt.NDArray[np.float64]] = grid.kept.setdefault("fw_goal_walk", {})
    out = kept.get(cell)
    if out is None:
        if len(kept) >= 64:
            kept.clear()
        out = kept[cell] = geo.reach_field(grid, cell, math.inf)
    return out


def goal_gain(grid: geo.GridMap, goal: geo.Cell, here: geo.Cell, there: geo.Cell) -> float:
    """How much nearer `goal` a unit at `here` gets by standing at `there`, in cells along the way (the straight
    line when there is no way from either)."""
    walk = goal_walk(grid, goal)
    a, b = float(walk[here[1], here[0]]), float(walk[there[1], there[0]])
    if math.isinf(a) or math.isinf(b):
        return geo.distance_cells(here, goal) - geo.distance_cells(there, goal)
    return a - b


def _hp(units: list[UnitView]) -> int:
    return sum(max(0, u.ext.hp) for u in units if isinstance(u.ext, FwUnitView) and u.ext.can_act)


def firepower(view: BattleView, shooters: list[UnitView], targets: list[UnitView]) -> float:
    """The HP the figures able to act among `shooters` would put through `targets` a round, each firing its gun
    (its burst's two hits on average when it can, R-9.5) at its skill at one of them taken evenly: the damage a
    sure hit puts through the target's armour and the screen it is taken to have, its car's aboard (R-9.6,
    R-9.8, R-9.12)."""
    marks = [t for t in targets if isinstance(t.ext, FwUnitView) and t.ext.can_act]
    if not marks:
        return 0.0
    total = 0.0
    for s in shooters:
        if not isinstance(s.ext, FwUnitView) or not s.ext.can_act:
            continue
        w = est.weapon(s) or est.sword(s)
        if w is None or w.damage is None:
            continue
        hits = 2.0 if w.weapon_class != "melee" and est.can_burst(s, w) else 1.0
        through = sum(est.hit_through(view, w, t) for t in marks) / len(marks)
        total += est.base_chance(s, w) / 100 * hits * through
    return total


def side_intent(view: BattleView, me: UnitView) -> Intent:
    """Press, hold or fall back (see the module's docstring)."""
    ours_u = [u for u in view.units if u.side == me.side and not u.out_of_action]
    theirs_u = view.enemies(me)
    ours = _hp(ours_u) * firepower(view, ours_u, theirs_u)
    theirs = _hp(theirs_u) * firepower(view, theirs_u, ours_u)
    ratio = min(9.99, ours / theirs) if theirs else 9.99
    why = f"strength {ratio:.2f}" + (f", round {view.round} of {view.max_rounds}" if view.max_rounds else "")
    goals = objective_goals(view, me.side) if view.objectives or view.ai_orders else []
    # a zone to hold or leave by, a friend to protect, an enemy to kill: the unit makes for the nearest (by the way)
    goal = min(goals, key=lambda g: (goal_gain(view.grid, g.cell, me.cell, g.cell), g.cell)) if goals else None
    if ratio >= PRESS_AT or (view.max_rounds and view.round >= LATE * view.max_rounds and ratio >= LATE_AT):
        return Intent("press", why, goal)
    if ratio < FALL_BACK_BELOW:
        return Intent("fall back", why, goal)
    return Intent("hold", why, goal)
