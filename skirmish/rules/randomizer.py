"""One resolution, one draw: the same reading interface over the action deck or over dice (R-3.1).

In cards mode a `Draw` wraps the card turned for the action; exploding entries and EXTRA DAMAGE draw more
cards from the deck. In dice mode the pools are rolled, and the card's other fields (hit locations,
burst, ablation, breakdown, clock, scatter, unintended targets, toggle) are rolled on demand from the same
model the deck is generated from, so both modes resolve through one code path.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from skirmish.rules import dice as dicemod
from skirmish.rules.checks import worth_improving
from skirmish.rules.deck import (
    BREAKDOWN_ORDER,
    LOCATIONS,
    SIDES,
    STANDARD_FREQUENCY,
    Card,
    Deck,
)

Mode = Literal["cards", "dice"]


@dataclass
class Read:
    """A check read: the raw result (before modifiers), CF, and what was turned or rolled."""

    result: int
    cf: bool
    source: dict[str, Any]


class Draw(Protocol):
    """The reading interface shared by cards and dice."""

    def check(self, column: str, row: int, target: int, modifier: int, want_bumps: bool = True) -> Read: ...
    def effect(self, column: str, row: int) -> int: ...
    def extra_effect(self, column: str, row: int) -> list[tuple[int, int]]: ...
    @property
    def toggle(self) -> bool: ...
    @property
    def impulse(self) -> int: ...
    @property
    def fields(self) -> Card: ...
    def record(self) -> dict[str, Any]: ...


class CardDraw:
    """A resolution read off one action card; chains draw more cards (R-4.2, R-4.6)."""

    def __init__(self, card: Card, deck: Deck) -> None:
        self.card = card
        self._deck = deck
        self.chained: list[int] = []
        self.extra: list[int] = []

    @property
    def fields(self) -> Card:
        """The card whose fields this draw reads."""
        return self.card

    @property
    def toggle(self) -> bool:
        """The toggle (black = YES)."""
        return self.card.toggle

    @property
    def impulse(self) -> int:
        """The card's impulse (contest tiebreak)."""
        return self.card.impulse

    def check(self, column: str, row: int, target: int, modifier: int, want_bumps: bool = True) -> Read:
        """Read (column,row); chain exploding entries while the roller wants more (R-4.2, R-3.4)."""
        row = max(1, min(5, row))
        entry = self.card.entry(column, row)
        if entry.cf:
            return Read(0, True, {"card": self.card.number, "entry": "CF"})
        total = entry.value
        chain: list[int] = []
        explodes = entry.explodes
        sides = SIDES[column]
        while explodes and (worth_improving(total + modifier, target, sides) if want_bumps
                            else total + modifier < target):
            nxt = self._deck.draw()
            e = nxt.entry(column, 1)
            chain.append(nxt.number)
            self.chained.append(nxt.number)
            if e.cf:
                break
            total += e.value
            explodes = e.explodes
        src: dict[str, Any] = {"card": self.card.number, "entry": entry.value}
        if chain:
            src["chain"] = chain
        return Read(total, False, src)

    def effect(self, column: str, row: int) -> int:
        """Lower-grid value (R-4.3)."""
        return self.card.effect(column, row)

    def extra_effect(self, column: str, row: int) -> list[tuple[int, int]]:
        """EXTRA DAMAGE: draw on while the card says so; (card number, added effect) pairs (R-4.6)."""
        out: list[tuple[int, int]] = []
        says = self.card.extra_damage
        guard = 0
        while says and guard < 54:
            nxt = self._deck.draw()
            out.append((nxt.number, nxt.effect(column, row)))
            self.extra.append(nxt.number)
            says = nxt.extra_damage
            guard += 1
        return out

    def record(self) -> dict[str, Any]:
        """What the event log keeps of this draw."""
        rec: dict[str, Any] = {"card": self.card.number}
        if self.chained:
            rec["chained"] = list(self.chained)
        if self.extra:
            rec["extra"] = list(self.extra)
        return rec


