"""The side-level intent of the utility AI (issue 12): what the side is trying to do this round, read from
the side's own fogged view only — strength on both sides, the rounds left, the enemies in sight and the last
known places of those out of sight (ghosts).

- ADVANCE to contact when no enemy is known at all: towards the likely enemy places (the objectives fed in,
  else the far side of the map from the side's units).
- SEARCH when no enemy is in sight but some were: towards their last known places not yet seen empty.
- ENGAGE when in contact and even: the unit's own considerations, as before.
- PRESS when ahead, or when the clock runs out and the side is not behind: a draw is worth less than a win.
- FALL BACK when clearly behind and in contact: away from the enemy, into cover, closer to friends
  (regroup); out of contact for CONTACT_ROUNDS the side searches again.

The hook for objectives: `side_intent(..., goals=[Goal(cell, weight, why), ...])`. A goal is an intent input:
where the side should go when no enemy is in sight (advance and search head for the nearest goal, weighted),
and it is named in the trace. A scenario's objectives (issue 15) arrive in the side's view (`view.objectives`,
and `view.ai_orders` from a trigger, which replace them): `objective_goals` makes them goals that *pull*
(`Goal.pull`): a zone to hold, reach or leave through, a friend to protect, an enemy to kill where it was last
seen; these count when enemies are in sight too, so the side takes and keeps the zone rather than only fighting.
`ai_personality` is the personality a trigger gave the side, if any (the utility AIs of both rulesets play it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.reach import walk_field

MODES = ("advance", "search", "engage", "press", "fall back")
_WORDS = {"advance": "advancing to contact", "search": "searching", "engage": "engaging", "press": "pressing",
          "fall back": "falling back"}
AHEAD = 0.12  # the strength lead ((ours - theirs) / both) from which a side is ahead (4 v 3 is 0.14)
BEHIND = 0.2  # the strength deficit from which a side in contact falls back (2 v 3 is 0.2; 3 v 4 is 0.14)
CONTACT_ROUNDS = 2  # an enemy seen this many rounds ago or less keeps the side in contact
LATE = 0.2  # the share of the round limit left from which the clock presses (rounds 17-20 of 20)
WOUNDS_OUT = 4.0  # a unit's strength: 1 - wounds / WOUNDS_OUT


@dataclass(frozen=True)
class Goal:
    """An intent input: a cell the side should make for when no enemy is in sight (an objective, later),
    with a weight in (0, 1] and why (shown in the trace)."""

    cell: geo.Cell
    weight: float = 1.0
    why: str = "objective"
    pull: bool = False  # a scenario objective's: it counts with enemies in sight too


PULLING = ("hold", "reach", "extract", "protect", "kill")  # the objective kinds (and AI orders) that make goals


def zone_goal(view: BattleView, name: str) -> geo.Cell | None:
    """The zone's passable cell nearest its centre (ties in row order); None for an unknown or walled zone."""
    try:
        cells = [c for c in view.zone(name) if view.grid.passable(c)]
    except KeyError:
        return None
    if not cells:
        return None
    cx = sum(c[0] for c in cells) / len(cells)
    cy = sum(c[1] for c in cells) / len(cells)
    return min(cells, key=lambda c: ((c[0] - cx) ** 2 + (c[1] - cy) ** 2, c[1], c[0]))


def objective_goals(view: BattleView, side: str) -> list[Goal]:
    """The goals `side`'s open objectives (or the orders a trigger gave it, which replace them) make, from its
    own view: a zone's middle cell, a friend's cell, an enemy's cell as far as the view knows it (none when the
    view does not hold it: fog stays fog)."""
    orders = next((o for s, _, o in view.ai_orders if s == side), None)
    wants: list[tuple[str, str]] = []
    if orders is not None:
        for text in orders:
            verb, _, rest = text.partition(" ")
            if verb in PULLING and rest.strip():
                wants.append((verb, rest.strip()))
    else:
        wants = [(o.kind, o.zone or o.unit or "") for o in view.objectives
                 if o.side == side and o.state == "open" and o.kind in PULLING]
    out: list[Goal] = []
    for kind, name in wants:
        if kind in ("hold", "reach", "extract"):
            cell = zone_goal(view, name)
        else:
            u = view.find(name)
            cell = None if u is None or u.out_of_action else u.cell
        if cell is not None:
            out.append(Goal(cell, 1.0, f"{kind} {name}", pull=True))
    return out


def ai_personality(view: BattleView, side: str) -> str | None:
    """The personality a scenario trigger gave `side`'s AI (view.ai_orders), or None."""
    return next((p for s, p, _ in view.ai_orders if s == side), None)


