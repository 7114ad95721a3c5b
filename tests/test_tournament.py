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
    assert {r["table"] for r in rows} == {"opponent", "scenario", "side"}
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
