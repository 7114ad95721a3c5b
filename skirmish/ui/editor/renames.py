"""What a unit's or a mount's rename follows in scenario data (the editor's document calls these; no drawing):
objectives, `falls` triggers, `ai` orders, Future Imperfect chip orders, Future*World cars' riders, and the sides'
scripted orders. An order is read with the action codec's own grammar (skirmish.rules.actions: `VERB UNIT
[positional] [key=value …]`), so only the places that name a unit follow: the unit acting, a `target` (bare or
`target=`), `then_target`, `dccm_at`, a split burst's `also=` list and a wait's `acts:`/`preempt:`; a mount's
rename follows `mount U NAME`. An option that happens to read like the name (`declare normal normal`, `mode=snap`,
a cell `2,2`) is left alone. A renamed order must read back as the old one with the name changed: a name the
grammar cannot hold there (a comma in an `also=` list) is refused with the reason; a name holding `=` in a bare
place is written `key=NAME`, which reads back."""

from __future__ import annotations

import copy
import shlex
from dataclasses import fields, replace
from typing import Any

import skirmish.rulesets  # noqa: F401  (both rulesets: their verbs in the codec, fi's melee, mount, … fw's intent)
from skirmish.content.objectives import parse_ai_order
from skirmish.rules.actions import Action, ActionParseError, parse_action, positional_field

UNIT_FIELDS = ("target", "then_target", "dccm_at")  # an action's fields that hold one unit's name
WAITS = ("acts", "preempt")  # a wait's triggers that name a unit: acts:NAME, preempt:NAME


def unit_renamed(data: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of scenario data with every reference to the unit `old` made `new` (the unit's own `name` aside):
    objectives' `unit` (protect, kill, reach, extract), triggers' `when: {falls}`, `ai` effects' orders (`protect
    UNIT`, `kill UNIT`), the sides' scripted `orders` (its places that name a unit, above), Future Imperfect
    `chip_orders` (`UNIT check …`) and Future*World cars' `riders`. ValueError when an order cannot hold `new`."""
    out = copy.deepcopy(data)
    for side in out.get("sides") or []:
        if not isinstance(side, dict):
            continue
        for obj in side.get("objectives") or []:
            if isinstance(obj, dict) and obj.get("unit") == old:
                obj["unit"] = new
        if isinstance(side.get("orders"), list):
            side["orders"] = [order_renamed(o, old, new) for o in side["orders"]]
        if isinstance(side.get("chip_orders"), list):
            side["chip_orders"] = [_chip_renamed(o, old, new) for o in side["chip_orders"]]
        for car in side.get("cars") or []:
            if isinstance(car, dict) and isinstance(car.get("riders"), list):
                car["riders"] = [new if r == old else r for r in car["riders"]]
    for trig in out.get("triggers") or []:
        if not isinstance(trig, dict):
            continue
        when = trig.get("when")
        if isinstance(when, dict) and when.get("falls") == old:
            when["falls"] = new
        for effect in trig.get("then") or []:
            ai = effect.get("ai") if isinstance(effect, dict) else None
            if isinstance(ai, dict) and isinstance(ai.get("orders"), list):
                ai["orders"] = [_ai_renamed(o, old, new) for o in ai["orders"]]
    return out


def mount_renamed(data: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of scenario data with the scripted orders' `mount U NAME` for the mount `old` made `new` (nothing
    else in a scenario names a mount)."""
    out = copy.deepcopy(data)
    for side in out.get("sides") or []:
        if isinstance(side, dict) and isinstance(side.get("orders"), list):
            side["orders"] = [order_renamed(o, old, new, mount=True) for o in side["orders"]]
    return out


def _ai_renamed(text: Any, old: str, new: str) -> Any:
    try:
        verb, name = parse_ai_order(text) if isinstance(text, str) else ("", None)
    except ValueError:
        return text
    return f"{verb} {new}" if verb in ("protect", "kill") and name == old else text


def order_renamed(text: Any, old: str, new: str, *, mount: bool = False) -> Any:
    """A scripted order with its places naming the unit `old` (or, with `mount`, the mount `old`) made `new`; as
    it was when nothing there names it, or when it does not read (the loader names it). ValueError when the
    order cannot hold `new` there."""
    if not isinstance(text, str):
        return text
    try:
        words = shlex.split(text)
        before = parse_action(text)
    except (ValueError, ActionParseError):
        return text
    verb, positional = words[0], positional_field(words[0])
    out = [verb, new if words[1] == old and not mount else words[1]]
    bare_seen = False
    for w in words[2:]:
        if "=" in w:
            key, _, raw = w.partition("=")
            bare = False
        elif positional is not None and not bare_seen:
            key, raw, bare, bare_seen = positional, w, True, True
        else:
            out.append(w)
            continue
        value = _value_renamed(verb, key, raw, old, new, mount, text)
        out.append(w if value == raw else value if bare and "=" not in value else f"{key}={value}")
    if out == words:
        return text
    renamed = shlex.join(out)
    try:
        after = parse_action(renamed)
    except ActionParseError:
        after = None
    if after != _action_renamed(before, old, new, mount):
        raise ValueError(f"the order {text!r} cannot name {new!r}: it would read {renamed!r} otherwise")
    return renamed


def _value_renamed(verb: str, key: str, raw: str, old: str, new: str, mount: bool, text: str) -> str:
    """An order's value for `key` with the name `old` in it made `new`."""
    if mount:
        return new if verb == "mount" and key == "mount" and raw == old else raw
    if key in UNIT_FIELDS:
        return new if raw == old else raw
    if key == "also" and old in raw.split(","):
        if "," in new:
            raise ValueError(f"a name with a comma cannot stand in a split burst's also= list (the order {text!r})")
        return ",".join(new if p == old else p for p in raw.split(","))
    if verb == "wait" and key == "trigger":
        how, _, name = raw.partition(":")
        return f"{how}:{new}" if how in WAITS and name == old else raw
    return raw


def _action_renamed(action: Action, old: str, new: str, mount: bool) -> Action:
    """What a renamed order must read back as: the action with the renamed places changed (field by field)."""
    changes: dict[str, Any] = {}
    for f in fields(action):
        value = getattr(action, f.name)
        if mount:
            if action.verb == "mount" and f.name == "mount" and value == old:
                changes[f.name] = new
        elif f.name in ("unit", *UNIT_FIELDS) and value == old:
            changes[f.name] = new
        elif f.name == "also" and isinstance(value, tuple):
            changes[f.name] = tuple(new if v == old else v for v in value)
        elif action.verb == "wait" and f.name == "trigger" and isinstance(value, str):
            how, _, name = value.partition(":")
            changes[f.name] = f"{how}:{new}" if how in WAITS and name == old else value
    return replace(action, **changes)


def _chip_renamed(text: Any, old: str, new: str) -> Any:
    """A chip order (`UNIT check COLOUR USE`, `UNIT wounds COLOUR…`; the unit's name may hold spaces) for `old`,
    made `new`'s."""
    if not isinstance(text, str):
        return text
    from skirmish.rulesets.fi import parse_chip_order

    try:
        unit = parse_chip_order(text)[0]
    except ValueError:
        return text
    if unit != old:
        return text
    words = text.split()
    return " ".join([new, *words[len(old.split()):]])


__all__ = ["mount_renamed", "order_renamed", "unit_renamed"]
