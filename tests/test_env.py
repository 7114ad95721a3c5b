"""The RL interface (issue 11, item 7; docs/RL.md): PettingZoo's API and seed tests, masks that legality
fills and submit accepts, rewards that match the battle's outcome, the Gymnasium wrapper, the example."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from skirmish.env import CHANNELS, GYM_ID, SingleAgentEnv, env, raw_env
from skirmish.env.game import Game
from tests.conftest import blind_to_enemies

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "scenarios" / "killhouse_drill.yaml"  # 20x14, two against two: quick battles
_DICT_OBS = "ignore:Observation is not a NumPy array"  # PettingZoo warns this for any Dict observation
pytestmark = pytest.mark.filterwarnings(_DICT_OBS, "ignore:.*gymnasium.spaces.box.*")


def _play_random(aec: Any, seed: int) -> dict[str, float]:
    """Random masked agents to the end; each agent's summed reward as `last()` reports it."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_pettingzoo_api_test_passes_on_the_default_scenario() -> None:
    aec = env(seed=3)
    for i, agent in enumerate(aec.possible_agents):  # api_test samples from them: seeded, so a run is repeatable
        aec.action_space(agent).seed(i)
        aec.observation_space(agent).seed(i)
    api_test(aec, num_cycles=600)
    assert aec.unwrapped.metadata["name"] == "skirmish_v0"
    assert aec.possible_agents == ["side_0", "side_1"]


def test_pettingzoo_seed_test_passes_and_same_seed_gives_the_same_battle() -> None:
    seed_test(lambda: env(SMALL, seed=5), num_cycles=300)
    logs = []
    for seed in (11, 11, 12):
        aec = env(SMALL)
        aec.reset(seed=seed)
        _play_random(aec, seed=0)  # the same agents' choices: only the battle's seed differs
        logs.append([e.to_line() for e in aec.unwrapped.battle.log.events])
        aec.close()
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_seeds_of_later_episodes_follow_from_the_first() -> None:
    a, b = raw_env(SMALL), raw_env(SMALL)
    a.reset()
    assert a.battle.seed == a.game.scenario.spec.seed  # no seed anywhere: the scenario's, as `skirmish run`
    seeds = []
    for e in (a, b):
        e.reset(seed=7)
        e.reset()
        seeds.append(e.battle.seed)
    assert seeds[0] == seeds[1] != 7
    assert raw_env(SMALL, seed=9).game.start().seed == 9


@pytest.mark.parametrize(("scenario", "seed"), [(None, 1), (None, 2), (SMALL, 3), (SMALL.with_name("canal_crossing.yaml"), 4)])
def test_every_unmasked_action_is_accepted_and_the_mask_is_what_legality_lists(scenario: Path | None, seed: int) -> None:
    aec = raw_env(scenario, seed=seed)
    aec.reset()
    battle, table = aec.battle, aec.table
    rng = np.random.default_rng(seed)
    steps = 0
    while battle.pending is not None and steps < 400:
        req = battle.pending
        agent = aec.agent_selection
        assert aec.game.side_of[agent] == req.side  # the acting agent is the side of the pending request
        mask = aec.observe(agent)["action_mask"]
        for other in aec.agents:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        legal = battle.legal_actions(req.unit)
        listed = {table.encode(a) for a in legal.actions(called=True)}
        listed |= table.listed(legal) | table.aliases(legal, battle.check)  # melee and hands (issue 14)
        assert set(np.flatnonzero(mask).tolist()) == listed
        for i in rng.choice(np.flatnonzero(mask), size=min(3, int(mask.sum())), replace=False):
            assert battle.check(table.decode(int(i), req.unit)) is None
        for i in rng.choice(np.flatnonzero(mask == 0), size=3, replace=False):  # outside the mask: refused
            action = table.decode(int(i), req.unit)
            assert battle.check(action) is not None, str(action)
        refused = sum(e.type == "refused" for e in battle.log.events)
        aec.step(int(rng.choice(np.flatnonzero(mask))))
        assert sum(e.type == "refused" for e in battle.log.events) == refused
        assert "refused" not in aec.infos.get(agent, {})
        steps += 1
    assert steps > 30


def test_the_action_table_round_trips_and_depends_on_the_scenario_only() -> None:
    a, b = Game(None, seed=1), Game(None, seed=2)
    table = a.table
    assert [(blk.name, blk.start, blk.shape) for blk in table.blocks] == \
        [(blk.name, blk.start, blk.shape) for blk in b.table.blocks]
    assert table.size == sum(blk.size for blk in table.blocks)
    for i in range(table.size):
        if table.decode(i, "Raider-1").verb == "tacpack" and i != table.block["tacpack"].start:
            continue  # ("none", points > 0) decodes to the same value as ("none", 0)
        assert table.encode(table.decode(i, "Raider-1")) == i, table.describe(i)
    assert table.items == ("concussion_grenade", "frag_grenade")
    assert table.bursts == (0, 3, 5, 10)
    with pytest.raises(ValueError, match="outside"):
        table.decode(table.size, "Raider-1")


