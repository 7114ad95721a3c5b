"""The Future Imperfect action card (RULES §4): its fields, and its C-2 JSON form read back with every field
checked (stacked-deck files, C-4). Generating a deck and drawing from it are in skirmish.rules.deck."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

COLUMNS: tuple[str, ...] = ("I", "II", "III", "IV", "V", "VI")
SIDES: dict[str, int] = {"I": 4, "II": 6, "III": 8, "IV": 10, "V": 12, "VI": 14}
UPPER_ROWS = 5
LOWER_ROWS = 7
LOCATIONS: tuple[str, ...] = (
    "head", "chest", "left_arm", "right_arm", "vitals", "belly", "left_leg", "right_leg",
)
TORSO = frozenset({"chest", "vitals", "belly"})
# R-4.4 standard-location frequencies (percent).
STANDARD_FREQUENCY: dict[str, float] = {
    "head": 8, "chest": 18, "left_arm": 12, "right_arm": 12,
    "vitals": 8, "belly": 14, "left_leg": 14, "right_leg": 14,
}
BREAKDOWN_ORDER = ("V", "R", "F", "E")
SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_GLYPH = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
BUILTIN_DECKS = ("A", "B")
DECK_SIZE = 54

Ablation = Literal["P", "A", "D"]


@dataclass(frozen=True)
class Entry:
    """One upper-grid entry: a value (possibly exploding) or a critical failure."""

    value: int
    explodes: bool = False
    cf: bool = False

    def to_json(self) -> Any:
        """The C-2 form: {"value", "explodes"} or the string "CF"."""
        return "CF" if self.cf else {"value": self.value, "explodes": self.explodes}

    @staticmethod
    def from_json(raw: Any) -> Entry:
        """Parse the C-2 form."""
        if raw == "CF":
            return Entry(0, False, True)
        return Entry(int(raw["value"]), bool(raw["explodes"]))


CF_ENTRY = Entry(0, False, True)


@dataclass(frozen=True)
class Card:
    """One action card with every field of R-4.1–R-4.10."""

    number: int
    impulse: int
    step: int
    fragment: int
    toggle: bool
    special: str | None
    shuffle: bool
    upper: dict[str, tuple[Entry, ...]]
    hit_stack: tuple[str, ...]
    standard: int
    prone: tuple[bool, ...]
    burst: dict[int, int]
    extra_damage: bool
    ablation: tuple[str, str, str]
    breakdown: str | None
    clock: int
    scatter_thrown: int
    scatter_launched: int
    unintended: tuple[bool, ...]
    lower: dict[str, tuple[int, ...]] = field(repr=False)

    @property
    def poker(self) -> str:
        """The standard poker card this card maps to (R-4.1)."""
        if self.step == 0:
            return "red joker"
        if self.step == 14:
            return "black joker"
        return RANKS[self.step - 1] + SUIT_GLYPH[SUITS[self.fragment - 1]]

    def entry(self, column: str, row: int) -> Entry:
        """Upper-grid entry at (column, row); rows 1-5."""
        return self.upper[column][row - 1]

    def effect(self, column: str, row: int) -> int:
        """Lower-grid (effect) value at (column, row); rows 1-7, clamped."""
        row = max(1, min(LOWER_ROWS, row))
        return self.lower[column][row - 1]

    @property
    def standard_location(self) -> str:
        """The standard hit location (R-4.4)."""
        return self.hit_stack[self.standard]

    def ablation_for(self, pn: int, av: int) -> str:
        """Read the ablation band for penetration PN against armour value AV (R-4.7)."""
        if pn > av:
            return self.ablation[0]
        if pn >= av - 1:
            return self.ablation[1]
        return self.ablation[2]

    def unintended_index(self) -> int | None:
        """1-based position of the first crossed figure, or None (R-6.11)."""
        for i, crossed in enumerate(self.unintended):
            if crossed:
                return i + 1
        return None

    def to_json(self) -> dict[str, Any]:
        """The C-2 JSON shape."""
        return {
            "number": self.number,
            "impulse": self.impulse,
            "step": self.step,
            "fragment": self.fragment,
            "toggle": self.toggle,
            "special": self.special,
            "shuffle": self.shuffle,
            "upper": {c: [e.to_json() for e in self.upper[c]] for c in COLUMNS},
            "hit_locations": {
                "stack": list(self.hit_stack),
                "standard": self.standard,
                "prone": list(self.prone),
            },
            "burst": {str(k): v for k, v in sorted(self.burst.items())},
            "extra_damage": self.extra_damage,
            "ablation": list(self.ablation),
            "breakdown": self.breakdown,
            "clock": self.clock,
            "scatter": {"thrown": self.scatter_thrown, "launched": self.scatter_launched},
            "unintended": list(self.unintended),
            "lower": {c: list(self.lower[c]) for c in COLUMNS},
        }

    @staticmethod
    def from_json(raw: Any) -> Card:
        """Parse the C-2 JSON shape, every field checked; raises CardFileError (a ValueError) naming the field."""
        return parse_card(raw, "card")


# ----------------------------------------------------------------------------------------------------------
# Stacked-deck files (C-4): a JSON list of C-2 cards in draw order, every field checked against C-2's ranges.

MAX_STACKED_CARDS = 540  # ten decks' worth; a rules example needs a handful (docs/FILES.md)
CARD_KEYS = ("number", "impulse", "step", "fragment", "toggle", "special", "shuffle", "upper", "hit_locations",
             "burst", "extra_damage", "ablation", "breakdown", "clock", "scatter", "unintended", "lower")
UPPER_VALUE = (1, 99)  # an upper-grid entry (a stacked example may print more than the die's maximum)
LOWER_VALUE = (0, 999)  # a lower-grid (effect) entry
SCATTER = (0, 10)  # scatter multipliers


class CardFileError(ValueError):
    """A stacked-deck file that breaks C-2: `where` is the key path, e.g. '[3].clock'."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