@dataclass(frozen=True)
class Intent:
    """What the side is trying to do, with the numbers it read and the trace's line."""

    mode: str
    ours: int  # units in action
    theirs: int  # enemies in action the view holds (before any is known: assumed as many as ours)
    lead: float  # (our strength - theirs) / both, in [-1, 1]
    rounds_left: int | None  # None: no round limit
    in_sight: int
    ghosts: int
    goals: tuple[Goal, ...]  # where advance and search go (empty: towards the enemies the view holds)
    push: float  # how hard to close in, in [0, 1]
    late: bool = False  # the round limit is near (the last LATE share of it)

    @property
    def text(self) -> str:
        """The trace's line, e.g. "pressing: 2 rounds left, ahead 4 v 3"."""
        bits = []
        if self.rounds_left is not None:
            bits.append(f"{self.rounds_left} round{'s' if self.rounds_left != 1 else ''} left")
        stand = "ahead" if self.lead >= AHEAD else "behind" if self.lead <= -AHEAD else "even"
        bits.append(f"{stand} {self.ours} v {self.theirs}")
        if self.mode == "engage":
            bits.append(f"{self.in_sight} in sight")
        if self.goals and (self.mode in ("advance", "search") or self.goals[0].pull):
            g = self.goals[0]
            bits.append(f"towards {g.why} at {g.cell[0]},{g.cell[1]}")
        return f"{_WORDS[self.mode]}: " + ", ".join(bits)

    @property
    def closing(self) -> bool:
        """The side moves towards the enemy (or its goals)."""
        return self.mode != "fall back"


def strength(units: Sequence[UnitView]) -> float:
    """A side's strength: each unit in action counts 1, less a quarter per wound."""
    return sum(max(0.0, 1 - u.wounds / WOUNDS_OUT) for u in units if not u.out_of_action)


class SearchMemory:
    """The cells each side has seen empty while searching this round (last known places and hiding places
    looked into), so the side's units move on instead of going back and forth; forgotten when an enemy is in
    sight again, when every place near the last known ones has been looked into, and at each round's start
    (an AI resumed from a record at a round's start decides exactly as one that played on, docs/RECORDS.md)."""

    def __init__(self) -> None:
        self.cleared: dict[str, tuple[int, set[geo.Cell]]] = {}

    def of(self, side: str, round_no: int) -> set[geo.Cell]:
        """The side's cleared cells this round."""
        got = self.cleared.get(side)
        if got is None or got[0] != round_no:
            got = self.cleared[side] = (round_no, set())
        return got[1]


def side_intent(view: BattleView, me: UnitView, aggression: float, goals: Sequence[Goal] = (),
                memory: SearchMemory | None = None) -> Intent:
    """The side's intent from its view. Before any enemy is known, the enemy is assumed as strong as the side
    (even); after, the enemies the view holds are the count (seen, and ghosts at their last known state)."""
    side = [u for u in view.units if u.side == me.side]
    ours_units = [u for u in side if not u.out_of_action]
    known = [u for u in view.units if u.side != me.side]
    enemies = [u for u in known if not u.out_of_action]
    unseen = len(side) if not known else 0  # nothing known yet: assume a force as large as ours
    ours, theirs = strength(ours_units), strength(enemies) + unseen
    lead = (ours - theirs) / max(ours + theirs, 1e-6)
    left = view.max_rounds - view.round + 1 if view.max_rounds else None
    late = left is not None and left <= max(2, math.ceil(LATE * view.max_rounds))
    in_sight = [e for e in enemies if not e.ghost]
    ghosts = [e for e in enemies if e.ghost]
    places: list[Goal] = []
    cleared = (memory or SearchMemory()).of(me.side, view.round)
    pulls = objective_goals(view, me.side) if view.objectives or view.ai_orders else []
    if in_sight:
        cleared.clear()
    if pulls:  # the scenario's objectives come first, in sight of the enemy or not
        places = sorted(pulls, key=lambda g: (-g.weight, geo.distance_cells(me.cell, g.cell), g.cell))
    elif not in_sight:
        for e in ghosts:
            if e.cell not in cleared and not _seen_empty(view, ours_units, e.cell):
                places.append(Goal(e.cell, 1.0, f"{e.name}'s last known place"))
                continue
            cleared.add(e.cell)
            hide = hiding_place(view, ours_units, e.cell, cleared)
            if hide is None:  # every place near it looked into: look again
                cleared.clear()
                hide = hiding_place(view, ours_units, e.cell, cleared)
            if hide is not None:
                places.append(Goal(hide, 0.9, f"cover near {e.name}'s last known place"))
        places += list(goals)
        if not places:
            places = [Goal(likely_place(view, ours_units), 0.5, "the likely enemy place")]
        places.sort(key=lambda g: (-g.weight, geo.distance_cells(me.cell, g.cell), g.cell))
    contact = any(view.round - (e.last_seen if e.last_seen is not None else view.round) < CONTACT_ROUNDS
                  for e in enemies)
    if lead <= -BEHIND and contact:  # out of contact, the side has regrouped: it searches again
        mode, push = "fall back", 0.0
    elif lead >= AHEAD or (late and lead > -BEHIND):
        urgency = 1.0 if late else 0.0
        mode, push = "press", min(max(0.6 + 0.3 * urgency + 0.5 * max(0.0, lead), 0.0), 1.0)  # np.clip's numbers
    elif in_sight:
        clock = view.round / view.max_rounds if view.max_rounds else 0.0
        mode, push = "engage", min(max(aggression + 0.6 * clock ** 2 + 0.4 * lead - 0.2, 0.0), 1.0)
    elif ghosts and any("last known place" in g.why for g in places):
        mode, push = "search", 0.75
    else:
        mode, push = "advance", 0.75
    return Intent(mode, len(ours_units), len(enemies) + unseen, lead, left, len(in_sight), len(ghosts),
                  tuple(places), push, late)