def test_a_full_episode_ends_with_the_outcome_and_rewards_that_match_it() -> None:
    winners = []
    for seed in (1, 8):  # random masked agents (with the melee blocks, issue 14): seed 8 wins
        aec = env(SMALL, seed=seed, casualty_reward=0.1)
        aec.reset()
        totals = _play_random(aec, seed)
        outcome = aec.unwrapped.battle.outcome
        assert outcome is not None and not aec.agents  # every agent was terminated and stepped out
        game = aec.unwrapped.game
        for agent, side in game.side_of.items():
            end = 0.0 if outcome.winner is None else 1.0 if outcome.winner == side else -1.0
            theirs = sum(n for s, n in outcome.casualties.items() if s != side)
            assert totals[agent] == pytest.approx(end + 0.1 * (theirs - outcome.casualties[side]))
        winners.append(outcome.winner)
    assert any(winners) and sum(outcome.casualties.values()) > 0  # a win and casualties were both paid


def test_a_masked_action_is_refused_and_the_unit_loses_the_decision() -> None:
    aec = raw_env(SMALL, seed=1, illegal_reward=-0.5)
    aec.reset()
    agent = aec.agent_selection
    unit = aec.battle.pending.unit
    move = aec.table.block["move"].start  # a move while declaring: refuses it
    aec.step(move)
    assert aec.rewards[agent] == -0.5
    assert "R-5.1" in aec.infos[agent]["refused"]
    assert aec.battle.view().unit(unit).declared == "normal"  # Battle.answer's fallback
    assert any(e.type == "refused" for e in aec.battle.log.events)


def test_observations_come_from_the_sides_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    aec = raw_env(SMALL, seed=1)
    aec.reset()
    obs = aec.observe("side_0")["observation"]
    assert obs.shape == (14, 20, len(CHANNELS)) and obs.dtype == np.float32
    assert obs.min() >= 0.0 and obs.max() <= 1.0
    ch = {name: i for i, name in enumerate(CHANNELS)}
    assert obs[..., ch["own"]].sum() == 2
    assert obs[..., ch["enemy_in_sight"]].sum() + obs[..., ch["enemy_out_of_sight"]].sum() == 2
    assert obs[..., ch["acting"]].sum() == 1 and obs[..., ch["declaring"]].all()
    assert not aec.observe("side_1")["observation"][..., ch["acting"]].any()
    blind_to_enemies(monkeypatch)  # a view without the enemies, as fog of war may give
    fogged = aec.observe("side_0")["observation"]
    assert not fogged[..., ch["enemy_in_sight"]].any() and not fogged[..., ch["enemy_out_of_sight"]].any()
    assert np.array_equal(fogged[..., ch["own"]], obs[..., ch["own"]])


def test_gymnasium_wrapper_passes_check_env_and_plays_to_the_end_against_hold() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made = gymnasium.make(GYM_ID, scenario=SMALL, opponent="hold", seed=1)
        check_env(made.unwrapped)
    single = SingleAgentEnv(SMALL, side="side_1", opponent="hold", seed=2)
    assert single.side == single.game.sides[1]
    obs, info = single.reset()
    assert np.array_equal(info["action_mask"], obs["action_mask"]) and obs["action_mask"].any()
    rng = np.random.default_rng(0)
    total, terminated, truncated, steps = 0.0, False, False, 0
    while not (terminated or truncated):
        assert np.array_equal(single.action_masks(), obs["action_mask"].astype(bool))
        assert single.battle.pending.side == single.side  # the agent only ever answers its own side
        obs, reward, terminated, truncated, info = single.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert "refused" not in info
        total += reward
        steps += 1
    outcome = single.battle.outcome
    assert info["result"] == outcome.summary()
    assert total == (0.0 if outcome.winner is None else 1.0 if outcome.winner == single.side else -1.0)
    assert steps > 5
    with pytest.raises(RuntimeError, match="over"):
        single.step(0)
    with pytest.raises(ValueError, match="unknown AI"):
        SingleAgentEnv(SMALL, opponent="nobody")
    with pytest.raises(ValueError, match="expected one of"):
        SingleAgentEnv(SMALL, side="Martians")


def test_the_example_plays_a_battle_and_prints_the_summary_line() -> None:
    env_vars = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "random_agents.py"), str(SMALL), "--seed", "3"],
                         capture_output=True, text=True, env=env_vars, timeout=120, check=True)
    last = out.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"result: winner=\S+ rounds=\d+ seed=3", last), out.stdout
    sys.path.insert(0, str(ROOT / "examples"))
    try:
        import random_agents  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "examples"))
    summary, steps, _ = random_agents.play(str(SMALL), 3)
    assert summary == last and steps > 0  # the same seed, the same battle
