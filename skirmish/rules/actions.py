"""Actions: small frozen values with a text form that round-trips (STYLE 3).

Players, scripts and AIs all produce these. Text form: `verb unit [positional] [key=value ...]`, e.g.
`shoot Sid Kyr-2 mode=prepared burst=3` or `move Sid 12,4`.
"""

from __future__ import annotations

import shlex
from collections import defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from skirmish.core.frozen import quick_init
from skirmish.rules.geometry import Cell


class ActionParseError(ValueError):
    """An action's text could not be read."""


@dataclass(frozen=True)
class Action:
    """Base class: every action names the acting unit."""

    unit: str
    verb: ClassVar[str] = ""

    def __str__(self) -> str:
        parts = [self.verb, _q(self.unit)]
        for f in fields(self):
            if f.name == "unit":
                continue
            value = getattr(self, f.name)
            if value is None or value == f.default:
                continue
            parts.append(f"{f.name}={_fmt(value)}")
        return " ".join(parts)


def _q(text: str) -> str:
    return shlex.quote(text)


def _fmt(value: Any) -> str:
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]},{value[1]}"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return _q(str(value))


@quick_init  # (core/frozen.py: listed and weighed many times a decision)
@dataclass(frozen=True)
class Declare(Action):
    """Declare a speed (fast, normal, slow) or dodge for the round (R-5.1)."""

    verb: ClassVar[str] = "declare"
    speed: str = "normal"
    phase: int | None = None  # preferred phase (the earliest the read allows at or after it)


@dataclass(frozen=True)
class Move(Action):
    """Move to a cell along a route (walk or run, R-5.6)."""

    verb: ClassVar[str] = "move"
    to: Cell = (0, 0)


@quick_init  # (core/frozen.py: listed and weighed many times a decision)
@dataclass(frozen=True)
class Shoot(Action):
    """Fire the active weapon at a target (R-6)."""

    verb: ClassVar[str] = "shoot"
    target: str = ""
    mode: str = "prepared"
    burst: int = 0
    called: str | None = None
    spends: tuple[str, ...] | None = None
    also: tuple[str, ...] = ()  # a split burst's further targets
    split: tuple[int, ...] = ()  # its skill dice per target, `target` first (default: as even as possible)
    double_tap: bool = False  # two shots in one action off one card
    hand: str = ""  # "off": the weapon in the other hand of a unit holding two


@quick_init  # (core/frozen.py: listed and weighed many times a decision)
@dataclass(frozen=True)
class Throw(Action):
    """Throw a carried explosive at a cell (R-6.10); a miss scatters, the burst catches everyone near (R-6.9)."""

    verb: ClassVar[str] = "throw"
    at: Cell = (0, 0)
    item: str = ""


@quick_init  # (core/frozen.py: listed and weighed many times a decision)
@dataclass(frozen=True)
class Launch(Action):
    """Launch an explosive from the weapon in hand at a cell (R-6.10): a miss scatters by the card's launched
    multiplier, the burst catches everyone near (R-6.9). `hand=off`: the launcher in the other hand (R-6.12)."""

    verb: ClassVar[str] = "launch"
    at: Cell = (0, 0)
    hand: str = ""  # "off": the launcher in the other hand of a unit holding two weapons


@quick_init  # (core/frozen.py: listed and weighed many times a decision)
@dataclass(frozen=True)
class CoverFire(Action):
    """Covering fire over the area round a cell, a continuing action (R-6.12): every enemy entering it draws a
    shot read at the fire volume (burst 0: a single shot)."""

    verb: ClassVar[str] = "cover"
    at: Cell = (0, 0)
    burst: int = 0


@dataclass(frozen=True)
class Aim(Action):
    """Spend an action aiming at a target (R-6.2)."""

    verb: ClassVar[str] = "aim"
    target: str = ""


@dataclass(frozen=True)
class Reload(Action):
    """One reloading action: magazine out, then in (R-6.12); also clears a breakdown."""

    verb: ClassVar[str] = "reload"


@dataclass(frozen=True)
class Wait(Action):
    """Hold the action for a trigger (R-5.7): `enemy_in_view` fires at the first enemy to come into view."""

    verb: ClassVar[str] = "wait"
    trigger: str = "enemy_in_view"


