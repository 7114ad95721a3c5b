"""Same seed -> same events (C-5); a seeded soak over every shipped scenario keeps the invariants."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.ecs.components import Health, Profile, Tacpack
from skirmish.rules.events import Event

SCENARIOS = builtin_scenarios()


def _battle(path: Path, seed: int, on_event=None) -> Battle:
    sc = load_scenario(path)
    ctrl = {s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides}
    return Battle(sc, seed=seed, controllers=ctrl, on_event=on_event)  # type: ignore[arg-type]


def test_at_least_three_scenarios_ship() -> None:
    assert len(SCENARIOS) >= 3


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_same_seed_same_events_byte_for_byte(path: Path, tmp_path: Path) -> None:
    files = []
    for i in range(2):
        with _battle(path, 42) as b:
            b.run()
            f = tmp_path / f"run{i}.jsonl"
            b.log.write(f)
            files.append(f.read_bytes())
    assert files[0] == files[1]
    with _battle(path, 43) as b:
        b.run()
        assert b.log.jsonl().encode() != files[0]


def test_soak_two_hundred_battles_keep_invariants() -> None:
    battles = 0
    for seed in range(200):
        path = SCENARIOS[seed % len(SCENARIOS)]
        out_of_action: set[str] = set()
        violations: list[str] = []
        holder: dict[str, Battle] = {}

        def watch(e: Event, out=out_of_action, v=violations, h=holder) -> None:
            if e.type == "out_of_action" and e.actor:
                out.add(e.actor)
            elif e.actor in out and e.type in ("move", "attack", "aim", "reload", "wait", "turn"):
                v.append(f"{e.actor} acted while out of action: {e.type}")
            b = h.get("b")
            if b is not None and b.deck is not None and len(b.deck) != 54:
                v.append(f"deck holds {len(b.deck)} cards")

        b = _battle(path, seed, watch)
        holder["b"] = b
        with b:
            outcome = b.run()
            assert not violations, violations[:3]
            assert outcome.rounds <= b.scenario.spec.victory.max_rounds
            for eid, _ in b.world.units():
                hp = b.world.get(eid, Health)
                assert 0 <= hp.wounds <= 6 and 0 <= hp.ct <= b.world.get(eid, Profile).ct_max
                tp = b.world.get(eid, Tacpack)
                assert tp.spent <= tp.generator
        battles += 1
    assert battles == 200


def test_every_event_of_a_dice_battle_reads_as_text() -> None:
    """Dice mode keeps its rolls in two shapes (one check's dice, or every roll of a draw); the log reads both."""
    from skirmish.log import describe, details

    sc = load_scenario(SCENARIOS[0]).with_options(randomizer="dice")
    ctrl = {s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides}
    with Battle(sc, seed=5, controllers=ctrl) as b:  # type: ignore[arg-type]
        b.run()
        kinds = {e.type for e in b.log}
        assert {"initiative", "attack"} <= kinds
        for e in b.log:
            assert describe(e) and details(e)
