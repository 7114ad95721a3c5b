"""The RL table's Future Imperfect close fight and card hands (issue 14; docs/RL.md "Future Imperfect: melee and card
hands"): the new blocks come after the old ones (every earlier index stands), every mask bit agrees with
`Battle.check` over random battles that take the new actions, and PettingZoo's and Gymnasium's checks pass on the
boarding action (melee, martial arts) and the killhouse with card hands."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.env import CHANNELS, SingleAgentEnv, env, raw_env
from skirmish.env.actions import ActionTable
from skirmish.env.fi_actions import FiActionTable, hand_keeps
from skirmish.rulesets import fi

ROOT = Path(__file__).resolve().parents[1]
BOARDING = ROOT / "scenarios" / "fi" / "boarding_action.yaml"
HANDS = ROOT / "scenarios" / "fi" / "killhouse_hands.yaml"
NEW = ("blow", "charge", "close", "open", "entangle", "trip", "defend", "break", "rise", "hand", "reserve")
pytestmark = pytest.mark.filterwarnings("ignore:Observation is not a NumPy array", "ignore:.*gymnasium.spaces.box.*")


def _near(table: FiActionTable, battle: Battle, unit: str) -> list[int]:
    """Indices worth putting to `check` every step: every index of the small new blocks, the defences stepping to
    a cell next to `unit`, the charges to a cell next to each figure (the rest of those blocks is far away)."""
    out = [i for name in ("blow", "close", "open", "entangle", "trip", "break", "rise", "hand", "reserve")
           for i in range(table.block[name].start, table.block[name].stop)]
    view = battle.view()
    here = view.unit(unit).cell
    around = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    cells = table.width * table.height
    for s in range(len(table.defend_skills)):
        out.append(table._at("defend", s, 0))
        out += [table._at("defend", s, 1 + (here[1] + dy) * table.width + here[0] + dx) for dx, dy in around
                if 0 <= here[0] + dx < table.width and 0 <= here[1] + dy < table.height]
    assert table.block["defend"].shape == (len(table.defend_skills), 1 + cells)
    for t, name in enumerate(table.units):
        x, y = view.unit(name).cell
        for w in range(len(table.weapons)):
            out += [table._at("charge", t, w, y + dy, x + dx) for dx, dy in around
                    if 0 <= x + dx < table.width and 0 <= y + dy < table.height]
    return out


@pytest.mark.parametrize(("scenario", "seed", "steps"), [(BOARDING, 1, 260), (BOARDING, 4, 260), (HANDS, 2, 160)])
def test_every_mask_bit_agrees_with_the_battles_check(scenario: Path, seed: int, steps: int) -> None:
    aec = raw_env(scenario, seed=seed)
    aec.reset()
    battle, table = aec.battle, aec.table
    assert isinstance(table, FiActionTable)
    rng = np.random.default_rng(seed)
    taken: set[str] = set()
    defended = False
    n = 0
    while battle.pending is not None and n < steps:
        req = battle.pending
        mask = aec.observe(aec.agent_selection)["action_mask"]
        sample = rng.choice(table.size, size=40)
        for i in {*_near(table, battle, req.unit), *sample.tolist(), *np.flatnonzero(mask).tolist()}:
            action = table.decode(int(i), req.unit)
            refusal = battle.check(action)
            assert (refusal is None) == bool(mask[i]), f"{table.describe(int(i))}: mask {mask[i]}, check {refusal}"
        new = [i for i in np.flatnonzero(mask) if table._locate(int(i))[0].name in NEW]
        reserve = table.block["reserve"]
        if mask[reserve.start:reserve.stop].any() and rng.random() < 0.5:  # hold the reserve (else draw)
            new = [i for i in range(reserve.start, reserve.stop) if mask[i]]
        wait = table.block["wait"].start  # waits make reserves, whose holders are asked before the draw
        if mask[wait] and scenario == HANDS and rng.random() < 0.4:
            pick = wait
        else:
            pick = int(rng.choice(new)) if new and rng.random() < 0.7 else int(rng.choice(np.flatnonzero(mask)))
        taken.add(table._locate(pick)[0].name)
        refused = sum(e.type == "refused" for e in battle.log.events)
        aec.step(pick)
        assert sum(e.type == "refused" for e in battle.log.events) == refused  # an unmasked action is accepted
        if battle.pending is not None:
            planes = aec.observe(aec.agent_selection)["observation"]
            defended |= bool(planes[..., CHANNELS.index("defence")].any())  # an active defence shows
        n += 1
    assert taken & set(NEW), taken  # the new blocks were unmasked and taken
    if scenario == BOARDING:
        assert {"blow", "defend"} <= taken and defended, taken
    else:
        assert {"hand", "reserve"} <= taken, taken


def test_the_new_blocks_come_after_the_old_ones_and_round_trip() -> None:
    for path in (None, BOARDING, HANDS):
        aec = raw_env(path, seed=1)
        table = aec.table
        with Battle(load_scenario(path) if path else aec.game.scenario) as probe:
            views = [probe.observe(s) for s in aec.game.sides]
        bursts = {b for w in aec.game.scenario.armoury.weapons.values() for b in w.bursts}
        old = ActionTable.for_views(views, sorted(bursts))
        assert table.blocks[:len(old.blocks)] == old.blocks  # every earlier index stands
        assert [b.name for b in table.blocks[len(old.blocks):]] == [*NEW, "off_shot", "launch"]  # (two weapons, launches: last)
        for name in NEW:
            block = table.block[name]
            for i in range(block.start, block.stop, max(1, block.size // 97)):
                assert table.encode(table.decode(i, "U")) == i, table.describe(i)
    default = raw_env(None, seed=1).table
    assert (default.block["end"].start, default.block["contest"].start) == (3930, 3931)  # docs/RL.md's numbers
    assert default.weapons[0] == "" and default.weapons[-1] == "fists"
    keeps = hand_keeps()
    assert len(keeps) == len(set(keeps)) == 1816 and keeps[0] == ((), "")
    assert table.encode(fi.Hand("U", speed="dodge", keep="9,4", rush="4@6")) == \
        table.encode(fi.Hand("U", speed="dodge", keep="4,9", rush="4@6"))
    with pytest.raises(KeyError):
        table.encode(fi.MeleeAttack("U", table.units[0], maneuver="strike_medium"))


@pytest.mark.parametrize("scenario", [BOARDING, HANDS])
def test_pettingzoo_api_test_passes(scenario: Path) -> None:
    aec = env(scenario, seed=3)
    for i, agent in enumerate(aec.possible_agents):  # api_test samples from them: seeded, so a run is repeatable
        aec.action_space(agent).seed(i)
        aec.observation_space(agent).seed(i)
    api_test(aec, num_cycles=300)


@pytest.mark.parametrize("scenario", [BOARDING, HANDS])
def test_gymnasium_check_env_passes(scenario: Path) -> None:
    game: Any = SingleAgentEnv(scenario, opponent="hold", seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(game)
    obs, _ = game.reset(seed=2)
    assert obs["action_mask"].shape == (game.unwrapped.table.size,)


def test_the_fi_planes_show_own_covering_fire_and_the_close_fight(tmp_path: Path) -> None:
    """Channels after the earlier ones (so they stand): `covered` holds the side's own covered area (R-6.12) and
    never an enemy's; `entangled`, `tripped`, `closed_in`, `defence` a unit's close-fight state (R-7.2-R-7.6)."""
    from skirmish.content.scenario import parse_scenario
    from skirmish.rules.actions import CoverFire, Declare, EndTurn

    assert CHANNELS.index("declaring") == 38  # docs/RL.md's earlier channels stand
    assert CHANNELS[39:] == ("entangled", "tripped", "closed_in", "defence", "covered")
    traits = "{strength: III-2, dexterity: V-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
    text = f"""
