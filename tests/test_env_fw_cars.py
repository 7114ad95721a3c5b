"""Grav cars in the Future*World action table (issue 13: the RL environment plays fw as the board does; R-9.12;
docs/RL.md "Future*World"): mount, dismount, a driver's drive with its car split and a rider's fire from its
car's mount have indices after the table's own, masked from fw legality exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from skirmish.env import env, raw_env
from skirmish.env.fw_actions import FwActionTable
from skirmish.env.game import Game
from skirmish.rulesets.fw import FwIntent

FW = Path(__file__).resolve().parents[1] / "scenarios" / "fw"
SCOUT, CONVOY, RELAY = FW / "scout_run.yaml", FW / "convoy_ambush.yaml", FW / "relay_station.yaml"
CAR_BLOCKS = ("mount", "dismount", "drive", "mountfire")
pytestmark = pytest.mark.filterwarnings("ignore:Observation is not a NumPy array", "ignore:.*gymnasium.spaces.box.*")


def _car_index(table: FwActionTable, i: int) -> bool:
    return table._locate(i)[0].name in CAR_BLOCKS


def _is_car(a: object) -> bool:
    return isinstance(a, FwIntent) and (a.act in ("mount", "dismount", "drive") or a.mount is not None)


def test_the_car_blocks_follow_the_tables_own_and_leave_its_indices_standing() -> None:
    relay = Game(RELAY, seed=1).table  # no car: no car block, the table as it was
    assert [b.name for b in relay.blocks] == ["intent", "jump", "move", "end"] and relay.size == 24705
    t = Game(CONVOY, seed=1).table
    names = [b.name for b in t.blocks]
    assert names == ["intent", "jump", "move", "end", *CAR_BLOCKS]
    assert t.block["mount"].start == t.block["end"].stop and t.size == t.block["mountfire"].stop
    # The hauler has no screen: its drive is all to movement; the support gun is the one mount.
    assert t.car.cars == ("Mule",) and t.car.splits == (("none", 0),) and t.car.mounts == ("support_gun",)
    s = Game(SCOUT, seed=1).table
    assert s.car.splits == (("none", 0), ("kinetic", 30), ("diffusion", 30), ("magnetic", 30))
    assert "mountfire" not in s.block  # the scout car carries no weapon mount
    i = s._at("drive", s.car.seconds.index(("shoot", "Quell")), 3)
    drive = s.decode(i, "Rhee")  # drive, then shoot at half DEX, the car's screen magnetic at its most
    assert isinstance(drive, FwIntent) and (drive.act, drive.then, drive.then_target) == ("drive", "shoot", "Quell")
    assert (drive.car_screen, drive.car_points, drive.screen) == ("magnetic", 30, s.kits["Rhee"].default_screen)
    assert s.encode(drive) == i
    for block in CAR_BLOCKS:  # every car index decodes to a declaration that encodes back to it
        b = t.block[block]
        for i in range(b.start, b.stop):
            a = t.decode(i, "Kade")
            assert _is_car(a) and t.encode(a) == i, t.describe(i, "Kade")
    with pytest.raises(KeyError):  # a split the table has no row for
        t.encode(FwIntent("Voss", "drive", car_weapons=5))
    with pytest.raises(KeyError):
        t.encode(FwIntent("Voss", "mount", "Skiff"))


@pytest.mark.parametrize(("scenario", "seed"), [(SCOUT, 1), (SCOUT, 4), (CONVOY, 2), (CONVOY, 5)])
def test_the_car_mask_is_the_listed_car_intents_and_each_is_accepted(scenario: Path, seed: int) -> None:
    aec = raw_env(scenario, seed=seed)
    aec.reset()
    battle, table = aec.battle, aec.table
    rng = np.random.default_rng(seed)
    taken: dict[str, int] = {}
    listed_car = 0
    while battle.pending is not None:
        req, agent = battle.pending, aec.agent_selection
        mask = aec.observe(agent)["action_mask"]
        legal = list(battle.legal_actions(req.unit).actions())
        cars = {table.encode(a) for a in legal if _is_car(a)}  # every listed car/mount intent has its index
        listed_car += len(cars)
        on = {int(i) for i in np.flatnonzero(mask)}
        on_car = {i for i in on if _car_index(table, i)}
        assert cars <= on_car
        for i in on_car - cars:  # beyond the list only a listed drive's or mount fire's others (put to the rules)
            a = table.decode(i, req.unit)
            assert isinstance(a, FwIntent) and (a.act == "drive" or a.mount is not None)
            assert any(table.block["dismount"].start <= j for j in cars)  # a figure aboard
        for i in on_car:
            assert battle.check(table.decode(i, req.unit)) is None, table.describe(i, req.unit)
        off = [i for i in range(table.block["mount"].start, table.size) if i not in on]
        for i in rng.choice(off, size=min(30, len(off)), replace=False):
            assert battle.check(table.decode(int(i), req.unit)) is not None, table.describe(int(i), req.unit)
        pick = sorted(on_car) if on_car and rng.random() < 0.5 else sorted(on)
        i = int(rng.choice(pick))
        name = table._locate(i)[0].name
        taken[name] = taken.get(name, 0) + 1
        aec.step(i)
        assert "refused" not in aec.infos.get(agent, {}), table.describe(i, req.unit)
    assert battle.outcome is not None and listed_car > 0
    assert not any(e.type == "refused" for e in battle.log.events)
    assert taken.get("drive", 0) + taken.get("mountfire", 0) > 0 and taken.get("move", 0) > 0
    if scenario == CONVOY:
        assert taken.get("mountfire", 0) > 0  # the support gun fired from its mount
        assert any("support" in e.to_line() for e in battle.log.events)


def test_a_random_masked_agent_mounts_again_after_leaving() -> None:
    """Dismount then mount: the rider on the ground next to its car gets the mount index (R-9.12)."""
    aec = raw_env(SCOUT, seed=3)
    aec.reset()
    battle, table = aec.battle, aec.table
    rng = np.random.default_rng(3)
    kinds: set[str] = set()
    while battle.pending is not None and not {"mount", "dismount"} <= kinds:
        req, agent = battle.pending, aec.agent_selection
        on = np.flatnonzero(aec.observe(agent)["action_mask"])
        for name in ("mount", "dismount"):
            b = table.block[name]
            hit = [int(i) for i in on if b.start <= i < b.stop]
            if hit:
                i = hit[0]
                break
        else:
            i = int(rng.choice(on))
        name = table._locate(i)[0].name
        if name in ("mount", "dismount") and battle.check(table.decode(i, req.unit)) is None:
            kinds.add(name)
        aec.step(i)
        assert "refused" not in aec.infos.get(agent, {})
    assert {"mount", "dismount"} <= kinds
    assert any("mount" in e.to_line() for e in battle.log.events)


def test_pettingzoo_api_test_passes_on_the_car_scenarios() -> None:
    for scenario in (SCOUT, CONVOY):
        aec = env(scenario, seed=2)
        for i, agent in enumerate(aec.possible_agents):  # api_test samples from them: seeded, so a run is repeatable
            aec.action_space(agent).seed(i)
            aec.observation_space(agent).seed(i)
        api_test(aec, num_cycles=200)
