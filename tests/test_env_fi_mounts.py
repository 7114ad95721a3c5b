"""The RL table's mount blocks (R-6.1 mounts; issue 14, revmount10; docs/RL.md): `mount[m]` and `dismount[y, x]` come
last, after `off_shot` (every earlier index stands), only in a scenario with `mounts:`; each index decodes to
`mount U NAME` / `dismount U to=X,Y` and back; on the outriders' riverbed every mask bit of them agrees with
`Battle.check` in battles that take them; PettingZoo's api_test passes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from skirmish.env import env, raw_env
from skirmish.env.fi_actions import FiActionTable
from skirmish.rulesets.fi import Dismount, Mount

ROOT = Path(__file__).resolve().parents[1]
OUTRIDERS = ROOT / "scenarios" / "fi" / "outriders.yaml"
GUNSLINGERS = ROOT / "scenarios" / "fi" / "gunslingers.yaml"
pytestmark = pytest.mark.filterwarnings("ignore:Observation is not a NumPy array", "ignore:.*gymnasium.spaces.box.*")


def test_the_mount_blocks_are_last_and_round_trip() -> None:
    table = raw_env(OUTRIDERS, seed=1).table
    assert isinstance(table, FiActionTable)
    mount, dismount = table.block["mount"], table.block["dismount"]
    assert table.blocks[-2:] == [mount, dismount] or tuple(table.blocks[-2:]) == (mount, dismount)
    assert mount.start == table.block["launch"].stop and dismount.start == mount.stop
    assert table.mounts == ("Bike-1", "Bike-2", "Horse") and dismount.shape == (table.height, table.width)
    for i in range(mount.start, dismount.stop):
        a = table.decode(i, "Scout")
        assert isinstance(a, Mount | Dismount) and table.encode(a) == i
    assert table.decode(mount.start + 2, "Scout") == Mount("Scout", "Horse")
    assert table.decode(dismount.start + 3 * table.width + 5, "Scout") == Dismount("Scout", to=(5, 3))
    plain = raw_env(GUNSLINGERS, seed=1).table  # no mounts: no blocks, the table ends with `launch`
    assert "mount" not in plain.block and plain.blocks[-1] is plain.block["launch"]
    with pytest.raises(KeyError):
        plain.encode(Mount("Calloway", "Bike-1"))


@pytest.mark.parametrize("seed", [1, 2])
def test_every_mount_mask_bit_agrees_with_the_battles_check(seed: int) -> None:
    aec = raw_env(OUTRIDERS, seed=seed)
    aec.reset()
    battle, table = aec.battle, aec.table
    lo, hi = table.block["mount"].start, table.block["dismount"].stop
    rng = np.random.default_rng(seed)
    taken = n = 0
    while battle.pending is not None and n < 150:
        req = battle.pending
        mask = aec.observe(aec.agent_selection)["action_mask"]
        for i in range(lo, hi):
            refusal = battle.check(table.decode(i, req.unit))
            assert (refusal is None) == bool(mask[i]), f"{table.describe(i)}: mask {mask[i]}, check {refusal}"
        ours = np.flatnonzero(mask[lo:hi])
        if len(ours) and rng.random() < 0.7:
            pick = lo + int(rng.choice(ours))
            taken += 1
        else:
            pick = int(rng.choice(np.flatnonzero(mask)))
        refused = sum(e.type == "refused" for e in battle.log.events)
        aec.step(pick)
        assert sum(e.type == "refused" for e in battle.log.events) == refused
        n += 1
    assert taken > 0 and any(e.type in ("mount", "dismount") for e in battle.log.events)


def test_pettingzoo_api_test_passes_on_the_outriders() -> None:
    aec = env(OUTRIDERS, seed=3)
    for i, agent in enumerate(aec.possible_agents):
        aec.action_space(agent).seed(i)
        aec.observation_space(agent).seed(i)
    api_test(aec, num_cycles=300)


# ---------------------------------------------------------------------------------------------- the observation
def test_the_observation_has_mount_planes_only_with_mounts() -> None:
    from skirmish.env import CHANNELS
    from skirmish.env.observation import MOUNT_CHANNELS

    aec = raw_env(OUTRIDERS, seed=1)
    aec.reset()
    assert aec.channels == (*CHANNELS, *MOUNT_CHANNELS) and MOUNT_CHANNELS == ("mount", "mounted", "mount_walk")
    assert aec.observation_space("side_0")["observation"].shape == (10, 34, len(CHANNELS) + 3)
    plain = raw_env(GUNSLINGERS, seed=1)  # no mounts: the planes as they were
    plain.reset()
    assert plain.channels == CHANNELS and plain.observation_space("side_0")["observation"].shape[2] == len(CHANNELS)
    assert plain.observe("side_0")["observation"].shape[2] == len(CHANNELS)


def _planes(aec, agent: str) -> dict[str, set[tuple[int, int]]]:  # type: ignore[no-untyped-def]
    obs = aec.observe(agent)["observation"]
    return {name: {(int(x), int(y)) for y, x in zip(*np.nonzero(obs[..., aec.channels.index(name)]), strict=True)}
            for name in ("mount", "mounted", "mount_walk")}


def test_the_mount_planes_show_the_sides_own_view() -> None:
    aec = raw_env(OUTRIDERS, seed=1)
    aec.reset()
    obs = aec.observe("side_0")["observation"]
    walk = aec.channels.index("mount_walk")
    planes = _planes(aec, "side_0")
    assert planes["mount"] == {(2, 3), (2, 6)}  # the two bikes, riderless
    assert planes["mounted"] == {(4, 5)}  # the sergeant on the horse
    assert planes["mount_walk"] == {(2, 3), (2, 6), (4, 5)}
    assert obs[5, 4, walk] == pytest.approx(16 / 30) and obs[3, 2, walk] == pytest.approx(1.0)
    rng = np.random.default_rng(4)
    for _ in range(200):  # through a random masked battle: each side's planes are its own view's mounts
        if aec.battle.pending is None:
            break
        for agent, side in aec.game.side_of.items():
            view = aec.battle.observe(side)
            planes = _planes(aec, agent)
            assert planes["mount"] == {m.cell for m in view.mounts if m.rider is None}
            assert planes["mounted"] == {m.cell for m in view.mounts if m.rider is not None}
            assert planes["mount_walk"] == {m.cell for m in view.mounts}
        mask = aec.observe(aec.agent_selection)["action_mask"]
        aec.step(int(rng.choice(np.flatnonzero(mask))))
