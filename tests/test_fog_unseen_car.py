"""An enemy grav car that moved unseen (docs/RULES-NOTES.md "Moving into an unseen enemy", R-9.2, R-9.11, R-9.12):
a side knows a car where it last saw it (cars.car_view), so the cell the car really stands in is not refused as
taken (a refusal would tell where it went), the cell it left is; a walk, a flight or a rider's step down into the
car's real cell stops short of it (`fw_bumped`, target the car) and the side has found it there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from skirmish.battle import Battle
from skirmish.ecs.components import Position
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.rules.actions import Move
from skirmish.rulesets.fw import FwIntent
from tests.test_fw_battle import battle, of
from tests.test_fw_grav import at_intent, grav_text, unit

SLED = "[{name: Sled, type: scout_car, at: [4, 1], screen: kinetic, screen_points: 30}]"  # Red's, empty
SKIFF = "[{name: Skiff, type: scout_car, at: [2, 3], riders: [Rhee], screen: kinetic, screen_points: 30}]"
OPEN = ["##############", "#,,,,,,,,,,,,#", "#,,,,,,,,,,,,#", "#,,,,,,,,,,,,#", "#,,,,,,,,,,,,#", "##############"]


def _text(blue: list[str], blue_cars: str, red: list[str]) -> str:
    txt = grav_text(blue, red, blue_cars, rows=OPEN)
    return txt.replace("    orders: []\n    units: [" + ", ".join(red),
                       f"    orders: []\n    cars: {SLED}\n    units: [" + ", ".join(red))


@pytest.fixture
def unseen_sled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Blue never sees Red's Sled again (as if a tall building stood between): cars.car_seen says no for Blue."""
    seen = gcars.car_seen
    monkeypatch.setattr(gcars, "car_seen", lambda sys, ceid, side: side != "Blue" and seen(sys, ceid, side))
    yield


def _sled_goes(b: Battle, to: tuple[int, int]) -> None:
    """Red's Sled goes to `to` while Blue does not see it (Blue keeps it where it last saw it)."""
    sled = gcars.named(b.sys, "Sled")
    assert sled is not None
    gcars.refresh(b.sys)  # (Blue has seen it at 4,1: every miniature is on the table at the start)
    p = b.world.get(sled, Position)
    p.x, p.y = to
    b.sys.ctx.car_looks.clear()
    gcars.refresh(b.sys)
    assert gcars.car_view(b.sys, sled, "Blue").cell == (4, 1)


def _at_move(b: Battle, name: str) -> None:
    while b.pending is not None and not (b.pending.kind == "move" and b.pending.unit == name):
        b.submit(b.sys.fallback(b.pending))
    assert b.pending is not None


def test_a_walk_is_planned_on_where_the_side_last_saw_the_car_and_bumps_into_it(tmp_path: Path,
                                                                               unseen_sled: None) -> None:
    b = battle(tmp_path, _text([unit("Ann", (9, 1), 14)], "[]", [unit("Cid", (11, 4), 12)]))
    _sled_goes(b, (6, 1))
    _at_move(b, "Ann")
    assert b.check(Move("Ann", (6, 1))) is None  # not "taken": Blue cannot know the Sled went there
    assert (6, 1) in b.legal_actions("Ann").walk
    refused = b.check(Move("Ann", (4, 1)))  # where Blue last saw it
    assert refused is not None and "is taken" in refused.reason
    b.submit(Move("Ann", (5, 1)))  # the straight route passes 6,1
    (bump,) = of(b, "fw_bumped")
    assert (bump.actor, bump.at, bump.blocked, bump.target) == ("Ann", [7, 1], [6, 1], "Sled")
    assert b.view().unit("Ann").cell == (7, 1)
    sled = gcars.named(b.sys, "Sled")
    assert sled is not None and gcars.car_view(b.sys, sled, "Blue").cell == (6, 1)  # found: Blue knows it there
    shown = {c.name: c.cell for c in b.observe("Blue").unit("Ann").ext.cars}
    assert shown["Sled"] == (6, 1)  # and the board draws it there


def test_a_flight_onto_the_unseen_cars_cell_sets_down_short_of_it(tmp_path: Path, unseen_sled: None) -> None:
    b = battle(tmp_path, _text([unit("Rhee", (2, 2), 14)], SKIFF, [unit("Cid", (11, 4), 12)]))
    _sled_goes(b, (8, 3))
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "drive"))
    _at_move(b, "Rhee")
    assert b.check(Move("Rhee", (8, 3))) is None
    b.submit(Move("Rhee", (8, 3)))
    (drive,) = of(b, "fw_drive")
    (bump,) = of(b, "fw_bumped")
    assert (bump.blocked, bump.target) == ([8, 3], "Sled") and drive.path[-1] == bump.at == [7, 3]
    assert b.view().unit("Rhee").cell == (7, 3)


def test_a_rider_stepping_down_onto_the_unseen_cars_cell_stays_aboard(tmp_path: Path, unseen_sled: None) -> None:
    b = battle(tmp_path, _text([unit("Rhee", (2, 2), 14)], SKIFF, [unit("Cid", (11, 4), 12)]))
    _sled_goes(b, (3, 3))  # the first cell beside the Skiff (orthogonal first: east)
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "dismount"))
    while b.pending is not None and b.ctx.round == 1:
        b.submit(b.sys.fallback(b.pending))
    assert not of(b, "fw_board")
    (bump,) = of(b, "fw_bumped")
    assert (bump.actor, bump.at, bump.blocked, bump.target) == ("Rhee", [2, 3], [3, 3], "Sled")
    assert b.view().unit("Rhee").ext.aboard == "Skiff"


def test_where_a_side_last_saw_a_car_is_in_the_state_hash(tmp_path: Path, unseen_sled: None) -> None:
    """What each side knows of the others is battle state (docs/RECORDS.md): a side's last look at an enemy car
    decides what it may be refused and what its AI plans on, so two battles that differ only there hash apart."""
    text = _text([unit("Ann", (9, 1), 14)], "[]", [unit("Cid", (11, 4), 12)])
    a, b = battle(tmp_path, text), battle(tmp_path, text)
    _sled_goes(a, (6, 1))
    _sled_goes(b, (6, 1))
    assert a.state_hash() == b.state_hash()
    sled = gcars.named(b.sys, "Sled")
    assert sled is not None
    gcars.place(b.sys, sled, "Blue")  # b's Blue has found the Sled at 6,1; a's still has it at 4,1
    assert gcars.car_view(b.sys, sled, "Blue").cell == (6, 1) != gcars.car_view(a.sys, sled, "Blue").cell
    assert a.state_hash() != b.state_hash()
