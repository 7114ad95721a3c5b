"""A rider down comes off its mount (R-6.1 mounts; issue 14, mount10b; docs/RULES-NOTES.md "Mounts"): tripped
(R-7.6), thrown or knocked prone (R-7.7) or put out of action (R-8.1), it lands on the open cell behind it (else the
open cell nearest that way), prone; its mount stays riderless where it stood (an `unseated` event). With no open cell
round it, it stays in the saddle. A prone figure does not mount."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Health, Status
from skirmish.ecs.systems.fi import grapple, movement, triggers
from skirmish.rules.actions import Move, parse_action
from tests.test_fi_mounts import T, battle, events, unit

STAFF = "{name: Me, at: [%d, %d], traits: " + T + ", skills: {'fighting:staves': 3}, melee: [staff]}"


def _trip_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    real = grapple.FiGrapple._contest

    def won(self, *args, **kw):  # type: ignore[no-untyped-def]
        return True, real(self, *args, **kw)[1]

    monkeypatch.setattr(grapple.FiGrapple, "_contest", won)


def _waiter_fells(monkeypatch: pytest.MonkeyPatch) -> None:
    """The next waiter set off wins the Reflex contest and its shot puts the mover out of action (as `_apply_hits`
    leaves a figure out of action: incapacitated and prone)."""
    real = triggers.reflex_contest

    def first(sys, waiter, other, **kw):  # type: ignore[no-untyped-def]
        return {**real(sys, waiter, other, **kw), "waiter_first": True, "simultaneous": False}

    def fells(self, eid: int, target: int) -> None:  # type: ignore[no-untyped-def]
        self.w.get(eid, Status).waiting = None
        self.w.get(target, Health).incapacitated = True
        self.w.get(target, Status).prone = True

    monkeypatch.setattr(triggers, "reflex_contest", first)
    monkeypatch.setattr(movement.FiMovement, "_trigger_shot", fells)


def test_a_tripped_rider_comes_off_behind_its_mount(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _trip_wins(monkeypatch)
    b = battle(tmp_path, "[{name: H, kind: horse, at: [5, 2]}]", [STAFF % (4, 2)],
               [unit("Foe", 5, 2, ", mounted: true")])
    foe = b.world.entity("Foe")
    assert b.world.peek(foe, Status).mounted  # facing Me (west): it falls off east, behind it
    b.submit(parse_action("trip Me Foe"))
    ev = events(b, "unseated")[-1]
    assert ev.actor == "Foe" and ev.mount == "H" and ev.at == [5, 2] and ev.to == [6, 2]  # type: ignore[attr-defined]
    assert ev.cause == "down" and "R-7.6" in ev.rules  # type: ignore[attr-defined]
    assert "comes off H" in ev.describe()
    st = b.world.peek(foe, Status)
    assert b.world.cell(foe) == (6, 2) and st.prone and not st.mounted
    assert b.world.mounts["H"].rider is None and b.world.mounts["H"].cell == (5, 2)
    view = b.view()
    assert view.mounts[0].rider is None and (5, 2) in view.occupied()
    assert b.sys.move_allowance(foe) != (16.0, 32.0)  # on foot again


def test_a_rider_shot_out_of_action_mid_ride_falls_where_it_was_hit(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _waiter_fells(monkeypatch)
    b = battle(tmp_path, "[{name: H, kind: horse, at: [1, 1]}]", [unit("Me", 1, 1, ", mounted: true")],
               [unit("Foe", 18, 1)], declare="slow")
    b.world.get(b.world.entity("Foe"), Status).waiting = "enemy_enters:4,1"
    b.submit(Move("Me", (8, 1)))  # shot at 4,1, riding east: it falls off west, at 3,1
    me = b.world.entity("Me")
    ev = events(b, "unseated")[-1]
    assert ev.cause == "out of action" and ev.at == [4, 1] and ev.to == [3, 1]  # type: ignore[attr-defined]
    assert "R-8.1" in ev.rules
    assert b.world.cell(me) == (3, 1) and not b.world.peek(me, Status).mounted
    assert b.world.mounts["H"].cell == (4, 1) and b.world.mounts["H"].rider is None
    order = [e.type for e in b.log.events]
    assert order.index("unseated") > order.index("move_stopped")  # the move ends, then it falls


def test_a_rider_felled_before_it_dismounts_falls_behind_not_where_it_meant_to_step(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _waiter_fells(monkeypatch)
    b = battle(tmp_path, "[{name: H, kind: horse, at: [3, 2]}]", [unit("Me", 3, 2, ", mounted: true")],
               [unit("Foe", 18, 2)])
    b.world.get(b.world.entity("Foe"), Status).waiting = "enemy_moves"
    b.submit(parse_action("dismount Me to=4,2"))
    assert not events(b, "dismount")
    ev = events(b, "unseated")[-1]
    assert ev.at == [3, 2] and ev.to == [2, 2]  # type: ignore[attr-defined]  # facing Foe (east): off the west side


def test_a_rider_with_no_open_cell_round_it_stays_in_the_saddle(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _trip_wins(monkeypatch)
    rows = ["#######.............", "#..#................", "#####...............", "....................",
            "...................."]
    b = battle(tmp_path, "[{name: H, kind: horse, at: [2, 1]}]", [STAFF % (1, 1)],
               [unit("Foe", 2, 1, ", mounted: true"), unit("Foe2", 18, 4)], rows=rows)
    b.submit(parse_action("trip Me Foe"))
    foe = b.world.entity("Foe")
    assert not events(b, "unseated")
    assert b.world.peek(foe, Status).mounted and b.world.mounts["H"].rider == "Foe"


def test_a_prone_figure_does_not_mount(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: B, kind: bike, at: [2, 1]}]", [unit("Me", 1, 1)], [unit("Foe", 18, 4)])
    b.world.get(b.world.entity("Me"), Status).prone = True
    assert not b.legal_actions("Me").mounts
    with pytest.raises(IllegalAction, match=r"R-6\.1: Me is down"):
        b.submit(parse_action("mount Me B"))


def test_an_extracted_rider_leaves_on_its_mount(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: H, kind: horse, at: [1, 1]}]", [unit("Me", 1, 1, ", mounted: true")],
               [unit("Foe", 18, 4)])
    b.sys.withdraw(b.world.entity("Me"))
    b.submit(parse_action("end Me"))
    assert not events(b, "unseated") and b.world.mounts["H"].rider == "Me"
