"""Two sides' `wins` objectives done when the battle ends (`Play.final`, at the round limit) are a draw as they are
in a check during play (test_objectives_draw.py): the side listed first in the file does not win for that."""

from __future__ import annotations

from pathlib import Path

from tests.objectives_helpers import battle, events, play, result, scenario, unit


def test_both_sides_protect_objectives_done_at_the_end_is_a_draw(tmp_path: Path) -> None:
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=1,
                             blue_obj="[{kind: protect, unit: B1, wins: true}]",
                             red_obj="[{kind: protect, unit: R1, wins: true}]"), tmp_path))
    assert [(e["objective"], e["state"]) for e in events(b, "objective")] == [
        ("Blue:protect", "done"), ("Red:protect", "done")]
    r = result(b)
    assert r["winner"] is None and r["rounds"] == 1, r
    assert "Blue:protect" in r["reason"] and "Red:protect" in r["reason"] and "draw" in r["reason"], r
    assert b.outcome is not None and b.outcome.summary().startswith("result: winner=draw rounds=1")


def test_one_sides_protect_done_at_the_end_is_still_its_win(tmp_path: Path) -> None:
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=1,
                             blue_obj="[{kind: protect, unit: B1, wins: true}]"), tmp_path))
    r = result(b)
    assert r["winner"] == "Blue" and r["objective"] == "Blue:protect", r
