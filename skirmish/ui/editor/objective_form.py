"""Objectives and triggers as forms (issue 15 item 1): the inspector's rows for a side's objectives and the
scenario's triggers, one row per key, made from the loader's own models (skirmish/content/objectives.py:
Objective, When, Effect and the effects' models), so a key the models gain is a row the form gains.

A row is a FormField: `toggle` (a yes/no key, a click flips it), `choice` (the model's Literal values, or the
names a reference may take: zones, units, sides, objectives; a click on one sets it, or type it), `line` (typed:
numbers and lists in YAML's inline form, text as it is), `open` (a collapsed objective or trigger: a click
unfolds its form) or `action` (add or delete an effect, delete the objective or trigger). The YAML line of the
whole objective or trigger stays as the "advanced" row. Kind rows (`apply`) rebuild the objective, condition or
effect for the new kind with the keys it needs, as one undo step; everything else is set as typed and the
loader's check (the problems panel) names any key that is wrong."""

from __future__ import annotations

import types
from collections.abc import Collection
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from skirmish.content.objectives import (
    CONDITIONS,
    EFFECTS,
    UNIT_KINDS,
    ZONE_KINDS,
    Effect,
    Objective,
    Trigger,
    When,
)
from skirmish.ui.editor.fields import Field, Keys

# keys whose value names something of the scenario: what the form offers for them
REFERENCES = {"zone": "zones", "enters": "zones", "leaves": "zones", "unit": "units", "falls": "units",
              "side": "sides", "winner": "winners", "objective": "objectives"}
SIDE_OF = ("enters", "leaves")  # When: `side` goes with these only (When._side)


@dataclass(frozen=True)
class FormField(Field):
    """A form row: `kind` toggle, choice, line, open or action; `options` for a choice; `apply` names a kind
    row's rebuild (objective, when, effect) or an action (delete, add-effect)."""

    kind: str = "line"
    options: tuple[str, ...] = ()
    apply: str = ""
    tip: str = ""
    default: Any = None  # a toggle's value when the key is left out (None: the key is required, as a door's `open`)


@dataclass(frozen=True)
class Refs:
    """The names a reference row offers, from the scenario as it stands."""

    zones: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    objectives: tuple[str, ...] = ()

    def of(self, key: str) -> tuple[str, ...]:
        what = REFERENCES.get(key)
        if what == "winners":
            return (*self.sides, "draw")
        return tuple(getattr(self, what)) if what else ()


def refs_of(data: dict[str, Any], zones: tuple[str, ...] = ()) -> Refs:
    """The zones (the scenario's and `zones`, e.g. a Tiled map's), units, sides and objective names (defaulted
    SIDE:KIND as the loader names them, skirmish.content.zones.objective_names) of scenario data."""
    sides = [s for s in data.get("sides") or [] if isinstance(s, dict)]
    units = [str(u.get("name")) for s in sides for u in s.get("units") or [] if isinstance(u, dict) and u.get("name")]
    objectives = []
    for s in sides:
        count: dict[str, int] = {}
        for o in s.get("objectives") or []:
            if isinstance(o, dict):
                kind = str(o.get("kind"))
                count[kind] = count.get(kind, 0) + 1
                objectives.append(str(o.get("name") or f"{s.get('name')}:{kind}" + (str(count[kind]) if count[kind]
                                                                                      > 1 else "")))
    names = [*(data.get("zones") or {}), *(z for z in zones if z not in (data.get("zones") or {}))]
    return Refs(tuple(str(z) for z in names), tuple(units), tuple(str(s.get("name")) for s in sides),
                tuple(objectives))


def _core(ann: Any) -> list[Any]:
    """A field's annotation unwrapped: the types of its union, Optional and Annotated taken off."""
    if get_origin(ann) is Annotated:
        return _core(get_args(ann)[0])
    if get_origin(ann) in (Union, types.UnionType):
        return [t for a in get_args(ann) if a is not type(None) for t in _core(a)]
    return [ann]


