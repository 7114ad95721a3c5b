"""`skirmish balance` (issue 15 item 4): a side against each AI level and personality, the opponent nearest
the target, and whether the scenario is fair by side (the mirror)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.cli import main
from skirmish.content.scenario import SCENARIOS_DIR
from skirmish.sim.balance import MIRROR, OPPONENTS, Balance, Row, balance, report
from skirmish.sim.batch import play_battle

KILLHOUSE = SCENARIOS_DIR / "killhouse_drill.yaml"  # 2 v 2 in a small room: a battle is a round or three


@pytest.fixture(scope="module")
def calibrated() -> Balance:
    return balance(KILLHOUSE, "Red", battles=3, first_seed=5)


def test_a_row_per_opponent_and_a_mirror_row_per_side(calibrated: Balance) -> None:
    b = calibrated
    assert b.side == "Red" and b.ai == "utility" and b.fair_share == 0.5
    assert [r.opponent for r in b.rows] == list(OPPONENTS)
    assert [(r.opponent, r.side) for r in b.mirror] == [(MIRROR, "Blue"), (MIRROR, "Red")]
    for r in (*b.rows, *b.mirror):
        assert r.battles == 3 and r.wins + r.draws + r.losses == 3
        assert r.score == pytest.approx((r.wins + r.draws / 2) / 3)
        assert r.lo <= r.score <= r.hi
    blue, red = b.mirror  # the same battles seen from each side
    assert blue.wins == red.losses and blue.losses == red.wins and blue.draws == red.draws


def test_each_row_is_the_battles_it_names(calibrated: Balance) -> None:
    """The row against utility:hard is Red (utility) against Blue (utility:hard) on seeds 5-7."""
    hard = next(r for r in calibrated.rows if r.opponent == "utility:hard")
    battles = [play_battle(str(KILLHOUSE), "k", seed, ("utility:hard", "utility")) for seed in (5, 6, 7)]
    assert hard.wins == sum(b.winner == "Red" for b in battles)
    assert hard.losses == sum(b.winner == "Blue" for b in battles)


def _row(opponent: str, score: float, lo: float, hi: float, side: str = "Blue") -> Row:
    return Row(opponent, side, 10, round(score * 10), 0, 10 - round(score * 10), score, lo, hi)


def test_the_nearest_opponent_and_the_verdicts() -> None:
    rows = (_row("utility:easy", 0.9, 0.6, 0.98), _row("utility:normal", 0.6, 0.3, 0.8), _row("utility:hard", 0.2, 0.05, 0.5))
    fair = (_row(MIRROR, 0.5, 0.25, 0.75), _row(MIRROR, 0.5, 0.25, 0.75, "Red"))
    b = Balance("t", "Blue", "utility", 0.5, 10, 1, rows, fair, 0.5)
    assert b.best.opponent == "utility:normal" and b.on_target and b.fair
    unfair = (_row(MIRROR, 0.9, 0.6, 0.98), _row(MIRROR, 0.1, 0.02, 0.4, "Red"))
    b2 = Balance("t", "Blue", "utility", 0.95, 10, 1, rows, unfair, 0.5)
    assert b2.best.opponent == "utility:easy" and b2.on_target and not b2.fair
    text = "\n".join(report(b2))
    assert "nearest the target 95%: utility:easy" in text and "NOT fair" in text


def test_balance_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["balance", str(KILLHOUSE), "--battles", "2", "--vs", "utility:easy,rush", "--workers", "1"])
    out = capsys.readouterr().out
    assert exc.value.code == 0
    lines = out.splitlines()
    assert any(ln.split()[:2] == ["utility:easy", "2"] for ln in lines)
    assert any(ln.split()[:2] == ["rush", "2"] for ln in lines)
    assert "Blue played by utility" in out and "nearest the target 50%" in out and "fair by side:" in out
    assert any(ln.split()[:1] == ["Red"] for ln in lines)  # the mirror's rows


@pytest.mark.parametrize("args, words", [
    (["--side", "Purple"], "--side 'Purple'"),
    (["--ai", "genius"], "unknown AI 'genius'"),
    (["--target", "1.5"], "--target"),
    (["--vs", "utility:easy,genius"], "--vs: unknown AI 'genius'"),
])
def test_balance_bad_options_exit_2(capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["balance", str(KILLHOUSE), "--battles", "1", *args])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and words in err and "Traceback" not in err


def test_balance_of_a_bad_scenario_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nsides: 3\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["balance", str(bad), "--battles", "1"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and str(bad) in err and "Traceback" not in err
