"""`skirmish sim` (issue 15 item 3): every file written and readable, the same battles.csv whatever the number
of workers, a bad scenario among good ones reported and skipped, and bad options refused before any battle."""

from __future__ import annotations

import json
import struct
import sys
from pathlib import Path

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.cli import main
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.sim import runner, stats
from skirmish.sim.batch import BattleRow, play_battle, read_rows
from tests.conftest import ascii_scenario

KILLHOUSE = SCENARIOS_DIR / "killhouse_drill.yaml"
CANAL = SCENARIOS_DIR / "canal_crossing.yaml"


def _sim(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(["sim", *args])
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


def _png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height from its header (and a check that it is one)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    assert data.rstrip(b"\0").endswith(b"IEND\xaeB`\x82"), path  # whole, not cut short
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small batch on two scenarios, Red played by rush in the drill."""
    out = tmp_path_factory.mktemp("sim") / "out"
    with pytest.raises(SystemExit) as exc:
        main(["sim", str(KILLHOUSE), str(CANAL), "--battles", "6", "--seed", "3", "--workers", "1",
              "--ai", "Red=rush", "--out", str(out)])
    assert exc.value.code == 0
    return out


def test_sim_writes_every_file(made: Path) -> None:
    names = sorted(p.name for p in made.iterdir())
    assert names == sorted([*runner.FILES, "fallen-killhouse_drill.png", "fallen-canal_crossing.png"])
    for png in made.glob("*.png"):
        width, height = _png_size(png)
        assert 300 <= width <= 3000 and 200 <= height <= 3000, (png.name, width, height)


def test_battles_csv_has_a_row_per_battle_as_the_battle_ended(made: Path) -> None:
    rows = read_rows(made / "battles.csv")
    assert [(r["file"], r["seed"]) for r in rows] == [(p.name, str(s)) for p in (KILLHOUSE, CANAL) for s in range(3, 9)]
    assert {r["scenario"] for r in rows} == {"Killhouse drill", "Canal crossing"}
    drill = [r for r in rows if r["file"] == KILLHOUSE.name]
    assert all(r["ais"] == {"Blue": "utility", "Red": "rush"} for r in drill)  # the override, the scenario's own
    for r in drill[:2]:  # each row is the battle itself: played again here, the same end
        sc = load_scenario(KILLHOUSE)
        with Battle(sc, seed=int(r["seed"]), controllers={"Blue": make_ai("utility"), "Red": make_ai("rush")}) as b:
            out = b.run()
        assert (r["winner"], int(r["rounds"])) == (out.winner or "draw", out.rounds)
        assert r["casualties"] == {s: str(n) for s, n in out.casualties.items()}
    for r in rows:
        if r["winner"] != "draw":
            assert f"{r['winner']}:eliminate=done" in r["objectives"]
            assert r["reason"].startswith("nobody left standing")


def test_summary_json_agrees_with_the_csv(made: Path) -> None:
    summary = json.loads((made / "summary.json").read_text(encoding="utf-8"))
    rows = read_rows(made / "battles.csv")
    assert summary["battles"] == len(rows) == 12
    for scen in summary["scenarios"]:
        mine = [r for r in rows if r["file"] == scen["file"]]
        n = len(mine)
        assert scen["battles"] == n and scen["seeds"] == [3, 8]
        for side in scen["sides"]:
            won = sum(r["winner"] == side for r in mine)
            fig = scen["wins"][side]
            assert fig["count"] == won and fig["rate"] == pytest.approx(won / n, abs=1e-4)
            lo, hi = fig["wilson95"]
            assert lo <= fig["rate"] <= hi
            lost = [int(r["casualties"][side]) for r in mine]
            assert scen["casualties"][side]["mean"] == pytest.approx(sum(lost) / n, abs=1e-4)
            assert sum(scen["casualties"][side]["histogram"].values()) == n
        assert scen["draws"]["count"] == sum(r["winner"] == "draw" for r in mine)
        assert sum(scen["rounds"]["histogram"].values()) == n
        assert scen["rounds"]["max"] == max(int(r["rounds"]) for r in mine)
        cells = scen["fallen"]["cells"]
        assert len(cells) == scen["fallen"]["height"] and len(cells[0]) == scen["fallen"]["width"]
        # every casualty fell somewhere on the map
        assert sum(map(sum, cells)) == sum(int(c) for r in mine for c in r["casualties"].values())


def test_the_same_csv_with_one_and_two_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        code, _, _ = _sim([str(KILLHOUSE), "--battles", "8", "--workers", workers, "--out", str(out)], capsys)
        assert code == 0
        texts.append((out / "battles.csv").read_bytes())
    assert texts[0] == texts[1] and texts[0].count(b"\n") == 9


def test_a_bad_scenario_is_reported_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(ascii_scenario(["....", "...."], "[{name: A, at: [0, 0]}]", "[{name: B, at: [3, 1]}]")
                   .replace("seed: 3", "seed: many"), encoding="utf-8")
    out = tmp_path / "out"
    code, text, err = _sim([str(KILLHOUSE), str(bad), str(tmp_path / "missing.yaml"), "--battles", "2",
                            "--workers", "1", "--out", str(out)], capsys)
    assert code == 2  # at the end: the good one was played and written
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert any(str(bad) in ln and "seed" in ln and "skipped" in ln for ln in lines), err
    assert any("missing.yaml" in ln and "skipped" in ln for ln in lines), err
    assert "Traceback" not in err
    rows = read_rows(out / "battles.csv")
    assert {r["file"] for r in rows} == {KILLHOUSE.name} and len(rows) == 2
    assert "Killhouse drill" in text


def test_only_bad_scenarios_write_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code, _, err = _sim([str(tmp_path / "nope.yaml"), "--out", str(out)], capsys)
    assert code == 2 and "nope.yaml" in err and "no scenario to play" in err
    assert not out.exists()


@pytest.mark.parametrize("args, words", [
    (["--ai", "Red=genius"], "unknown AI 'genius'"),
    (["--ai", "Purple=rush"], "no scenario has a side 'Purple'"),
    (["--ai", "=rush"], "expected SIDE=AI"),
    (["--battles", "0"], "--battles"),
    (["--address", "ray://x:1"], "--address: only with --backend ray"),
    (["--backend", "spark"], "--backend"),
])
def test_bad_options_exit_2_before_any_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                              words: str) -> None:
    out = tmp_path / "out"
    code, _, err = _sim([str(KILLHOUSE), "--battles" if "--battles" not in args else "--seed", "1", *args,
                         "--out", str(out)], capsys)
    assert code == 2 and words in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_a_bad_out_folder_exits_2_before_any_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    monkeypatch.setattr(runner, "run", lambda *a, **k: played.append(1) or [])
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    for out, words in ((a_file, "is a file"), (tmp_path / "no" / "such" / "dir", "does not exist")):
        code, _, err = _sim([str(KILLHOUSE), "--out", str(out)], capsys)
        assert code == 2 and words in err and str(out) in err, err
    assert not played and a_file.read_text(encoding="utf-8") == "x"


def test_ray_not_installed_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails
    code, _, err = _sim([str(KILLHOUSE), "--backend", "ray", "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and "Ray is not installed" in err and "skirmish[scale]" in err
    assert len(err.strip().splitlines()) == 1


def test_the_folder_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from skirmish.sim import plots

    entries, failed = runner.load([str(KILLHOUSE)], {})
    assert not failed
    rows = runner.run(entries, 2)
    out = tmp_path / "out"
    out.mkdir()
    (out / "battles.csv").write_text("old\n", encoding="utf-8")

    def broken(*args: object) -> None:
        raise RuntimeError("a plot failed")

    monkeypatch.setattr(plots, "casualties", broken)
    with pytest.raises(RuntimeError):
        runner.write(out, rows, entries)
    assert sorted(p.name for p in out.iterdir()) == ["battles.csv"]  # no new file, no temporary left behind
    assert (out / "battles.csv").read_text(encoding="utf-8") == "old\n"


def test_a_row_names_what_played_each_side_and_the_objectives() -> None:
    row = play_battle(str(KILLHOUSE), "k.yaml", 2, ("", "hold"))
    assert isinstance(row, BattleRow) and row.file == "k.yaml" and row.ais == ("utility", "hold")
    assert row.objectives.count(":eliminate=") == 2
    assert len(row.fallen) == sum(row.casualties)
    again = play_battle(str(KILLHOUSE), "k.yaml", 2, ("", "hold"))
    assert again == row


def test_distribution_and_the_summary_json_text() -> None:
    d = stats.distribution([1, 2, 2, 5])
    assert d["mean"] == 2.5 and d["median"] == 2.0 and d["min"] == 1 and d["max"] == 5
    assert d["histogram"] == {"1": 1, "2": 2, "5": 1}
    text = stats.to_json({"a": [1, 2], "b": {"c": [[0, 1], [2, 3]]}})
    assert json.loads(text) == {"a": [1, 2], "b": {"c": [[0, 1], [2, 3]]}}
    assert "[0, 1]" in text  # a map row a line


def test_the_progress_bar_shows_on_a_terminal_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = _sim([str(KILLHOUSE), "--battles", "3", "--workers", "1", "--out", str(tmp_path / "a")], capsys)
    assert code == 0 and err == ""  # not a terminal: quiet
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, _, err = _sim([str(KILLHOUSE), "--battles", "3", "--workers", "1", "--out", str(tmp_path / "b")], capsys)
    assert code == 0 and "battles" in err and "3/3" in err and "left" in err


def test_a_scenario_s_objectives_are_in_the_csv_and_the_summary(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Blue idles on the relay it must hold for 2 rounds (3 points): every battle it is done, and Blue wins on
    points at the round limit."""
    from tests.objectives_helpers import scenario, unit

    text = scenario(blue=[unit("B1", 3, 1)], red=[unit("R1", 9, 3)],
                    blue_obj="[{kind: hold, zone: relay, rounds: 2, points: 3}]",
                    extra="zones:\n  relay: {rect: [3, 1, 4, 2]}\n")
    path = tmp_path / "relay.yaml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = _sim([str(path), "--battles", "3", "--workers", "1", "--out", str(out)], capsys)
    assert code == 0, err
    rows = read_rows(out / "battles.csv")
    assert len(rows) == 3 and all(r["winner"] == "Blue" and r["ais"] == {"Blue": "scripted", "Red": "scripted"}
                                  for r in rows)
    states = {r["objectives"] for r in rows}
    assert len(states) == 1
    (state,) = states
    assert state == "Blue:hold=done"  # the objective's default name, SIDE:KIND, not prefixed twice
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    objectives = summary["scenarios"][0]["objectives"]
    assert list(objectives) == [state.rpartition("=")[0]]
    assert objectives[state.rpartition("=")[0]]["done"]["count"] == 3


def test_the_backend_seam_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str]) -> None:
    from skirmish.sim.backend import BackendError, map_jobs

    assert map_jobs(divmod, [(7, 2), (9, 4)], workers=1) == [(3, 1), (2, 1)]
    with pytest.raises(BackendError, match="expected one of local, ray"):
        map_jobs(divmod, [(7, 2)], backend="spark")
    with pytest.raises(BackendError, match="--address: only with --backend ray"):
        map_jobs(divmod, [(7, 2)], address="ray://x:1")
    with pytest.raises(SystemExit) as exc:  # the tournament takes the same switch, checked before any pair
        main(["tournament", str(KILLHOUSE), "--pairs", "1", "--vs", "rush", "--address", "ray://x:1"])
    assert exc.value.code == 2 and "--address: only with --backend ray" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform != "linux", reason="signals and /proc")
