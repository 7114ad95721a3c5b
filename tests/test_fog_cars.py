"""Grav cars under fog (docs/RULES-NOTES.md "Moving into an unseen enemy", R-9.2, R-9.12): a flight is listed and
accepted to a cell where an enemy stands unseen by the driver's side (a refusal would tell it is there); the car
sets down short of it on its line and the enemy is found (`fw_bumped`); a rider leaving the car steps to a cell
its side knows free, and one that holds an unseen enemy stops it aboard."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.battle import Battle
from skirmish.ecs.components import Status
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Move
from skirmish.rulesets.fw import FwIntent
from tests.test_fw_battle import battle, of
from tests.test_fw_grav import CREW, SKIFF, at_intent, grav_text, unit

# A 9 m wall: the car (floor 10 m up) flies over it but sees nothing standing close behind it.
WALLED = ["##############", "#,,,,,,,,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#",
          "#,,,,,,#,,,,,#", "##############"]


def _at_flight(tmp_path: Path, foe_at: tuple[int, int]) -> Battle:
    txt = grav_text(CREW, [unit("Cid", foe_at, 15)], SKIFF, rows=WALLED, heights="{wall: 9}")
    b = battle(tmp_path, txt)
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "drive"))
    while b.pending is not None and not (b.pending.kind == "move" and b.pending.unit == "Rhee"):
        b.submit(b.sys.fallback(b.pending))
    assert b.pending is not None
    return b


def test_a_flight_onto_an_unseen_enemy_is_listed_and_sets_down_short_of_it(tmp_path: Path) -> None:
    b = _at_flight(tmp_path, (8, 4))
    assert "Cid" not in b.knowledge.seen["Blue"] and b.observe("Blue").unit("Cid").ghost
    b.world.get(b.world.entity("Cid"), Status).known_to = frozenset({"Red"})  # he moved unseen: Blue lost him
    b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
    assert b.check(Move("Rhee", (8, 4))) is None  # not "taken": Blue cannot know that
    assert (8, 4) in b.legal_actions("Rhee").walk
    b.submit(Move("Rhee", (8, 4)))
    (drive,) = of(b, "fw_drive")
    (bump,) = of(b, "fw_bumped")
    line = geo.cells_on_segment(b.ctx.grid, geo.centre((2, 1)), geo.centre((8, 4)))
    stop = tuple(drive.path[-1])
    assert stop != (8, 4) and stop in line and tuple(bump.at) == stop and bump.blocked == [8, 4]
    assert bump.target == "Cid" and bump.actor == "Rhee" and "R-9.12" in bump.rules
    assert drive.metres == round(geo.distance_m((2, 1), stop, b.ctx.grid.cell_m), 2)
    v = b.view()
    assert v.unit("Rhee").cell == v.unit("Ost").cell == stop and v.unit("Cid").cell == (8, 4)
    assert not b.observe("Blue").unit("Cid").ghost or b.observe("Blue").unit("Cid").cell == (8, 4)
    assert "runs into Cid" in bump.describe()


def test_a_known_enemy_still_refuses_the_landing(tmp_path: Path) -> None:
    b = _at_flight(tmp_path, (8, 4))  # at the start every miniature is on the table: Blue knows where Cid stands
    r = b.check(Move("Rhee", (8, 4)))
    assert r is not None and "is taken" in r.reason
    assert (8, 4) not in b.legal_actions("Rhee").walk


def test_a_rider_stepping_down_onto_an_unseen_enemy_is_stopped_aboard(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rhee leaves the Skiff: the first cell beside it, 3,1, holds Cid, whom Blue does not see (its riders blind,
    say: here the look is cut for the test). The step is tried, Cid is found there, and Rhee stays aboard; before the
    fix the rider stepped round him to the next free cell, which told where he was without his being seen."""
    b = battle(tmp_path, grav_text(CREW, [unit("Cid", (3, 1), 15)], SKIFF, ["intent Rhee dismount"],
                                   ["intent Cid none"]))
    cid = b.world.entity("Cid")
    look = b.knowledge.update

    def blind(world: object, grid: object, round_no: int) -> None:
        look(world, grid, round_no)  # type: ignore[arg-type]
        if not of(b, "fw_bumped"):  # (until he is found)
            b.knowledge.seen["Blue"] = b.knowledge.seen["Blue"] - {"Cid"}
            b.world.get(cid, Status).known_to = b.world.peek(cid, Status).known_to - {"Blue"}

    monkeypatch.setattr(b.knowledge, "update", blind)
    b.run()
    assert not of(b, "fw_board")
    (bump,) = of(b, "fw_bumped")
    assert (bump.actor, bump.at, bump.blocked, bump.target) == ("Rhee", [2, 1], [3, 1], "Cid")
    v = b.view()
    assert v.unit("Rhee").cell == (2, 1) and v.unit("Rhee").ext.aboard == "Skiff"
    assert "Blue" in b.world.peek(cid, Status).known_to
