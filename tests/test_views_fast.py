"""Views built without the frozen dataclass's __init__ (`unit_view`, `replace_unit`) equal the ones it builds,
field for field and repr, on every unit of real battles, and side views with them are unchanged."""

from __future__ import annotations

import dataclasses

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.ecs.knowledge import HIDDEN
from skirmish.ecs.view import UnitView, replace_unit, unit_view


def _same(a: UnitView, b: UnitView) -> None:
    assert a == b and repr(a) == repr(b)
    assert list(vars(a)) == list(vars(b))  # every field present, in the dataclass's order
    assert dataclasses.asdict(a) == dataclasses.asdict(b)


def test_fast_views_equal_dataclass_views() -> None:
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    checked = 0
    with Battle(sc, seed=4, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        for step in range(200):
            if b.pending is None:
                break
            if step % 5 == 0:
                for view in (b.view(), *(b.observe(s) for s in b.sides)):
                    for u in view.units:
                        values = {f.name: getattr(u, f.name) for f in dataclasses.fields(UnitView)}
                        _same(unit_view(values), UnitView(**values))
                        changes = {"declared": HIDDEN, "cell": (0, 0), "ghost": True, "last_seen": 3}
                        _same(replace_unit(u, changes), dataclasses.replace(u, **changes))  # type: ignore[arg-type]
                        checked += 1
            b.step()
    assert checked > 100


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(TypeError):
        unit_view({"name": "x", "nonsense": 1})
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=1) as b:
        u = b.view().units[0]
        with pytest.raises(TypeError):
            replace_unit(u, {"nonsense": 1})


def test_missing_fields_are_refused_and_order_is_kept() -> None:
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=1) as b:
        u = b.view().units[0]
    values = {f.name: getattr(u, f.name) for f in dataclasses.fields(UnitView)}
    shuffled = dict(reversed(list(values.items())))
    _same(unit_view(shuffled), UnitView(**values))
    del values["wounds"]
    with pytest.raises(TypeError):
        unit_view(values)


def test_snapshots_equal_dataclass_battle_views() -> None:
    """`World.snapshot` builds its BattleView without `__init__`: equal to the dataclass's, field for field."""
    from skirmish.ecs.view import BattleView

    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=2, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        for _ in range(40):
            v = b.view()
            made = BattleView(**{f.name: getattr(v, f.name) for f in dataclasses.fields(BattleView)})
            assert v == made and repr(v) == repr(made) and list(vars(v)) == list(vars(made))
            b.step()
