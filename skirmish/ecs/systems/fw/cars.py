"""Future*World grav cars in the engine (R-9.12; docs/RULES-NOTES.md "Future*World: grav cars in the engine").

A car is an entity with a Position (it fills its cell) and an FwCar, but no Identity: it is no combatant of its
own, its riders are. Riders stand at the car's cell; the first drives. The driver's `drive` declares the split of
the car's generator (screen, weapons, EW; the rest moves it, `gravcar.move_m`) and flies it in the movement
segment in a straight line, 10 m up, carrying its riders (fw.car_moves); `mount` and `dismount` take effect at
the rider's DEX in a round the car does not move. Sight and cover to or from a rider are worked out in the vertical
(`gravcar.sight`) over the map's heights (`options.heights`, content.fw.default_height).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from skirmish.content.fw import default_height
from skirmish.ecs.components import Identity, Position, Status
from skirmish.ecs.fw_components import FwCar, FwCars
from skirmish.ecs.fw_view import CarView, MountView
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.fw import gravcar as gc
from skirmish.rules.fw.equipment import GravCar
from skirmish.rules.fw.mounts import fired_left

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase, FwCtx

__all__ = ["car_of", "cars", "spawn_cars", "vertical_sight"]


def spawn_cars(ctx: FwCtx, spec: Any) -> list[int]:
    """Create every side's cars from the checked scenario (content.fw.CarSpec), riders aboard at its cell."""
    out = []
    for side in spec.sides:
        for car in getattr(side, "cars", []):
            eid = ctx.world.spawn(Position(*car.at), FwCar(
                name=car.name, car_type=car.type, side=side.name, riders=list(car.riders), default_screen=car.screen,
                default_points=car.screen_points, screen=car.screen, screen_points=car.screen_points,
                loads=dict(getattr(car, "mounts", {}))))
            out.append(eid)
    return out


def cars(sys: FwBase) -> list[int]:
    """Every car's entity, in scenario order."""
    return sys.ctx.cars


def car(sys: FwBase, ceid: int) -> FwCar:
    """A car's component, to read."""
    return sys.w.peek(ceid, FwCar)


def table(sys: FwBase, ceid: int) -> GravCar:
    """A car's row of the grav_cars table."""
    return sys.ctx.tables.grav_cars[car(sys, ceid).car_type]


def named(sys: FwBase, name: str | None) -> int | None:
    """The car of that name, or None."""
    return next((c for c in sys.ctx.cars if car(sys, c).name == name), None)


def car_of(sys: FwBase, eid: int) -> int | None:
    """The car a figure rides, or None."""
    if not sys.ctx.cars:
        return None
    name = sys.w.peek(eid, Identity).name
    return next((c for c in sys.ctx.cars if name in car(sys, c).riders), None)


def driver(sys: FwBase, ceid: int) -> str | None:
    """Who is at the car's controls: its first rider on its feet (a fallen or unconscious driver is carried, and
    the next rider takes over), or None."""
    return next((r for r in car(sys, ceid).riders if sys.can_act(sys.w.entity(r))), None)


def is_driver(sys: FwBase, eid: int) -> bool:
    """Whether the figure is at a car's controls."""
    c = car_of(sys, eid)
    return c is not None and driver(sys, c) == sys.name(eid)


def split(c: FwCar) -> gc.CarSplit:
    """The car's split this round as the pure rules read it."""
    return gc.CarSplit(None if c.screen == "none" else c.screen, c.screen_points, c.weapons, c.ew)


def allowance(sys: FwBase, ceid: int) -> int:
    """Metres the car may fly this round: none unless its driver drives and nobody boards or leaves; else its
    generator's rest at the table's metres a point, halved at full load (gravcar.move_m)."""
    c = car(sys, ceid)
    if not c.drives or c.loading or driver(sys, ceid) is None:
        return 0
    return gc.move_m(table(sys, ceid), split(c), len(c.riders))


# ---------------------------------------------------------------------------------------------- the vertical
def heights(sys: FwBase) -> npt.NDArray[np.int64]:
    """Each cell's terrain height in metres (the scenario's `options.heights` or the default), above its ground."""
    return tops(sys.ctx.grid, tuple(sorted(sys.ctx.height_names.items())))


