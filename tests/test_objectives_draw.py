"""Two `wins` objectives of different sides done in the same check (session 8's "noticed and left"; docs/FILES.md):
neither side is first — the battle is a draw, and the result's reason names both. One side's two at once is its
win."""

from __future__ import annotations

from pathlib import Path

from tests.objectives_helpers import battle, events, play, result, scenario, unit


def test_both_sides_wins_done_at_once_is_a_draw(tmp_path: Path) -> None:
    survive = "[{kind: survive, rounds: 1, wins: true}]"
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_obj=survive, red_obj=survive),
                    tmp_path))
    assert [(e["objective"], e["state"], e["round"]) for e in events(b, "objective")] == [
        ("Blue:survive", "done", 1), ("Red:survive", "done", 1)]
    r = result(b)
    assert r["winner"] is None and r["rounds"] == 1, r
    assert "Blue:survive" in r["reason"] and "Red:survive" in r["reason"] and "draw" in r["reason"], r


def test_one_sides_two_wins_at_once_is_its_win(tmp_path: Path) -> None:
    two = "[{kind: survive, rounds: 1, wins: true}, {kind: survive, rounds: 1, wins: true, name: again}]"
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_obj=two), tmp_path))
    r = result(b)
    assert r["winner"] == "Blue" and r["objective"] == "Blue:survive", r
