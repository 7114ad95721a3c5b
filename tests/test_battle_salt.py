"""The battle's salt (`Battle.salt`, `BattleView.salt`; issue 12): a blunt AI's hesitant rounds and misjudged
options are drawn from the battle's key with the round, unit and option, so the same scenario and seed give the
same choices (R-10.1) and the units that hesitate differ from battle to battle (sides10: with the round and unit
name alone the same Canal crossing units idled in every battle, and the scenario read 75% by side)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.ai.fw import reasoner as fw_reasoner
from skirmish.ai.fw import search as fw_search
from skirmish.ai.utility import options as utility_options
from skirmish.ai.utility import personality, scoring
from skirmish.ai.utility.personality import PERSONALITIES
from skirmish.battle import Battle, battle_salt
from skirmish.content.scenario import SCENARIOS_DIR, builtin_scenarios, load_scenario

SEEDS = range(1, 401)


def _names() -> dict[str, list[str]]:
    """Every shipped scenario's unit names, by scenario."""
    out = {}
    for path in builtin_scenarios():
        sc = load_scenario(path)
        out[path.stem] = [u.name for s in sc.spec.sides for u in s.units]
    return out


def test_the_salt_is_fixed_by_the_seed_differs_between_seeds_and_is_only_a_hash() -> None:
    salts = [battle_salt(s) for s in SEEDS]
    assert salts == [battle_salt(s) for s in SEEDS]  # fixed by the seed
    assert len(set(salts)) == len(salts)  # one per seed
    for seed, salt in zip(SEEDS, salts, strict=True):
        assert len(salt) == 16 and int(salt, 16) >= 0  # 8 bytes of hex, nothing else
        assert salt not in (str(seed), f"{seed:016x}")  # not the seed written out
    # it tells nothing of the dice: the first die the battle's source would roll does not follow the salt
    lows = [int(salt, 16) < 2 ** 63 for salt in salts]
    firsts = [random.Random(s).random() < 0.5 for s in SEEDS]
    agree = sum(a == b for a, b in zip(lows, firsts, strict=True)) / len(salts)
    assert 0.4 < agree < 0.6


def test_the_salt_stays_out_of_the_state_hash() -> None:
    """The salt follows from the seed; the record's state hash (docs/RECORDS.md) does not carry it, so a record
    replays to the same hashes whatever the AIs drew."""
    sc = load_scenario(SCENARIOS_DIR / "killhouse_drill.yaml")
    with Battle(sc, seed=7) as a, Battle(sc, seed=7) as b:
        b.salt = "0" * 16
        assert a.salt != b.salt and a.state_hash() == b.state_hash()


def test_each_unit_hesitates_in_a_share_of_the_battles_and_no_two_units_in_step() -> None:
    """Over 400 seeds and three rounds, every shipped unit hesitates in about the rung's share of them, and any two
    units hesitate together about as often as independent draws would (share squared): no unit idles in every
    battle and no pair is tied by its names (CRC-32 of salt|round|unit kept "South-1" and "South-3" in step in every
    battle, and "Blue-1" never with "Blue-2")."""
    p = replace(PERSONALITIES["normal"], hesitate=0.25)  # a rung that idles a quarter of its rounds (easy: 0.85)
    share = p.hesitate
    for scenario, names in _names().items():
        rows = {n: [p.hesitates(r, n, battle_salt(s)) for s in SEEDS for r in (1, 2, 3)] for n in names}
        for n, row in rows.items():
            assert abs(statistics.fmean(row) - share) < 0.05, (scenario, n)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                both = statistics.fmean(x and y for x, y in zip(rows[a], rows[b], strict=True))
                assert abs(both - share * share) < 0.03, (scenario, a, b, both)


