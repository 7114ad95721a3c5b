"""Typed events (issue 11, item 5): every registered type round-trips through its JSON line, the golden logs
read back to their classes byte for byte, and what does not fit is refused by key."""

from __future__ import annotations

import ast
import dataclasses
import gzip
import json
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.errors import ContentError
from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.core.events import COMMON, REGISTRY, DecisionEvent, Event, EventError, make
from skirmish.core.jsontypes import typeddict_keys
from skirmish.log import EventLog
from skirmish.rulesets.fi import AttackEvent, InitiativeEvent, OutOfActionEvent, ReloadEvent

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = sorted((ROOT / "tests" / "data" / "golden").glob("*.jsonl.gz"))


# ---------------------------------------------------------------------------------------------- strategies
def strategy(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type, built from its hint (the JSON shapes events hold)."""
    if hint is type(None) or hint is None:
        return st.none()
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers()
    if hint is float:
        return st.floats(allow_nan=False, allow_infinity=False)
    if hint is str:
        return st.text(max_size=12)
    if is_typeddict(hint):
        required, optional = typeddict_keys(hint)
        hints = get_type_hints(hint)
        return st.fixed_dictionaries({k: strategy(hints[k]) for k in sorted(required)},
                                     optional={k: strategy(hints[k]) for k in sorted(optional)})
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return st.sampled_from(args)
    if origin is Union or origin is types.UnionType:
        return st.one_of(*[strategy(a) for a in args])
    if origin is list:
        return st.lists(strategy(args[0]), max_size=3)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(strategy(args[0]), max_size=3).map(tuple)
        return st.tuples(*[strategy(a) for a in args])
    if origin is dict:
        return st.dictionaries(st.text(max_size=8), strategy(args[1]), max_size=3)
    raise AssertionError(f"no strategy for {hint!r}")


def events_of(cls: type[Event]) -> st.SearchStrategy[Event]:
    """Any event of a registered class, every field drawn from its type."""
    hints = get_type_hints(cls)
    return st.builds(cls, **{f.name: strategy(hints[f.name]) for f in dataclasses.fields(cls)})


def written_keys(e: Event) -> list[str]:
    """The keys an event's JSON must have, in order: the common ones, then each field in declared order
    (an optional field only when it has a value, a flattened one as its own keys)."""
    keys = list(COMMON)
    for f in dataclasses.fields(e):
        if f.name in COMMON:
            continue
        value = getattr(e, f.name)
        if f.metadata.get("flat"):
            keys += list(value)
        elif f.default is not None or value is not None:
            keys.append(f.name)
    return keys


# ---------------------------------------------------------------------------------------------- round trips
def test_the_registry_holds_the_core_and_fi_types() -> None:
    assert {"battle_start", "round", "turn", "end_turn", "refused", "decision", "result"} <= set(REGISTRY)
    assert {"attack", "initiative", "concussion", "throw", "blast", "reload", "tacpack", "declare", "move",
            "out_of_action", "trigger", "trigger_lost", "wait", "aim", "stunned", "move_stopped"} <= set(REGISTRY)
    for name, cls in REGISTRY.items():
        assert cls.type == name and dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize("etype", sorted(REGISTRY))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_type_round_trips_through_its_line(etype: str, data: st.DataObject) -> None:
    e = data.draw(events_of(REGISTRY[etype]))
    line = e.to_line()
    back = Event.from_json(json.loads(line))
    assert type(back) is type(e) and back == e
    assert back.to_line() == line  # stable: what it writes reads back to the same bytes
    # Common fields first, then the type's in declared order; an optional field without a value is left out.
    assert list(json.loads(line)) == written_keys(e)


def test_events_are_frozen() -> None:
    e = OutOfActionEvent(round=2, phase=3, actor="Blue-1", rules=("R-8.1",), state="dead", wounds=3, ct=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.state = "standing"  # type: ignore[misc]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name.removesuffix(".jsonl.gz"))
def test_every_golden_line_reads_to_its_class_and_writes_back_the_same_bytes(path: Path) -> None:
    for n, line in enumerate(gzip.decompress(path.read_bytes()).decode("utf-8").splitlines(), 1):
        raw = json.loads(line)
        e = Event.from_json(raw)
        assert type(e) is REGISTRY[raw["type"]], n
        assert e.to_line() == line, n


def test_live_events_of_cards_and_dice_battles_read_back_equal() -> None:
    """What the engine emits (tuples where the type says so, as well as lists) equals what its line reads."""
    seen: set[str] = set()
    for randomizer in ("cards", "dice"):
        sc = load_scenario(builtin_scenarios()[0]).with_options(randomizer=randomizer)
        with Battle(sc, seed=3, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            b.run()
            for e in b.log:
                assert Event.from_json(json.loads(e.to_line())) == e, e.to_line()[:200]
                seen.add(e.type)
    assert {"attack", "initiative", "decision", "result"} <= seen


# ---------------------------------------------------------------------------------------------- fields, not keys
def test_an_initiative_event_carries_the_phase_the_unit_got() -> None:
    sc = load_scenario(builtin_scenarios()[0])
    with Battle(sc, seed=1, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        b.run()
        inits = [e for e in b.log if isinstance(e, InitiativeEvent)]
        assert inits and all(e.phase is None or e.phase in e.options for e in inits)
        line = inits[0].to_line()
        assert line.startswith(f'{{"type":"initiative","round":1,"phase":{json.dumps(inits[0].phase)},')
        assert inits[0].describe().startswith(f"R1 {inits[0].actor}: Reflex ")  # read before the phases


def test_make_builds_by_name_and_gathers_the_draw() -> None:
    e = make("concussion", 4, 2, "Sid", ("R-8.2",), column="III", row=2, tn=7, result=9, cf=False, success=True,
             stunned=False, modifiers=[], card=12, chained=[30])
    assert e.to_line() == ('{"type":"concussion","round":4,"phase":2,"actor":"Sid","rules":["R-8.2"],"column":"III",'
                           '"row":2,"tn":7,"result":9,"cf":false,"success":true,"stunned":false,"modifiers":[],'
                           '"card":12,"chained":[30]}')
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        make("concussion", 4, 2, "Sid", (), column="III", row=2, tn=7, result=9, cf=False, success=True,
             stunned=False, modifiers=[], card=12, colour="red")
    with pytest.raises(TypeError, match="missing 1 required keyword-only argument: 'tn'"):
        make("concussion", 4, 2, "Sid", (), column="III", row=2, result=9, cf=False, success=True,
             stunned=False, modifiers=[], card=12)
    with pytest.raises(TypeError, match="no event type 'fly'"):
        make("fly", 1, None, None, ())


def test_the_two_shapes_of_a_reload_and_the_optional_fields() -> None:
    cleared = ReloadEvent(round=1, phase=1, actor="A", rules=("R-4.8",), cleared=True, rounds=5)
    staged = ReloadEvent(round=1, phase=1, actor="A", rules=("R-6.12",), stage=1, of=2, done=False, rounds=0,
                         magazines=2)
    assert list(cleared.to_json())[5:] == ["cleared", "rounds"]
    assert list(staged.to_json())[5:] == ["stage", "of", "done", "rounds", "magazines"]
    assert cleared.describe() == "R1 I A clears the breakdown  [R-4.8]"
    assert staged.describe() == "R1 I A reloads (1/2)  [R-6.12]"


# ---------------------------------------------------------------------------------------------- refusals
GOOD = {"type": "out_of_action", "round": 2, "phase": 3, "actor": "Blue-1", "rules": ["R-8.1"], "state": "dead",
        "wounds": 3, "ct": 0}


@pytest.mark.parametrize(("change", "message"), [
    ({"type": "fly"}, "type: unknown event type 'fly'"),
    ({"type": None}, "type: unknown event type null"),
    ({"state": None}, "out_of_action: state: expected text, got null"),
    ({"wounds": "3"}, "out_of_action: wounds: expected an integer, got '3'"),
    ({"wounds": True}, "out_of_action: wounds: expected an integer, got true"),
    ({"rules": "R-8.1"}, "out_of_action: rules: expected a list, got 'R-8.1'"),
    ({"was": None}, "out_of_action: was: expected text, got null"),
    ({"colour": "red"}, "out_of_action: colour: unknown key"),
    ({"card": 12}, "out_of_action: card: unknown key"),
])
def test_an_event_that_does_not_fit_is_refused_by_key(change: dict[str, Any], message: str) -> None:
    with pytest.raises(EventError) as exc:
        Event.from_json({**GOOD, **change})
    assert str(exc.value) == message


@pytest.mark.parametrize("missing", ["type", "round", "phase", "actor", "rules", "state", "ct"])
def test_a_missing_key_is_named(missing: str) -> None:
    raw = {k: v for k, v in GOOD.items() if k != missing}
    with pytest.raises(EventError, match=f"{missing}: required key is missing"):
        Event.from_json(raw)


def test_nested_shapes_are_checked_with_their_path() -> None:
    line = ('{"type":"trigger","round":1,"phase":2,"actor":"W","rules":[],"target":"M","waiter_result":5,'
            '"mover_result":4,"waiter_first":true,"simultaneous":false,"waiter_draw":{"card":3},'
            '"mover_draw":{"dice":[{"dice":[2,"x"],"sides":8}]}}')
    with pytest.raises(EventError, match=r"^trigger: mover_draw\.dice\[0\]\.dice\[1\]: expected an integer, got 'x'$"):
        Event.from_json(json.loads(line))
    with pytest.raises(EventError, match=r"mover_draw\.dice\[0\]\.sides: required key is missing"):
        Event.from_json(json.loads(line.replace(',"sides":8', "")))
    attack = next(e for e in _golden_events() if isinstance(e, AttackEvent) and "card" in e.draw)
    with pytest.raises(EventError, match=r"^attack: extra: expected a list, got 'x'$"):
        Event.from_json({**attack.to_json(), "extra": "x"})
    with pytest.raises(EventError, match=r"^attack: hits: expected a list, got null$"):
        Event.from_json({**attack.to_json(), "hits": None})


def _golden_events() -> list[Event]:
    """The events of the golden logs, one file after another."""
    return [Event.from_json(json.loads(x)) for path in GOLDEN
            for x in gzip.decompress(path.read_bytes()).decode().splitlines()]


def test_a_log_file_with_a_bad_event_names_the_file_and_line(tmp_path: Path) -> None:
    events = [Event.from_json(json.loads(x)) for x in gzip.decompress(GOLDEN[0].read_bytes()).decode().splitlines()[:5]]
    path = tmp_path / "x.jsonl"
    EventLog(events).write(path)
    assert [e.to_line() for e in EventLog.read(path)] == [e.to_line() for e in events]
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"type":"', '"type":"x', 1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ContentError) as exc:
        EventLog.read(path)
    assert str(exc.value).startswith(f"{path}: line 3: not an event (type: unknown event type 'x")


def test_a_decision_reads_its_trace_by_field() -> None:
    d = DecisionEvent(round=1, phase=2, actor="B", rules=("R-10.2",), unit="B", request="act", personality="normal",
                      chosen={"option": "shoot R prepared", "action": "shoot B R", "score": 0.71,
                              "considerations": [{"name": "hit chance", "input": 0.64, "output": 0.8},
                                                 {"name": "kill chance", "input": 0.41, "output": 0.5}]},
                      runners_up=[{"option": "wait", "action": "wait B", "score": 0.3, "considerations": [],
                                   "momentum": 1.25}])
    assert d.label() == "Shoot R prepared 0.71: hit 64%, kill 41%"
    assert d.describe() == "R1 II B decides: Shoot R prepared 0.71: hit 64%, kill 41% (over wait 0.30)  [R-10.2]"
    assert d.details()[1:] == ["chosen: shoot R prepared = 0.710", "   hit chance: 0.64 -> 0.80",
                               "   kill chance: 0.41 -> 0.50", "runner-up: wait = 0.300 (momentum x1.25)",
                               "rules: R-10.2"]
    assert json.loads(d.to_line())["chosen"]["considerations"][0] == {"name": "hit chance", "input": 0.64, "output": 0.8}


def test_the_log_imports_nothing_from_rules() -> None:
    """The log's text is the events' own: log.py reaches a ruleset's event types only through the registry."""
    tree = ast.parse((ROOT / "skirmish" / "log.py").read_text(encoding="utf-8"))
    names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [n for n in names if n == "skirmish.rules" or n.startswith("skirmish.rules.")], names
