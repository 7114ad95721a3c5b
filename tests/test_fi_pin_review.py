"""Covering fire's pin (R-6.12) where it meets the coverer's state: a second reader's tests (issue 14)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.rules.actions import CoverFire, EndTurn, Move, Shoot, parse_action
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
ROWS = ["..........", "..........", ".........."]


def _to(b: Any, unit: str) -> None:
    """Pass every turn until `unit`'s."""
    while b.pending is not None and b.pending.unit != unit:
        b.submit(EndTurn(b.pending.unit))
    assert b.pending is not None and b.pending.unit == unit


def test_a_coverer_out_of_rounds_pins_no_one(tmp_path: Path) -> None:
    """Me covers A's cell with its last round; B walks in and draws the covering shot, which spends it: B's own
    shot is then not pinned (no -2, no `pinned` on the event), the coverer has nothing left to keep heads down."""
    b = battle_at(tmp_path, ROWS, f"[{{name: Me, at: [0, 1], weapons: [{{weapon: blast_pistol, ammo: 1}}], "
                  f"traits: {TRAITS}}}]",
                  f"[{{name: A, at: [5, 1], weapons: [blast_pistol], traits: {TRAITS}}}, "
                  f"{{name: B, at: [8, 1], weapons: [blast_pistol], traits: {TRAITS}}}]")
    b.submit(CoverFire("Me", at=(5, 1)))
    assert b.log[-1].type == "cover" and b.log[-1].pinned == ["A"]
    b.submit(EndTurn("Me"))
    _to(b, "B")
    b.submit(Move("B", to=(6, 1)))
    assert [e for e in b.log if e.type == "attack"][-1].covering  # the covering shot spent the last round
    b.submit(Shoot("B", "Me", mode="snap"))
    shot = [e for e in b.log if e.type == "attack"][-1]
    assert shot.actor == "B" and not shot.pinned, shot.describe()
    assert not any("pinned" in m["reason"] for m in shot.modifiers)
    b.close()


@pytest.mark.parametrize("then", ["move Me to=0,2", "reload Me", "shoot Me A", "aim Me A"])
def test_a_coverer_that_takes_a_different_action_stops_covering(tmp_path: Path, then: str) -> None:
    """docs/RULES-NOTES.md (R-6.12): covering fire lasts "until the firer takes a different action": after a move,
    reload, shot or aim in the same turn (declared SLOW, so they fit) the area is no longer covered, A is no longer
    pinned and an enemy stepping in draws no covering shot."""
    b = battle_at(tmp_path, ROWS, f"[{{name: Me, at: [0, 1], weapons: [{{weapon: blast_pistol, ammo: 4}}], "
                  f"traits: {TRAITS}}}]", f"[{{name: A, at: [5, 1], weapons: [blast_pistol], traits: {TRAITS}}}, "
                  f"{{name: B, at: [8, 1], weapons: [blast_pistol], traits: {TRAITS}}}]", declare="slow")
    b.submit(CoverFire("Me", at=(5, 1)))
    assert b.log[-1].pinned == ["A"]
    action = parse_action(then)
    assert b.check(action) is None, b.check(action)
    b.submit(action)
    assert b.view().unit("Me").covering is None
    b.submit(EndTurn("Me"))
    _to(b, "B")
    shots = len([e for e in b.log if e.type == "attack"])
    b.submit(Move("B", to=(6, 1)))
    assert len([e for e in b.log if e.type == "attack"]) == shots  # no covering shot
    b.submit(Shoot("B", "Me", mode="snap"))
    assert not [e for e in b.log if e.type == "attack"][-1].pinned
    b.close()


