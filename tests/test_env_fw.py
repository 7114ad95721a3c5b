"""The RL environment on Future*World scenarios (issue 13: "playable everywhere the first one is: ... the RL
environment"; docs/RL.md "Future*World"): the fw action table and observer chosen by the scenario's ruleset,
masks from fw legality (R-9.2, R-9.3, R-9.8, R-9.9, R-9.11), fog from the side's own view, determinism."""

from __future__ import annotations

import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from skirmish.env import GYM_ID, SingleAgentEnv, env, raw_env
from skirmish.env.fw_actions import FwActionTable
from skirmish.env.fw_observation import FW_CHANNELS
from skirmish.env.game import Game
from skirmish.env.spec import SPECS, spec_for
from skirmish.rules.actions import EndTurn, Move
from skirmish.rulesets.fw import INTENT, MOVE, FwIntent
from tests.conftest import blind_to_enemies

ROOT = Path(__file__).resolve().parents[1]
FW = ROOT / "scenarios" / "fw"
RELAY, POST, HAB = FW / "relay_station.yaml", FW / "listening_post.yaml", FW / "hab_module.yaml"
CH = {name: i for i, name in enumerate(FW_CHANNELS)}
pytestmark = pytest.mark.filterwarnings("ignore:Observation is not a NumPy array", "ignore:.*gymnasium.spaces.box.*")


def _play_random(aec: Any, seed: int) -> dict[str, float]:
    """Random masked agents to the end; each agent's summed reward as `last()` reports it."""
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def _canonical(table: FwActionTable, action: Any) -> int | None:
    try:
        return table.encode(action)
    except KeyError:
        return None


def test_the_ruleset_picks_the_table_and_observer() -> None:
    assert set(SPECS) >= {"fi", "fw"}
    game = Game(RELAY, seed=1)
    assert game.spec is SPECS["fw"] and isinstance(game.table, FwActionTable)
    assert game.channels == FW_CHANNELS and game.observer.shape == (14, 24, len(FW_CHANNELS))
    assert Game(None, seed=1).spec is SPECS["fi"]
    fake = SimpleNamespace(source="x/chess.yaml", spec=SimpleNamespace(ruleset="chess"))
    with pytest.raises(ValueError, match=r"x/chess.yaml: no RL environment for ruleset 'chess'; known: fi, fw"):
        spec_for(fake)  # type: ignore[arg-type]


def test_pettingzoo_api_test_passes_on_a_future_world_scenario() -> None:
    aec = env(RELAY, seed=3)
    for i, agent in enumerate(aec.possible_agents):  # api_test samples from them: seeded, so a run is repeatable
        aec.action_space(agent).seed(i)
        aec.observation_space(agent).seed(i)
    api_test(aec, num_cycles=300)
    assert aec.possible_agents == ["side_0", "side_1"]


@pytest.mark.parametrize(("scenario", "seed"), [(RELAY, 1), (POST, 2), (HAB, 3)])
def test_every_unmasked_answer_is_accepted_and_every_listed_one_is_unmasked(scenario: Path, seed: int) -> None:
    aec = raw_env(scenario, seed=seed)
    aec.reset()
    battle, table = aec.battle, aec.table
    rng = np.random.default_rng(seed)
    steps = extra = 0
    kinds = set()
    while battle.pending is not None and steps < 150:
        req = battle.pending
        kinds.add(req.kind)
        agent = aec.agent_selection
        mask = aec.observe(agent)["action_mask"]
        assert not any(aec.observe(o)["action_mask"].any() for o in aec.agents if o != agent)
        legal = list(battle.legal_actions(req.unit).actions())
        listed = {table.encode(a) for a in legal}
        for a in legal:  # every answer fw legality lists has its index, and that index means it
            assert table.decode(table.encode(a), req.unit) == a
        on = set(np.flatnonzero(mask).tolist())
        assert listed <= on
        extra += len(on - listed)
        for i in on:  # the table's other splits (EW, programming, shorter leaps) are put to the same rules
            assert battle.check(table.decode(i, req.unit)) is None, table.describe(i, req.unit)
        for i in rng.choice(np.flatnonzero(mask == 0), size=40, replace=False):
            a = table.decode(int(i), req.unit)
            if _canonical(table, a) == i:  # (an EW split with no points is the same answer as none: masked there)
                assert battle.check(a) is not None, table.describe(int(i), req.unit)
        aec.step(int(rng.choice(np.flatnonzero(mask))))
        assert "refused" not in aec.infos.get(agent, {})
        steps += 1
    assert kinds == {INTENT, MOVE} and steps > 30
    assert extra > 0  # some split beyond the listed ones is offered (sensors, a shorter leap, programming)
    assert not any(e.type == "refused" for e in battle.log.events)


