"""Issue 12 item 6 (speede13): the engine's shortcuts are the plain statements they replace.

- `quick_init` (core/frozen.py) makes the same instances as the frozen dataclasses' own `__init__`: equal, the same
  hash, repr and fields in the same order, still frozen, the same refusals for a missing or unknown argument;
- `timing.check_turn`, kept by (declared speed, parts), answers as the rule worked out afresh (R-5.3-R-5.5);
- `delay.around` with nobody waiting yields only the unit (R-5.7).
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from skirmish.core.frozen import quick_init
from skirmish.rules import actions as act
from skirmish.rules.equipment import Speed
from skirmish.rules.fi import timing
from skirmish.rules.fi.timing import Part, TimingError

QUICK = [Part, act.Declare, act.Shoot, act.Throw, act.Launch, act.CoverFire]


def _plain(cls: type) -> type:
    """The same class with the dataclass's own __init__ (made again from its fields)."""
    fields = [(f.name, f.type, f) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True, namespace={"verb": getattr(cls, "verb", "")})


@pytest.mark.parametrize("cls", QUICK)
def test_quick_init_is_the_dataclass_init(cls: type) -> None:
    plain = _plain(cls)
    assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
    first = dataclasses.fields(cls)[0].name
    samples = [{first: "x"}]
    for f in dataclasses.fields(cls)[1:]:
        value = {int: 3, bool: True, str: "snap"}.get(type(f.default), (2, 5)) if f.default is not None else "y"
        samples.append({**samples[-1], f.name: value})
    for kw in samples:
        fast, slow = cls(**kw), plain(**kw)
        assert list(fast.__dict__.items()) == list(slow.__dict__.items())
        assert repr(fast).split("(", 1)[1] == repr(slow).split("(", 1)[1]
        assert fast == cls(**kw) and hash(fast) == hash(cls(**kw))
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(fast, first, "z")
    positional = [kw[f.name] for f, kw in zip(dataclasses.fields(cls), [samples[-1]] * 99, strict=False)]
    assert cls(*positional) == cls(**samples[-1])
    with pytest.raises(TypeError):
        cls()  # the first field has no default
    with pytest.raises(TypeError):
        cls("x", no_such_field=1)
    assert dataclasses.replace(cls(**samples[-1]), **{first: "w"}) == cls(**{**samples[-1], first: "w"})


def test_quick_init_refuses_what_it_cannot_make() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    @dataclasses.dataclass(frozen=True)
    class Factory:
        a: tuple[int, ...] = dataclasses.field(default_factory=tuple)

    for cls in (Slotted, Factory, int):
        with pytest.raises(TypeError):
            quick_init(cls)


def _fresh(declared: Speed, parts: list[Part]) -> str | None:
    try:
        timing._check_turn(declared, parts)
    except TimingError as exc:
        return str(exc)
    return None


def test_check_turn_kept_answers_as_worked_out() -> None:
    kinds = [Part("move"), Part("move", running=True), Part("attack", 1, "aimed"), Part("attack", 0, "snap"),
             Part("attack", 2, "prepared"), Part("aim"), Part("reload", 1), Part("free"), Part("skill", 1),
             Part("charge", 1), Part("ready", 2)]
    timing._turns.clear()
    for n in range(4):
        for parts in itertools.product(kinds, repeat=n):
            for declared in Speed:
                want = _fresh(declared, list(parts))
                for _ in range(2):  # worked out, then kept
                    try:
                        timing.check_turn(declared, list(parts))
                        got = None
                    except TimingError as exc:
                        got = str(exc)
                    assert got == want
    assert timing._turns  # kept


def _battle_requests(ai: str, seed: int, scenario: str | None = None):  # type: ignore[no-untyped-def]
    """(battle, request) at every request of a battle with `ai` on every side."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle, consult
    from skirmish.content.scenario import default_scenario_path, load_scenario

    sc = load_scenario(scenario or default_scenario_path())
    ctrl = {s.name: make_ai(ai, sc.spec.ruleset) for s in sc.spec.sides}
    with Battle(sc, seed=seed, controllers=ctrl) as b:
        while b.pending is not None:
            req = b.pending
            yield b, req
            if b.pending is req:
                action, trace = consult(ctrl[req.side], b.observe(req.side), req)
                b.answer(req, action, trace)


def test_move_sets_kept_are_those_worked_out() -> None:
    from skirmish.ecs.systems.fi import legality

    asked = 0
    for b, req in _battle_requests("hold", 3):
        if req.kind != "act":
            continue
        sys, eid = b.sys, b.world.entity(req.unit)
        kept = legality._moves(sys, eid)
        b.ctx.grid.kept.pop("legal_move_sets", None)
        fresh = legality._moves(sys, eid)
        assert kept == fresh and list(kept[0]) == list(fresh[0]) and list(kept[1]) == list(fresh[1])
        asked += bool(fresh[0] or fresh[1])
    assert asked > 20


def test_around_with_nobody_waiting_yields_the_unit_alone() -> None:
    from skirmish.ecs.systems.fi import delay

    looked = 0
    for b, req in _battle_requests("hold", 5):
        if req.kind == "act" and not delay._holding(b.sys):
            eid = b.world.entity(req.unit)
            turns = delay.around(b.sys, eid)
            assert next(turns) == eid
            looked += 1
            break
    assert looked