def test_a_pin_by_an_unseen_coverer_does_not_name_it(tmp_path: Path) -> None:
    """Fog (docs/RULES-NOTES.md side views): Me sees T round the corner (T's position known to Blue), T does not
    see Me (Me's position unknown to Red). Me's covering fire pins T (-2), but T's own shot, which Red's side reads
    in full, does not name Me: the coverer is 'an unseen enemy' in the event, its log line and the modifier."""
    from skirmish.ecs.components import Status

    rows = ["..........", "....######", "..........", ".........."]
    b = battle_at(tmp_path, rows, f"[{{name: Me, at: [0, 0], weapons: [blast_pistol], traits: {TRAITS}}}, "
                  f"{{name: X, at: [9, 2], traits: {TRAITS}}}]",
                  f"[{{name: T, at: [6, 2], weapons: [blast_pistol], traits: {TRAITS}}}]")
    w = b.sys.w
    w.get(w.entity("T"), Status).known_to = frozenset({"Blue"})
    w.get(w.entity("Me"), Status).known_to = frozenset({"Blue"})
    b.submit(CoverFire("Me", at=(6, 2)))
    assert b.log[-1].pinned == ["T"]
    b.submit(EndTurn("Me"))
    _to(b, "T")
    assert not b.sys.sight(w.entity("T"), w.entity("Me")).visible and b.sys.sight(w.entity("Me"), w.entity("T")).visible
    b.submit(Shoot("T", "X", mode="snap"))
    shot = [e for e in b.log if e.type == "attack"][-1]
    assert shot.actor == "T" and shot.pinned == ["an unseen enemy"], shot.pinned
    assert "Me" not in shot.describe() and any(m["value"] == -2 and "unseen" in m["reason"] for m in shot.modifiers)
    b.close()


def test_a_terrified_unit_is_offered_no_tap_cover_or_wait_cell(tmp_path: Path) -> None:
    """R-8.4: a terrified unit may only move away (mind_check refuses the rest); legality lists no double tap,
    covering fire, launch or wait cell either, so listed = accepted holds for the new kinds."""
    from skirmish.ecs.fi_mind import Mind

    b = battle_at(tmp_path, ROWS, f"[{{name: Me, at: [0, 1], weapons: [blast_pistol], traits: {TRAITS}}}]",
                  f"[{{name: A, at: [5, 1], traits: {TRAITS}}}]")
    before = b.legal_actions("Me")
    assert before.ranged and before.covers and before.cell_ok is not None and before.cell_ok("cover", (5, 1))
    w = b.sys.w
    w.get(w.entity("Me"), Mind).terrified = "A"
    legal = b.sys.legal_actions(b.pending)
    for action in (*before.ranged, CoverFire("Me", at=(5, 1))):
        assert b.check(action) is not None and not legal.allows(action), action
    assert not legal.ranged and not legal.covers and not legal.launches and not legal.wait_cells


def test_leaving_draws_fire_only_where_it_was_pinned(tmp_path: Path) -> None:
    """docs/RULES-NOTES.md (R-6.12): breaking out draws the covering shot when the move began inside the area in
    the coverer's sight, where it was pinned. T stands in the area round the corner from Me, not firing and its
    position unknown to Blue: Me does not see it (R-6.1), so it is not pinned, and stepping out into Me's plain
    sight draws no covering shot (the step into the area would have; leaving is not entering)."""
    from skirmish.ecs.components import Status

    rows = ["..........", "....######", "..........", ".........."]
    b = battle_at(tmp_path, rows, f"[{{name: Me, at: [0, 0], weapons: [blast_pistol], traits: {TRAITS}}}]",
                  f"[{{name: T, at: [6, 2], weapons: [blast_pistol], traits: {TRAITS}}}]")
    w = b.sys.w
    w.get(w.entity("T"), Status).known_to = frozenset({"Red"})
    b.submit(CoverFire("Me", at=(6, 2)))
    assert not b.log[-1].pinned
    b.submit(EndTurn("Me"))
    _to(b, "T")
    b.submit(Move("T", to=(7, 3)))
    assert not [e for e in b.log if e.type == "attack"]
    b.close()