def _seen_empty(view: BattleView, ours: Sequence[UnitView], cell: geo.Cell) -> bool:
    """A last known place one of the side's units sees now: the enemy is not there (it would be in sight). A
    cell seen only round a corner does not count: an enemy there that neither fires nor is known stays unseen
    (R-6.1, R-6.6)."""
    for u in ours:
        if u.cell == cell:
            return True
        s = geo.sight(view.grid, u.cell, cell)
        if s.visible and not s.lean:
            return True
    return False


RINGS = (3, 6, 10)  # cells from a last known place where a hiding place is looked for
_DIRECTIONS = [(math.cos(2 * math.pi * k / 16), math.sin(2 * math.pi * k / 16)) for k in range(16)]


def hiding_place(view: BattleView, ours: Sequence[UnitView], cell: geo.Cell,
                 cleared: set[geo.Cell]) -> geo.Cell | None:
    """Where an enemy last seen at `cell` (now seen empty) likely hides: the nearest passable cell on rings
    round it that none of the side's units sees now or has seen empty (`cleared`, which the cells seen now
    join); a search goes there and looks. None if every one is seen."""
    grid = view.grid
    for r in RINGS:
        ring = []
        for dx, dy in _DIRECTIONS:
            c = (round(cell[0] + r * dx), round(cell[1] + r * dy))
            if grid.inside(c) and grid.passable(c) and c not in ring:
                ring.append(c)
        ring.sort(key=lambda c: (min(geo.distance_cells(c, u.cell) for u in ours) if ours else 0.0, c))
        for c in ring:
            if c in cleared:
                continue
            if not _seen_empty(view, ours, c):
                return c
            cleared.add(c)
    return None


def likely_place(view: BattleView, ours: Sequence[UnitView]) -> geo.Cell:
    """Where the enemy likely is when nothing is known: the side's centre mirrored through the map's centre,
    moved to the nearest passable cell."""
    grid = view.grid
    if not ours:
        return (grid.width // 2, grid.height // 2)
    cx = sum(u.cell[0] for u in ours) / len(ours)
    cy = sum(u.cell[1] for u in ours) / len(ours)
    tx, ty = grid.width - 1 - cx, grid.height - 1 - cy
    ok = grid.move_cost > 0
    ys, xs = np.nonzero(ok)
    if len(xs) == 0:
        return (round(tx), round(ty))
    i = int(np.argmin((xs - tx) ** 2 + (ys - ty) ** 2))
    return (int(xs[i]), int(ys[i]))


class GoalFields:
    """The walking distance (metres) from every cell to a goal cell, kept per map (the map never changes)."""

    def towards(self, grid: geo.GridMap, goals: Sequence[Goal]) -> npt.NDArray[np.float64]:
        """The walking distance to the nearest goal, a lighter goal counting up to 20 m farther (the walking
        fields are the map's, `rules.reach.walk_field`, shared by every AI and battle on it)."""
        out = np.full((grid.height, grid.width), np.inf)
        for g in goals:
            f = walk_field(grid, g.cell) * grid.cell_m
            out = np.minimum(out, f + 20.0 * (1 - min(1.0, g.weight)))
        return out