def test_the_table_round_trips_and_its_splits_follow_the_generator() -> None:
    a, b = Game(POST, seed=1), Game(POST, seed=2)
    t = a.table
    assert [(k.name, k.start, k.shape) for k in t.blocks] == [(k.name, k.start, k.shape) for k in b.table.blocks]
    assert t.size == sum(k.size for k in t.blocks)
    # Cole: heavy rifle (no energy) and a seeker; the listening post's guards: sensors 3 on Hale's computer.
    kit = t.kits["Hale"]
    sensors = t.decode(t.encode(FwIntent("Hale", "shoot", "Varga", screen="kinetic", points=kit.generator)), "Hale")
    assert sensors.points == kit.generator
    i = t.encode(sensors)
    ew = t.decode(i + 1, "Hale")  # the same declaration with the sensors on: the screen gets the rest
    assert isinstance(ew, FwIntent) and ew.sensors == min(kit.sensors, kit.generator) > 0
    assert ew.points == kit.generator - ew.sensors and t.encode(ew) == i + 1
    for i in range(0, t.size, 7):
        action = t.decode(i, "Hale")
        try:
            assert t.encode(action) == i, t.describe(i)
        except KeyError:  # an EW split with no points (the figure has no such rating) is the same as none
            assert isinstance(action, FwIntent) and not (action.cm or action.dccm or action.sensors)
    assert t.decode(t.block["move"].start + 3 * t.width + 5, "Hale") == Move("Hale", (5, 3))
    assert t.decode(t.size - 1, "Hale") == EndTurn("Hale")
    with pytest.raises(ValueError, match="outside"):
        t.decode(t.size, "Hale")
    with pytest.raises(KeyError):
        t.encode(FwIntent("Hale", "shoot", "Varga", weapon="heavy_rifle"))


def test_a_masked_answer_is_refused_and_the_figure_loses_the_decision() -> None:
    aec = raw_env(RELAY, seed=1, illegal_reward=-0.5)
    aec.reset()
    agent, unit = aec.agent_selection, aec.battle.pending.unit
    aec.step(aec.table.block["move"].start)  # a move while declaring
    assert aec.rewards[agent] == -0.5 and "refused" in aec.infos[agent]
    assert any(e.type == "refused" for e in aec.battle.log.events)
    assert aec.battle.pending is None or aec.battle.pending.unit != unit


def test_observations_show_only_the_sides_own_view(monkeypatch: pytest.MonkeyPatch) -> None:
    aec = raw_env(RELAY, seed=1)
    aec.reset()
    game = aec.game
    for _ in range(3):  # the Guards' first declarations: each declares a screen and a shot or nothing
        side = game.pending.side
        aec.step(int(np.flatnonzero(aec.observe(game.agent_of[side])["action_mask"])[-1]))
    obs = {a: aec.observe(a)["observation"] for a in aec.agents}
    for o in obs.values():
        assert o.dtype == np.float32 and o.min() >= 0.0 and o.max() <= 1.0
    view = aec.battle.view()
    declared = [u for u in view.units if u.ext.declared]
    assert declared
    for u in declared:  # its own side sees its declaration; the enemy does not (docs/RULES-NOTES.md)
        x, y = u.cell
        mine, theirs = obs[game.agent_of[u.side]], obs[next(a for a in aec.agents if game.side_of[a] != u.side)]
        assert mine[y, x, CH["declared"]] == 1.0 and theirs[y, x, CH["declared"]] == 0.0
        assert mine[y, x, CH["own"]] == 1.0 and theirs[y, x, CH["own"]] == 0.0
    o = obs["side_0"]
    assert o[..., CH["own"]].sum() == 3 and o[..., CH["acting"]].sum() == 0  # the Raiders declare now
    assert obs["side_1"][..., CH["acting"]].sum() == 1 and obs["side_1"][..., CH["declaring"]].all()
    assert o[..., CH["enemy_in_sight"]].sum() + o[..., CH["enemy_out_of_sight"]].sum() == 3
    blind_to_enemies(monkeypatch)  # a view without the enemies, as fog of war may give
    fogged = aec.observe("side_0")["observation"]
    assert not fogged[..., CH["enemy_in_sight"]].any() and not fogged[..., CH["enemy_out_of_sight"]].any()
    assert np.array_equal(fogged[..., CH["own"]], o[..., CH["own"]])
    assert not fogged[..., CH["dex"]][o[..., CH["own"]] == 0].any()  # nothing of an enemy leaks through


