"""The soak of issue 14 (rules14): every shipped Future Imperfect scenario (scenarios/*.yaml, scenarios/fi/*.yaml) with
the utility AI on both sides and the options on — story chips everywhere, martial arts everywhere (the choices are
checked on load either way), card hands where the scenario plays them (killhouse_hands) — under the soak invariants:
no refusal (every listed action is accepted), the battle ends, nobody acts once out of action, the chips are
conserved, wounds and CT stay in range, every event reads as text and round-trips through JSON (C-3). A test-side
driver puts the new actions into play besides the AI's own: now and then a unit takes a random wait from the legal
list (every trigger: enemy_moves, enemy_in_range, enemy_enters:X,Y, acts:, preempt:, later), a random psychological
contest, or a random legal melee action (blows, maneuvers; grapples in a wrestlers' brawl). The counts of the new
actions are asserted (melee, contests, chips, grips, triggers).
"""

from __future__ import annotations

import functools
import random
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.core.events import Event
from skirmish.ecs.components import Health, Profile
from skirmish.rules.actions import Wait
from skirmish.rules.fi.chips import BIN, COLOURS

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml")) + sorted((ROOT / "scenarios" / "fi").glob("*.yaml"))
ACTS = ("turn", "attack", "move", "throw", "aim", "reload", "contest", "wait", "melee", "maneuver", "grip")
SEEDS = (1, 2, 3, 4)
WRESTLING_SEEDS = (1, 2, 3, 4)


class Stirrer:
    """The utility AI, with now and then a random legal wait or melee action instead (seeded by the battle's seed and
    the decision's place: deterministic)."""

    def __init__(self, seed: int) -> None:
        self.inner = make_ai("utility")
        self.seed = seed
        self.n = 0
        self.chosen: Counter[str] = Counter()  # the wait and melee kinds this side took: the next is one taken least

    def decide(self, view: Any, request: Any) -> Any:
        self.n += 1
        rng = random.Random(zlib.crc32(f"{self.seed}:{self.n}:{request.unit}:{request.kind}".encode()))
        if request.kind == "act":
            legal = request.legal()
            roll = rng.random()
            if roll < 0.12 and legal.waits:
                waits = list(legal.waits)
                if legal.wait_cells:
                    me = view.unit(request.unit)
                    near = sorted(c for c in legal.wait_cells if abs(c[0] - me.cell[0]) + abs(c[1] - me.cell[1]) <= 6)
                    if near:
                        cell = rng.choice(near)
                        waits.append(Wait(request.unit, f"enemy_enters:{cell[0]},{cell[1]}"))
                return self._least_taken(rng, waits, lambda w: w.trigger.partition(":")[0])
            if roll < 0.2 and legal.contests:
                return rng.choice(list(legal.contests))
            if roll < 0.5 and legal.melee:  # a blow, maneuver (hold, hold with a choke, lock ...) or grip action
                return self._least_taken(rng, list(legal.melee), lambda a: "melee:" + ":".join(
                    (a.verb, getattr(a, "maneuver", ""), getattr(a, "effects", ""))))
        return self.inner.decide(view, request)

    def _least_taken(self, rng: random.Random, acts: list[Any], kind_of: Callable[[Any], str]) -> Any:
        """One of the acts of a kind this side took least so far: every kind in turn, where a uniform pick over the
        legal list would miss the rarer ones (a choke is one maneuver of a dozen) whatever the AI does around it."""
        kinds = sorted({kind_of(a) for a in acts})
        least = min(self.chosen[k] for k in kinds)
        kind = rng.choice([k for k in kinds if self.chosen[k] == least])
        self.chosen[kind] += 1
        return rng.choice([a for a in acts if kind_of(a) == kind])


def _options(path: Path) -> dict[str, Any]:
    opts: dict[str, Any] = {"chips": True, "martial_arts": True}
    if path.stem == "killhouse_hands":
        opts["initiative"] = "cards"
    return opts


def _is_fi(path: Path) -> bool:
    return load_scenario(path).spec.ruleset == "fi"


