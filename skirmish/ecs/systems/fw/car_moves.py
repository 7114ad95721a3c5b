"""Future*World grav cars on the move (R-9.2, R-9.12; split from fw.cars): the driver's flight, checked and listed
on what its side knows of the table (fog_moves.known_occupied), flown with every rider, and a rider boarding or
stepping down from its car."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from skirmish.ecs.components import Facing, Position
from skirmish.ecs.fw_components import FwCar
from skirmish.ecs.systems.fw import fog_moves
from skirmish.ecs.systems.fw.cars import allowance, car, car_of, grounds, heights, refresh
from skirmish.rules import geometry as geo
from skirmish.rules.fw import gravcar as gc

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase

__all__ = ["board", "exit_cell", "fly", "fly_cells", "fly_refusal"]


def fly_refusal(sys: FwBase, eid: int, to: geo.Cell, taken: set[geo.Cell] | None = None) -> tuple[str | None, float]:
    """(why the driver may not fly its car to `to` now, or None; metres): the car drives this round, the cell is
    on the map, where a car may set down and free as the driver's side knows (`taken`, else
    fog_moves.known_occupied: an unseen enemy's cell is not refused, a refusal would tell it is there; the car
    sets down short of it, `fog_moves.landing`), within its allowance, and nothing on the straight line is as
    tall as its floor, nor does the ground rise or fall over 45 degrees between neighbouring cells of the line
    (`options.ground`; a flat map never refuses)."""
    ceid = car_of(sys, eid)
    assert ceid is not None
    c, grid = car(sys, ceid), sys.ctx.grid
    if not c.drives:
        return f"R-9.12: {sys.name(eid)} did not declare drive: the {c.name} stays put", 0.0
    if c.loading:
        return f"R-9.12: the {c.name} sets down to load this round and does not move", 0.0
    here = sys.w.cell(ceid)
    if not grid.inside(to):
        return f"cell {to[0]},{to[1]} is off the map", 0.0
    if to == here:
        return "R-9.2: a move goes somewhere (end stays put)", 0.0
    if not grid.passable(to):
        return f"cell {to[0]},{to[1]} is {grid.terrain(to).name}: the {c.name} cannot set down there", 0.0
    if to in (taken if taken is not None else fog_moves.known_occupied(sys, eid)):
        return f"cell {to[0]},{to[1]} is taken", 0.0
    metres = geo.distance_m(here, to, grid.cell_m)
    reach = allowance(sys, ceid)
    if metres > reach + 1e-9:
        return f"R-9.12: {metres:.1f} m is beyond the {c.name}'s {reach} m this round", metres
    top, ground = heights(sys), grounds(sys)
    line = geo.cells_on_segment(grid, geo.centre(here), geo.centre(to))
    for i, cell in enumerate(line):
        if top[cell[1], cell[0]] >= gc.HOVER_M:
            return (f"R-9.12: the {c.name} hovers {gc.HOVER_M} m up and cannot pass {grid.terrain(cell).name} "
                    f"{int(top[cell[1], cell[0]])} m tall at {cell[0]},{cell[1]}"), metres
        if i and sys.ctx.ground_rows:  # no slope over 45 degrees between neighbouring cells (a flat map: none)
            prev = line[i - 1]
            rise = int(ground[cell[1], cell[0]]) - int(ground[prev[1], prev[0]])
            run = geo.distance_m(prev, cell, grid.cell_m)
            if not gc.slope_ok(0, rise, Fraction(run).limit_denominator(1000)):
                return (f"R-9.12: a grav car cannot climb or descend over 45 degrees ({rise:+d} m over {run:g} m "
                        f"from {prev[0]},{prev[1]} to {cell[0]},{cell[1]})"), metres
    return None, metres


def fly_cells(sys: FwBase, eid: int) -> frozenset[geo.Cell]:
    """Every cell the driver may fly its car to now (the same checks as `fly_refusal`)."""
    ceid = car_of(sys, eid)
    if ceid is None or not allowance(sys, ceid):
        return frozenset()
    grid, taken = sys.ctx.grid, fog_moves.known_occupied(sys, eid)
    return frozenset((x, y) for x in range(grid.width) for y in range(grid.height)
                     if fly_refusal(sys, eid, (x, y), taken)[0] is None)


def fly(sys: FwBase, eid: int, to: geo.Cell, metres: float) -> None:
    """Fly the driver's car to `to` with every rider (each moved `metres`: moving, R-9.4), and log it (`to` the
    car's own cell: it stayed, set down nowhere short of an unseen enemy, facing as it did)."""
    ceid = car_of(sys, eid)
    assert ceid is not None
    w = sys.w
    here = w.cell(ceid)
    pos = w.get(ceid, Position)
    pos.x, pos.y = to
    c = w.get(ceid, FwCar)
    c.moved_m += metres
    step = (max(-1, min(1, to[0] - here[0])), max(-1, min(1, to[1] - here[1])))
    for name in c.riders:
        r = w.entity(name)
        p, face = w.get(r, Position), w.get(r, Facing)
        p.x, p.y = to
        if to != here:
            face.dx, face.dy = step
        sys.change_body(r).moved_m += metres
    refresh(sys)
    path = [list(here), list(to)] if to != here else [list(here)]
    sys.event("fw_drive", sys.name(eid), ("R-9.2", "R-9.12"), car=c.name, path=path,
              metres=round(metres, 2), allowance=float(allowance(sys, ceid)), riders=list(c.riders))


def exit_cell(sys: FwBase, ceid: int, taken: set[geo.Cell]) -> geo.Cell | None:
    """Where a rider leaving the car steps: the first cell beside it (orthogonal first) not in `taken` (what the
    rider's side knows is taken, fog_moves.known_occupied), or None."""
    grid = sys.ctx.grid
    x, y = sys.w.cell(ceid)
    for dx, dy in geo.NEIGHBOURS_8:
        c = (x + dx, y + dy)
        if grid.inside(c) and grid.passable(c) and c not in taken and geo.can_step(grid, (x, y), c):
            return c
    return None


def board(sys: FwBase, eid: int, ceid: int, act: str, out: geo.Cell | None = None) -> geo.Cell:
    """A rider boards (`mount`) or leaves (`dismount`, stepping to the free cell `out`) the car now; the cell it
    stands on."""
    w = sys.w
    c = w.get(ceid, FwCar)
    name = sys.name(eid)
    if act == "mount":
        cell = w.cell(ceid)
        c.riders.append(name)
    else:
        assert out is not None
        cell = out
        c.riders.remove(name)
    p = w.get(eid, Position)
    p.x, p.y = cell
    refresh(sys)
    return cell
