"""The tournament: Wilson intervals, mirrored pairs, the tables and CSV, and the CLI (a fast smoke run)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from skirmish.ai import tournament
from skirmish.cli import main
from skirmish.content.scenario import builtin_scenarios


def test_wilson_interval() -> None:
    lo, hi = tournament.wilson(65, 100)
    assert lo == pytest.approx(0.5525, abs=1e-3) and hi == pytest.approx(0.7364, abs=1e-3)
    assert tournament.wilson(0, 10)[0] == pytest.approx(0.0) and tournament.wilson(10, 10)[1] == pytest.approx(1.0)
    assert tournament.wilson(0, 0) == (0.0, 1.0)


def test_a_mirrored_pair_swaps_sides_with_the_same_seed() -> None:
    path = builtin_scenarios()[0]
    games = tournament.play_pair(str(path), 3, "utility:easy", "random")
    assert [g.ai_side for g in games] == [0, 1] and {g.seed for g in games} == {3}
    assert all(g.result in (0.0, 0.5, 1.0) for g in games)
    again = tournament.play_pair(str(path), 3, "utility:easy", "random")
    assert again == games  # deterministic


def test_tournament_smoke_run_writes_tables_and_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_csv = tmp_path / "t.csv"
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--pairs", "1", "--vs", "random", "--workers", "1", "--csv", str(out_csv),
              str(builtin_scenarios()[0])])
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "by opponent" in text and "by scenario" in text and "by side" in text and "Wilson 95%" in text
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert {r["table"] for r in rows} == {"opponent", "scenario", "side", "target"}
    top = next(r for r in rows if r["table"] == "opponent")
    assert int(top["games"]) == 2 and float(top["wilson_lo"]) <= float(top["score"]) <= float(top["wilson_hi"])
    assert not list(tmp_path.glob("*.part"))


def test_tournament_refuses_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--vs", "genius"])
    assert exc.value.code == 2 and "unknown AI 'genius'" in capsys.readouterr().err
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--pairs", "1", str(bad)])
    assert exc.value.code == 2


# ------------------------------------------------------------------------------------------ issue 12's targets


def _games(ai: str, opponent: str, scenario: str, results: list[float], rounds: int = 8) -> list[tournament.Game]:
    """Stubbed games: result i played as pair i // 2, the AI on the first side in even games."""
    return [tournament.Game(scenario, 1 + i // 2, ai, opponent, i % 2, r, rounds) for i, r in enumerate(results)]


def _mark(ms: list[tournament.Mark], opponent: str, check: str, group: str | None = None) -> tournament.Mark:
    return next(m for m in ms if m.opponent == opponent and m.check == check and (group is None or m.group == group))


def test_marks_against_the_baselines_and_random() -> None:
    """85% over 400 games against hold (Wilson lower 81%) is met; 78% against rush is not (below 80%); 82%
    over 40 games is not either (lower bound 67% <= 72%); random needs 97%; one scenario at 55% fails the
    'no scenario below 60%' check while the overall score passes."""
    games = []
    for s in ("A", "B"):
        games += _games("utility", "hold", s, [1.0] * 170 + [0.0] * 30)  # 85% on each
        games += _games("utility", "rush", s, [1.0] * 156 + [0.0] * 44)  # 78%
        games += _games("utility", "random", s, [1.0] * 196 + [0.5] * 4)  # 99%
    games += _games("utility", "focus", "A", [1.0] * 20) + _games("utility", "focus", "B", [1.0] * 11 + [0.0] * 9)
    games += _games("utility", "spread", "A", [1.0] * 17 + [0.0] * 3)
    games += _games("utility", "spread", "B", [1.0] * 16 + [0.5] * 1 + [0.0] * 3)
    ms = tournament.marks(games)
    hold = _mark(ms, "hold", "score")
    assert hold.met and hold.figure == pytest.approx(0.85) and hold.lo > 0.81 and hold.games == 400
    assert not _mark(ms, "rush", "score").met
    assert _mark(ms, "random", "score").met and "97%" in _mark(ms, "random", "score").target
    spread = _mark(ms, "spread", "score")
    assert spread.figure >= 0.80 and spread.lo <= 0.72 and not spread.met  # too few games to show it
    focus = _mark(ms, "focus", "score")
    assert focus.met is (focus.lo > 0.72) and focus.figure == pytest.approx(31 / 40)
    worst = _mark(ms, "focus", "worst scenario")
    assert worst.group == "B" and worst.figure == pytest.approx(0.55) and not worst.met
    assert _mark(ms, "hold", "worst scenario").met
    assert not [m for m in ms if m.opponent == "utility"]  # no self-play played


def test_marks_for_self_play_by_side_and_draws() -> None:
    """Self-play: the first side's score on each scenario must be 50 ± 5% and draws at most 10%. On A the
    first side wins every decided game (the AI wins as first side, loses as second): 100% for that side."""
    even = [1.0, 0.0] * 10 + [0.0, 1.0] * 10  # each side wins half
    lopsided = [1.0, 0.0] * 20  # the AI wins as the first side, loses as the second
    drawn = [0.5] * 6 + [1.0] * 34  # 6 draws in 40; the AI wins the rest on either side
    games = (_games("utility", "utility", "A", lopsided) + _games("utility", "utility", "B", even)
             + _games("utility", "utility", "C", drawn))
    ms = tournament.marks(games)
    assert {(m.group, m.check) for m in ms} == {(s, c) for s in "ABC" for c in ("first side", "draws")}
    a, b, c = (_mark(ms, "utility", "first side", s) for s in "ABC")
    assert a.figure == pytest.approx(1.0) and not a.met
    assert b.figure == pytest.approx(0.5) and b.met
    assert c.figure == pytest.approx(0.5) and c.met
    assert _mark(ms, "utility", "draws", "B").met and not _mark(ms, "utility", "draws", "C").met
    assert _mark(ms, "utility", "draws", "C").figure == pytest.approx(6 / 40)
    assert tournament.marks(_games("utility:hard", "utility:easy", "A", even)) == []  # no target for the ladder


def test_self_play_marks_count_each_mirrored_pair_once() -> None:
    """A self-play pair is the same battle twice (same scenario, seed and AI on both sides): its interval counts
    the pair once. 58 first-side wins in 100 pairs is [48.2%, 67.3%], which holds 50%; counted as 116 of 200
    games it would read [51.1%, 64.7%] and seem to exclude 50%. Draws count per pair too."""
    games = _games("utility", "utility", "A", [1.0, 0.0] * 58 + [0.0, 1.0] * 42)
    first = _mark(tournament.marks(games), "utility", "first side", "A")
    assert first.figure == pytest.approx(0.58) and first.games == 100
    assert (first.lo, first.hi) == pytest.approx(tournament.wilson(58, 100))
    assert first.lo < 0.5 < first.hi
    drawn = _games("utility", "utility", "B", [0.5] * 16 + [1.0, 0.0] * 92)
    draws = _mark(tournament.marks(drawn), "utility", "draws", "B")
    assert draws.figure == pytest.approx(0.08) and draws.games == 100 and draws.met
    assert (draws.lo, draws.hi) == pytest.approx(tournament.wilson(8, 100))  # 16 of 200 games: 8 of 100 pairs
    odd = _games("utility", "utility", "C", [1.0, 1.0, 0.0])  # a pair whose battles differ (0.5), a lone game (0)
    mark = _mark(tournament.marks(odd), "utility", "first side", "C")
    assert mark.games == 2 and mark.figure == pytest.approx(0.25)


def test_cli_prints_and_writes_the_marks(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """`skirmish tournament` prints the table against the targets and writes it to the CSV (results stubbed:
    no battle is played)."""
    played: list[tuple[str, ...]] = []

    def fake_run(paths: list[Path], ai: str, opponents: list[str], pairs: int, **_: object) -> list[tournament.Game]:
        played.append((ai, *opponents))
        out = []
        for opp in opponents:
            for p in paths:
                out += _games(ai, opp, p.stem, [1.0, 0.5, 0.0, 0.0] * pairs)
        return out

    monkeypatch.setattr(tournament, "run", fake_run)
    out_csv = tmp_path / "t.csv"
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--pairs", "2", "--vs", "random,hold", "--workers", "1", "--csv", str(out_csv),
              str(builtin_scenarios()[0])])
    assert exc.value.code == 0 and played == [("utility", "random", "hold")]
    text = capsys.readouterr().out
    assert "against issue 12's targets" in text and "NOT MET" in text and "targets met: 0 of 4" in text
    line = next(x for x in text.splitlines() if x.startswith("utility") and " random " in x and "score" in x)
    assert "37.5%" in line and ">= 97%" in line
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    marks = [r for r in rows if r["table"] == "target"]
    assert len(marks) == 4 and {r["met"] for r in marks} == {"no"}
    assert {r["ruleset"] for r in marks} == {"fi"} and {r["ruleset"] for r in rows if r["table"] != "target"} == {""}
    assert {r["check"] for r in marks} == {"score", "worst scenario"}
    assert all(r["check"] == "" for r in rows if r["table"] != "target")
