"""Second reading of mounts (R-6.1; issue 14, revmount10): each test failed before its fix.

- fog: a riderless mount the side does not know of is not left out of its move cells, and a move onto it stops short
  (bumped) instead of being refused "taken"; a side's memory of the mounts it saw does not depend on when its view
  was asked for (it is kept at every answer, as `Knowledge.update` keeps the units');
- the −2 of a rider's fire holds for a launch (R-6.10, a shot's TN) and for a throw (R-6.1's firer modifiers);
- a mount may not take the name of a trigger's reinforcement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skirmish.content.errors import ContentError
from skirmish.rules.actions import Move, Throw, parse_action
from tests.test_fi_mounts import T, battle, events, scenario, unit

WALLED = ["..........#.........", "..........#.........", "..........#.........", "....................",
          "...................."]


# ---------------------------------------------------------------------------------------------- fog
def test_an_unseen_riderless_mount_is_not_left_out_of_the_move_cells(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: B, kind: bike, at: [11, 1]}]", [unit("Me", 9, 1)], [unit("Foe", 18, 4)],
               rows=WALLED)
    assert [m.name for m in b.observe("Blue").mounts] == []  # behind the wall: Blue does not know of it
    legal = b.legal_actions("Me")
    assert (11, 1) in legal.walk | legal.run  # as (11, 2) is: nothing tells the cell apart
    b.submit(Move("Me", (11, 1)))  # accepted as planned; the mover stops short where the mount stands
    bumped = events(b, "bumped")[-1]
    assert bumped.blocked == [11, 1] and bumped.target == "B"  # type: ignore[attr-defined]
    assert b.world.cell(b.world.entity("Me")) != (11, 1)
    assert "B" in [m.name for m in b.observe("Blue").mounts]  # found


def test_a_known_riderless_mount_is_left_out_of_the_move_cells(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: B, kind: bike, at: [12, 3]}]", [unit("Me", 9, 3)], [unit("Foe", 18, 4)],
               rows=WALLED)
    assert [m.name for m in b.observe("Blue").mounts] == ["B"]
    assert (12, 3) not in b.legal_actions("Me").walk | b.legal_actions("Me").run


def test_the_mounts_a_side_remembers_do_not_depend_on_when_its_view_was_asked(tmp_path: Path) -> None:
    rows = ["....#...............", "....#...............", "....#...............", "....#...............",
            "...................."]
    seen = []
    for look_first in (False, True):
        b = battle(tmp_path, "[{name: B, kind: bike, at: [6, 4]}]", [unit("Me", 3, 3)], [unit("Foe", 18, 0)],
                   rows=rows)
        if look_first:
            b.observe("Blue")
        b.submit(Move("Me", (2, 0)))  # out of sight of the bike now
        seen.append([(m.name, m.cell) for m in b.observe("Blue").mounts])
    assert seen[0] == seen[1] == [("B", (6, 4))]


# ---------------------------------------------------------------------------------------------- the rider's -2
def test_a_rider_launches_at_minus_two(tmp_path: Path) -> None:
    gunner = ("{name: Me, at: [1, 1], weapons: [grenade_launcher], skills: {'shooting:launcher': 3}, traits: "
              + T + "%s}")
    b = battle(tmp_path, "[{name: H, kind: horse, at: [1, 1]}]", [gunner % ", mounted: true"],
               [unit("Foe", 18, 4)])
    b.submit(parse_action("launch Me 12,1"))
    assert "firer mounted (R-6.1)" in json.dumps(events(b, "launch")[-1].to_json())


def test_a_rider_throws_at_minus_two(tmp_path: Path) -> None:
    thrower = "{name: Me, at: [1, 1], weapons: [frag_grenade], traits: " + T + ", mounted: true}"
    b = battle(tmp_path, "[{name: H, kind: horse, at: [1, 1]}]", [thrower], [unit("Foe", 18, 4)])
    b.submit(Throw("Me", (8, 1), "frag_grenade"))
    assert "firer mounted (R-6.1)" in json.dumps(events(b, "throw")[-1].to_json())


# ---------------------------------------------------------------------------------------------- load checks
def test_a_mount_may_not_take_a_reinforcements_name(tmp_path: Path) -> None:
    trig = ("triggers:\n  - {when: {round: 2}, then: [{reinforce: {side: Red, zone: north, units: "
            "[{name: R9, at: [11, 0], traits: " + T + "}]}}]}\nzones: {north: {rect: [10, 0, 12, 0]}}\n")
    with pytest.raises(ContentError) as exc:
        scenario(tmp_path, "[{name: R9, kind: bike, at: [2, 1]}]\n" + trig, [unit("Me", 1, 1)], [unit("Foe", 18, 4)])
    assert "mounts[0].name: 'R9' names a unit too" in str(exc.value)
