"""The gunslingers' street (scenarios/fi/gunslingers.yaml, R-6.12 two weapons) soaked: the utility AI and the search
tier on both sides, seeded, under the invariants: nothing refused, the battle ends, nobody acts once out of action,
wounds and CT in range, each hand never past its own weapon's rate of fire in one attack action, every event reads
as text and round-trips through JSON; off-hand shots are fired (-6, R-6.12), and a seed replays byte for byte."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.core.events import Event
from skirmish.ecs.components import Health, Profile, Status

GUNSLINGERS = Path(__file__).resolve().parents[1] / "scenarios" / "fi" / "gunslingers.yaml"
RATE = {"blast_pistol": 2, "slug_pistol": 2}  # the pistols' rates of fire (data/fi_equipment.yaml)
CASES = [(1, "utility"), (2, "utility"), (3, "utility"), (4, "utility"), (1, "utility:hard"), (2, "utility:hard")]


@functools.cache
def _soaked(seed: int, ai: str) -> Counter[str]:
    """`_play`'s counts of main and off-hand shots, kept for the process: the last test adds up every case's, running
    here any the process has not run yet (so it reads the same whatever ran before it, and where)."""
    counts: Counter[str] = Counter()
    _play(seed, ai, counts)
    return counts


def _play(seed: int, ai: str, counts: Counter[str] | None = None) -> list[str]:
    sc = load_scenario(GUNSLINGERS)
    holder: dict[str, Battle] = {}
    bad: list[str] = []

    def watch(e: Event) -> None:
        assert e.describe() and Event.from_json(e.to_json()) == e, e.to_line()
        b = holder.get("b")
        if b is None or e.type != "attack" or e.actor is None:
            return
        eid = b.world.entity(e.actor)
        st = b.world.peek(eid, Status)
        if st.two_weapons:
            _, main, off = st.hand_shots
            if main > 2 or off > 2:
                bad.append(f"{e.actor}: {main} main and {off} off-hand shots in one action")
            offhand = any(m["reason"] == "off hand (R-6.12)" for m in e.modifiers)
            if counts is not None:
                counts["off" if offhand else "main"] += 1

    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}, on_event=watch) as b:
        holder["b"] = b
        b.run()
        assert b.outcome is not None
        for eid, _ in b.world.units():
            hp = b.world.get(eid, Health)
            assert 0 <= hp.wounds <= 6 and 0 <= hp.ct <= b.world.get(eid, Profile).ct_max
        evs = list(b.log)
    assert not bad, bad[:3]
    assert not [e for e in evs if e.type == "refused"], [e.describe() for e in evs if e.type == "refused"][:3]
    down: set[str] = set()
    for e in evs:
        if e.type == "out_of_action":
            down.add(e.actor or "")
        elif e.type in ("turn", "attack", "move", "aim", "reload", "wait"):
            assert e.actor not in down, e.to_line()
    return [e.to_json() for e in evs]


@pytest.mark.parametrize(("seed", "ai"), CASES)
def test_the_gunslingers_soak_under_the_invariants(seed: int, ai: str) -> None:
    _soaked(seed, ai)


def test_off_hand_shots_were_fired_and_a_seed_replays() -> None:
    counts: Counter[str] = Counter()
    for seed, ai in CASES:
        counts.update(_soaked(seed, ai))
    assert counts["off"] > 0 and counts["main"] > 0, dict(counts)
    assert _play(5, "utility") == _play(5, "utility")
