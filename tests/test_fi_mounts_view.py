"""An enemy rider the side sees only round a corner (its position known, or firing) shows with its mount (R-6.1
sight, R-6.6; issue 14, mount10b; docs/RULES-NOTES.md "Mounts"), as a rider seen openly does: the mount under a
rider the side sees is seen with it. Nothing unseen leaks: a rider gone from sight leaves its mount where it was
last seen, riderless, and neither shows where they went."""

from __future__ import annotations

from pathlib import Path

from skirmish.ecs.components import Position, Status
from tests.test_fi_mounts import battle, unit

# Me at 11,1 sees 9,2 only round the corner of the wall at 10,2 (a lean), 8,3 not at all.
CORNER = ["....................", "....................", "..........#.........", "..........#.........",
          "..........#........."]


def _battle(tmp_path: Path):  # type: ignore[no-untyped-def]
    return battle(tmp_path, "[{name: H, kind: horse, at: [9, 2]}]", [unit("Me", 11, 1)],
                  [unit("Lancer", 9, 2, ", mounted: true"), unit("Foe", 0, 4)], rows=CORNER)


def _look(b) -> None:  # type: ignore[no-untyped-def]
    b.knowledge.update(b.world, b.sys.ctx.grid, b.sys.ctx.round)


def _seen(b):  # type: ignore[no-untyped-def]
    v = b.observe("Blue")
    lancer = next(u for u in v.units if u.name == "Lancer")
    return (lancer.cell, lancer.ghost), [(m.name, m.cell, m.rider) for m in v.mounts]


def test_an_enemy_rider_known_round_a_corner_shows_with_its_mount(tmp_path: Path) -> None:
    b = _battle(tmp_path)  # every miniature is on the table at the start: its place is known
    assert _seen(b) == (((9, 2), False), [("H", (9, 2), "Lancer")])


def test_an_enemy_rider_seen_only_while_firing_shows_with_its_mount(tmp_path: Path) -> None:
    b = _battle(tmp_path)
    st = b.world.get(b.world.entity("Lancer"), Status)
    st.known_to = frozenset({"Red"})  # Blue lost its place
    _look(b)
    assert _seen(b) == (((9, 2), True), [("H", (9, 2), None)])  # a ghost, and its mount as last seen
    b.world.get(b.world.entity("Lancer"), Status).firing = True  # it fires round the corner: seen
    _look(b)
    assert _seen(b) == (((9, 2), False), [("H", (9, 2), "Lancer")])


def test_a_rider_gone_from_sight_leaks_nothing(tmp_path: Path) -> None:
    b = _battle(tmp_path)
    eid = b.world.entity("Lancer")
    st = b.world.get(eid, Status)
    st.known_to = frozenset({"Red"})
    pos = b.world.get(eid, Position)
    pos.x, pos.y = 8, 3  # it rode off out of sight
    _look(b)
    assert _seen(b) == (((9, 2), True), [("H", (9, 2), None)])
