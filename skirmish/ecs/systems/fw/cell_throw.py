"""A grenade thrown at a cell rather than at a figure (R-9.10): `intent Bo throw at=12,4` (kept as the throw's
target `12,4`, rules/fw/actions.cell_target). Declared freely like a throw at a figure (the thrower may move in
the movement segment) unless the cell is off the map or farther than the grenade's range and the figure's walk;
at its DEX the cell must be within the grenade's range (15 m) and in the thrower's sight (a figure standing
there would be seen; from a grav car in the vertical), else the figure is idle. The chance is the thrower's
(darkness or blindness, a moving thrower: R-9.4's conditions of a throw at a place); the scatter is from the
cell's centre; the blast is `arms.throw_grenade`'s."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from skirmish.ecs.systems.fw import cars as gcars
from skirmish.ecs.systems.fw import resolve as rs  # (a cycle: resolve dispatches here; read at call time only)
from skirmish.rules import geometry as geo
from skirmish.rules.fw import checks
from skirmish.rules.fw import missiles as msl
from skirmish.rules.fw import odds as fw_odds
from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.odds import Preview

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase

__all__ = ["cell_blocked", "cell_centre", "cell_chance", "cell_preview", "cell_refusal", "cell_sight"]

THROW_CONDITIONS = ("darkness", "moving_firer")  # R-9.4's that touch a throw at a place (arms.THROW_CONDITIONS)


def cell_centre(sys: FwBase, cell: geo.Cell) -> tuple[float, float]:
    """A cell's centre in metres (y down the board)."""
    m = sys.ctx.grid.cell_m
    return (cell[0] + 0.5) * m, (cell[1] + 0.5) * m


def range_m(sys: FwBase, wid: str) -> float:
    """How far the grenade is thrown (its table's range, else R-9.10's 15 m)."""
    return sys.weapon(wid).range_m or msl.GRENADE_RANGE_M


def cell_refusal(sys: FwBase, eid: int, cell: geo.Cell, wid: str) -> str | None:
    """Why a throw at `cell` may not be declared (R-9.10), or None: the cell is on the map and within the
    grenade's range of somewhere the figure may stand after its walk (an engaged figure does not move)."""
    grid = sys.ctx.grid
    if not grid.inside(cell):
        return f"R-9.10: cell {cell[0]},{cell[1]} is off the map"
    metres = geo.distance_m(sys.w.cell(eid), cell, grid.cell_m)
    walk = 0.0 if sys.engaged(eid) or sys.aboard(eid) else float(sys.kit(eid).move_m)
    reach = range_m(sys, wid)
    if metres > reach + walk + 1e-9:
        return (f"R-9.10: cell {cell[0]},{cell[1]} is {metres:.0f} m away, beyond the {sys.weapon(wid).name}'s "
                f"{reach:g} m" + (f" and a {walk:g} m walk" if walk else ""))
    return None


def cell_sight(sys: FwBase, eid: int, cell: geo.Cell) -> geo.Sight:
    """What the figure sees of `cell` (of a figure standing there): the map's flat sight, or from a grav car's
    floor in the vertical (R-9.12)."""
    if not sys.aboard(eid):
        return geo.sight(sys.ctx.grid, sys.w.cell(eid), cell)
    ground = gcars.grounds(sys)
    return gcars.sight_up(sys.ctx.grid, gcars.heights(sys) + ground, sys.w.cell(eid), gcars.elevation(sys, eid), cell,
                          (Fraction(int(ground[cell[1], cell[0]])), gcars.body(False, False)[1]))


def cell_blocked(sys: FwBase, eid: int, cell: geo.Cell, wid: str) -> str | None:
    """Why the throw at `cell` cannot be made at its DEX (R-9.10), or None: beyond range or out of sight."""
    metres = geo.distance_m(sys.w.cell(eid), cell, sys.ctx.grid.cell_m)
    reach = range_m(sys, wid)
    if metres > reach + 1e-9:
        return f"cell {cell[0]},{cell[1]} is {metres:.0f} m away, beyond the {sys.weapon(wid).name}'s {reach:g} m"
    if not cell_sight(sys, eid, cell).visible:
        return f"cell {cell[0]},{cell[1]} is not in sight"
    return None


def cell_chance(sys: FwBase, eid: int, wid: str) -> checks.Chance:
    """A throw's chance at a place (R-9.10: the table's 45% or the skill) under the thrower's own R-9.4
    conditions: darkness (or blindness) and moving."""
    out = set()
    if sys.ctx.darkness or sys.body(eid).blind_until >= sys.ctx.round:
        out.add("darkness")
    b = sys.body(eid)
    if b.moved_m > 0 or b.jumped:
        out.add("moving_firer")
    return checks.attack_chance(rs.base_chance(sys, eid, wid), out & set(THROW_CONDITIONS))


def cell_preview(sys: FwBase, eid: int, cell: geo.Cell, wid: str, hp: Any = 0) -> Preview:
    """A grenade's preview at a cell (R-9.10): the chance, and the blast on a bare figure standing on the cell
    (caught on a hit or a scatter within the radius: `missiles.p_caught`); who else it may catch is worked out
    from the same chance where each stands (rulesets.fw_preview.catches)."""
    w = sys.weapon(wid)
    ch = cell_chance(sys, eid, wid)
    here = cell_centre(sys, cell)
    p = msl.p_caught(ch.value, arms_centre(sys, eid), here, here, w.blast_radius_m)
    steps = tuple(s.reason for s in ch.steps)
    if w.damage is None:  # a flash
        o = fw_odds.Odds(p, Fraction(0), {0: 1 - p, 1: p}, {0: Fraction(1)})
        return Preview(ch.value, steps, Attack.of(ch.value, "1D6", "P", always_miss=False), o, int(hp),
                       f"hit {ch.value}.0%, a figure on {cell[0]},{cell[1]} caught {o.percent(p)}")
    value = msl.blast_attack(w, armour={}, screen_type=None, screen=0)
    o = fw_odds.blast_odds(p, value)
    return Preview(ch.value, steps, value, o, int(hp),
                   f"hit {ch.value}.0%, a figure on {cell[0]},{cell[1]} caught {o.percent(p)}, mean "
                   f"{fw_odds.tenths(o.mean)} before armour and screen")


def arms_centre(sys: FwBase, eid: int) -> tuple[float, float]:
    """The thrower's place in metres."""
    return cell_centre(sys, sys.w.cell(eid))
