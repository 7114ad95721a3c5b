"""Same seed -> same events (C-5); a seeded soak of the utility AI against every baseline over every shipped
scenario keeps the invariants."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import make_ai, make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.core.events import Event
from skirmish.ecs.components import Health, Profile, Tacpack

SCENARIOS = builtin_scenarios()


def _battle(path: Path, seed: int, on_event=None) -> Battle:
    sc = load_scenario(path)
    ctrl = {s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides}
    return Battle(sc, seed=seed, controllers=ctrl, on_event=on_event)  # type: ignore[arg-type]


def test_at_least_five_scenarios_ship() -> None:
    assert len(SCENARIOS) >= 5


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


BASELINES = ("random", "rush", "hold", "focus", "spread")


def test_soak_utility_against_every_baseline_keeps_invariants() -> None:
    """Seeded AI-vs-AI soak: the utility AI against each scripted baseline, on every shipped scenario, both
    sides. Nobody acts out of action, the deck stays whole, wounds and CT stay in range, the tacpack is never
    overdrawn, the utility AI never proposes an action the rules refuse, and every one of its actions is
    preceded by its decision (R-10.2)."""
    battles = 0
    for seed in range(60):
        path = SCENARIOS[seed % len(SCENARIOS)]
        sc = load_scenario(path)
        names = [s.name for s in sc.spec.sides]
        ours = names[seed % 2]
        opponent = BASELINES[(seed // 2) % len(BASELINES)]
        ctrl = {n: make_ai("utility" if n == ours else opponent) for n in names}
        out_of_action: set[str] = set()
        violations: list[str] = []
        decided: set[str] = set()
        holder: dict[str, Battle] = {}

        power: dict[tuple[int, str], int] = {}

        def watch(e: Event, out=out_of_action, v=violations, h=holder, d=decided, ours=ours, p=power) -> None:
            b = h.get("b")
            side = {u.name: u.side for u in b.view().units} if b is not None else {}
            if e.type == "out_of_action" and e.actor:
                out.add(e.actor)
            elif e.actor in out and e.type in ("move", "attack", "aim", "reload", "wait", "turn", "throw"):
                v.append(f"{e.actor} acted while out of action: {e.type}")
            if e.type == "decision" and e.actor and e.request == "act":
                d.add(e.actor)
            if side.get(e.actor or "") == ours:
                if e.type == "refused":
                    v.append(f"utility proposed a refused action: {e}")
                # one action, one decision: a double tap's second shot and a split burst's later targets are the same
                # action's events; covering fire is its own (`cover`)
                if e.type in ("move", "aim", "reload", "wait", "throw", "end_turn", "cover", "launch") or \
                        (e.type == "attack" and not e.trigger and e.double_tap != 2
                         and (e.split is None or e.target == e.split["targets"][0])):
                    if e.actor not in d:
                        v.append(f"{e.actor} {e.type} without a decision")
                    d.discard(e.actor)
            if e.type == "attack" and e.power is not None and b is not None and e.actor:
                # every round fired drew its power, and the generator was never overdrawn
                drawn = p.get((e.round, e.actor), 0) + int(e.power)
                p[(e.round, e.actor)] = drawn
                tp = b.world.get(b.world.entity(e.actor), Tacpack)
                if tp.shot_points != drawn or tp.spent > tp.generator or e.power_left < 0:
                    v.append(f"{e.actor} tacpack: drew {drawn}, charged {tp.shot_points}, {tp.spent}/{tp.generator}")
            if b is not None and b.sys.ctx.deck is not None and len(b.sys.ctx.deck) != 54:
                v.append(f"deck holds {len(b.sys.ctx.deck)} cards")

        b = Battle(sc, seed=seed, controllers=ctrl, on_event=watch)  # type: ignore[arg-type]
        holder["b"] = b
        with b:
            outcome = b.run()
            assert not violations, (path.stem, seed, opponent, violations[:3])
            assert outcome.rounds <= b.scenario.spec.victory.max_rounds
            for eid, _ in b.world.units():
                hp = b.world.get(eid, Health)
                assert 0 <= hp.wounds <= 6 and 0 <= hp.ct <= b.world.get(eid, Profile).ct_max
                tp = b.world.get(eid, Tacpack)
                assert tp.spent <= tp.generator
        battles += 1
    assert battles == 60


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
