"""Future*World moves under fog (docs/RULES-NOTES.md "Moving into an unseen enemy"): the cells a move may end in
and its route are worked out on the cells the mover's side knows are taken, and a move that runs into an enemy
figure the side did not know of stops at the cell before it, where the enemy is found (R-9.2, R-9.11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.ecs.components import Status
from skirmish.rules import geometry as geo

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase


def known_occupied(sys: FwBase, eid: int) -> set[geo.Cell]:
    """The cells `eid`'s side knows are taken: every entity's but those of enemy figures on the ground it neither
    sees nor knows the place of (`FwBase.knows`)."""
    occupied = sys.w.occupied(except_eid=eid)
    if sys.knowledge is None:
        return occupied
    side = sys.side(eid)
    for e in sys.figures():
        if e != eid and sys.side(e) != side and not sys.aboard(e) and not sys.knows(eid, e):
            occupied.discard(sys.w.cell(e))
    return occupied


def bump(sys: FwBase, eid: int, path: list[geo.Cell]) -> tuple[list[geo.Cell], tuple[geo.Cell, str] | None]:
    """The part of a checked route the figure covers: up to the cell before the first one another figure stands in
    (one its side did not know of), with that cell and figure; the whole route and None when nothing is in the way.
    The figure found is placed for the mover's side."""
    taken = {sys.w.cell(e): e for e in sys.figures() if e != eid}
    for i in range(1, len(path)):
        e = taken.get(path[i])
        if e is not None:
            st = sys.w.get(e, Status)
            st.known_to = st.known_to | {sys.side(eid)}
            return path[:i], (path[i], sys.name(e))
    return path, None