def _show(value: Any) -> str:
    """A short one-line rendering of a JSON value for a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return f"a list of {len(value)}" if value else "an empty list"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, int) and value.bit_length() > 64:
        return "a huge integer"
    text = repr(value[:41] if isinstance(value, str) else value)
    text = text if len(text) <= 40 else text[:39] + "…"
    return text.encode("ascii", "backslashreplace").decode("ascii")


def _int(raw: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not lo <= raw <= hi:
        raise CardFileError(where, f"expected an integer {lo}-{hi}, got {_show(raw)}")
    return raw


def _bool(raw: Any, where: str) -> bool:
    if not isinstance(raw, bool):
        raise CardFileError(where, f"expected true or false, got {_show(raw)}")
    return raw


def _choice(raw: Any, where: str, choices: Sequence[str | None]) -> Any:
    if not (raw is None or isinstance(raw, str)) or raw not in choices:
        shown = ", ".join("null" if c is None else repr(c) for c in choices)
        raise CardFileError(where, f"expected one of {shown}, got {_show(raw)}")
    return raw


def _object(raw: Any, where: str, keys: Sequence[str]) -> dict[str, Any]:
    """A JSON object with exactly these keys."""
    if not isinstance(raw, dict):
        raise CardFileError(where, f"expected an object with {', '.join(keys)}, got {_show(raw)}")
    for k in raw:
        if k not in keys:
            raise CardFileError(f"{where}.{k}" if k.isidentifier() else f"{where}[{_show(k)}]", "unknown key")
    for k in keys:
        if k not in raw:
            raise CardFileError(f"{where}.{k}", "required key is missing")
    return raw


def _list(raw: Any, where: str, n: int, what: str) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != n:
        raise CardFileError(where, f"expected a list of {n} {what}, got {_show(raw)}")
    return raw


def _entry(raw: Any, where: str) -> Entry:
    if raw == "CF":
        return CF_ENTRY
    if not isinstance(raw, dict):
        raise CardFileError(where, f'expected "CF" or {{"value": int, "explodes": bool}}, got {_show(raw)}')
    e = _object(raw, where, ("value", "explodes"))
    return Entry(_int(e["value"], f"{where}.value", *UPPER_VALUE), _bool(e["explodes"], f"{where}.explodes"))


def parse_card(raw: Any, where: str) -> Card:
    """One C-2 card (RULES §4) with every field checked; `where` prefixes key paths in errors (e.g. '[3]')."""
    raw = _object(raw, where, CARD_KEYS)
    up = _object(raw["upper"], f"{where}.upper", COLUMNS)
    upper = {c: tuple(_entry(e, f"{where}.upper.{c}[{r}]")
                      for r, e in enumerate(_list(up[c], f"{where}.upper.{c}", UPPER_ROWS, "entries")))
             for c in COLUMNS}
    low = _object(raw["lower"], f"{where}.lower", COLUMNS)
    lower = {c: tuple(_int(v, f"{where}.lower.{c}[{r}]", *LOWER_VALUE)
                      for r, v in enumerate(_list(low[c], f"{where}.lower.{c}", LOWER_ROWS, "integers")))
             for c in COLUMNS}
    hit = _object(raw["hit_locations"], f"{where}.hit_locations", ("stack", "standard", "prone"))
    stack = tuple(_choice(s, f"{where}.hit_locations.stack[{i}]", LOCATIONS)
                  for i, s in enumerate(_list(hit["stack"], f"{where}.hit_locations.stack", 4, "locations")))
    if len(set(stack)) != 4 or list(stack) != sorted(stack, key=LOCATIONS.index):
        raise CardFileError(f"{where}.hit_locations.stack", "expected four different locations in body order ("
                            + ", ".join(LOCATIONS) + ")")
    prone = tuple(_bool(b, f"{where}.hit_locations.prone[{i}]")
                  for i, b in enumerate(_list(hit["prone"], f"{where}.hit_locations.prone", 4, "booleans")))
    burst_raw = _object(raw["burst"], f"{where}.burst", ("3", "5", "10"))
    burst = {size: _int(burst_raw[str(size)], f"{where}.burst.{size}", 1, size) for size in (3, 5, 10)}
    ablation = tuple(_choice(a, f"{where}.ablation[{i}]", ("P", "A", "D"))
                     for i, a in enumerate(_list(raw["ablation"], f"{where}.ablation", 3, "of P, A, D")))
    scatter = _object(raw["scatter"], f"{where}.scatter", ("thrown", "launched"))
    unintended = tuple(_bool(b, f"{where}.unintended[{i}]")
                       for i, b in enumerate(_list(raw["unintended"], f"{where}.unintended", 10, "booleans")))
    return Card(
        number=_int(raw["number"], f"{where}.number", 1, DECK_SIZE),
        impulse=_int(raw["impulse"], f"{where}.impulse", 0, DECK_SIZE - 1),
        step=_int(raw["step"], f"{where}.step", 0, 14),
        fragment=_int(raw["fragment"], f"{where}.fragment", 0, 5),
        toggle=_bool(raw["toggle"], f"{where}.toggle"),
        special=_choice(raw["special"], f"{where}.special", (None, "bonus", "discard")),
        shuffle=_bool(raw["shuffle"], f"{where}.shuffle"),
        upper=upper,
        hit_stack=stack,
        standard=_int(hit["standard"], f"{where}.hit_locations.standard", 0, 3),
        prone=prone,
        burst=burst,
        extra_damage=_bool(raw["extra_damage"], f"{where}.extra_damage"),
        ablation=(ablation[0], ablation[1], ablation[2]),
        breakdown=_choice(raw["breakdown"], f"{where}.breakdown", (None, *BREAKDOWN_ORDER)),
        clock=_int(raw["clock"], f"{where}.clock", 1, 12),
        scatter_thrown=_int(scatter["thrown"], f"{where}.scatter.thrown", *SCATTER),
        scatter_launched=_int(scatter["launched"], f"{where}.scatter.launched", *SCATTER),
        unintended=unintended,
        lower=lower,
    )


def load_cards_json(text: str) -> list[Card]:
    """Parse a stacked-deck file: a JSON list of 1-MAX_STACKED_CARDS C-2 cards in draw order. Raises
    CardFileError (a ValueError) naming the key path, e.g. '[3].clock: expected an integer 1-12, got 13'."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardFileError(f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise CardFileError("", "not valid JSON: nested deeper than any card") from None
    except ValueError:  # an integer of more than 4300 digits
        raise CardFileError("", "not valid JSON: a number with too many digits") from None
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_STACKED_CARDS:
        raise CardFileError("", f"expected a JSON list of 1-{MAX_STACKED_CARDS} cards (C-2) in draw order, "
                            f"got {_show(raw)}")
    return [parse_card(item, f"[{i}]") for i, item in enumerate(raw)]