def test_the_movement_segment_is_observed_and_masked_as_moves() -> None:
    aec = raw_env(HAB, seed=2)
    aec.reset()
    while aec.battle.pending.kind == INTENT:
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    agent = aec.agent_selection
    out = aec.observe(agent)
    assert out["observation"][..., CH["moving"]].all() and not out["observation"][..., CH["declaring"]].any()
    on = np.flatnonzero(out["action_mask"])
    move, end = aec.table.block["move"], aec.table.block["end"]
    assert all(move.start <= i < move.stop or i == end.start for i in on) and end.start in on


def test_same_seed_same_battle_and_an_episode_plays_to_its_end() -> None:
    logs, outcomes = [], []
    for seed in (11, 11, 12):
        aec = env(HAB, casualty_reward=0.1)
        aec.reset(seed=seed)
        totals = _play_random(aec, seed=0)  # the same agents' choices: only the battle's seed differs
        battle = aec.unwrapped.battle
        outcome = battle.outcome
        assert outcome is not None and not aec.agents
        game = aec.unwrapped.game
        for agent, side in game.side_of.items():
            end = 0.0 if outcome.winner is None else 1.0 if outcome.winner == side else -1.0
            theirs = sum(n for s, n in outcome.casualties.items() if s != side)
            assert totals[agent] == pytest.approx(end + 0.1 * (theirs - outcome.casualties[side]))
        logs.append([e.to_line() for e in battle.log.events])
        outcomes.append(outcome)
        aec.close()
    assert logs[0] == logs[1] and logs[0] != logs[2]


def test_the_gymnasium_wrapper_plays_future_world_against_the_fw_utility() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        made = gymnasium.make(GYM_ID, scenario=HAB, opponent="hold", seed=1)
        check_env(made.unwrapped)
    single = SingleAgentEnv(RELAY, side="Raiders", opponent="utility", seed=4)
    obs, _ = single.reset()
    rng = np.random.default_rng(0)
    total, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        assert single.battle.pending.side == "Raiders"
        obs, reward, terminated, truncated, info = single.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert "refused" not in info
        total += reward
    outcome = single.battle.outcome
    assert total == (0.0 if outcome.winner is None else 1.0 if outcome.winner == "Raiders" else -1.0)
    with pytest.raises(ValueError, match="Future"):
        SingleAgentEnv(RELAY, opponent="nobody")


def test_a_leap_with_a_screen_has_an_index_and_ew_with_a_leap_has_none() -> None:
    """The jump block holds the screen the rest of the generator raises (R-9.8, R-9.11), as the fw utility AI
    declares it for a threatened leaper; a leap with EW is not in the table and says so (review7b)."""
    t = Game(RELAY, seed=1).table
    g = t.kits["Kell"].generator
    screened = FwIntent("Kell", jump=2, screen="kinetic", points=g - 2)
    i = t.encode(screened)
    assert t.decode(i, "Kell") == screened and t.block["jump"].start <= i
    assert t.decode(t.encode(FwIntent("Kell", jump=2)), "Kell") == FwIntent("Kell", jump=2)
    with pytest.raises(KeyError):
        t.encode(FwIntent("Kell", jump=2, cm=2))
    with pytest.raises(KeyError):  # a screen short of the rest is a split the table does not hold
        t.encode(FwIntent("Kell", jump=2, screen="kinetic", points=1))