@dataclass(frozen=True)
class SetTacpack(Action):
    """Split the tacpack generator for the round (free action, R-6.13)."""

    verb: ClassVar[str] = "tacpack"
    screen: str = "none"
    points: int = 0


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn."""

    verb: ClassVar[str] = "end"


ACTION_TYPES: dict[str, type[Action]] = {
    t.verb: t for t in (Declare, Move, Shoot, Throw, Launch, CoverFire, Aim, Reload, Wait, SetTacpack, EndTurn)
}
_POSITIONAL = {"declare": "speed", "move": "to", "throw": "at", "launch": "at", "cover": "at", "shoot": "target",
               "aim": "target", "wait": "trigger"}


def positional_field(verb: str) -> str | None:
    """The field a bare word after the unit fills in `verb`'s text form (`shoot Sid Kyr-2`: `target`), as
    `parse_action` reads it; None for a verb that takes no bare word, or no verb the codec knows. Rulesets' verbs
    count once registered (`register_action`)."""
    return _POSITIONAL.get(verb)


def register_action(cls: type[Action], positional: str | None = None) -> type[Action]:
    """Add a ruleset's own verb (its class's `verb`) to the text codec, with the field a bare word fills
    (`positional`); a verb registered twice is a programming error."""
    if cls.verb in ACTION_TYPES:
        raise ValueError(f"action verb {cls.verb!r} is registered twice")
    ACTION_TYPES[cls.verb] = cls
    if positional is not None:
        _POSITIONAL[cls.verb] = positional
    return cls


def parse_action(text: str) -> Action:
    """Parse the text form back into an Action (inverse of str())."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ActionParseError(f"cannot read action {text!r}: {exc}") from None
    if len(words) < 2 or words[0] not in ACTION_TYPES:
        raise ActionParseError(
            f"cannot read action {text!r}: expected '<verb> <unit> ...' with verb one of "
            f"{', '.join(ACTION_TYPES)}"
        )
    cls = ACTION_TYPES[words[0]]
    kwargs: dict[str, Any] = {"unit": words[1]}
    names = {f.name: f for f in fields(cls)}
    for w in words[2:]:
        if "=" in w:
            key, _, raw = w.partition("=")
        elif words[0] in _POSITIONAL and _POSITIONAL[words[0]] not in kwargs:
            key, raw = _POSITIONAL[words[0]], w
        else:
            raise ActionParseError(f"cannot read action {text!r}: unexpected {w!r}")
        if key not in names or key == "unit":
            raise ActionParseError(f"cannot read action {text!r}: '{words[0]}' has no field {key!r}")
        kwargs[key] = _convert(key, raw, text)
    return cls(**kwargs)


def _convert(key: str, raw: str, text: str) -> Any:
    try:
        if key in ("to", "at"):
            x, y = raw.split(",")
            return (int(x), int(y))
        if key in ("burst", "points", "phase"):
            return int(raw)
        if key == "spends":
            return () if raw in ("none", "") else tuple(raw.split(","))
        if key == "also":
            return tuple(raw.split(","))
        if key == "split":
            return tuple(int(v) for v in raw.split(","))
        if key == "double_tap":
            if raw.lower() not in ("yes", "no", "true", "false"):
                raise ValueError(raw)
            return raw.lower() in ("yes", "true")
        return raw
    except ValueError:
        raise ActionParseError(f"cannot read action {text!r}: bad value {raw!r} for {key}") from None


__all__ = [
    "ACTION_TYPES", "Action", "ActionParseError", "Aim", "CoverFire", "Declare", "EndTurn", "Launch", "Move", "Reload",
    "SetTacpack", "Shoot", "Throw", "Wait", "field", "parse_action", "register_action",
]


def orders_by_unit(orders: Iterable[str]) -> defaultdict[str, deque[Action]]:
    """A side's scripted orders (C-4) parsed and queued per unit, in the order given (a unit with none: empty)."""
    queues: defaultdict[str, deque[Action]] = defaultdict(deque)
    for text in orders:
        action = parse_action(text)
        queues[action.unit].append(action)
    return queues
