"""The RL table's off-hand block (R-6.12 two weapons; docs/RL.md): `off_shot[target, mode, burst]` comes after every
earlier block (their indices stand), each index decodes to `shoot … hand=off` and back, and on the gunslingers'
street every mask bit of it agrees with `Battle.check` in battles that take it; PettingZoo's api_test passes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from skirmish.env import env, raw_env
from skirmish.env.fi_actions import FiActionTable
from skirmish.rules.actions import Shoot

ROOT = Path(__file__).resolve().parents[1]
GUNSLINGERS = ROOT / "scenarios" / "fi" / "gunslingers.yaml"
pytestmark = pytest.mark.filterwarnings("ignore:Observation is not a NumPy array", "ignore:.*gymnasium.spaces.box.*")


def test_the_off_hand_block_is_last_and_round_trips() -> None:
    table = raw_env(GUNSLINGERS, seed=1).table
    assert isinstance(table, FiActionTable)
    block = table.block["off_shot"]
    assert table.blocks[-2] is block and block.start == table.block["reserve"].stop  # the launch block after it
    assert table.blocks[-1].name == "launch" and table.blocks[-1].start == block.stop
    assert block.shape == (len(table.units), len(table.modes), len(table.bursts))
    for i in range(block.start, block.stop):
        a = table.decode(i, "Calloway")
        assert isinstance(a, Shoot) and a.hand == "off" and table.encode(a) == i
    main = table.encode(Shoot("Calloway", "Voss", mode="snap"))
    assert main < block.start and table.decode(main, "Calloway").hand == ""
    for bad in (Shoot("Calloway", "Voss", hand="off", called="head"), Shoot("Calloway", "Voss", hand="off", double_tap=True)):
        with pytest.raises(KeyError):
            table.encode(bad)
    default = raw_env(None, seed=1).table  # the default scenario's earlier numbers stand (docs/RL.md)
    assert (default.block["end"].start, default.block["contest"].start) == (3930, 3931)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_off_hand_mask_bit_agrees_with_the_battles_check(seed: int) -> None:
    aec = raw_env(GUNSLINGERS, seed=seed)
    aec.reset()
    battle, table = aec.battle, aec.table
    block = table.block["off_shot"]
    rng = np.random.default_rng(seed)
    fired = n = 0
    while battle.pending is not None and n < 120:
        req = battle.pending
        mask = aec.observe(aec.agent_selection)["action_mask"]
        for i in range(block.start, block.stop):
            refusal = battle.check(table.decode(i, req.unit))
            assert (refusal is None) == bool(mask[i]), f"{table.describe(i)}: mask {mask[i]}, check {refusal}"
        offs = np.flatnonzero(mask[block.start:block.stop])
        if len(offs) and rng.random() < 0.6:
            pick = block.start + int(rng.choice(offs))
            fired += 1
        else:
            pick = int(rng.choice(np.flatnonzero(mask)))
        refused = sum(e.type == "refused" for e in battle.log.events)
        aec.step(pick)
        assert sum(e.type == "refused" for e in battle.log.events) == refused
        n += 1
    assert fired > 0


def test_pettingzoo_api_test_passes_on_the_gunslingers() -> None:
    aec = env(GUNSLINGERS, seed=3)
    for i, agent in enumerate(aec.possible_agents):
        aec.action_space(agent).seed(i)
        aec.observation_space(agent).seed(i)
    api_test(aec, num_cycles=300)
