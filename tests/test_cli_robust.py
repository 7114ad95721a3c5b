"""The command line's robustness (issue 10): output files checked first and written whole or not at all,
Ctrl-C, a dead display, the headless summary, what a tournament plays, help texts, bad values."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from skirmish import cli, fileio
from skirmish.ai import tournament
from skirmish.battle import Battle
from skirmish.cli import display
from skirmish.content.scenario import load_scenario
from skirmish.log import EventLog, describe
from tests.conftest import one_line, run

ROOT = Path(__file__).resolve().parents[1]
KILLHOUSE = str(ROOT / "scenarios/killhouse_drill.yaml")
DEPOT = str(ROOT / "scenarios/depot_breach.yaml")




def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def child_env(**changes: str | None) -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    for k, v in changes.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


# ---------------------------------------------------------------------------------------------- 1 output files
def test_events_to_a_folder_exits_2_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["run", KILLHOUSE, "--events", str(tmp_path)], capsys)
    assert code == 2 and out == ""
    assert str(tmp_path) in one_line(err) and "folder" in err
    assert not Path(str(tmp_path) + ".tmp").exists() and leftovers(tmp_path) == []


@pytest.mark.parametrize("name", ["nodir/x.jsonl", "file.txt/x.jsonl"])
def test_events_in_a_missing_folder_exits_2_before_playing(name: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file.txt").write_text("not a folder")
    target = tmp_path / name
    code, out, err = run(["run", KILLHOUSE, "--events", str(target)], capsys)
    assert code == 2 and out == ""  # nothing was played
    assert str(target) in one_line(err)
    assert leftovers(tmp_path) == ["file.txt"]


def test_tournament_csv_checked_before_playing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_: object) -> list[tournament.Game]:
        raise AssertionError("a pair was played before the CSV path was checked")

    monkeypatch.setattr(tournament, "play_pair", never)
    for target in (tmp_path / "nodir" / "x.csv", tmp_path):
        code, out, err = run(["tournament", "--pairs", "1", "--vs", "random", "--workers", "1", "--csv",
                              str(target), KILLHOUSE], capsys)
        assert code == 2 and out == ""
        assert str(target) in one_line(err)
    assert leftovers(tmp_path) == []


def test_write_never_follows_a_planted_temp_symlink(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "out" / "ev.jsonl"
    out.parent.mkdir()
    for planted in ("ev.jsonl.tmp", "ev.jsonl.part", ".ev.jsonl.tmp"):
        (out.parent / planted).symlink_to(victim)
    EventLog().write(out)
    tournament.write_csv([], out.parent / "t.csv")
    assert victim.read_text() == "precious"
    assert out.is_file() and not out.is_symlink() and (out.parent / "t.csv").is_file()


def test_written_files_get_the_usual_permissions(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        fileio.write_text(tmp_path / "a.txt", "x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o644
    (tmp_path / "b.txt").write_text("old")
    os.chmod(tmp_path / "b.txt", 0o640)
    fileio.write_text(tmp_path / "b.txt", "new")
    assert (tmp_path / "b.txt").read_text() == "new" and stat.S_IMODE((tmp_path / "b.txt").stat().st_mode) == 0o640


@pytest.mark.parametrize("fail", [KeyboardInterrupt(), OSError(errno.ENOSPC, "No space left on device")])
def test_a_failed_write_leaves_nothing_and_keeps_the_old_file(fail: BaseException, tmp_path: Path) -> None:
    target = tmp_path / "ev.jsonl"
    with pytest.raises(type(fail)), fileio.atomic_writer(target) as f:
        f.write("half")
        raise fail
    assert leftovers(tmp_path) == []
    target.write_text("old")
    with pytest.raises(type(fail)), fileio.atomic_writer(target) as f:
        f.write("half")
        raise fail
    assert leftovers(tmp_path) == ["ev.jsonl"] and target.read_text() == "old"


@pytest.mark.parametrize("where", ["fsync", "replace"])
def test_oserror_while_writing_exits_2_with_one_line(where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise OSError(errno.ENOSPC if where == "fsync" else errno.EACCES, os.strerror(errno.ENOSPC)
                      if where == "fsync" else os.strerror(errno.EACCES))

    monkeypatch.setattr(fileio.os, where, refuse)
    target = tmp_path / "ev.jsonl"
    code, _, err = run(["run", KILLHOUSE, "--quiet", "--events", str(target)], capsys)
    assert code == 2
    line = one_line(err)
    assert str(target) in line and ("No space left" in line or "Permission denied" in line)
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["run", KILLHOUSE, "--quiet", "--events", "/dev/full"], capsys)
    assert code == 2 and "/dev/full" in one_line(err) and "No space left" in err
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


# ---------------------------------------------------------------------------------------------- 2 Ctrl-C
def _wait_for(pred, timeout: float) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def _group(pgid: int) -> list[int]:
    """Processes still in the process group `pgid` (a test's child and the workers it started)."""
    out = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat_file.read_text().rsplit(") ", 1)[1].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                out.append(int(stat_file.parent.name))
    return out


def _cleanup(p: subprocess.Popen[bytes]) -> None:
    """Kill what is left of a child started in its own session (and the workers it started)."""
    if p.poll() is None:
        p.kill()
        p.wait()
    for pid in _group(p.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(x) for x in path.read_text().split()] if path.exists() else []


@pytest.mark.skipif(sys.platform != "linux", reason="signals and /proc")
@pytest.mark.parametrize("to", ["parent", "terminal"])
def test_ctrl_c_stops_a_parallel_tournament_at_once(to: str, tmp_path: Path) -> None:
    """Ctrl-C in a terminal signals the whole process group; `kill -INT` only the parent: both stop at once."""
    out_csv = tmp_path / "t.csv"
    err_path = tmp_path / "stderr.txt"
    with err_path.open("wb") as err_file:
        p = subprocess.Popen([sys.executable, "-m", "skirmish", "tournament", "--pairs", "40", "--vs", "random,rush",
                              "--workers", "2", "--csv", str(out_csv), DEPOT], stdout=subprocess.DEVNULL,
                             stderr=err_file, env=child_env(), cwd=tmp_path, start_new_session=True)
        try:
            _wait_for(lambda: b"pairs" in err_path.read_bytes(), 60)
            _wait_for(lambda: len(_children(p.pid)) >= 2, 30)
            time.sleep(0.5)  # pairs in flight
            t0 = time.monotonic()
            if to == "parent":
                p.send_signal(signal.SIGINT)
            else:
                os.killpg(p.pid, signal.SIGINT)
            code = p.wait(timeout=60)
            took = time.monotonic() - t0
            deadline = time.monotonic() + 10
            while _group(p.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
            left = _group(p.pid)  # worker processes still running after the command ended
        finally:
            _cleanup(p)  # never leave a process behind, even when the test fails
    err = err_path.read_bytes().decode()
    assert code == 130 and took < 10, (code, took, err)  # at once: not after the pairs left (40 x 2)
    lines = [x for x in re.split(r"[\r\n]+", err) if x.strip()]
    notes = [x for x in lines if not re.fullmatch(r"\[[#.]+\] \d+/\d+ pairs", x)]
    assert notes == ["skirmish: interrupted"], err
    assert "Traceback" not in err
    assert leftovers(tmp_path) == ["stderr.txt"]  # no CSV, no temporary file
    assert left == []  # the worker processes were stopped, not left running


@pytest.mark.skipif(sys.platform != "linux", reason="signals")
def test_ctrl_c_during_a_run_leaves_no_events_file(tmp_path: Path) -> None:
    events = tmp_path / "ev.jsonl"
    # stdout is a pipe nobody reads after the first line: the battle (JSON lines, ~0.5 MB) cannot finish first
    p = subprocess.Popen([sys.executable, "-m", "skirmish", "run", DEPOT, "--json", "--events", str(events)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env(), cwd=tmp_path,
                         start_new_session=True)
    try:
        assert p.stdout is not None and b"battle_start" in p.stdout.readline()
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        _, err_b = p.communicate(timeout=60)
    finally:
        _cleanup(p)
    assert p.returncode == 130
    assert one_line(err_b.decode()) == "skirmish: interrupted"
    assert leftovers(tmp_path) == []


def test_keyboard_interrupt_is_one_line_and_130(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(self: Battle) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(Battle, "run", interrupted)
    code, _, err = run(["run", KILLHOUSE, "--events", str(tmp_path / "ev.jsonl")], capsys)
    assert code == 130 and one_line(err) == "skirmish: interrupted"
    assert leftovers(tmp_path) == []


# ---------------------------------------------------------------------------------------------- 3, 4 no display
@pytest.mark.skipif(sys.platform != "linux" or os.path.exists("/tmp/.X11-unix/X99"), reason="needs :99 free")
def test_dead_display_plays_headless_with_a_summary() -> None:
    env = child_env(DISPLAY=":99", SDL_VIDEODRIVER=None, WAYLAND_DISPLAY=None)
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, str(ROOT / "run.py")], capture_output=True, text=True, env=env,
                       timeout=90, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    line = one_line(p.stderr)
    assert "no display" in line and "DISPLAY=:99" in line and "headless" in line
    out = p.stdout.strip().splitlines()
    assert out[-1].startswith("result: winner=") and out[-1].endswith("seed=48")
    assert len(out) <= 20  # a summary, not the whole log
    assert any("skirmish run" in x for x in out)
    assert time.monotonic() - t0 < 60


def test_display_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(display.sys, "platform", "linux")
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert display.display_problem() == "neither DISPLAY nor WAYLAND_DISPLAY is set"
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert display.display_problem() == "SDL_VIDEODRIVER=dummy" and not display.has_display()
    monkeypatch.delenv("SDL_VIDEODRIVER")
    monkeypatch.setenv("DISPLAY", "remote.invalid:0")
    monkeypatch.setattr(display, "_DISPLAY_PROBE", "import time; time.sleep(30)")  # a display that never answers
    t0 = time.monotonic()
    assert display.display_problem(timeout=0.5) == "DISPLAY=remote.invalid:0 did not answer within 0.5 s"
    assert time.monotonic() - t0 < 5
    monkeypatch.setattr(display, "_DISPLAY_PROBE", "print('offscreen')")
    assert display.display_problem() == "nothing answers at DISPLAY=remote.invalid:0"
    monkeypatch.setattr(display, "_DISPLAY_PROBE", "raise SystemExit(1)")
    assert display.display_problem() == "DISPLAY=remote.invalid:0 cannot be opened"
    monkeypatch.setattr(display, "_DISPLAY_PROBE", "print('x11')")
    assert display.display_problem() is None


def test_headless_fallback_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["watch", KILLHOUSE, "--seed", "2", "--ai", "Red=hold"], capsys)  # conftest: dummy SDL
    assert code == 0 and "no display" in one_line(err)
    lines = out.strip().splitlines()
    assert len(lines) <= 20
    assert lines[0].startswith("Killhouse drill — ") and ("Victory: " in lines[0] or "Draw after" in lines[0])
    assert any(x.strip().startswith("Blue:") for x in lines) and any(x.strip().startswith("Red:") for x in lines)
    assert lines[-2] == f"the whole explaining log: skirmish run {KILLHOUSE} --seed 2 --ai Red=hold"
    assert lines[-1].startswith("result: winner=") and lines[-1].endswith("seed=2")
    code, full, _ = run(["run", KILLHOUSE, "--seed", "2", "--ai", "Red=hold"], capsys)
    assert full.strip().splitlines()[-1] == lines[-1]  # the same battle as the log the hint names
    assert len(full.splitlines()) > 3 * len(lines)


# ---------------------------------------------------------------------------------------------- 5 tournament
def test_every_pair_is_played_on_every_scenario() -> None:
    paths = [Path("a.yaml"), Path("b.yaml"), Path("c.yaml")]
    jobs = tournament.schedule(paths, ["random", "rush"], 2, first_seed=5)
    assert len(jobs) == 2 * 3 * 2
    for opp in ("random", "rush"):
        for path in paths:
            assert sorted(seed for p, seed, o in jobs if o == opp and p == str(path)) == [5, 6]


def test_tournament_says_what_it_plays(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_pair(scenario_path: str, seed: int, ai: str, opponent: str) -> list[tournament.Game]:
        name = Path(scenario_path).stem
        return [tournament.Game(name, seed, ai, opponent, side, 1.0, 3) for side in (0, 1)]

    monkeypatch.setattr(tournament, "play_pair", fake_pair)
    code, out, err = run(["tournament", "--pairs", "2", "--vs", "random", "--workers", "1", KILLHOUSE, DEPOT], capsys)
    assert code == 0
    head = out.splitlines()[0]
    assert head.startswith("8 games: 1 opponent(s) x 2 scenario(s) x 2 mirrored pair(s) (seeds 1..2")
    assert "4 games per opponent and scenario" in head
    by_scenario = out.split("by scenario")[1].split("by side")[0]
    assert "killhouse_drill" in by_scenario and "depot_breach" in by_scenario
    assert "4/4 pairs" in err
    # the default shares 20 pairs per opponent out over the scenarios
    code, out, _ = run(["tournament", "--vs", "random", "--workers", "1", KILLHOUSE, DEPOT], capsys)
    assert out.startswith("40 games: 1 opponent(s) x 2 scenario(s) x 10 mirrored pair(s)")


# ---------------------------------------------------------------------------------------------- 6 help, --ai, log
def _parsers() -> list[argparse.ArgumentParser]:
    root = cli.build_parser()
    out = [root]
    for action in root._actions:
        if isinstance(action, argparse._SubParsersAction):
            out += list(action.choices.values())
    return out


def test_every_option_has_help_and_no_contract_ids() -> None:
    parsers = _parsers()
    names = {p.prog for p in parsers}
    assert {"skirmish run", "skirmish deck", "skirmish check", "skirmish bench", "skirmish tournament",
            "skirmish watch", "skirmish play", "skirmish menu"} <= names
    for parser in parsers:
        for action in parser._actions:
            assert action.help, f"{parser.prog} {action.option_strings or action.dest}: no help text"
        text = parser.format_help()
        assert not re.search(r"\bC-\d", text), f"{parser.prog} --help names a contract id"


@pytest.mark.parametrize("command", ["watch", "play"])
def test_board_commands_take_ai(command: str, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    class FakeApp:
        def __init__(self, **kwargs: object) -> None:
            seen.update(kwargs)

        def run(self, max_frames: int | None = None) -> int:
            return 0

    import skirmish.ui.app

    monkeypatch.setattr(display, "display_problem", lambda: None)
    monkeypatch.setattr(skirmish.ui.app, "App", FakeApp)
    code, _, _ = run([command, KILLHOUSE, "--ai", "Red=hold"], capsys)
    assert code == 0 and seen["ai"] == {"Red": "hold"}
    code, _, err = run([command, KILLHOUSE, "--ai", "Red=genius"], capsys)
    assert code == 2 and "Red=genius" in one_line(err)
    if command == "play":
        code, _, err = run(["play", KILLHOUSE, "--side", "Red", "--ai", "Red=hold"], capsys)
        assert code == 2 and "Red" in one_line(err)


def test_the_board_session_uses_the_given_ai(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))
    from skirmish.ai.controllers import BaselineAI
    from skirmish.ui.app import App
    from skirmish.ui.battle import BattleScreen

    scenario = load_scenario(KILLHOUSE)
    app = App(scenario=scenario, seed=2, controls={"Blue": "ai", "Red": "ai"}, size=(1000, 650),
              ai={"Red": "hold"})
    try:
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        assert isinstance(screen.session.controllers["Red"], BaselineAI)
        assert not isinstance(screen.session.controllers["Blue"], BaselineAI)
    finally:
        app.close()


def test_battle_start_line_names_the_deck_only_with_cards() -> None:
    scenario = load_scenario(KILLHOUSE)
    lines = {}
    for mode in ("cards", "dice"):
        with Battle(scenario.with_options(randomizer=mode), seed=1) as b:
            lines[mode] = describe(b.log[0])
    assert "| cards (deck " in lines["cards"]
    assert "| dice |" in lines["dice"] and "(A)" not in lines["dice"] and "deck" not in lines["dice"]


# ---------------------------------------------------------------------------------------------- 7 bad values
@pytest.mark.parametrize("argv", [
    ["run", "--seed", "-1"], ["run", "--seed", "1e3"], ["run", "--seed", str(2**63)], ["run", "--seed", ""],
    ["watch", "--seed", "-5"], ["play", "--seed", "x"], ["watch", "--frames", "0"],
    ["bench", "--battles", "0"], ["bench", "--battles", "-2"], ["bench", "--repeat", "0"],
    ["bench", "--board", "--frames", "-1"], ["bench", "--battles", "99999999999999999999"],
    ["tournament", "--workers", "-3"], ["tournament", "--pairs", "0"], ["tournament", "--seed", "-1"],
    ["tournament", "--vs", ""], ["tournament", "--seed", str(2**63 - 1), "--pairs", "2", KILLHOUSE],
    ["run", "--no-such-option"], ["no-such-command"], ["deck", "--name", "C"],
])
def test_bad_values_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert one_line(err).startswith("skirmish")
