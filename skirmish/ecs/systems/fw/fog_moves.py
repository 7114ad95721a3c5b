"""Future*World moves under fog (docs/RULES-NOTES.md "Moving into an unseen enemy"): the cells a move may end in
and its route are worked out on the cells the mover's side knows are taken, and a move that runs into an enemy
figure the side did not know of stops at the cell before it, where the enemy is found (R-9.2, R-9.11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.ecs.components import Status
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.rules import geometry as geo

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase


def known_occupied(sys: FwBase, eid: int) -> set[geo.Cell]:
    """The cells `eid`'s side knows are taken: every entity's but those of enemy figures on the ground it neither
    sees nor knows the place of (`FwBase.knows`), with an enemy car that went off unseen where the side last saw it,
    not where it is (`cars.known_cell`: the board draws it there too)."""
    occupied = sys.w.occupied(except_eid=eid)
    if sys.knowledge is None:
        return occupied
    side = sys.side(eid)
    for e in sys.figures():
        if e != eid and sys.side(e) != side and not sys.aboard(e) and not sys.knows(eid, e):
            occupied.discard(sys.w.cell(e))
    mine = sys.w.cell(eid)
    for ceid in sys.ctx.cars:
        where, there = gcars.known_cell(sys, ceid, side), sys.w.cell(ceid)
        if where != there:  # (its riders sit in it, at `there`)
            occupied.discard(there)
            if where != mine:
                occupied.add(where)
    return occupied


def bump(sys: FwBase, eid: int, path: list[geo.Cell]) -> tuple[list[geo.Cell], tuple[geo.Cell, str] | None]:
    """The part of a checked route the figure covers: up to the cell before the first one another figure stands in
    (one its side did not know of), with that cell and figure; the whole route and None when nothing is in the way.
    The figure found is placed for the mover's side; a car found (an enemy car that went there unseen) stops it the
    same way, and is placed."""
    taken = {sys.w.cell(e): e for e in sys.figures() if e != eid}
    for i in range(1, len(path)):
        car = _car_found(sys, eid, path[i])
        if car is not None:
            return path[:i], (path[i], car)
        e = taken.get(path[i])
        if e is not None:
            st = sys.w.get(e, Status)
            st.known_to = st.known_to | {sys.side(eid)}
            return path[:i], (path[i], sys.name(e))
    return path, None


def found_at(sys: FwBase, eid: int, cell: geo.Cell) -> str | None:
    """The name of another side's figure standing at `cell` (one `eid`'s side did not know of, since the cell was
    offered as free), or of an enemy car that went there unseen, now placed for `eid`'s side; None when the cell is
    empty."""
    car = _car_found(sys, eid, cell)
    if car is not None:
        return car
    for e in sys.figures():
        if e != eid and sys.w.cell(e) == cell and sys.side(e) != sys.side(eid):
            st = sys.w.get(e, Status)
            st.known_to = st.known_to | {sys.side(eid)}
            return sys.name(e)
    return None


def landing(sys: FwBase, eid: int, ceid: int, to: geo.Cell) -> tuple[geo.Cell, tuple[geo.Cell, str] | None]:
    """Where a car flown to `to` (a cell its driver's side knows free, R-9.12) sets down: there, and None; or, when
    an enemy figure the side did not know of stands there, the last cell back along its straight line where a car
    may set down (the car's own cell: it stays), with that cell and figure, who is now placed for the side. An
    unseen enemy in a cell passed over on the way back is placed too (the car came down over it)."""
    here = sys.w.cell(ceid)
    taken = sys.w.occupied(except_eid=ceid) - {here}
    if to not in taken:
        return to, None
    who = found_at(sys, eid, to)
    if who is None:  # (no figure nor unseen car: every other entity's cell is known to be taken, and was refused)
        raise AssertionError(f"a car flown to {to} found it taken by no figure")
    grid = sys.ctx.grid
    line = geo.cells_on_segment(grid, geo.centre(here), geo.centre(to))
    stop = here
    for cell in reversed(line[:line.index(to)] if to in line else line):
        if cell == here or (grid.passable(cell) and cell not in taken):
            stop = cell
            break
        found_at(sys, eid, cell)
    return stop, (to, who)


def _car_found(sys: FwBase, eid: int, cell: geo.Cell) -> str | None:
    """The name of a car standing at `cell` that `eid`'s side did not know was there (it went there unseen), now
    placed for the side (`cars.place`); None when no such car stands there (a car the side knows of is refused
    before any move is made)."""
    side = sys.side(eid)
    for ceid in sys.ctx.cars:
        if sys.w.cell(ceid) == cell and gcars.known_cell(sys, ceid, side) != cell:
            gcars.place(sys, ceid, side)
            return gcars.car(sys, ceid).name
    return None
