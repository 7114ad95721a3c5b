"""A seeded soak of the Future*World scenarios under invariants (issue 13): every battle ends; HP never above CON
and dead only at -CON or below; a tacpack's whole split (screen, shots, CM, DCCM, sensors, jump) never above its
generator nor its EW ratings, one program with at most one other act (R-9.8, R-9.9); nobody fallen, unconscious
or dead declares, moves or attacks (R-9.7); a side's view never shows an enemy's declaration or split; the force
sword never slowed by armour, grenades catching only who is in the radius, no more grenades or missiles used than carried,
seekers acquiring at 100 - 10 per net CM point (R-9.4, R-9.9, R-9.10)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.flow import Hooks
from skirmish.ecs.fw_components import FwKit, FwRound
from skirmish.rulesets.fw import FwUnitView, tables

RELAY = SCENARIOS_DIR / "fw" / "relay_station.yaml"
SCENARIOS = {"relay_station": range(1, 9), "hab_module": range(1, 7), "listening_post": range(1, 7)}
IMPALING = {w.id for w in tables().weapons.values() if w.impales}
PAIRS = [("hold", "rush"), ("rush", "hold"), ("random", "focus"), ("focus", "random"), ("random", "random")]


def split_refusal(plan: FwRound, kit: FwKit) -> str | None:
    """Why a figure's split this round (the world's FwRound, all of it) breaks R-9.8 or R-9.9, or None."""
    used = plan.screen_points + plan.shots + plan.cm + plan.dccm + plan.sensors + plan.jump
    if used > kit.generator:
        return f"R-9.8: {used} points allocated, the generator gives {kit.generator}"
    if plan.cm + plan.dccm > kit.effectors or plan.dccm + plan.sensors > kit.sensors:
        return "R-9.9: more EW points than the computer's effectors or sensors"
    programs = sum(1 for v in (plan.cm, plan.dccm, plan.sensors) if v)
    whole_round = [a for a, _ in plan.acts] == ["program"]
    if programs > 1 and not whole_round:
        return "R-9.9: two EW programs without the whole round programming"
    if programs and len(plan.acts) > 1:
        return "R-9.9: an EW program and two other actions"
    return None


def _check(b: Battle) -> None:
    for u in b.view().units:
        x = u.ext
        assert isinstance(x, FwUnitView)
        assert x.hp <= x.CON, u.name
        assert x.dead or x.hp > -x.CON, u.name  # dead at -CON (a medikit's shock kills too)
        assert x.unconscious == (x.hp <= 0 and not x.dead), u.name
        assert u.out_of_action == (x.dead or x.unconscious), u.name
        eid = b.world.entity(u.name)
        why = split_refusal(b.world.peek(eid, FwRound), b.world.peek(eid, FwKit))
        assert why is None, (u.name, why)  # the whole split: screen, shots, CM, DCCM, sensors, jump
        for w in set(x.spent):
            assert x.spent.count(w) <= x.weapons.count(w), (u.name, w)  # grenades, missiles: one per listing


def _ghosts_show_their_sighting(b: Battle, sightings: dict[str, dict[str, FwUnitView]]) -> None:
    """Every enemy a side sees now shows its cut view; every ghost (not seen now) shows what it showed when the
    side last saw it, neither moving nor in the air (its grenades and missiles used are public, R-9.10)."""
    for side in b.sides:
        last = sightings[side]
        for u in b.observe(side).units:
            if u.side == side:
                continue
            assert isinstance(u.ext, FwUnitView) and not u.ext.full
            if not u.ghost:
                last[u.name] = u.ext
            elif u.name in last:
                was = replace(last[u.name], moved_m=0.0, jumped=False, spent=u.ext.spent)
                assert u.ext == was, (side, u.name, u.ext, was)


@pytest.mark.parametrize(("name", "seed"), [(n, s) for n, seeds in SCENARIOS.items() for s in seeds])
def test_fw_battles_keep_their_invariants_and_end(name: str, seed: int) -> None:
    sc = load_scenario(SCENARIOS_DIR / "fw" / f"{name}.yaml")
    blue, red = PAIRS[seed % len(PAIRS)]
    sides = [s.name for s in sc.spec.sides]
    ctrl: dict[str, Any] = {sides[0]: make_ai(blue, "fw"), sides[1]: make_ai(red, "fw")}
    hooks = Hooks()
    state: dict[str, Any] = {}
    hooks.add("action", lambda step, actor, answer: _check(state["b"]))
    hooks.add("round_end", lambda: _check(state["b"]))
    with Battle(sc, seed=seed, controllers=ctrl, hooks=hooks) as b:
        state["b"] = b
        down: set[str] = set()
        sightings: dict[str, dict[str, FwUnitView]] = {side: {} for side in b.sides}
        _ghosts_show_their_sighting(b, sightings)
        while b.step():  # the kept views (World.snapshot) are what fresh ones would be: fw's writes mark them
            assert b.view().units == b.world.fresh_units(b.ctx.armoury)
            _ghosts_show_their_sighting(b, sightings)
        assert b.outcome is not None and b.outcome.rounds <= sc.spec.victory.max_rounds
        last_dex: tuple[int, int] = (0, 0)
        for e in b.log.events:
            assert e.type != "refused", e.describe()  # the baselines answer only what the rules accept
            if e.type == "fw_attack":
                seeker = e.weapon == "seeker_missile"  # acquires: no to-hit roll, so no 96-00 miss
                assert e.hit == (e.roll <= e.chance and (e.roll < 96 or seeker))  # 96-00 always misses
                assert e.impale == (e.hit and e.roll <= e.impale_chance and e.weapon in IMPALING)  # <= chance/5
                if e.weapon in IMPALING:
                    assert e.impale_chance == (2 * e.chance + 5) // 10  # chance / 5, rounded half up
                if seeker:
                    net = -int(e.steps[0]["op"]) // 10 if e.steps else 0
                    assert e.base == 100 and e.chance == max(0, 100 - 10 * net)
                if e.act == "melee":
                    assert all(h["armour"] == 0 and h["through"] in (0, h["rolled"]) for h in e.damage)
                assert len(e.damage) == (0 if not e.hit else (e.burst_roll or 1))  # a burst hits 1d3 times
                assert sum(h["impale"] for h in e.damage) <= 1 and all(not h["impale"] for h in e.damage[1:])
                assert all(h["through"] == max(0, h["rolled"] - h["armour"] - h["screen"]) for h in e.damage)
                assert e.round > last_dex[0] or e.phase <= last_dex[1]  # highest DEX first
                last_dex = (e.round, e.phase)
            if e.type == "fw_throw":
                assert e.hit == (e.roll <= e.chance and e.roll < 96)
                assert all(c["metres"] <= e.radius_m + 1e-6 for c in e.caught)  # the blast's radius
                assert all(bool(c["blind"]) == (c["luck_roll"] > c["luck"] or c["luck_roll"] >= 96)
                           for c in e.caught if e.dice is None)
            if e.type in ("fw_declare", "fw_move", "fw_attack", "fw_aid", "fw_throw"):
                assert e.actor not in down, f"{e.actor} acted while down: {e.describe()}"
            if e.type == "fw_wound" and e.condition in ("fallen", "unconscious", "dead"):
                down.add(e.actor)
            if e.type == "fw_bleed" and e.condition == "dead":
                down.add(e.actor)
            if e.type == "fw_rise" and e.rose:
                down.discard(e.actor)
            if e.type == "fw_aid" and e.hp_after > 0 and not e.killed:
                down.discard(e.patient)
        # What each side sees of the other: its roster and HP, never its declaration or split.
        for side in b.sides:
            for u in b.observe(side).units:
                if u.side != side:
                    assert isinstance(u.ext, FwUnitView) and not u.ext.full
                    assert u.ext.acts == () and u.ext.screen_points == 0 and not u.ext.declared


@pytest.mark.parametrize(("plan", "ok"), [
    (FwRound(screen_points=3, cm=2, acts=[("shoot", "X")], shots=1), True),
    (FwRound(screen_points=3, cm=2, sensors=1, acts=[("shoot", "X")], shots=1), False),  # 7 of 6, two programs
    (FwRound(screen_points=2, sensors=2, acts=[("shoot", "X"), ("aid", "Y")], shots=1), False),  # program + 2
    (FwRound(cm=1, dccm=1, sensors=1, acts=[("program", None)]), True),
    (FwRound(cm=4), False),  # more CM than effectors
])
def test_the_split_invariant_reads_every_part_of_the_split(plan: FwRound, ok: bool) -> None:
    kit = FwKit(weapons=[], armour=None, armour_stops={}, generator=6, effectors=3, sensors=3,
                default_screen="none", default_points=0, jump_pack=False, medikit=False, skills={}, enc=0.0, move_m=24)
    assert (split_refusal(plan, kit) is None) == ok


def test_a_side_does_not_see_an_enemy_declaration_mid_round() -> None:
    sc = load_scenario(RELAY)
    ctrl: dict[str, Any] = {s.name: make_ai("hold", "fw") for s in sc.spec.sides}
    with Battle(sc, seed=5, controllers=ctrl) as b:
        while b.pending is not None and b.pending.kind == "intent":
            b.step()
        truth = {u.name: u.ext for u in b.view().units}
        assert all(x.declared for x in truth.values())
        guards = b.observe("Guards")
        for u in guards.units:
            if u.side == "Raiders":
                assert not u.ext.declared and u.ext.acts == () and truth[u.name].acts != ()
            else:
                assert u.ext == truth[u.name]


@pytest.mark.parametrize(("name", "acts"), [("hab_module", {"melee"}), ("listening_post", {"launch"})])
def test_the_hold_baselines_use_the_scenarios_new_actions(name: str, acts: set[str]) -> None:
    """Hold v hold on the close-quarters and EW scenarios: swords strike (grenades: test_fw_actions), seekers launched
    with DCCM at their targets and answered with CM (R-9.4, R-9.9, R-9.10)."""
    sc = load_scenario(SCENARIOS_DIR / "fw" / f"{name}.yaml")
    used: set[str] = set()
    programs: set[str] = set()
    for seed in range(1, 4):
        with Battle(sc, seed=seed, controllers={s.name: make_ai("hold", "fw") for s in sc.spec.sides}) as b:
            b.run()
            used |= {e.act for e in b.log.events if e.type == "fw_attack"}
            used |= {"throw" for e in b.log.events if e.type == "fw_throw"}
            programs |= {k for e in b.log.events if e.type == "fw_declare" for k in ("cm", "dccm") if e.split[k]}
    assert acts <= used
    if name == "listening_post":
        assert programs == {"cm", "dccm"}
