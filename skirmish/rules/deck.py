"""The Future Imperfect action deck (RULES §4): deterministic generation, statistics, drawing and stacking.

A deck is data. `generate("A")` builds the same 54 cards on every machine; `Deck` holds a draw pile and
a discard pile and is driven by the battle's one random source. The card itself and its C-2 JSON are in
skirmish.rules.cards (its names are importable from here too).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable, Sequence
from typing import Any

from skirmish.rules.cards import (
    BREAKDOWN_ORDER,
    BUILTIN_DECKS,
    CF_ENTRY,
    COLUMNS,
    DECK_SIZE,
    LOCATIONS,
    LOWER_ROWS,
    MAX_STACKED_CARDS,
    SIDES,
    STANDARD_FREQUENCY,
    SUITS,
    UPPER_ROWS,
    Card,
    CardFileError,
    Entry,
    load_cards_json,
)

__all__ = [  # the card's names that were always imported from here stay importable from here
    "BREAKDOWN_ORDER", "BUILTIN_DECKS", "COLUMNS", "LOCATIONS", "MAX_STACKED_CARDS", "SIDES", "STANDARD_FREQUENCY",
    "Card", "CardFileError", "Deck", "Entry", "builtin", "deck_seed", "deck_stats", "expected_entry", "explode_mean",
    "exploding_quantile", "generate", "load_cards_json", "max_pmf", "timing", "upper_model_mean",
]


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

    # Hit locations: standard by the frequency table, stack of 4 in body order.
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