@functools.cache
def _soak(path: Path) -> Counter[str]:
    """One scenario's soak (every seed) under the invariants, and the counts of its events by kind. Kept for the
    process: the last test adds up every scenario's counts, running here any the process has not run yet (a test
    that reads what other tests left behind would depend on their order and on how pytest-xdist shares them)."""
    counts: Counter[str] = Counter()
    sc0 = load_scenario(path)
    for seed in SEEDS:
        sc = sc0.with_options(**_options(path))
        bad: list[str] = []
        holder: dict[str, Battle] = {}

        def watch(e: Event, bad: list[str] = bad, holder: dict[str, Battle] = holder) -> None:
            b = holder.get("b")
            if b is None:
                return
            bank = b.sys.ctx.chips
            for c in COLOURS:
                if bank.bin.chips[c] + sum(h[c] for h in bank.hands.values()) != BIN[c]:
                    bad.append(f"{c} chips not conserved after {e.type}")
            assert e.describe() and Event.from_json(e.to_json()) == e, e.to_line()

        ctrl = {s.name: Stirrer(seed * 100 + i) for i, s in enumerate(sc.spec.sides)}
        b = Battle(sc, seed=seed, controllers=ctrl, on_event=watch)  # type: ignore[arg-type]
        holder["b"] = b
        with b:
            b.run()
            assert b.outcome is not None
            evs = list(b.log)
            for eid, _ in b.world.units():
                hp = b.world.get(eid, Health)
                assert 0 <= hp.wounds <= 6 and 0 <= hp.ct <= b.world.get(eid, Profile).ct_max
        assert not bad, (path.stem, seed, bad[:3])
        refused = [e.describe() for e in evs if e.type == "refused"]
        assert not refused, (path.stem, seed, refused[:3])
        down: set[str] = set()
        for e in evs:
            if e.type == "out_of_action":
                down.add(e.actor or "")
            elif e.type in ACTS and e.type != "grip":
                assert e.actor not in down, f"{path.stem} seed {seed}: {e.actor} acts after it fell: {e.to_line()}"
        for e in evs:
            counts[e.type] += 1
            if e.type == "wait":
                counts["wait:" + e.trigger.partition(":")[0]] += 1
            if e.type == "trigger":
                counts["trigger:" + (e.trigger or "enemy_in_view").partition(":")[0]] += 1
            if e.type == "chip" and e.use != "wounds":
                counts["chip:check"] += 1
    return counts


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_fi_scenario_soaks_with_the_new_rules(path: Path) -> None:
    if not _is_fi(path):
        pytest.skip("not a Future Imperfect scenario")
    counts = _soak(path)
    assert counts["battle_start"] == len(SEEDS), dict(counts)


WRESTLING = """
name: wrestling soak
seed: 1
options: {martial_arts: true, chips: true}
map: {ascii: ["........", "........", "........"]}
victory: {max_rounds: 8}
sides:
  - name: Blue
    controller: ai
    units: [%s, %s]
  - name: Red
    controller: ai
    units: [%s, %s]
"""


@functools.cache
def _wrestle(seed: int) -> Counter[str]:
    """One wrestlers' brawl under the invariants, and its counts (kept for the process, as `_soak`'s)."""
    from skirmish.content.scenario import parse_scenario
    from tests.test_fi_holds import WRESTLER

    counts: Counter[str] = Counter()
    row0 = WRESTLER.replace("at: [%d, 1]", "at: [%d, 0]")
    text = WRESTLING % (WRESTLER % ("B1", 3), row0 % ("B2", 3), WRESTLER % ("R1", 4), row0 % ("R2", 4))
    sc = parse_scenario(text, str(ROOT / "scenarios" / "wrestling-soak.yaml"), base=ROOT / "scenarios")
    ctrl = {s.name: Stirrer(seed * 10 + i) for i, s in enumerate(sc.spec.sides)}
    with Battle(sc, seed=seed, controllers=ctrl) as b:  # type: ignore[arg-type]
        b.run()
        evs = list(b.log)
        for eid, ident in b.world.units():  # a grip is held both ways, and only between units in action
            ms = b.sys.melee_state(eid)
            if ms.gripping is not None:
                other = b.world.entity(ms.gripping)
                assert b.sys.melee_state(other).gripped_by == ident.name
                assert b.sys.active(eid) and b.sys.active(other)
    assert not [e for e in evs if e.type == "refused"]
    for e in evs:
        counts[e.type] += 1
        if e.type == "grip":
            counts["grip:" + e.what] += 1
    return counts


@pytest.mark.parametrize("seed", WRESTLING_SEEDS)
def test_wrestlers_grapple_under_the_invariants(seed: int) -> None:
    """Two wrestlers a side, face to face: holds, lifts, locks, chokes, disabling, escapes and breaking free, picked
    at random from the legal list, never refused; the grips end with the grappler out of action."""
    assert _wrestle(seed)["battle_start"] == 1


def test_the_new_actions_occurred_in_the_soak() -> None:
    """The new rules were in play, not just legal: the counts of every scenario's soak and every brawl (those this
    process has not run yet are run here, so the test reads the same whatever ran before it, and where)."""
    counts: Counter[str] = Counter()
    for path in SCENARIOS:
        if _is_fi(path):
            counts.update(_soak(path))
    for seed in WRESTLING_SEEDS:
        counts.update(_wrestle(seed))
    assert counts["battle_start"] == len(SEEDS) * sum(map(_is_fi, SCENARIOS)) + len(WRESTLING_SEEDS)
    for kind in ("melee", "contest", "chip", "chip:check", "grip:made", "grip:choke", "grip:released", "trigger",
                 "wait:later", "wait:acts", "wait:preempt", "wait:enemy_enters", "wait:enemy_moves",
                 "wait:enemy_in_range", "trigger:acts"):
        assert counts[kind] > 0, (kind, dict(counts))
