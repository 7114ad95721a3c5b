"""Battle.observe's views made when first read (skirmish.battle.lazy, session 14): a lazy view is the view the
battle would have made when it was handed out, however late it is read; a side's own unit is read without making
the rest; World.kept_view's patch leaves every snapshot equal to fresh views."""

from __future__ import annotations

import copy
import pickle

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle, consult
from skirmish.battle.lazy import LazyView, make
from skirmish.cli.common import scenario_arg
from skirmish.ecs.view import BattleView


def _battle(seed: int = 3) -> Battle:
    sc = scenario_arg(None)
    return Battle(sc, seed=seed, controllers={s.name: make_ai("hold", sc.spec.ruleset) for s in sc.spec.sides})


def test_a_lazy_view_equals_the_view_made_at_once_at_every_decision() -> None:
    with _battle() as b:
        for _ in range(120):
            if b.pending is None:
                break
            for side in b.sides:
                lazy, now = b.observe(side), b.observe_now(side)
                assert type(lazy) is LazyView
                assert lazy == now and type(lazy) is BattleView  # made by the comparison
            assert b.step()


def test_a_view_held_while_the_battle_goes_on_is_the_battle_as_it_was() -> None:
    with _battle() as b:
        held = []
        for _ in range(60):
            if b.pending is None:
                break
            side = b.pending.side
            held.append((b.observe(side), b.observe_now(side), side))  # the lazy one left unread
            b.step()
        assert any(now.units != b.observe_now(side).units for _, now, side in held)  # the battle moved on
        for lazy, now, _ in held:
            assert type(lazy) is BattleView  # made before the battle changed, not when read
            assert lazy == now


def test_a_sides_own_unit_is_read_without_making_the_view() -> None:
    with _battle() as b:
        for _ in range(80):
            req = b.pending
            if req is None:
                break
            b.view()  # (the world keeps its units' views from the first snapshot on)
            view = b.observe(req.side)
            me = view.unit(req.unit)
            assert type(view) is LazyView and me == b.observe_now(req.side).unit(req.unit)
            enemy = next(n for n, s in ((u.name, u.side) for u in b.view().units) if s != req.side)
            if b.observe_now(req.side).find(enemy) is not None:
                assert view.unit(enemy) == b.observe_now(req.side).unit(enemy)
                assert type(view) is BattleView  # an enemy makes the view
            action, trace = consult(b.controllers[req.side], b.observe(req.side), req)
            del view
            b.answer(req, action, trace)


def test_a_fields_default_is_not_read_from_the_class() -> None:
    with _battle() as b:
        side = b.pending.side if b.pending else b.sides[0]
        assert b.observe(side).viewer == side and b.observe(side).salt == b.salt
        assert b.observe(side).round == b.ctx.round


def test_pickle_and_copy_give_the_view_made() -> None:
    with _battle() as b:
        side = b.sides[0]
        now = b.observe_now(side)
        for out in (pickle.loads(pickle.dumps(b.observe(side))), copy.copy(b.observe(side))):
            assert type(out) is BattleView and "_battle" not in out.__dict__
            assert out.units == now.units and out.viewer == side


def test_make_leaves_a_made_view_alone() -> None:
    with _battle() as b:
        v = b.observe_now(b.sides[0])
        before = dict(v.__dict__)
        make(v)
        assert v.__dict__ == before


def test_snapshots_equal_fresh_views_after_own_units_are_read() -> None:
    with _battle(5) as b:
        while b.pending is not None:
            req = b.pending
            view = b.observe(req.side)
            view.unit(req.unit)  # World.kept_view patches (and keeps) that unit's view
            assert b.view().units == b.world.fresh_units(b.ctx.armoury)
            action, trace = consult(b.controllers[req.side], view, req)
            del view
            b.answer(req, action, trace)
