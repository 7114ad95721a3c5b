"""The armed grav-car scenario played (issue 13 item 7): scenarios/fw/convoy_ambush.yaml passes `skirmish check`,
a soak under the fw invariants (tests/test_fw_soak.py's) and the cars' (tests/test_fw_grav_play.py's) plus the
mounts' own (one gunner a mount, aboard its car; the mount's weapon fired at the mounted chance; the car's
weapon points never below what its mounts draw, the split never above G; the rider's tacpack pays nothing for
a mount's shot), with the utility AI working the hauler's support gun; the same seed gives the same events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.flow import Hooks
from skirmish.ecs.fw_components import FwCar, FwRound
from skirmish.rulesets.fw import tables
from tests.conftest import cli
from tests.test_fw_grav_play import _car_invariants
from tests.test_fw_soak import test_fw_battles_keep_their_invariants_and_end as fw_soak

CONVOY = SCENARIOS_DIR / "fw" / "convoy_ambush.yaml"


def test_the_convoy_ambush_passes_check() -> None:
    code, out, err = cli("check", str(CONVOY))
    assert code == 0 and "'Convoy ambush'" in out, err


def _mount_invariants(b: Battle) -> None:
    for ceid in b.sys.ctx.cars:
        c = b.world.peek(ceid, FwCar)
        t = tables().grav_cars[c.car_type]
        budget = c.weapons if c.drives else t.generator - c.screen_points - c.ew
        assert 0 <= c.drawn <= budget, (c.name, c.drawn, budget)
        for mid, gunner in c.gunners.items():
            assert t.mount(mid) is not None
            plan = b.world.peek(b.world.entity(gunner), FwRound)
            assert plan.mount == mid and plan.shots == 0  # the car pays, not the rider's tacpack
        for mid, fired in c.fired.items():
            m = t.mount(mid)
            assert m is not None and 0 < fired <= m.rounds  # no more missiles than the rack holds


@pytest.mark.parametrize("seed", range(1, 5))
def test_the_convoy_ambush_keeps_the_fw_invariants(seed: int) -> None:
    fw_soak("convoy_ambush", seed)  # every fw invariant (tests/test_fw_soak.py), the baselines on both sides


@pytest.mark.parametrize(("seed", "convoy", "raiders"), [(1, "utility", "hold"), (2, "utility", "focus"),
                                                        (3, "search", "hold")])
def test_the_ai_works_the_support_gun_under_the_mounts_invariants(seed: int, convoy: str, raiders: str) -> None:
    sc = load_scenario(CONVOY)
    hooks = Hooks()
    state: dict[str, Any] = {}

    def check() -> None:
        _car_invariants(state["b"])
        _mount_invariants(state["b"])

    hooks.add("action", lambda step, actor, answer: check())
    hooks.add("round_end", check)
    with Battle(sc, seed=seed, controllers={"Convoy": make_ai(convoy, "fw"), "Raiders": make_ai(raiders, "fw")},
                hooks=hooks) as b:
        state["b"] = b
        b.run()
        assert b.outcome is not None
        shots = [e for e in b.log.events if e.type == "fw_attack" and e.mount]
        assert shots and all(e.mount == "Mule's support gun" and e.actor != "Voss" for e in shots)  # (passengers)
        for e in shots:  # Kade's support skill 50; a passenger without one at the mounted 20% (R-9.5)
            assert e.weapon == "semi_portable" and e.base == (50 if e.actor == "Kade" else 20) and "R-9.12" in e.rules
        assert not any(e.type == "refused" for e in b.log.events)


def test_the_same_seed_gives_the_same_battle() -> None:
    logs = []
    for _ in range(2):
        sc = load_scenario(CONVOY)
        with Battle(sc, seed=7, controllers={"Convoy": make_ai("utility", "fw"),
                                             "Raiders": make_ai("utility", "fw")}) as b:
            b.run()
            logs.append(b.log.jsonl())
    assert logs[0] == logs[1] and '"mount"' in logs[0]


def test_a_record_of_the_utility_convoy_replays_with_its_mount_fire(tmp_path: Path) -> None:
    rec = tmp_path / "convoy.rec"
    code, out, err = cli("run", str(CONVOY), "--seed", "2", "--ai", "Convoy=utility", "--ai", "Raiders=hold",
                         "--record", str(rec), timeout=300)
    assert code == 0, err
    code, again, err = cli("replay", str(rec), timeout=300)
    assert code == 0, err
    assert again.strip().splitlines()[-1] == out.strip().splitlines()[-1]
    assert "from the Mule's support gun" in again


def test_a_record_of_the_search_convoy_replays(tmp_path: Path) -> None:
    """review8b: the fw search AI's traces (the `decision` events a record keeps) carried a "utility score" key the
    decision event does not have, so a record of any battle it played was refused on replay (exit 2, "unknown
    key"); its utility score is one of the trace's considerations, as the FI search tier writes it."""
    rec = tmp_path / "convoy.rec"
    code, out, err = cli("run", str(CONVOY), "--seed", "2", "--ai", "Convoy=search", "--ai", "Raiders=hold",
                         "--record", str(rec), timeout=300)
    assert code == 0, err
    code, again, err = cli("replay", str(rec), timeout=300)
    assert code == 0, err
    assert again.strip().splitlines()[-1] == out.strip().splitlines()[-1]
    assert "search: utility score" in rec.read_text(encoding="utf-8")
