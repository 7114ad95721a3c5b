"""tools/bench_against.py: issue 12's speed targets as ratios against an earlier tree measured in the same sitting
(the machines' speed differs between sessions). The ratio arithmetic on given runs, the alternation, a commit
that is not there (a message, no traceback), and one real run of both trees on this repository's HEAD."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_against", ROOT / "tools" / "bench_against.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_ratio_is_this_trees_median_over_the_earlier_ones_beside_the_issues_target(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool()
    figures = {"base": iter([200.0, 300.0, 250.0]), "this": iter([40.0, 30.0, 35.0])}
    asked: list[str] = []

    def fake(tree: Path, ai: str, battles: int) -> dict[str, float]:
        name = "this" if tree == tool.ROOT else "base"
        asked.append(name)
        v = next(figures[name])
        return {"battle": v, "p95": v / 10}

    monkeypatch.setattr(tool, "bench", fake)
    lines = tool.compare(Path("/elsewhere"), "utility", 5, 3, "abc1234")
    assert asked == ["base", "this", "this", "base", "base", "this"]  # alternated, each starting in turn
    assert lines[0].startswith("utility, 5 battle(s) a run") and "3 alternated run(s)" in lines[0]
    # medians 250 and 35: x0.14, against 100 / 1100 = x0.091; p95 25 and 3.5: x0.14 against 5 / 16.6 = x0.301
    assert "abc1234 250.0 ms, this tree 35.0 ms: x0.140" in lines[1] and "x0.091: not met" in lines[1]
    assert "decision p95" in lines[2] and "x0.140" in lines[2] and "x0.301: met" in lines[2]


def test_hold_has_only_the_battle_target(monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool()
    monkeypatch.setattr(tool, "bench", lambda tree, ai, battles: {"battle": 10.0 if tree == tool.ROOT else 100.0,
                                                                  "p95": 1.0})
    lines = tool.compare(Path("/elsewhere"), "hold", 5, 1, "abc1234")
    assert len(lines) == 2 and "x0.100" in lines[1] and "20 / 135 ms = x0.148: met" in lines[1]


def test_a_commit_that_is_not_there_is_a_message(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    tool = _tool()
    with pytest.raises(SystemExit) as exc:
        tool.checkout("no-such-commit-here", tmp_path)
    assert "no commit 'no-such-commit-here'" in str(exc.value)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs the git repository")
def test_both_trees_run_the_bench_on_this_repositorys_head() -> None:
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_against.py"), "--rev", head, "--ai", "hold",
                          "--battles", "1", "--rounds", "1"], capture_output=True, text=True, check=False, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("hold, 1 battle(s) a run") and f"battle median: {head} " in lines[1]
    assert "(hold round 1/1, base:" in out.stderr and "(hold round 1/1, this:" in out.stderr


def test_instructions_are_counted_after_the_first_battle_and_set_beside_the_target() -> None:
    tool = _tool()
    counts = {("base", 8): 9_000, ("base", 1): 2_000, ("this", 8): 1_800, ("this", 1): 1_100}
    asked: list[tuple[str, str, int]] = []

    def count(tree: Path, ai: str, battles: int) -> int:
        name = "this" if tree == tool.ROOT else "base"
        asked.append((name, ai, battles))
        return counts[(name, battles)] * 1_000_000

    lines = tool.compare_instructions(Path("/elsewhere"), "hold", 8, "abc1234", count=count)
    assert sorted(asked) == [("base", "hold", 1), ("base", "hold", 8), ("this", "hold", 1), ("this", "hold", 8)]
    # (9000 - 2000) / 7 = 1000 M a battle against (1800 - 1100) / 7 = 100 M: x0.100, under 20 / 135 = x0.148
    assert "abc1234 1,000 M, this tree 100 M: x0.100" in lines[1] and "x0.148: met" in lines[1]
