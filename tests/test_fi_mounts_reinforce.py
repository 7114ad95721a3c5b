"""A trigger's reinforcement `mounted: true` arrives on its mount (R-6.1 mounts; issue 14, mount10b; docs/FILES.md
`mounts`, docs/RULES-NOTES.md "Mounts"): a mount of `mounts:` whose `at` is the cell a mounted reinforcement asks
for is that reinforcement's; it is not on the map until its rider comes, and comes under it wherever the zone
places it. Checked on load: two mounted reinforcements asking for one mount's cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.content.errors import ContentError
from skirmish.ecs.components import Position, Status
from tests.test_fi_mounts import T, battle, scenario, unit

ZONE = "zones: {north: {rect: [10, 0, 12, 0]}}\n"


def _trigger(*units: str) -> str:
    return ("triggers:\n  - {when: {round: 2}, then: [{reinforce: {side: Red, zone: north, units: [" + ", ".join(units)
            + "]}}]}\n" + ZONE)


def _rider(name: str, x: int, y: int, mounted: bool = True) -> str:
    return f"{{name: {name}, at: [{x}, {y}], traits: {T}{', mounted: true' if mounted else ''}}}"


def _to_round(b, n: int) -> None:  # type: ignore[no-untyped-def]
    while b.pending is not None and b.sys.ctx.round < n:
        b.step()


@pytest.mark.parametrize(("blocker", "lands"), [(None, (11, 0)), ((11, 0), (10, 0))])
def test_a_mounted_reinforcement_arrives_on_its_mount(tmp_path: Path, blocker: tuple[int, int] | None,
                                                      lands: tuple[int, int]) -> None:
    blue = [unit("Me", 1, 1)] + ([unit("Pal", 15, 3)] if blocker else [])
    b = battle(tmp_path, "[{name: H2, kind: horse, at: [11, 0]}]\n" + _trigger(_rider("R9", 11, 0)), blue,
               [unit("Foe", 18, 4)])
    if blocker:  # Pal has come to stand on the cell R9 asks for
        pos = b.world.get(b.world.entity("Pal"), Position)
        pos.x, pos.y = blocker
    assert "H2" not in b.world.mounts and "H2" not in [m.name for m in b.view().mounts]  # not come yet
    assert (11, 0) not in b.world.occupied() - ({blocker} if blocker else set())
    _to_round(b, 2)
    r9 = b.world.entity("R9")
    assert b.world.cell(r9) == lands and b.world.peek(r9, Status).mounted
    h2 = b.world.mounts["H2"]
    assert h2.rider == "R9" and [m.cell for m in b.view().mounts if m.name == "H2"] == [lands]
    assert b.sys.move_allowance(r9)[0] == 16.0  # at the horse's walk
    assert lands not in {m.cell for m in b.world.mounts.values() if m.rider is None}


def test_an_unmounted_reinforcement_leaves_a_mount_at_its_cell_on_the_map(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: H2, kind: horse, at: [11, 0]}]\n" + _trigger(_rider("R9", 11, 0, mounted=False)),
               [unit("Me", 1, 1)], [unit("Foe", 18, 4)])
    assert b.world.mounts["H2"].cell == (11, 0)  # a mount standing from the start: R9 comes beside it
    _to_round(b, 2)
    assert b.world.cell(b.world.entity("R9")) != (11, 0) and b.world.mounts["H2"].rider is None


def test_two_mounted_reinforcements_may_not_ask_for_one_mount(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as exc:
        scenario(tmp_path, "[{name: H2, kind: horse, at: [11, 0]}]\n" + _trigger(_rider("R8", 11, 0), _rider("R9", 11, 0)),
                 [unit("Me", 1, 1)], [unit("Foe", 18, 4)])
    assert "mounts[0].at: cell 11,0 is asked for by two mounted reinforcements, R8 and R9" in str(exc.value)