def model_rows(model: type[BaseModel], keys: Keys, refs: Refs, indent: str = "  ",
               only: tuple[str, ...] | None = None) -> list[FormField]:
    """A row per key of `model` (or of `only`), its value at `keys` + (key,); a nested model's keys indented."""
    out: list[FormField] = []
    for name, info in model.model_fields.items():
        if only is not None and name not in only:
            continue
        tip = info.description or ""
        here = (*keys, name)
        parts = _core(info.annotation)
        literals = tuple(str(v) for p in parts if get_origin(p) is Literal for v in get_args(p))
        nested = [p for p in parts if isinstance(p, type) and issubclass(p, BaseModel)]
        if nested:
            out.append(FormField(f"{indent}{name}", here, kind="line", tip=tip))
            out += model_rows(nested[0], here, refs, indent + "  ")
        elif parts == [bool]:
            out.append(FormField(f"{indent}{name}", here, kind="toggle", tip=tip,
                                 default=None if info.is_required() else bool(info.default)))
        elif name in REFERENCES and parts == [str]:
            out.append(FormField(f"{indent}{name}", here, True, kind="choice", options=refs.of(name), tip=tip))
        elif literals:
            out.append(FormField(f"{indent}{name}", here, kind="choice", options=literals, tip=tip))
        else:
            out.append(FormField(f"{indent}{name}", here, parts == [str], tip=tip))
    return out


# ------------------------------------------------------------------------------------------------ objectives
def objective_rows(data: dict[str, Any], side: int, refs: Refs, opened: Keys | None) -> list[Field]:
    """A side's objectives: a collapsed row each, the opened one unfolded into its form."""
    objectives = (data.get("sides") or [{}])[side].get("objectives") if data.get("sides") else None
    out: list[Field] = []
    for i in range(len(objectives) if isinstance(objectives, list) else 0):
        keys: Keys = ("sides", side, "objectives", i)
        if keys != opened:
            out.append(FormField(f"objective {i + 1} +", keys, kind="open", tip="click to unfold its form"))
            continue
        out.append(FormField(f"objective {i + 1} −", keys, kind="open", tip="click to fold the form"))
        out.append(FormField("  YAML", keys, tip="the whole objective in YAML's inline form (advanced)"))
        kind_row, *rest = model_rows(Objective, keys, refs)
        out.append(FormField(kind_row.label, kind_row.keys, kind="choice", options=kind_row.options,
                             apply="objective", tip=kind_row.tip))
        out += rest
        out.append(FormField("  delete this objective", keys, kind="action", apply="delete", tip="remove this objective"))
    return out


def fit_objective(obj: dict[str, Any], kind: str, refs: Refs, own: tuple[str, ...] = ()) -> dict[str, Any]:
    """An objective turned to `kind`: the keys it takes kept (Objective._needs says which), the ones it needs
    filled in (the first zone, 3 rounds; for kill the first enemy unit, for protect the first of `own`, the
    side's units); a unit kept only where it may stand (kill's an enemy, the others' one of `own`)."""
    out = {k: v for k, v in obj.items() if k in ("name", "units", "points", "wins", "loses")}
    out = {"kind": kind, **out}
    if kind in ZONE_KINDS:
        out["zone"] = obj.get("zone") or (refs.zones[0] if refs.zones else "zone")
    unit = obj.get("unit")
    fits = not own or (unit in own) != (kind == "kill")  # kill an enemy; protect, reach, extract one's own
    if kind in (*UNIT_KINDS, "reach", "extract") and unit and fits:
        out["unit"] = unit
    elif kind in UNIT_KINDS:
        mine = [u for u in refs.units if (u in own) == (kind == "protect")]
        out["unit"] = next(iter(mine or refs.units), "unit")
    if kind in ("hold", "survive"):
        out["rounds"] = obj.get("rounds") or (3 if kind == "survive" else None)
        if out["rounds"] is None:
            del out["rounds"]
    if kind == "hold" and obj.get("at_end") and "rounds" not in out:
        out["at_end"] = True
    return out


# ------------------------------------------------------------------------------------------------ triggers
def which(value: Any, kinds: tuple[str, ...]) -> str:
    """The kind of a condition or effect (its one key among `kinds`), "" when it has none."""
    return next((k for k in kinds if isinstance(value, dict) and k in value), "")


