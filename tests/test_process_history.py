"""A battle's events do not depend on what ran before it in the process (R-10.1, C-5): what is kept per map
content (rules/map_state.py), per weapon and per curve is shared by every battle of a process, so a tournament
worker plays its hundredth battle on a map with warm tables. The same battle is played in a fresh process and
again here after other battles on the same and other maps, with other AIs; the logs must be equal byte for byte."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

ROOT = Path(__file__).resolve().parents[1]


def _play(name: str, seed: int, ai: str) -> str:
    sc = load_scenario(SCENARIOS_DIR / name)
    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
        b.run()
        return b.log.jsonl()


@pytest.mark.parametrize(("name", "seed", "ai"), [("killhouse_drill.yaml", 3, "utility"),
                                                  ("rubble_run.yaml", 2, "hold")])
def test_a_battle_after_others_in_the_process_equals_the_same_battle_in_a_fresh_process(
        name: str, seed: int, ai: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    sides = [s.name for s in load_scenario(SCENARIOS_DIR / name).spec.sides]
    p = subprocess.run([sys.executable, "-m", "skirmish", "run", str(SCENARIOS_DIR / name), "--seed", str(seed),
                        *[a for side in sides for a in ("--ai", f"{side}={ai}")], "--json"],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    fresh = p.stdout
    for other, s, a in ((name, seed + 1, "utility"), (name, seed + 2, "hold"), ("depot_breach.yaml", 1, "utility"),
                        (name, seed + 3, "focus")):
        _play(other, s, a)  # warm every kept table of this map and others, from other battles
    warm = _play(name, seed, ai)
    assert warm.count("\n") > 20
    assert warm == fresh
