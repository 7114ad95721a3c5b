"""A second reader's checks of `skirmish sim` and `balance` (issue 15 items 3-4): Wilson intervals that reach
0 and 1 exactly, a balance target of 0 or 1 inside an all-or-nothing record, heat maps that never share a file,
and an output folder written whole or not at all when one of its names is taken by a folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.tournament import wilson
from skirmish.cli import main
from skirmish.content.scenario import SCENARIOS_DIR
from skirmish.fileio import OutputError
from skirmish.sim import plots, runner
from skirmish.sim.balance import Balance, _row
from skirmish.sim.batch import BattleRow

KILLHOUSE = SCENARIOS_DIR / "killhouse_drill.yaml"


@pytest.mark.parametrize("n", [3, 6, 7, 10, 13, 25, 27, 100, 1000])
def test_wilson_reaches_0_and_1_exactly(n: int) -> None:
    """No wins: the interval starts at 0; every win: it ends at 1 (not 1e-17 off, by rounding)."""
    assert wilson(0, n)[0] == 0.0 and wilson(0, n)[1] > 0
    assert wilson(n, n)[1] == 1.0 and wilson(n, n)[0] < 1
    lo, hi = wilson(3, 4)  # by hand: centre (0.75 + z²/8) / (1 + z²/4), half z·sqrt(3/64 + z²/64) / (1 + z²/4)
    assert (round(lo, 4), round(hi, 4)) == (0.3006, 0.9544)


def _rows(winner: str | None, n: int) -> list[BattleRow]:
    return [BattleRow("s", "s.yaml", i, ("Blue", "Red"), ("utility", "utility"), winner, "r", 3, (0, 0), "")
            for i in range(n)]


@pytest.mark.parametrize("winner, target", [("Blue", 1.0), ("Red", 0.0)])
def test_a_target_of_1_or_0_is_inside_an_all_or_nothing_record(winner: str, target: float) -> None:
    for n in (10, 13, 3, 6):
        row = _row("utility:easy", "Blue", _rows(winner, n), 2)
        b = Balance("s", "Blue", "utility", target, n, 1, (row,), (), 0.5)
        assert b.best is row and b.on_target, (n, row)


def test_heat_map_names_never_repeat() -> None:
    names = plots.heat_map_names(["a/x.yaml", "b/x.yaml", "x-2.yaml", "c/x.yaml", "x_3.yaml", "x-3.yaml"])
    assert len(set(names)) == len(names), names
    assert names[:3] == ["fallen-x.png", "fallen-x-2.png", "fallen-x-2-2.png"]  # the usual numbering kept


def _sim(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exc:
        main(["sim", *args])
    return int(exc.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize("taken", ["summary.json", "lengths.png", "fallen-killhouse_drill.png"])
def test_a_folder_named_like_an_output_file_stops_before_any_battle(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        taken: str) -> None:
    out = tmp_path / "out"
    (out / taken).mkdir(parents=True)
    played: list[int] = []
    real = runner.run
    monkeypatch.setattr(runner, "run", lambda *a, **k: played.append(1) or real(*a, **k))
    code, err = _sim([str(KILLHOUSE), "--battles", "1", "--workers", "1", "--out", str(out)], capsys)
    assert code == 2 and taken in err and "is a folder" in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err
    assert not played
    assert sorted(p.name for p in out.iterdir()) == [taken]  # nothing written, no temporary file left


def test_write_replaces_no_file_when_one_target_is_a_folder(tmp_path: Path) -> None:
    entries, _ = runner.load([str(KILLHOUSE)], {})
    rows = runner.run(entries, 1)
    out = tmp_path / "out"
    (out / "summary.json").mkdir(parents=True)
    (out / "battles.csv").write_text("old\n", encoding="utf-8")
    with pytest.raises(OutputError, match=r"summary\.json: is a folder"):
        runner.write(out, rows, entries)
    assert sorted(p.name for p in out.iterdir()) == ["battles.csv", "summary.json"]
    assert (out / "battles.csv").read_text(encoding="utf-8") == "old\n"


def test_a_failed_write_leaves_no_new_folder(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    entries, _ = runner.load([str(KILLHOUSE)], {})
    rows = runner.run(entries, 1)

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(plots, "lengths", interrupted)
    out = tmp_path / "new"
    with pytest.raises(KeyboardInterrupt):
        runner.write(out, rows, entries)
    assert not out.exists()


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_a_cluster_address_nobody_answers_at_is_one_line_at_once(scheme: str) -> None:
    """Ray itself retries a dead GCS address for many minutes, its C++ warnings on stderr: the seam asks first."""
    import socket

    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray is running in this process")
    from skirmish.sim.backend import BackendError, map_jobs

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"{scheme}127.0.0.1:{port}"
    with pytest.raises(BackendError, match=rf"cannot start the cluster at {address}: nothing answers at "
                                           rf"127\.0\.0\.1:{port}"):
        map_jobs(divmod, [(7, 2)], backend="ray", address=address)
    assert not ray.is_initialized()