def trigger_rows(data: dict[str, Any], refs: Refs, opened: Keys | None) -> list[Field]:
    """The triggers: a collapsed row each, the opened one unfolded: name, once, when (its kind and keys), then
    each effect (its kind and keys, delete), + effect, delete, and the YAML line."""
    triggers = data.get("triggers")
    out: list[Field] = []
    for i, trig in enumerate(triggers if isinstance(triggers, list) else []):
        keys: Keys = ("triggers", i)
        if keys != opened:
            out.append(FormField(f"trigger {i + 1} +", keys, kind="open", tip="click to unfold its form"))
            continue
        out.append(FormField(f"trigger {i + 1} −", keys, kind="open", tip="click to fold the form"))
        out.append(FormField("  YAML", keys, tip="the whole trigger in YAML's inline form (advanced)"))
        out += model_rows(Trigger, keys, refs, only=("name", "once"))
        when = trig.get("when") if isinstance(trig, dict) else None
        cond = which(when, CONDITIONS)
        out.append(FormField("  when", (*keys, "when"), kind="choice", options=CONDITIONS, apply="when",
                             tip=When.__doc__ or ""))
        if cond:
            out += model_rows(When, (*keys, "when"), refs, "    ", (cond, "side") if cond in SIDE_OF else (cond,))
        then = trig.get("then") if isinstance(trig, dict) else None
        for j, effect in enumerate(then if isinstance(then, list) else []):
            here: Keys = (*keys, "then", j)
            kind = which(effect, EFFECTS)
            out.append(FormField(f"  then {j + 1}", here, kind="choice", options=EFFECTS, apply="effect",
                                 tip=Effect.__doc__ or ""))
            if kind:
                out += _effect_rows(kind, here, refs)
            if kind == "reinforce":
                out += _reinforcement_names(effect, here)
            out.append(FormField(f"    delete then {j + 1}", here, kind="action", apply="delete",
                                 tip="remove this effect"))
        out.append(FormField("  + effect", (*keys, "then"), kind="action", apply="add-effect",
                             tip="a new effect: a message"))
        out.append(FormField("  delete this trigger", keys, kind="action", apply="delete", tip="remove this trigger"))
    return out


def _effect_rows(kind: str, keys: Keys, refs: Refs) -> list[FormField]:
    info = Effect.model_fields[kind]
    nested = [p for p in _core(info.annotation) if isinstance(p, type) and issubclass(p, BaseModel)]
    if nested:
        return model_rows(nested[0], (*keys, kind), refs, "    ")
    return model_rows(Effect, keys, refs, "    ", (kind,))


def _reinforcement_names(effect: Any, keys: Keys) -> list[Field]:
    """A line per reinforcement under its `units`: its name, typed to rename it (what names it follows, as a
    unit's rename in the Unit tab)."""
    units = effect["reinforce"].get("units") if isinstance(effect.get("reinforce"), dict) else None
    return [Field(f"      name {i + 1}", (*keys, "reinforce", "units", i, "name"), True)
            for i, u in enumerate(units if isinstance(units, list) else []) if isinstance(u, dict)]


def new_condition(kind: str, old: Any, refs: Refs) -> dict[str, Any]:
    """A `when` of `kind`, with a value to start from (the first zone, unit, side or objective)."""
    was = which(old, CONDITIONS)
    if kind == was:
        return dict(old)
    if kind in SIDE_OF and was in SIDE_OF:  # enters <-> leaves: the zone and `side` go with both
        return {kind: old[was], **({"side": old["side"]} if "side" in old else {})}
    first = {"round": 2, "enters": next(iter(refs.zones), "zone"), "leaves": next(iter(refs.zones), "zone"),
             "falls": next(iter(refs.units), "unit"), "objective": next(iter(refs.objectives), "objective"),
             "casualties": {"side": next(iter(refs.sides), "side"), "at_least": 1}}
    return {kind: first[kind]}


def new_effect(kind: str, old: Any, refs: Refs, unit: dict[str, Any] | None,
               taken: Collection[str] = ()) -> dict[str, Any]:
    """An effect of `kind`, with values to start from (reinforcements: a copy of `unit`, the scenario's first,
    named anew: not one of `taken`, the names of the units and reinforcements there are)."""
    if kind == which(old, EFFECTS):
        return dict(old)
    side, zone = next(iter(refs.sides), "side"), next(iter(refs.zones), "zone")
    base = f"{(unit or {}).get('name', 'Reinforcement')}-R"
    name = next(n for n in (base if i == 1 else f"{base}{i}" for i in range(1, len(taken) + 2)) if n not in taken)
    copy = {k: v for k, v in (unit or {}).items() if k != "mounted"}  # a rider's copy arrives on foot
    copy["name"] = name
    first: dict[str, Any] = {
        "reinforce": {"side": side, "zone": zone, "units": [copy]},
        "message": "reinforcements are coming", "ai": {"side": side, "personality": "aggressive"},
        "door": {"zone": zone, "open": True}, "end": {"winner": side}}
    return {kind: first[kind]}