def test_an_options_misjudgement_is_not_tied_to_another_options() -> None:
    """The noise of two options of one unit in one round (`Option.blunt`) is uncorrelated over battles."""
    labels = ["move (3, 4)", "move (3, 6)", "move (2, 4)", "shoot Red-1", "shoot Red-3", "wait", "end turn"]
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            xs = [personality.draw(f"{battle_salt(s)}|2|Blue-1|{a}") for s in SEEDS]
            ys = [personality.draw(f"{battle_salt(s)}|2|Blue-1|{b}") for s in SEEDS]
            assert abs(statistics.correlation(xs, ys)) < 0.15, (a, b)


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every key a utility or FW AI draws a misjudgement or a hesitation from, in order."""
    seen: list[str] = []

    def recording(real: Callable[[str], float]) -> Callable[[str], float]:
        def draw(key: str) -> float:
            seen.append(key)
            return real(key)
        return draw

    monkeypatch.setattr(personality, "draw", recording(personality.draw))
    monkeypatch.setattr(scoring, "draw", recording(scoring.draw))
    monkeypatch.setattr(fw_reasoner, "draw", recording(fw_reasoner.draw))
    monkeypatch.setattr(fw_search, "draw", recording(fw_search.draw))
    yield seen


def _play(name: str, seed: int, ai: str, ruleset: str = "fi", steps: int = 120) -> tuple[str, list[Any]]:
    sc = load_scenario(SCENARIOS_DIR / name)
    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai, ruleset) for s in sc.spec.sides}) as b:
        events = []
        for _ in range(steps):
            if b.pending is None:
                break
            b.step()
        events = [e.to_line() for e in b.log.events]
        return b.salt, events


@pytest.mark.parametrize("name, ai, ruleset", [
    ("crossroads_patrol.yaml", "utility", "fi"),  # objectives and zones: the view dressed (objectives.dress)
    ("canal_crossing.yaml", "utility:easy", "fi"),
    ("rubble_run.yaml", "search", "fi"),  # the search tier's proposer (normal's switches)
    ("fw/scout_run.yaml", "utility:easy", "fw"),  # FW views (their own cut of the enemy's part)
    ("fw/listening_post.yaml", "search:easy", "fw"),
])
def test_every_draw_an_ai_makes_is_keyed_by_its_battles_salt(keys: list[str], name: str, ai: str,
                                                              ruleset: str) -> None:
    """The views an AI is handed (each side's `observe`, fog of war, objectives, FW's cut, the search tier's
    proposer) all carry the battle's salt, and every hesitation or misjudgement is drawn from it."""
    salt, _ = _play(name, 3, ai, ruleset)
    assert keys, "the blunt personality drew nothing"
    assert all(k.startswith(f"{salt}|") for k in keys), {k.partition("|")[0] for k in keys}


def test_same_seed_same_hesitant_units_and_other_seeds_other_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """In Canal crossing's battles (`utility:easy` on both sides, the rung that hesitates), which units do not think
    of moving in round 1
    is the same for the same seed and differs across seeds: each unit hesitates in some battles and not in
    others."""
    real = personality.Personality.hesitates
    hesitant: set[tuple[int, str]] = set()

    def record(self: personality.Personality, round_no: int, unit: str, salt: str = "") -> bool:
        out = real(self, round_no, unit, salt)
        if out:
            hesitant.add((round_no, unit))
        return out

    monkeypatch.setattr(personality.Personality, "hesitates", record)
    monkeypatch.setattr(utility_options.Personality, "hesitates", record)

    def round_one(seed: int) -> frozenset[str]:
        hesitant.clear()
        _play("canal_crossing.yaml", seed, "utility:easy", steps=40)
        return frozenset(u for r, u in hesitant if r == 1)

    assert round_one(5) == round_one(5)
    by_seed = {s: round_one(s) for s in range(1, 13)}
    assert len(set(by_seed.values())) >= 6  # not the same units battle after battle
    units = {u for us in by_seed.values() for u in us}
    assert len(units) >= 4
    for u in units:
        assert sum(u in us for us in by_seed.values()) < len(by_seed), u  # none idles in every battle