def grounds(sys: FwBase) -> npt.NDArray[np.int64]:
    """Each cell's ground in metres (`options.ground`; 0 everywhere on a flat map)."""
    return ground_of(sys.ctx.grid, sys.ctx.ground_rows)


@lru_cache(maxsize=8)
def tops(grid: geo.GridMap, given: tuple[tuple[str, int], ...]) -> npt.NDArray[np.int64]:
    """Each cell's terrain height in metres on `grid` with the heights `given` by terrain name
    (content.fw.default_height)."""
    by_tile = np.array([default_height(grid, t.name, dict(given)) for t in grid.tiles], dtype=np.int64)
    out: npt.NDArray[np.int64] = by_tile[grid.layout]
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def ground_of(grid: geo.GridMap, rows: tuple[str, ...]) -> npt.NDArray[np.int64]:
    """The ground layer as an array [y, x] of metres (zeros without one)."""
    out = np.zeros((grid.height, grid.width), dtype=np.int64)
    for y, row in enumerate(rows[:grid.height]):
        out[y, :len(row)] = [int(c) for c in row[:grid.width]]
    out.setflags(write=False)
    return out


def elevation(sys: FwBase, eid: int) -> tuple[Fraction, Fraction]:
    """(base, height) of a figure in metres above the datum (`body` on its cell's ground)."""
    up, prone = car_of(sys, eid) is not None, sys.w.peek(eid, Status).prone
    base, height = body(up, prone)
    x, y = sys.w.cell(eid)
    return base + int(grounds(sys)[y, x]), height


def body(aboard: bool, prone: bool) -> tuple[Fraction, Fraction]:
    """(base, height) in metres over its ground: a rider sits on its car's floor (10 m up, R-9.12) and shows a
    seated figure's eye height; a figure on the ground stands 2 m (prone 1/2 m)."""
    if aboard:
        return Fraction(gc.car_floor(0)), Fraction(gc.SEATED_EYE_M)
    return Fraction(0), Fraction(gc.PRONE_HEIGHT_M if prone else gc.FIGURE_HEIGHT_M)


def vertical_sight(sys: FwBase, a: int, b: int) -> geo.Sight:
    """What `a` sees of `b` when either rides a car (R-9.12, R-9.4): `sight_up`."""
    return sight_up(sys.ctx.grid, heights(sys) + grounds(sys), sys.w.cell(a), elevation(sys, a), sys.w.cell(b),
                    elevation(sys, b))


def sight_up(grid: geo.GridMap, top: npt.NDArray[np.int64], frm: geo.Cell, frm_body: tuple[Fraction, Fraction],
             to: geo.Cell, to_body: tuple[Fraction, Fraction]) -> geo.Sight:
    """Sight in the vertical: the sightline from the eye (top of `frm_body`) to each point of the target passes
    over the cells between them (`top`: ground and terrain, metres above the datum) or not (`gravcar.sight`):
    "blocked" is out of sight, "covered" (a quarter or more hidden) partly covered (R-9.4's x1/2)."""
    eye = frm_body[0] + frm_body[1]
    verdict = gc.sight(eye, to_body[0], to_body[1], blockers(grid, top, frm, to))
    if verdict == "blocked":
        return geo.Sight(visible=False)
    return geo.Sight(visible=True, cover="low" if verdict == "covered" else "none")


