"""The Future Imperfect action deck (RULES §4): cards, deterministic generation, drawing and stacking.

A deck is data. `generate("A")` builds the same 54 cards on every machine; `Deck` holds a draw pile and
a discard pile and is driven by the battle's one random source.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Iterable, Sequence
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
# The probability models behind the grids.


def explode_mean(sides: int) -> float:
    """Mean of one exploding die: (s+1)/2 · s/(s-1)."""
    return (sides + 1) / 2 * sides / (sides - 1)


def max_pmf(sides: int, dice: int) -> list[float]:
    """P(highest of `dice` plain dice = k) for k = 1..sides (index k-1)."""
    return [(k**dice - (k - 1) ** dice) / sides**dice for k in range(1, sides + 1)]


def upper_model_mean(sides: int, row: int) -> float:
    """R-4.2 model mean of an upper entry: highest of `row` dice, a maximum chains one exploding die."""
    pmf = max_pmf(sides, row)
    plain = sum((k + 1) * p for k, p in enumerate(pmf))
    return plain + pmf[-1] * explode_mean(sides)


def exploding_quantile(sides: int, q: float) -> int:
    """Inverse CDF of one exploding die at probability q in (0, 1)."""
    total = 0
    scale = 1.0
    base = 0.0
    while True:
        # Within this layer the plain faces 1..s-1 each carry scale/s.
        step = scale / sides
        for face in range(1, sides):
            base += step
            if q < base:
                return total + face
        total += sides
        scale *= 1 / sides
        if scale < 1e-12:
            return total + 1


def _counts_for(pmf: Sequence[float], n: int) -> list[int]:
    """Largest-remainder apportionment of n items to a distribution."""
    raw = [p * n for p in pmf]
    counts = [math.floor(x) for x in raw]
    rest = n - sum(counts)
    order = sorted(range(len(pmf)), key=lambda i: (-(raw[i] - counts[i]), i))
    for i in order[:rest]:
        counts[i] += 1
    return counts


def _upper_values(sides: int, row: int) -> list[int]:
    """53 printed values for one (column,row) whose deck mean (with one CF card) tracks the model."""
    n = DECK_SIZE - 1
    pmf = max_pmf(sides, row)
    counts = _counts_for(pmf, n)
    chain = explode_mean(sides)
    target = upper_model_mean(sides, row) * DECK_SIZE

    def total(c: list[int]) -> float:
        return sum((k + 1) * ck for k, ck in enumerate(c)) + c[-1] * chain

    for _ in range(400):
        err = total(counts) - target
        if abs(err) / target < 0.002:
            break
        best: tuple[float, float, int, int] | None = None
        for k in range(sides):
            if counts[k] == 0:
                continue
            for dst in (k - 1, k + 1):
                if not 0 <= dst < sides:
                    continue
                trial = list(counts)
                trial[k] -= 1
                trial[dst] += 1
                new_err = abs(total(trial) - target)
                distortion = abs(trial[dst] - pmf[dst] * n) + abs(trial[k] - pmf[k] * n)
                key = (new_err, distortion, k, dst)
                if best is None or key < best:
                    best = key
        if best is None or best[0] >= abs(err):
            break
        counts[best[2]] -= 1
        counts[best[3]] += 1
    return [k + 1 for k, c in enumerate(counts) for _ in range(c)]


def _lower_die_values(sides: int) -> list[int]:
    """54 exploding-die values, stratified so the deck mean tracks the exploding mean (R-4.3)."""
    values = [exploding_quantile(sides, (i + 0.5) / DECK_SIZE) for i in range(DECK_SIZE)]
    target = explode_mean(sides) * DECK_SIZE
    # Stratification trims the rare long tail; restore the mean by raising the top values.
    i = DECK_SIZE - 1
    while sum(values) < target - 0.5 and i >= 0:
        values[i] += 1
        i = i - 1 if i > DECK_SIZE - 6 else DECK_SIZE - 1
    return values


def _stratified_bools(rng: random.Random, n: int, true_count: int) -> list[bool]:
    out = [True] * true_count + [False] * (n - true_count)
    rng.shuffle(out)
    return out


def deck_seed(name: str) -> int:
    """A stable integer seed for a deck name."""
    return int.from_bytes(hashlib.sha256(f"skirmish-action-deck:{name}".encode()).digest()[:8], "big")


def timing(index: int) -> dict[str, Any]:
    """The timing fields of the card with impulse `index` (R-4.1, poker mapping)."""
    if index == 0:
        step, fragment, toggle, special = 0, 0, False, "discard"
    elif index == 53:
        step, fragment, toggle, special = 14, 5, True, "bonus"
    else:
        step = (index - 1) // 4 + 1
        fragment = (index - 1) % 4 + 1
        toggle = SUITS[fragment - 1] in ("clubs", "spades")
        special = None
    return {
        "number": index + 1, "impulse": index, "step": step, "fragment": fragment,
        "toggle": toggle, "special": special, "shuffle": special is not None,
    }


def generate(name: str | int) -> tuple[Card, ...]:
    """Build a 54-card deck deterministically from a deck name or seed (R-4)."""
    seed = deck_seed(name) if isinstance(name, str) else int(name)
    rng = random.Random(seed)
    n = DECK_SIZE

    upper: list[dict[str, list[Entry]]] = [{c: [] for c in COLUMNS} for _ in range(n)]
    for col in COLUMNS:
        s = SIDES[col]
        for row in range(1, UPPER_ROWS + 1):
            values = _upper_values(s, row)
            rng.shuffle(values)
            cf_at = rng.randrange(n)
            it = iter(values)
            for i in range(n):
                upper[i][col].append(CF_ENTRY if i == cf_at else Entry(v := next(it), v == s))

    lower: list[dict[str, tuple[int, ...]]] = [{} for _ in range(n)]
    for col in COLUMNS:
        s = SIDES[col]
        dice_rows: list[list[int]] = []
        for _ in range(LOWER_ROWS):
            vals = _lower_die_values(s)
            rng.shuffle(vals)
            dice_rows.append(vals)
        for i in range(n):
            running = 0
            cum = []
            for r in range(LOWER_ROWS):
                running += dice_rows[r][i]
                cum.append(running)
            lower[i][col] = tuple(cum)

    # Hit locations (R-4.4): standard by the frequency table, stack of 4 in body order.
    std_counts = _counts_for([STANDARD_FREQUENCY[loc] / 100 for loc in LOCATIONS], n)
    standards = [loc for loc, c in zip(LOCATIONS, std_counts, strict=True) for _ in range(c)]
    rng.shuffle(standards)
    std_prone = _stratified_bools(rng, n, n // 3)

    burst_tables: dict[int, list[int]] = {}
    for size in (3, 5, 10):
        pmf = [math.comb(size, k) / 2**size for k in range(size + 1)]
        pmf[1] += pmf[0]
        pmf[0] = 0.0
        counts = _counts_for(pmf, n)
        vals = [k for k, c in enumerate(counts) for _ in range(c)]
        rng.shuffle(vals)
        burst_tables[size] = vals

    extra = _stratified_bools(rng, n, 3)
    bands = (
        {"P": 32, "A": 16, "D": 6},  # PN > AV
        {"P": 16, "A": 22, "D": 16},  # PN in {AV, AV-1}
        {"P": 6, "A": 16, "D": 32},  # PN <= AV-2
    )
    ablation_cols: list[list[str]] = []
    for band in bands:
        col_vals = [k for k, c in band.items() for _ in range(c)]
        rng.shuffle(col_vals)
        ablation_cols.append(col_vals)
    breakdowns: list[str | None] = [*(["V"] * 3), *(["R"] * 2), *(["F"] * 2), "E"]
    breakdowns += [None] * (n - len(breakdowns))
    rng.shuffle(breakdowns)
    clocks = [h for h in range(1, 13) for _ in range(5 if h % 2 == 0 else 4)]
    rng.shuffle(clocks)
    thrown = [1] * 18 + [2] * 20 + [3] * 16
    launched = [1] * 10 + [2] * 14 + [3] * 14 + [4] * 10 + [5] * 6
    rng.shuffle(thrown)
    rng.shuffle(launched)
    unintended_cols = [_stratified_bools(rng, n, 16) for _ in range(10)]

    cards: list[Card] = []
    for i in range(n):
        std = standards[i]
        others = [loc for loc in LOCATIONS if loc != std]
        picked = set(rng.sample(others, 3)) | {std}
        stack = tuple(loc for loc in LOCATIONS if loc in picked)
        std_index = stack.index(std)
        prone = tuple(
            std_prone[i] if j == std_index else rng.random() < 1 / 3 for j in range(4)
        )
        t = timing(i)
        cards.append(
            Card(
                number=t["number"], impulse=t["impulse"], step=t["step"], fragment=t["fragment"],
                toggle=t["toggle"], special=t["special"], shuffle=t["shuffle"],
                upper={c: tuple(upper[i][c]) for c in COLUMNS},
                hit_stack=stack, standard=std_index, prone=prone,
                burst={size: burst_tables[size][i] for size in (3, 5, 10)},
                extra_damage=extra[i],
                ablation=(ablation_cols[0][i], ablation_cols[1][i], ablation_cols[2][i]),
                breakdown=breakdowns[i], clock=clocks[i],
                scatter_thrown=thrown[i], scatter_launched=launched[i],
                unintended=tuple(col[i] for col in unintended_cols),
                lower=lower[i],
            )
        )
    return tuple(cards)


_CACHE: dict[str | int, tuple[Card, ...]] = {}


def builtin(name: str | int) -> tuple[Card, ...]:
    """A generated deck, cached per process (decks are immutable)."""
    if name not in _CACHE:
        _CACHE[name] = generate(name)
    return _CACHE[name]


def expected_entry(card_entries: Iterable[Entry], sides: int) -> float:
    """Deck expectation of one (column,row): CF counts 0, a chain counts at its expectation."""
    entries = list(card_entries)
    chain = explode_mean(sides)
    return sum((0 if e.cf else e.value + (chain if e.explodes else 0)) for e in entries) / len(entries)


def deck_stats(cards: Sequence[Card]) -> list[dict[str, Any]]:
    """Per column/row deck means beside the model means (C-2 `--stats`)."""
    rows: list[dict[str, Any]] = []
    for col in COLUMNS:
        s = SIDES[col]
        for row in range(1, UPPER_ROWS + 1):
            deck = expected_entry((c.entry(col, row) for c in cards), s)
            model = upper_model_mean(s, row)
            rows.append({"grid": "upper", "column": col, "row": row, "deck": deck, "model": model,
                         "cf": sum(c.entry(col, row).cf for c in cards)})
        for row in range(1, LOWER_ROWS + 1):
            deck = sum(c.effect(col, row) for c in cards) / len(cards)
            rows.append({"grid": "lower", "column": col, "row": row, "deck": deck,
                         "model": row * explode_mean(s), "cf": 0})
    return rows


# ----------------------------------------------------------------------------------------------------------
# The deck in play.


class Deck:
    """Draw pile and discard pile; shuffles only with the random source it is given (R-10.1)."""

    def __init__(self, cards: Sequence[Card], rng: random.Random, *, shuffle: bool = True) -> None:
        self._rng = rng
        self._all = tuple(cards)
        self.draw_pile: list[Card] = list(cards)  # index 0 is the top
        self.discard_pile: list[Card] = []
        self.stacked = not shuffle
        self.pending_shuffle = False
        self.shuffles = 0
        if shuffle:
            self.shuffle()

    def __len__(self) -> int:
        return len(self.draw_pile) + len(self.discard_pile)

    def shuffle(self) -> None:
        """Gather every card and shuffle (a stacked deck keeps its order)."""
        self.draw_pile = self.draw_pile + self.discard_pile
        self.discard_pile = []
        self.pending_shuffle = False
        if self.stacked:
            self.draw_pile.sort(key=self._all.index)
            return
        self._rng.shuffle(self.draw_pile)
        self.shuffles += 1

    def draw(self) -> Card:
        """Draw the top card; it goes to the discard pile. A SHUFFLE card marks a pending shuffle."""
        if not self.draw_pile:
            self.shuffle()
        card = self.draw_pile.pop(0)
        self.discard_pile.append(card)
        if card.shuffle and not self.stacked:
            self.pending_shuffle = True
        return card

    def settle(self) -> bool:
        """Carry out a pending shuffle after a resolution; True if the deck was shuffled."""
        if self.pending_shuffle:
            self.shuffle()
            return True
        return False


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
