"""The Ray backend (issue 15 item 5): the same battles.csv as the local backend for 20 seeds, and the tournament
on the same switch. Ray is started once for the module (2 CPUs, no dashboard) and shut down after; the tests
are skipped, with the reason, only when Ray is not installed or cannot start."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from skirmish.ai import tournament
from skirmish.cli import main
from skirmish.content.scenario import SCENARIOS_DIR

KILLHOUSE = SCENARIOS_DIR / "killhouse_drill.yaml"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def ray_running() -> Iterator[None]:
    try:
        import ray
    except ImportError:
        pytest.skip("Ray is not installed (pip install 'skirmish[scale]')")
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
                 runtime_env={"env_vars": {"PYTHONPATH": path}})
    except Exception as exc:  # a machine where Ray cannot start (no shared memory, no ports)
        pytest.skip(f"Ray cannot start here: {exc}")
    try:
        yield
    finally:
        ray.shutdown()


def _sim(args: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["sim", *args])
    assert exc.value.code == 0


def test_ray_gives_the_same_battles_csv_as_local(ray_running: None, tmp_path: Path) -> None:
    common = [str(KILLHOUSE), "--battles", "20", "--seed", "11", "--ai", "Red=utility:easy", "--workers", "2"]
    _sim([*common, "--out", str(tmp_path / "local")])
    _sim([*common, "--backend", "ray", "--out", str(tmp_path / "ray")])
    local = (tmp_path / "local" / "battles.csv").read_bytes()
    assert (tmp_path / "ray" / "battles.csv").read_bytes() == local
    assert local.count(b"\n") == 21
    assert (tmp_path / "ray" / "summary.json").read_bytes() == (tmp_path / "local" / "summary.json").read_bytes()


def test_the_tournament_on_ray_plays_the_same_games(ray_running: None) -> None:
    args = ([KILLHOUSE], "utility:easy", ["rush"], 3)
    local = tournament.run(*args, workers=1, first_seed=4)
    on_ray = tournament.run(*args, workers=2, first_seed=4, backend="ray")
    assert on_ray == local and len(local) == 6


def test_an_error_in_a_ray_task_is_raised_as_itself(ray_running: None) -> None:
    from skirmish.sim.backend import map_jobs

    with pytest.raises(ValueError, match="unknown AI 'genius'"):
        map_jobs(tournament.play_pair, [(str(KILLHOUSE), 1, "genius", "hold")], backend="ray")
    # an error Ray cannot bring back as itself (a ContentError does not unpickle): its last line
    with pytest.raises(RuntimeError, match=r"a Ray task failed: .*nope\.yaml: file not found"):
        map_jobs(tournament.play_pair, [(str(KILLHOUSE.with_name("nope.yaml")), 1, "rush", "hold")], backend="ray")