def view_sight(view: BattleView, a: UnitView, to: geo.Cell, b: UnitView | None = None,
               a_at: geo.Cell | None = None) -> geo.Sight:
    """What figure `a` (standing at `a_at`, else where it is) would see of figure `b` at `to` (or of a standing
    figure there), read from a side's view as the engine works it out: in the vertical when either rides a car
    (the view's cars, CarView), else the map's flat sight. For the AIs (through skirmish.rulesets.fw)."""
    frm = a_at if a_at is not None else a.cell
    up_a = getattr(a.ext, "aboard", None) is not None and a_at is None
    up_b = b is not None and getattr(b.ext, "aboard", None) is not None
    if not (up_a or up_b):
        return geo.sight(view.grid, frm, to)
    cars_shown = next((u.ext.cars for u in view.units if getattr(u.ext, "cars", ())), ())  # (own figures carry them)
    shown = cars_shown[0] if cars_shown else None
    ground = ground_of(view.grid, shown.ground if shown else ())
    top = tops(view.grid, shown.heights if shown else ()) + ground
    a_base, a_height = body(up_a, a.prone)
    b_base, b_height = body(up_b, b.prone if b is not None else False)
    return sight_up(view.grid, top, frm, (a_base + int(ground[frm[1], frm[0]]), a_height), to,
                    (b_base + int(ground[to[1], to[0]]), b_height))


def blockers(grid: geo.GridMap, top: npt.NDArray[np.int64], frm: geo.Cell, to: geo.Cell) -> list[tuple[float, int]]:
    """(t, top) for the cells strictly between two cells' centres that stand above the ground: the sightline
    enters and leaves each at fractions t of the way; both are listed (the worse one decides)."""
    p, q = geo.centre(frm), geo.centre(to)
    out: list[tuple[float, int]] = []
    for c in geo.cells_on_segment(grid, p, q):
        if c in (frm, to) or not top[c[1], c[0]]:
            continue
        for t in _crossing(p, q, c):
            if 0 < t < 1:
                out.append((t, int(top[c[1], c[0]])))
    return out


def _crossing(p: tuple[float, float], q: tuple[float, float], c: geo.Cell) -> tuple[float, float]:
    """The fractions of the way p -> q at which the segment enters and leaves cell c (slab method; the cell
    centres are halves, so these floats are exact enough and the same on every machine)."""
    lo, hi = 0.0, 1.0
    for axis in (0, 1):
        d = q[axis] - p[axis]
        if d == 0:
            continue
        t1, t2 = sorted(((c[axis] - p[axis]) / d, (c[axis] + 1 - p[axis]) / d))
        lo, hi = max(lo, t1), min(hi, t2)
    return lo, hi


def extra_sightings(sys: FwBase) -> dict[str, set[int]]:
    """Per side, the enemies in action one of its figures in action sees in the vertical (either rides a car):
    what the map's flat sight misses (a car sees over walls lower than its floor, and is seen over them)."""
    out: dict[str, set[int]] = {}
    if not any(car(sys, c).riders for c in sys.ctx.cars):
        return out
    figs = [e for e in sys.figures() if sys.in_action(e)]
    key = tuple((e, sys.w.cell(e), sys.w.peek(e, Status).prone, car_of(sys, e)) for e in figs)
    memo = sys.ctx.vertical_memo
    if memo is not None and memo[0] == key:  # nobody moved, fell, rose, boarded or left since: the same looks
        return {side: set(eids) for side, eids in memo[1].items()}
    for a in figs:
        for b in figs:
            if sys.side(a) == sys.side(b) or (car_of(sys, a) is None and car_of(sys, b) is None):
                continue
            if vertical_sight(sys, a, b).visible:
                out.setdefault(sys.side(a), set()).add(b)
    sys.ctx.vertical_memo = (key, {side: frozenset(eids) for side, eids in out.items()})
    return out


# ---------------------------------------------------------------------------------------------- views
def car_view(sys: FwBase, ceid: int, side: str) -> CarView:
    """A car as figures of `side` see it: its own side's in full; another side's without its split, as it is when
    a figure of `side` sees its hull (`car_seen`), else as it was when last seen (where it stood, who rode it:
    every miniature is on the table at the start; review7c)."""
    c, t = car(sys, ceid), table(sys, ceid)
    v = CarView(name=c.name, car_type=c.car_type, side=c.side, cell=sys.w.cell(ceid), riders=tuple(c.riders),
                driver=driver(sys, ceid),
                seats=t.seats, generator=t.generator, armour=gc.car_armour(t)["P"], screen=c.screen,
                screen_points=c.screen_points, drives=c.drives, loading=c.loading, moved_m=c.moved_m,
                heights=tuple(sorted(sys.ctx.height_names.items())), ground=sys.ctx.ground_rows,
                mounts=tuple(MountView(m.id, m.name, m.weapon or c.loads.get(m.id), m.takes, m.crew,
                                       fired_left(m, c.fired.get(m.id, 0)), c.gunners.get(m.id)) for m in t.mounts),
                weapons=c.weapons, drawn=c.drawn)
    if c.side == side:
        return v
    last = sys.ctx.cars_last.get((side, ceid))
    if last is not None and not car_seen(sys, ceid, side):
        return last
    cut = replace(v, screen="none", screen_points=0, drives=False, loading=False, moved_m=0.0, full=False,
                  mounts=tuple(replace(m, gunner=None) for m in v.mounts), weapons=0, drawn=0)
    sys.ctx.cars_last[(side, ceid)] = cut
    return cut


