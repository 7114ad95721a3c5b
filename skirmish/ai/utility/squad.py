"""The squad in the utility AI's considerations (issue 12): what a unit weighs because it is one of several —
spacing against blasts, crossfire with friends (flanking with more than one unit), bounding overwatch (half
the side moves while the other half waits for an enemy to show), regrouping when falling back, and a wounded
unit's retreat and DODGE.

Every per-cell field here is one numpy expression over the map per friend or enemy, so it adds no per-cell
Python loop to a decision.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skirmish.ai.curves import CLIP
from skirmish.ai.utility.distance import bearing_from, metres_from
from skirmish.ai.utility.intent import Intent
from skirmish.ai.utility.maps import TacticalMaps
from skirmish.ecs.view import BattleView, UnitView

Field = npt.NDArray[np.float64]
BOUNDING = ("advance", "search", "engage")  # the intents under which half the side overwatches


def spacing(view: BattleView, me: UnitView, shape: tuple[int, int], blast_m: float) -> Field:
    """Raw input per cell: the distance to the nearest friend over two blast radii, in [0, 1] (0.5: exactly
    one radius, so one grenade (R-6.10) would catch both). 1 everywhere with no friend. (`spacing_rows` on
    every cell: the cell scoring asks only the cells it scores.)"""
    return spacing_rows(view, me, blast_m, np.arange(shape[0] * shape[1])).reshape(shape)


def crossfire(view: BattleView, me: UnitView, shape: tuple[int, int]) -> Field | None:
    """Raw input per cell: how far round the nearest enemy in sight the cell is from the friends' angles on it
    (0: on a friend's line, 0.5: at right angles, 1: opposite), the best over friends; None without an enemy
    in sight or a friend (flanking with more than one unit: fire from two sides takes cover away).
    (`crossfire_rows` on every cell: the cell scoring asks only the cells it scores.)"""
    got = crossfire_rows(view, me, np.arange(shape[0] * shape[1]))
    return None if got is None else got.reshape(shape)


def spacing_rows(view: BattleView, me: UnitView, blast_m: float, flat: npt.NDArray[np.intp]) -> Field:
    """`spacing` at the cells whose places in a map's flat array are `flat`, as a vector in their order (the same
    numbers: each friend's distance there, the least of them, over two blast radii, clipped)."""
    friends = view.friends(me)
    if not friends:
        return np.ones(len(flat))
    near = metres_from(view.grid, friends[0].cell).take(flat)
    for f in friends[1:]:  # (np.min over the stacked rows: a minimum, the same in any order)
        near = np.minimum(near, metres_from(view.grid, f.cell).take(flat))
    return CLIP(near / (2 * blast_m), 0.0, 1.0)


def crossfire_rows(view: BattleView, me: UnitView, flat: npt.NDArray[np.intp]) -> Field | None:
    """`crossfire` at the cells whose places in a map's flat array are `flat`, as a vector in their order (the same
    numbers); None where `crossfire` is None."""
    friends = view.friends(me)
    enemies = [e for e in view.enemies(me) if not e.ghost]
    if not friends or not enemies:
        return None
    e = min(enemies, key=lambda u: ((u.cell[0] - me.cell[0]) ** 2 + (u.cell[1] - me.cell[1]) ** 2, u.name))
    theta = bearing_from(view.grid, e.cell).take(flat)  # np.arctan2(yy - e.y, xx - e.x), kept with the map
    phis = [np.arctan2(f.cell[1] - e.cell[1], f.cell[0] - e.cell[0]) for f in friends if f.cell != e.cell]
    best = np.zeros(len(flat))
    if phis:  # every friend's angle at once; the best of them (a maximum: the same in any order)
        best = np.maximum(best, ((1 - np.cos(theta[None] - np.array(phis)[:, None])) / 2).max(axis=0))
    return best


def crossfire_at(view: BattleView, me: UnitView, cell: tuple[int, int]) -> float | None:
    """`crossfire` at one cell (x, y), as a float (the same numbers: numpy's arctan2 and cosine on each friend's
    angle, the best of them); None where `crossfire` is None."""
    friends = view.friends(me)
    enemies = [e for e in view.enemies(me) if not e.ghost]
    if not friends or not enemies:
        return None
    e = min(enemies, key=lambda u: ((u.cell[0] - me.cell[0]) ** 2 + (u.cell[1] - me.cell[1]) ** 2, u.name))
    theta = bearing_from(view.grid, e.cell)[cell[1], cell[0]]
    phis = [np.arctan2(f.cell[1] - e.cell[1], f.cell[0] - e.cell[0]) for f in friends if f.cell != e.cell]
    if not phis:
        return 0.0
    return max(0.0, float(max((1 - np.cos(theta - phi)) / 2 for phi in phis)))


def regroup(view: BattleView, me: UnitView, shape: tuple[int, int]) -> Field | None:
    """Raw input per cell: nearness to the friends' centre (1 on it, 0 from 30 m); None with no friend."""
    friends = view.friends(me)
    if not friends:
        return None
    cx = sum(f.cell[0] for f in friends) / len(friends)
    cy = sum(f.cell[1] for f in friends) / len(friends)
    yy, xx = np.indices(shape)
    return np.clip(1 - np.hypot(xx - cx, yy - cy) * view.grid.cell_m / 30.0, 0.0, 1.0)


def moving_bound(view: BattleView, me: UnitView) -> bool:
    """Bounding overwatch: the side's units in action, by name, alternate between two bounds; the bound of
    the round's parity moves, the other overwatches (a lone unit always moves)."""
    side = sorted(u.name for u in view.units if u.side == me.side and not u.out_of_action)
    if len(side) < 2:
        return True
    return side.index(me.name) % 2 == view.round % 2


def overwatching(view: BattleView, me: UnitView, intent: Intent) -> bool:
    """The unit overwatches this round: its side bounds (advancing, searching or engaging, not pressing or
    falling back) and it is in the bound that waits."""
    return intent.mode in BOUNDING and not moving_bound(view, me)


def hurt(me: UnitView) -> float:
    """How wounded the unit is, in [0, 1]: 0.7 with one wound, 1 from two."""
    return min(1.0, 0.4 + 0.3 * me.wounds) if me.wounds > 0 else 0.0


def stance(me: UnitView, intent: Intent, maps: TacticalMaps, wounded_retreat: bool = True) -> str:
    """How the unit's moves treat the enemy: "retreat" (away from it) when an enemy sees it where it stands and
    its side falls back, or it carries two wounds or more in an even fight (when its side presses, advances
    or searches, it goes with it); "hold" (neither closer nor away) when its side falls back out of sight;
    else "close". A retreat stops once out of sight, not in a far corner. Without `wounded_retreat` (a
    personality without the squad's considerations, e.g. easy) a wounded unit stays with its side."""
    exposed = bool(maps.seen_by[me.cell[1], me.cell[0]] > 0)
    if exposed and (intent.mode == "fall back" or (wounded_retreat and me.wounds >= 2 and intent.mode == "engage")):
        return "retreat"
    return "hold" if intent.mode == "fall back" else "close"


def dodge_need(view: BattleView, me: UnitView, maps: TacticalMaps, best_harm: float) -> float:
    """How much the unit needs DODGE (R-5.4: attackers' TN + its Dodge level; no attacks, walks only), in
    [0, 1]: wounded, seen by an enemy where it stands, trained to dodge, and with no better use of the round
    than its best shot's harm says."""
    dodge = me.skill("dodge")
    if me.wounds <= 0 or dodge <= 0:
        return 0.0
    exposed = float(maps.seen_by[me.cell[1], me.cell[0]] > 0)
    skill = min(1.0, 0.6 + 0.2 * dodge)
    return hurt(me) * exposed * skill * (1 - 0.5 * min(1.0, best_harm))
