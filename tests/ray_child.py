"""The Ray backend's checks, run by tests/test_sim_ray.py in a child process (not collected by pytest).

Ray's core worker ends the process that started it when it loses its local services (on a machine loaded far
past its cores, a missed heartbeat is enough), so the checks run here, where that ends only this child: the
parent reads the JSON line this prints — each case's outcome, or why Ray could not start — and reports it.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from skirmish.ai import tournament  # noqa: E402
from skirmish.cli import main  # noqa: E402
from skirmish.content.scenario import SCENARIOS_DIR  # noqa: E402

KILLHOUSE = SCENARIOS_DIR / "killhouse_drill.yaml"


def _sim(args: list[str]) -> None:
    try:
        main(["sim", *args])
    except SystemExit as exc:
        assert exc.code == 0, f"skirmish sim {' '.join(args)} exited {exc.code}"
    else:
        raise AssertionError("skirmish sim returned without exiting")


def same_battles_csv() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        common = [str(KILLHOUSE), "--battles", "20", "--seed", "11", "--ai", "Red=utility:easy", "--workers", "2"]
        _sim([*common, "--out", str(out / "local")])
        _sim([*common, "--backend", "ray", "--out", str(out / "ray")])
        local = (out / "local" / "battles.csv").read_bytes()
        assert (out / "ray" / "battles.csv").read_bytes() == local, "battles.csv differs between ray and local"
        lines = local.count(b"\n")
        assert lines == 21, f"{lines} lines in battles.csv, expected 21"
        assert (out / "ray" / "summary.json").read_bytes() == (out / "local" / "summary.json").read_bytes()


def same_tournament() -> None:
    args = ([KILLHOUSE], "utility:easy", ["rush"], 3)
    local = tournament.run(*args, workers=1, first_seed=4)
    on_ray = tournament.run(*args, workers=2, first_seed=4, backend="ray")
    assert on_ray == local and len(local) == 6, f"ray {on_ray!r} != local {local!r}"


def errors_come_back() -> None:
    import re

    from skirmish.sim.backend import map_jobs

    try:
        map_jobs(tournament.play_pair, [(str(KILLHOUSE), 1, "genius", "hold")], backend="ray")
    except ValueError as exc:
        assert "unknown AI 'genius'" in str(exc), str(exc)
    else:
        raise AssertionError("an unknown AI in a Ray task raised nothing")
    try:
        map_jobs(tournament.play_pair, [(str(KILLHOUSE.with_name("nope.yaml")), 1, "rush", "hold")], backend="ray")
    except RuntimeError as exc:  # a ContentError does not unpickle: its last line comes back
        assert re.search(r"a Ray task failed: .*nope\.yaml: file not found", str(exc)), str(exc)
    else:
        raise AssertionError("a missing scenario in a Ray task raised nothing")


CASES = {"same_battles_csv": same_battles_csv, "same_tournament": same_tournament,
         "errors_come_back": errors_come_back}


def run() -> dict[str, str]:
    try:
        import ray
    except ImportError:
        return {"skip": "Ray is not installed (pip install 'skirmish[scale]')"}
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR,
                 runtime_env={"env_vars": {"PYTHONPATH": path}})
    except Exception as exc:  # a machine where Ray cannot start (no shared memory, no ports)
        return {"skip": f"Ray cannot start here: {exc}"}
    outcome: dict[str, str] = {}
    try:
        for name, case in CASES.items():
            try:
                case()
                outcome[name] = "ok"
            except Exception:
                outcome[name] = "failed: " + traceback.format_exc(limit=4)
            print(json.dumps({name: outcome[name]}), flush=True)  # each case as it ends: a later crash keeps it
    finally:
        ray.shutdown()
    return outcome


if __name__ == "__main__":
    print(json.dumps(run()), flush=True)