def sample_fields(rng: random.Random) -> Card:
    """A card's non-grid fields rolled from the deck model (used by dice mode)."""
    locs = list(LOCATIONS)
    std = rng.choices(locs, weights=[STANDARD_FREQUENCY[x] for x in locs])[0]
    picked = set(rng.sample([x for x in locs if x != std], 3)) | {std}
    stack = tuple(x for x in locs if x in picked)
    std_i = stack.index(std)
    prone = tuple(rng.random() < 1 / 3 for _ in range(4))

    def burst(n: int) -> int:
        return max(1, sum(rng.random() < 0.5 for _ in range(n)))

    def band(p: int, a: int) -> str:
        r = rng.randrange(54)
        return "P" if r < p else ("A" if r < p + a else "D")

    bd_roll = rng.randrange(54)
    breakdown = None
    if bd_roll < 8:
        breakdown = BREAKDOWN_ORDER[0 if bd_roll < 3 else 1 if bd_roll < 5 else 2 if bd_roll < 7 else 3]
    clock_roll = rng.randrange(54)
    clocks = [h for h in range(1, 13) for _ in range(5 if h % 2 == 0 else 4)]
    toggle = rng.random() < 0.5
    return Card(
        number=0, impulse=rng.randrange(54), step=0, fragment=0, toggle=toggle, special=None,
        shuffle=False, upper={}, hit_stack=stack, standard=std_i, prone=prone,
        burst={3: burst(3), 5: burst(5), 10: burst(10)}, extra_damage=rng.randrange(54) < 3,
        ablation=(band(32, 16), band(16, 22), band(6, 16)), breakdown=breakdown,
        clock=clocks[clock_roll], scatter_thrown=rng.choice((1, 1, 2, 2, 3)),
        scatter_launched=rng.choice((1, 2, 3, 4, 5)),
        unintended=tuple(rng.randrange(54) < 16 for _ in range(10)), lower={},
    )


@dataclass
class DiceDraw:
    """A resolution rolled with dice (R-3.1, R-3.4, R-3.5); other fields sampled from the deck model."""

    rng: random.Random
    rolls: list[dict[str, Any]] = field(default_factory=list)
    _fields: Card | None = None

    def _roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)

    @property
    def fields(self) -> Card:
        """Rolled card fields (lazily, once per draw)."""
        if self._fields is None:
            self._fields = sample_fields(self.rng)
        return self._fields

    @property
    def toggle(self) -> bool:
        """A coin flip, rolled once per draw."""
        return self.fields.toggle

    @property
    def impulse(self) -> int:
        """A d54-1 for contest tiebreaks."""
        return self.fields.impulse

    def check(self, column: str, row: int, target: int, modifier: int, want_bumps: bool = True) -> Read:
        """Roll the pool and read the highest die, exploding per the roller policy."""
        sides = SIDES[column]
        # A finished chain is given up for the next maximum only while still failing.
        read = dicemod.read_pool(self._roll, sides, row, want=lambda t: t + modifier < target)
        src: dict[str, Any] = {"dice": list(read.dice), "sides": sides}
        if read.chains:
            src["chains"] = [list(c) for c in read.chains]
        self.rolls.append(src)
        return Read(read.result, read.cf, src)

    def effect(self, column: str, row: int) -> int:
        """Sum of `row` exploding dice of the column's size."""
        sides = SIDES[column]
        total, groups = dicemod.effect_roll(self._roll, sides, row)
        self.rolls.append({"effect": [list(g) for g in groups], "sides": sides})
        return total

    def extra_effect(self, column: str, row: int) -> list[tuple[int, int]]:
        """Dice have no EXTRA DAMAGE field: every die already explodes."""
        return []

    def record(self) -> dict[str, Any]:
        """What the event log keeps of this draw."""
        return {"dice": list(self.rolls)}


class Randomizer:
    """The battle's source of draws: the deck (cards) or dice, with one seeded random source."""

    def __init__(self, mode: Mode, rng: random.Random, deck: Deck | None) -> None:
        if mode == "cards" and deck is None:
            raise ValueError("cards mode needs a deck")
        self.mode = mode
        self.rng = rng
        self.deck = deck
        self.draws = 0  # resolutions started: a move followed by none can still be taken back

    def draw(self) -> CardDraw | DiceDraw:
        """Turn one card (or start one dice resolution)."""
        self.draws += 1
        if self.mode == "cards":
            assert self.deck is not None
            return CardDraw(self.deck.draw(), self.deck)
        return DiceDraw(self.rng)

    def settle(self) -> bool:
        """After a resolution: carry out a pending deck shuffle (R-4.1)."""
        return self.deck.settle() if self.deck is not None else False
