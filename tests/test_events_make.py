"""`events.make` builds an event by setting its slots directly: every event it makes is equal (field by field,
and as the line it writes) to the one the dataclass's own constructor makes, and it refuses what the
constructor refuses."""

from __future__ import annotations

import dataclasses

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.events import COMMON, REGISTRY, make


def test_made_events_equal_constructed_ones() -> None:
    types = set()
    for name, ai in (("depot_breach.yaml", "utility"), ("killhouse_drill.yaml", "hold")):
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=3, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
            b.run()
            events = list(b.log)
        for ev in events:
            raw = ev.to_json()
            own = {k: v for k, v in raw.items() if k not in COMMON}  # flattened keys one by one, None left out
            made = make(ev.type, ev.round, ev.phase, ev.actor, tuple(ev.rules), **own)
            # The constructor from the same keys, flattened fields gathered as `make` documents it.
            keys = dict(own)
            for field_name, flat in type(ev)._flats:
                keys[field_name] = {k: keys.pop(k) for k in flat if k in keys}
            built = type(ev)(round=ev.round, phase=ev.phase, actor=ev.actor, rules=tuple(ev.rules), **keys)
            assert type(made) is type(ev) and made == built == ev
            assert all(getattr(made, f.name) == getattr(built, f.name) for f in dataclasses.fields(built))
            assert made.to_line() == ev.to_line()
            types.add(ev.type)
    assert {"declare", "initiative", "turn", "end_turn", "move"} <= types


def test_make_refuses_what_the_constructor_refuses() -> None:
    with pytest.raises(TypeError):
        make("end_turn", 1, 1, "a", (), nonsense=3)  # an unknown key
    with pytest.raises(TypeError):
        make("declare", 1, None, "a", ("R-5.1",))  # required fields missing
    with pytest.raises(TypeError):
        make("no such type", 1, None, None, ())
    assert "declare" in REGISTRY
