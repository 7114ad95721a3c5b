"""A draw's `result` names what made it a draw, not the first objective in the file (docs/EVENTS.md `result`
`objective`, refined: in a draw it is what made the draw): two sides' `wins` objectives done at once (both named),
the points equal when the battle ends, the round limit (a scenario with triggers only); and the lines the board and
the CLI print read right."""

from __future__ import annotations

from pathlib import Path

from skirmish.core.events import ResultEvent
from tests.objectives_helpers import battle, knock_out, play, result, scenario, unit


def _line(b: object) -> str:
    (e,) = [e for e in b.log.events if isinstance(e, ResultEvent)]  # type: ignore[attr-defined]
    return e.describe()


def test_two_sides_wins_at_once_name_both(tmp_path: Path) -> None:
    survive = "[{kind: survive, rounds: 1, wins: true}]"
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_obj=survive, red_obj=survive),
                    tmp_path))
    r = result(b)
    assert r["winner"] is None and r["objective"] == "Blue:survive and Red:survive", r  # was "Blue:survive"
    assert _line(b).startswith("== winner: draw after 1 round (objectives Blue:survive (Blue) and Red:survive (Red) "
                               "done at once: a draw)"), _line(b)


def test_two_sides_wins_at_the_end_name_both(tmp_path: Path) -> None:
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=1,
                             blue_obj="[{kind: protect, unit: B1, wins: true}]",
                             red_obj="[{kind: protect, unit: R1, wins: true}]"), tmp_path))
    r = result(b)
    assert r["winner"] is None and r["objective"] == "Blue:protect and Red:protect", r


def test_equal_points_at_the_round_limit_are_named(tmp_path: Path) -> None:
    """Both sides' survive objectives (2 points each, no `wins`) done at the end: 2 to 2. Neither objective made
    the draw (the first one was named, or none): the points did."""
    two = "[{kind: survive, rounds: 1, points: 2}]"
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=1, blue_obj=two, red_obj=two),
                    tmp_path))
    r = result(b)
    assert r["winner"] is None and r["points"] == {"Blue": 2, "Red": 2} and r["objective"] == "points equal", r
    assert r["reason"] == "round limit; points equal: Blue 2, Red 2", r
    assert "== winner: draw after 1 round (round limit; points equal: Blue 2, Red 2)" in _line(b)


def test_a_win_on_points_still_names_its_objective(tmp_path: Path) -> None:
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=2,
                             blue_obj="[{kind: survive, rounds: 1, points: 2}]"), tmp_path))
    r = result(b)
    assert (r["winner"], r["objective"], r["reason"]) == ("Blue", "Blue:survive", "round limit; points Blue 2, Red 0")
    assert "after 2 rounds" in _line(b)


def test_a_round_limit_draw_with_triggers_only_names_the_round_limit(tmp_path: Path) -> None:
    extra = "triggers: [{when: {round: 1}, then: [{message: hello}]}]\n"
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=1, extra=extra), tmp_path))
    r = result(b)
    assert (r["winner"], r["objective"], r["reason"]) == (None, "round limit", "round limit"), r


def test_a_draw_with_nobody_standing_is_named(tmp_path: Path) -> None:
    extra = "triggers: [{when: {round: 3}, then: [{message: hello}]}]\n"
    b = battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=2, extra=extra), tmp_path)

    def both(b: object) -> None:
        knock_out(b, "B1")  # type: ignore[arg-type]
        knock_out(b, "R1")  # type: ignore[arg-type]

    r = result(play(b, both, (1, "B1")))
    assert r["winner"] is None and r["objective"] == "nobody standing", r


def test_a_draw_called_by_an_end_trigger_names_the_trigger(tmp_path: Path) -> None:
    extra = "triggers: [{name: truce, when: {round: 1}, then: [{end: {winner: draw, reason: a truce}}]}]\n"
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], rounds=3,
                             blue_obj="[{kind: survive, rounds: 1, points: 2}]", extra=extra), tmp_path))
    r = result(b)
    assert (r["winner"], r["objective"], r["reason"]) == (None, "trigger truce", "a truce"), r
