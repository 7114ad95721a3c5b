"""Kept unit views (World.snapshot remakes a view only for entities handed out by `get` since), and the
enemies side views make of them, equal views made afresh at every decision of real battles, with either AI,
on every shipped scenario; snapshots taken while the rules run (from an event callback) keep nothing, and a
component changed by hand is seen at once."""

from __future__ import annotations

import dataclasses

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.ecs.components import Facing, Health, Position, Status
from skirmish.ecs.knowledge import Knowledge, Sighting, _armour, ghost, in_hand, seen_enemy
from skirmish.ecs.view import BattleView


def _fresh_side_units(b: Battle, side: str) -> tuple[object, ...]:
    """What `side` knows of every unit, made afresh from the all-seeing view, the seen sets and the sightings."""
    view = b.world.snapshot(b.ctx.round, b.ctx.phase, b.ctx.grid, b.sides, b.ctx.scope, b.ctx.armoury)
    hide = view.phase is None
    out: list[object] = []
    for u in b.world.fresh_units(b.ctx.armoury):
        if u.side == side:
            out.append(u)
        elif u.name in b.knowledge.seen[side]:
            out.append(seen_enemy(u, side, view.round, hide))
        elif u.name in b.knowledge.last[side]:
            out.append(ghost(u, side, b.knowledge.last[side][u.name], hide, b.ctx.armoury))
    return tuple(out)


def _check(b: Battle) -> None:
    kept = b.view().units
    assert kept == b.world.fresh_units(b.ctx.armoury)
    fresh = Knowledge(b.sides)  # who sees whom, worked out with nothing kept: the kept answer is the same
    fresh.update(b.world, b.ctx.grid, b.ctx.round)
    assert fresh.seen == b.knowledge.seen
    for side in b.sides:
        seen = b.observe(side)  # enemies as the side sees them, kept while their views and sightings stand
        assert seen.units == _fresh_side_units(b, side)
        b.knowledge._enemy_views.clear()
        assert seen == b.observe(side)
        assert seen == dataclasses.replace(b.view(), units=seen.units, viewer=side)
        assert list(vars(seen)) == [f.name for f in dataclasses.fields(BattleView)]
        for name in b.knowledge.seen[side]:  # what shows of an enemy seen now, kept while untouched: as read now
            eid = b.world.entity(name)
            hp, st, face = b.world.peek(eid, Health), b.world.peek(eid, Status), b.world.peek(eid, Facing)
            now = Sighting(b.world.cell(eid), b.ctx.round, (face.dx, face.dy), st.prone, hp.out_of_action, hp.dead,
                           hp.wounds, _armour(b.world, eid), in_hand(b.world, eid))
            assert b.knowledge.last[side][name] == now


@pytest.mark.parametrize("path", builtin_scenarios(), ids=lambda p: p.stem)
@pytest.mark.parametrize("ai", ["hold", "utility", "search"])
def test_kept_views_equal_fresh_views(path, ai: str) -> None:  # type: ignore[no-untyped-def]
    sc = load_scenario(path)
    steps = 0
    for seed in (2, 3, 4):  # on until enough steps are checked (a short battle alone may end in round 2)
        with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
            while b.pending is not None and steps < (400 if ai == "hold" else 150):
                _check(b)
                b.step()
                steps += 1
            _check(b)
        if steps > 20:
            break
    assert steps > 20


def test_views_taken_by_callbacks_while_the_rules_run() -> None:
    sc = load_scenario(builtin_scenarios()[0])
    seen: list[int] = []
    box: list[Battle] = []

    def on_event(_event: object) -> None:
        if box:
            seen.append(len(box[0].view().units))  # mid-action: made afresh, nothing kept

    with Battle(sc, seed=3, controllers={s.name: make_ai("hold") for s in sc.spec.sides}, on_event=on_event) as b:
        box.append(b)
        for _ in range(200):
            if b.pending is None:
                break
            b.step()
            _check(b)
    assert seen


def test_a_component_changed_by_hand_shows() -> None:
    sc = load_scenario(builtin_scenarios()[0])
    with Battle(sc, seed=1) as b:
        before = b.view()
        eid = b.world.entity(before.units[0].name)
        b.world.get(eid, Health).wounds = 2
        b.world.get(eid, Position).x += 0
        after = b.view()
        assert after.units[0].wounds == 2 and after.units[1] is before.units[1]  # the others kept
        _check(b)


def test_an_enemy_seen_anew_shows_though_its_own_view_is_unchanged(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A side's view shows an enemy it sees anew as seen, though nothing of the enemy changed (its view is the
    same object): here the enemy stands still and the seer walks round a wall."""
    from conftest import battle_at

    from skirmish.rules.actions import Move

    rows = ["..........", "....#.....", "....#.....", "....#.....", ".........."]
    traits = "traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
    with battle_at(tmp_path, rows, f"[{{name: Me, at: [2, 2], {traits}}}]",
                   f"[{{name: Foe, at: [7, 2], {traits}}}]") as b:
        before = b.observe("Blue")
        assert before.unit("Foe").ghost  # behind the wall: where it was last known
        foe_view = b.view().unit("Foe")
        b.submit(Move("Me", (5, 4)))
        assert b.view().unit("Foe") is foe_view  # nothing of it changed
        after = b.observe("Blue")
        assert not after.unit("Foe").ghost and "Foe" in b.knowledge.seen["Blue"]
        assert after.units == _fresh_side_units(b, "Blue")