name: planes
seed: 2
ruleset: fi
map: {{ascii: ["..........", "..........", "..........", ".........."]}}
sides:
  - name: Crew
    controller: ai
    units: [{{name: Me, at: [0, 1], weapons: [blast_rifle], skills: {{'shooting:rifle': 5}}, traits: {traits}}}]
  - name: Kyr
    controller: ai
    units: [{{name: Kyr-1, at: [8, 1], traits: {traits}}}]
"""
    aec = raw_env(parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path), seed=2)
    aec.reset()
    battle, table = aec.battle, aec.table
    while not (battle.pending.kind == "act" and battle.pending.unit == "Me"):
        req = battle.pending
        aec.step(table.encode(Declare(req.unit, "normal") if req.kind == "declare" else EndTurn(req.unit)))
    battle.answer(battle.pending, CoverFire("Me", (4, 2), burst=3))
    ch = {name: i for i, name in enumerate(CHANNELS)}
    mine = aec.observe("side_0")["observation"][..., ch["covered"]]
    theirs = aec.observe("side_1")["observation"][..., ch["covered"]]
    assert sorted(zip(*np.nonzero(mine.T), strict=True)) == [(3, 2), (4, 1), (4, 2), (4, 3), (5, 2)]
    assert not theirs.any()  # an enemy's covering fire is an intention: not in Kyr's view
    obs = aec.observe("side_0")["observation"]
    assert not obs[..., ch["entangled"]:ch["defence"] + 1].any()  # nobody is in a close fight


def test_every_observation_stays_in_its_space_on_a_random_walk() -> None:
    """Seeded random masked walk on the card-hand scenario (it once reached an active defence whose result was -1,
    giving the `defence` plane -0.05, outside the Box's [0, 1]): every observation is inside its space."""
    aec = env(HANDS, seed=3)
    aec.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in aec.agent_iter(3000):
        obs, _, term, trunc, _ = aec.last()
        assert aec.observation_space(agent).contains(obs), agent
        if term or trunc:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
