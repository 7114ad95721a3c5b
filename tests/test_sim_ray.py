"""The Ray backend (issue 15 item 5): the same battles.csv as the local backend for 20 seeds, the tournament on the
same switch, and task errors brought back. The checks run in one child process (tests/ray_child.py: Ray started
once, 2 CPUs, no dashboard): Ray's core worker ends the process that started it when it loses its local services,
which on a machine loaded far past its cores once ended the whole test run with no summary. Each case passes or
fails on what the child printed for it; the cases are skipped, with the reason, only when Ray is not installed or
cannot start, or when Ray itself ended the child before a case had run (its last lines are in the reason)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHILD = Path(__file__).with_name("ray_child.py")
TIMEOUT_S = 900


@cache
def _child() -> tuple[dict[str, str], str, int]:
    """What the child printed for each case (or a `skip`), the tail of its output, and its exit status."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    try:
        done = subprocess.run([sys.executable, str(CHILD)], capture_output=True, text=True, env=env,
                              timeout=TIMEOUT_S, cwd=ROOT)
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"").decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return _read(out), f"timed out after {TIMEOUT_S} s", -1
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-8:])
    return _read(done.stdout), tail, done.returncode


def _read(stdout: str) -> dict[str, str]:
    seen: dict[str, str] = {}
    for line in stdout.splitlines():
        if line.startswith("{"):
            try:
                seen.update(json.loads(line))
            except json.JSONDecodeError:
                continue
    return seen


def _case(name: str) -> None:
    seen, tail, status = _child()
    if "skip" in seen:
        pytest.skip(seen["skip"])
    if name not in seen:
        if status != 0 and "ray" in tail.lower():  # Ray ended the child (lost its services) before this case ran
            pytest.skip(f"Ray ended its process before {name} ran (exit {status}): {tail}")
        pytest.fail(f"the Ray child printed nothing for {name} (exit {status}):\n{tail}")
    assert seen[name] == "ok", seen[name]


def test_ray_gives_the_same_battles_csv_as_local() -> None:
    _case("same_battles_csv")


def test_the_tournament_on_ray_plays_the_same_games() -> None:
    _case("same_tournament")


def test_an_error_in_a_ray_task_is_raised_as_itself() -> None:
    _case("errors_come_back")


def test_a_case_the_child_failed_fails_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parent's reading: a failed case fails with the child's message, a missing one fails unless Ray ended it."""
    monkeypatch.setattr(sys.modules[__name__], "_child", lambda: ({"same_tournament": "failed: boom"}, "", 0))
    with pytest.raises(AssertionError, match="boom"):
        _case("same_tournament")
    with pytest.raises(pytest.fail.Exception, match="printed nothing"):
        _case("errors_come_back")
    monkeypatch.setattr(sys.modules[__name__], "_child", lambda: ({}, "raylet died: GCS lost", 1))
    with pytest.raises(pytest.skip.Exception, match="Ray ended its process"):
        _case("errors_come_back")