def car_seen(sys: FwBase, ceid: int, side: str) -> bool:
    """One of `side`'s figures in action sees the car's hull, 10 m up (R-9.12), in the vertical (`sight_up`)."""
    cell = sys.w.cell(ceid)
    figs = tuple((sys.w.cell(e), elevation(sys, e)) for e in sys.figures() if sys.side(e) == side and sys.in_action(e))
    key = (side, ceid, cell, figs)
    looks = sys.ctx.car_looks
    seen = looks.get(key)
    if seen is None:
        top = heights(sys) + grounds(sys)
        hull = (Fraction(gc.car_floor(0)) + int(grounds(sys)[cell[1], cell[0]]), Fraction(gc.SEATED_EYE_M))
        seen = any(sight_up(sys.ctx.grid, top, at, eye, cell, hull).visible for at, eye in figs)
        if len(looks) > 4096:
            looks.clear()
        looks[key] = seen
    return seen


def known_cell(sys: FwBase, ceid: int, side: str) -> geo.Cell:
    """Where `side` knows the car is (as `car_view` shows it): its own side's, and one a figure of `side` sees now,
    where it stands; another side's unseen one where it was last seen (it may have flown off unseen)."""
    last = sys.ctx.cars_last.get((side, ceid))
    here = sys.w.cell(ceid)
    if last is None or last.cell == here or car(sys, ceid).side == side or car_seen(sys, ceid, side):
        return here
    cell: geo.Cell = last.cell
    return cell


def place(sys: FwBase, ceid: int, side: str) -> None:
    """`side` has found the car where it stands (a figure ran into it, a car set down short of it, a rider stepped
    down against it): its view of the car is the car as it is now, and stays so until it is lost again."""
    if known_cell(sys, ceid, side) != sys.w.cell(ceid):
        del sys.ctx.cars_last[(side, ceid)]
        refresh(sys)


def refresh(sys: FwBase) -> None:
    """Show every figure the cars as its side sees them now (FwCars: the views are patched from it)."""
    if not sys.ctx.cars:
        return
    by_side = {s: tuple(car_view(sys, c, s) for c in sys.ctx.cars) for s in sys.ctx.side_names}
    for eid in sys.figures():
        shown = by_side[sys.side(eid)]
        if sys.w.peek(eid, FwCars).cars != shown:
            sys.w.get(eid, FwCars).cars = shown


def reset(sys: FwBase) -> None:
    """Bookkeeping (R-9.8's energy reset, for cars too): every car's split back to its usual screen, still."""
    for ceid in sys.ctx.cars:
        c = sys.w.get(ceid, FwCar)
        c.screen, c.screen_points, c.weapons, c.ew = c.default_screen, c.default_points, 0, 0
        c.drives = c.loading = False
        c.moved_m = 0.0
        c.gunners, c.drawn = {}, 0  # (the mounts' gunners and draws are the round's; `fired` stays)
    refresh(sys)


def distance_cells(a: geo.Cell, b: geo.Cell) -> int:
    """Cells apart, diagonals counting one (a rider boards from a neighbouring cell: 2 m at 2 m cells)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def reach_cells(sys: FwBase) -> int:
    """How many cells away a rider may board from (gravcar.MOUNT_REACH_M)."""
    return max(1, math.floor(gc.MOUNT_REACH_M / sys.ctx.grid.cell_m))
