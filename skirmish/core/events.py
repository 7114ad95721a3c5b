"""Typed events (C-3, R-10.2): frozen dataclasses registered by type, written and read as JSON objects.

Every event is one thing that happened. Its class is registered under the C-3 `type` name (`@register`), and
`to_json` writes the common fields first (type, round, phase, actor, rules), then the type's own fields in
their declared order: a field whose default is None is left out while it is None (an attack's `power`), and a
flattened field (`draw`, what was turned or rolled) writes its keys in its place. Nested values are kept in
their JSON shape (lists, and TypedDicts for objects), so the line an event writes is the same bytes however
it was made; `from_json` checks every key against the field types and names the first that does not fit.

This module holds the ruleset-agnostic types (the battle's frame: battle_start, round, turn, end_turn,
refused, decision, result); a ruleset registers its own (skirmish/rules/fi/events.py). Events carry their
log text (`describe`, `headline`, `details`), so the log reads any ruleset's events without knowing it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import operator
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, get_args, get_type_hints

from skirmish.core.decision import OptionTrace, decision_label, runners_up_text, trace_lines
from skirmish.core.jsontypes import ShapeError, key_path, reader, show

COMMON = ("type", "round", "phase", "actor", "rules")
FLAT: dict[str, Any] = {"flat": True}  # field metadata: the field's keys are written into the event's object
_OWN, _OPTIONAL, _FLAT = 0, 1, 2


class EventError(ValueError):
    """An event that does not read: an unknown type, a missing or unknown key, or a value of the wrong kind."""


# ---------------------------------------------------------------------------------------------- the base
_ROMAN = ("", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


def phase_name(phase: int) -> str:
    """A phase as the log names it: Roman numerals (FI's phases I-IV)."""
    return _ROMAN[phase] if 0 < phase < len(_ROMAN) else str(phase)


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One thing that happened: when (round, phase), who (`actor`, a unit name) and the rules it applied.
    `type` is the registered name of the event's class."""

    type: ClassVar[str] = ""
    _layout: ClassVar[tuple[tuple[str, int], ...]] = ()  # (field, how it is written), set by `register`
    _flats: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()  # (flattened field, its keys in order)

    round: int
    phase: int | None
    actor: str | None
    rules: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The C-3 object: the common fields first, then the type's own in declared order."""
        out: dict[str, Any] = {"type": self.type, "round": self.round, "phase": self.phase, "actor": self.actor,
                               "rules": list(self.rules)}
        for name, how in self._layout:
            value = getattr(self, name)
            if how == _OWN:
                out[name] = value
            elif how == _OPTIONAL:
                if value is not None:
                    out[name] = value
            else:
                out.update(value)
        return out

    def to_line(self) -> str:
        """One JSON line, stable byte for byte (C-5)."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_json(raw: Any) -> Event:
        """The event a C-3 object describes, of its registered class; EventError names what does not fit."""
        if not isinstance(raw, dict):
            raise EventError(f"expected an event object, got {show(raw)}")
        etype = raw.get("type")
        cls = REGISTRY.get(etype) if isinstance(etype, str) else None
        if cls is None:
            if "type" not in raw:
                raise EventError("type: required key is missing")
            raise EventError(f"type: unknown event type {show(etype)}")
        return _read(cls, raw)

    # ------------------------------------------------------------------ log text (overridden by each type)
    def where(self) -> str:
        """When it happened, as the log says it: "R3 II"."""
        return f"R{self.round}" + (f" {phase_name(self.phase)}" if self.phase else "")

    def rules_text(self) -> str:
        """The rules at the end of a log line: "  [R-6.1, R-6.2]"."""
        return f"  [{', '.join(self.rules)}]" if self.rules else ""

    def describe(self) -> str:
        """One readable line that explains the event (the rolls, the TN, the modifiers, the rules)."""
        data = {k: v for k, v in self.to_json().items() if k not in COMMON}
        return f"{self.where()} {self.type} {self.actor or ''} {json.dumps(data)}"

    def headline(self) -> str:
        """A short line for the board's log panel (the full explanation is `describe` and `details`)."""
        return self.describe().split("  [")[0]

    def details(self) -> list[str]:
        """The lines shown when a log line is opened: the draw, the TN, each modifier, the rules."""
        out = [self.describe().split("  [")[0], *self.detail_lines()]
        if self.rules:
            out.append("rules: " + ", ".join(self.rules))
        return out

    def detail_lines(self) -> list[str]:
        """The type's own lines between the headline and the rules."""
        return []


E = TypeVar("E", bound=Event)
REGISTRY: dict[str, type[Event]] = {}


def register(name: str) -> Callable[[type[E]], type[E]]:
    """Register an event class under its C-3 `type` name (apply it over `@dataclass(frozen=True, slots=True,
    kw_only=True)`); a name registered twice is a programming error, and so is a field with a default other
    than None, or a flattened field (a TypedDict) whose keys clash with another field's."""

    def add(cls: type[E]) -> type[E]:
        if name in REGISTRY:
            raise ValueError(f"event type {name!r} is registered twice ({REGISTRY[name].__name__}, {cls.__name__})")
        layout = []
        flats: list[tuple[str, tuple[str, ...]]] = []
        names = {f.name for f in dataclasses.fields(cls)}
        for f in dataclasses.fields(cls):
            if f.name in COMMON:
                continue
            if f.metadata.get("flat"):
                layout.append((f.name, _FLAT))
                keys = tuple(get_type_hints(get_type_hints(cls)[f.name]))  # the TypedDict's keys, declared order
                taken = names.union(*(k for _, k in flats))
                if taken.intersection(keys):
                    raise TypeError(f"{cls.__name__}.{f.name}: keys {sorted(taken.intersection(keys))} clash")
                flats.append((f.name, keys))
            elif f.default is None:
                layout.append((f.name, _OPTIONAL))
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                layout.append((f.name, _OWN))
            else:
                raise TypeError(f"{cls.__name__}.{f.name}: an event field is required, or optional with None")
        cls.type = name
        cls._layout = tuple(layout)
        cls._flats = tuple(flats)
        REGISTRY[name] = cls
        return cls

    return add


def lookup(name: str) -> type[Event]:
    """The event class registered under `name`; EventError naming the known types if none is."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise EventError(f"unknown event type {name!r} (known: {', '.join(sorted(REGISTRY))})") from None


def make(etype: str, round: int, phase: int | None, actor: str | None, rules: tuple[str, ...],
         **fields: Any) -> Event:
    """Build an event by its type name (the emitters' constructor); TypeError on an unknown or missing field.
    The keys of a flattened field may be given one by one (`**draw.record()`): they are gathered into it, in
    the order its TypedDict declares them."""
    return make_from(etype, round, phase, actor, rules, fields)


def make_from(etype: str, round: int, phase: int | None, actor: str | None, rules: tuple[str, ...],
              fields: dict[str, Any]) -> Event:
    """`make(etype, round, phase, actor, rules, **fields)` with the fields given as a dict the caller hands over
    (it is used up: a flattened field's keys are gathered in it), for emitters that already hold one (FiBase._event):
    the keyword arguments are not packed into a new dict again."""
    cls = REGISTRY.get(etype)
    if cls is None:
        raise TypeError(f"no event type {etype!r} is registered")
    for name, keys in cls._flats:
        if name not in fields:
            fields[name] = {k: fields.pop(k) for k in keys if k in fields}
    # The frozen dataclass's __init__ sets each field through object.__setattr__; its slots are set directly
    # here (the same values, so an equal event), and any key it would refuse goes to it to be refused.
    build = _BUILDS.get(cls)
    if build is None:
        build = _BUILDS[cls] = _build(cls)
    event = build(round, phase, actor, rules, fields)
    if event is None:
        return cls(round=round, phase=phase, actor=actor, rules=rules, **fields)  # TypeError: a missing or unknown key
    return event


_BUILDS: dict[type[Event], Callable[..., Any]] = {}


def _build(cls: type[Event]) -> Callable[..., Any]:
    """Per event class, its maker for `make_from`: a function of (round, phase, actor, rules, fields) that sets the
    common slots and then the class's own fields' slots, in the order they are declared, from `fields` (None for an
    optional one not given), or gives None where a required key is missing or a key is not a field (then the
    dataclass's __init__ is called, to refuse it). Written out per class, as dataclasses writes an __init__: one
    slot setter call per field, with no loop over a table of them."""
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_ABSENT": _ABSENT}
    for name in ("round", "phase", "actor", "rules"):
        env[f"_set_{name}"] = Event.__dict__[name].__set__
    lines = ["def build(round, phase, actor, rules, fields):", "    get = fields.get"]
    own = []
    for f in dataclasses.fields(cls):
        if f.name in COMMON:
            continue
        if (f.default is not None and f.default is not dataclasses.MISSING) or \
                f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: make() knows no default but None")
        env[f"_set_{f.name}"] = next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__).__set__
        own.append((f.name, f.default is dataclasses.MISSING))
    required = [name for name, req in own if req]
    for name in required:
        lines.append(f"    if {name!r} not in fields: return None")
    lines.append(f"    given = {len(required)}")
    lines += ["    event = _new(_cls)", "    _set_round(event, round)", "    _set_phase(event, phase)",
              "    _set_actor(event, actor)", "    _set_rules(event, rules)"]
    for name, req in own:
        if req:
            lines.append(f"    _set_{name}(event, fields[{name!r}])")
        else:
            lines += [f"    v = get({name!r}, _ABSENT)", "    if v is _ABSENT:", "        v = None", "    else:",
                      "        given += 1", f"    _set_{name}(event, v)"]
    lines += ["    if given != len(fields): return None", "    return event"]
    exec("\n".join(lines), env)  # a maker written from the class's own fields, as dataclasses writes __init__
    build: Callable[..., Any] = env["build"]
    return build


_ABSENT = object()


# ---------------------------------------------------------------------------------------------- reading
_Reading = tuple[dict[str, tuple[Any, int]], dict[str, str], tuple[str, ...]]
_READINGS: dict[type[Event], _Reading] = {}


def _reading(cls: type[Event]) -> _Reading:
    """Per class, once: each key's reader and how it is kept, the keys of flattened fields, the required keys."""
    got = _READINGS.get(cls)
    if got is None:
        hints = get_type_hints(cls)
        fields: dict[str, tuple[Any, int]] = {}
        required = []
        for f in dataclasses.fields(cls):
            how = dict(cls._layout).get(f.name, _OWN)
            # An optional field is written only with a value: a null in its place would not write back the same.
            fields[f.name] = (_without_none(hints[f.name]) if how == _OPTIONAL else hints[f.name], how)
            if f.name in COMMON or (how == _OWN and f.default is dataclasses.MISSING):
                required.append(f.name)
        flat_keys = {k: name for name, keys in cls._flats for k in keys}
        got = _READINGS[cls] = (fields, flat_keys, tuple(required))
    return got


def _without_none(hint: Any) -> Any:
    """`X | None` without the None (`X`)."""
    args = [a for a in get_args(hint) if a is not type(None)]
    return functools.reduce(operator.or_, args) if args else hint


def _read(cls: type[Event], raw: dict[str, Any]) -> Event:
    fields, flat_keys, required = _reading(cls)
    values: dict[str, Any] = {}
    flats: dict[str, dict[str, Any]] = {name: {} for name, (_, how) in fields.items() if how == _FLAT}
    try:
        for key, value in raw.items():
            if key == "type":
                continue
            if key in fields and fields[key][1] != _FLAT:
                values[key] = reader(fields[key][0])(value, key)
            elif key in flat_keys:
                flats[flat_keys[key]][key] = value
            else:
                raise ShapeError(key_path("", key), "unknown key")
        for name in required:
            if name not in values:
                raise ShapeError(name, "required key is missing")
        for name, got in flats.items():
            values[name] = reader(fields[name][0])(got, "")
    except ShapeError as exc:
        raise EventError(f"{cls.type}: {exc}") from None
    return cls(**values)


def check_fields(etype: str, raw: Any, where: str = "") -> None:
    """Check that `raw` holds exactly the own fields of an event of type `etype` (a decision's trace in a
    record); ShapeError names the key path under `where`."""
    cls = lookup(etype)
    if not isinstance(raw, dict):
        raise ShapeError(where, f"expected an object, got {show(raw)}")
    fields, _, required = _reading(cls)
    for key, value in raw.items():
        if key in COMMON or key not in fields or fields[key][1] == _FLAT:
            raise ShapeError(key_path(where, key), "unknown key")
        reader(fields[key][0])(value, key_path(where, key))
    for name in required:
        if name not in raw and name not in COMMON:
            raise ShapeError(key_path(where, name), "required key is missing")


# ---------------------------------------------------------------------------------------------- the battle's frame
@register("battle_start")
@dataclass(frozen=True, slots=True, kw_only=True)
class BattleStartEvent(Event):
    """The battle begins: the scenario, seed, ruleset, how draws are made, the map and the sides (R-10.1)."""

    scenario: str
    seed: int
    ruleset: str
    randomizer: str  # cards | dice
    deck: str  # A | B | stacked
    map: str
    sides: list[str]

    def describe(self) -> str:
        if self.randomizer != "cards":
            draws = str(self.randomizer)
        else:
            draws = "cards (stacked deck)" if self.deck == "stacked" else f"cards (deck {self.deck})"
        return f"== {self.scenario} | seed {self.seed} | {draws} | map {self.map} | sides {', '.join(self.sides)}"


@register("round")
@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEvent(Event):
    """A new round begins (R-5.1)."""

    def describe(self) -> str:
        return f"-- round {self.round} --"


@register("turn")
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEvent(Event):
    """A unit's turn begins in its phase (R-5.3), with the speed it declared."""

    declared: str | None

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} acts (declared {str(self.declared).upper()})"


@register("end_turn")
@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurnEvent(Event):
    """A unit ends its turn (R-5.3)."""

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} ends turn"


@register("refused")
@dataclass(frozen=True, slots=True, kw_only=True)
class RefusedEvent(Event):
    """An action the rules refused, in its text form, and why (the reason names the rule)."""

    action: str
    reason: str

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} REFUSED '{self.action}': {self.reason}"


@register("decision")
@dataclass(frozen=True, slots=True, kw_only=True)
class DecisionEvent(Event):
    """An AI's reasons for its answer (R-10.2, issue 4): the trace's keys, written flat in the event."""

    unit: str
    request: str  # declare | act
    personality: str
    chosen: OptionTrace
    runners_up: list[OptionTrace]
    intent: str | None = None  # the side-level intent, e.g. "pressing: 2 rounds left, ahead 4 v 3" (issue 12)

    def label(self) -> str:
        """The decision in a few words: "Shoot Raider-3 prepared 0.71: hit 64%, kill 41%" (and the side's intent
        in a word when the AI has one: "... · pressing")."""
        return decision_label(self.chosen, self.intent)

    def describe(self) -> str:
        others = runners_up_text(self.runners_up)
        return (f"{self.where()} {self.actor or ''} decides: {self.label()}" + (f" (over {others})" if others else "")
                + (f"; {self.intent}" if self.intent else "") + self.rules_text())

    def headline(self) -> str:
        return f"{self.actor or ''} thinks: {self.label()}"

    def detail_lines(self) -> list[str]:
        return ([f"intent: {self.intent}"] if self.intent else []) + trace_lines(self.chosen, self.runners_up)


@register("result")
@dataclass(frozen=True, slots=True, kw_only=True)
class ResultEvent(Event):
    """The battle's end: the winner (None: a draw), rounds played, casualties per side and why (R-10.1)."""

    winner: str | None
    rounds: int
    casualties: dict[str, int]
    reason: str
    objective: str | None = None  # the objective that decided it; in a draw what made the draw (objectives, issue 15)
    points: dict[str, int] | None = None  # each side's points then (a scenario with objectives)
    extracted: dict[str, int] | None = None  # units that left through an extraction zone, by side (not casualties)
    bounty: dict[str, int] | None = None  # each side's unspent story chips as bounty points (R-8.5, option chips)

    def describe(self) -> str:
        points = f"; points {self.points}" if self.points is not None else ""
        bounty = f"; bounty {self.bounty}" if self.bounty is not None else ""
        rounds = f"{self.rounds} round{'' if self.rounds == 1 else 's'}"
        return (f"== winner: {self.winner or 'draw'} after {rounds} ({self.reason}); "
                f"casualties {self.casualties}{points}{bounty}")


from skirmish.core import scenario_events as _scenario_events  # noqa: E402, F401  (objective, scenario_trigger)