@pytest.mark.parametrize("moment", ["workers running", "first worker starting"])
def test_ctrl_c_stops_a_parallel_sim_and_writes_nothing(tmp_path: Path, moment: str) -> None:
    """Ctrl-C while two worker processes play: exit 130 with one line, the workers stopped, no folder made. Also
    the moment the first worker is forked (three times): a Ctrl-C raised inside the fork hung the command at exit
    14 times in 22 under load (skirmish/sim/backend.py, `_sigint_held`)."""
    import signal
    import subprocess

    from tests.test_cli_robust import DEPOT, _children, _cleanup, _group, _wait_for, child_env

    for attempt in range(1 if moment == "workers running" else 3):
        out_dir = tmp_path / f"out{attempt}"
        err_path = tmp_path / f"stderr{attempt}.txt"
        with err_path.open("wb") as err_file:
            p = subprocess.Popen([sys.executable, "-m", "skirmish", "sim", DEPOT, "--battles", "400", "--workers", "2",
                                  "--out", str(out_dir)], stdout=subprocess.DEVNULL, stderr=err_file,
                                 env=child_env(), cwd=tmp_path, start_new_session=True)
            try:
                if moment == "workers running":
                    _wait_for(lambda p=p: len(_children(p.pid)) >= 2, 60)
                else:
                    _wait_for(lambda p=p: len(_children(p.pid)) >= 1, 60)
                p.send_signal(signal.SIGINT)
                code = p.wait(timeout=120)  # generous: CI runs the suite on both cores, beside this command's workers
                _wait_for(lambda p=p: not _group(p.pid), 30)  # the workers, killed as the command ends, are reaped
                left = _group(p.pid)
            finally:
                _cleanup(p)
        err = err_path.read_text(encoding="utf-8")
        assert code == 130 and err.strip() == "skirmish: interrupted", (attempt, err)
        assert not out_dir.exists() and left == []


def test_ctrl_c_is_held_while_the_pool_forks_and_raised_after() -> None:
    """`_sigint_held`: a Ctrl-C during the block raises nothing there (so never inside os.fork's hooks), and raises
    KeyboardInterrupt as the block ends, with Python's own handler back."""
    import os
    import signal

    from skirmish.sim import backend

    before = signal.getsignal(signal.SIGINT)
    reached_end = False
    with pytest.raises(KeyboardInterrupt), backend._sigint_held():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # many chances for the signal's handler to run here
            pass
        reached_end = True
    assert reached_end and signal.getsignal(signal.SIGINT) is before
    with backend._sigint_held():  # no Ctrl-C: nothing raised
        pass
    assert signal.getsignal(signal.SIGINT) is before
