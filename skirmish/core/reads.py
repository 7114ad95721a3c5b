"""What a resolution read, in the shapes events carry it (C-3): the modifiers with their reasons, and what
was turned or rolled (skirmish/rules/randomizer.py makes these records; any ruleset's events may carry them).
"""

from __future__ import annotations

from typing import TypedDict


class Mod(TypedDict):
    """A modifier with its reason (C-3: "modifiers (list of {value, reason})")."""

    value: int
    reason: str


class _RollKeys(TypedDict):
    sides: int


# (Optional keys by a subclass with total=False: NotRequired is not seen in postponed annotations on 3.11.)
class Roll(_RollKeys, total=False):
    """One roll of a dice draw, of dice with so many `sides`: a check's pool (`dice`, with the `chains` given
    up) or an effect's groups (`effect`)."""

    dice: list[int]
    effect: list[list[int]]
    chains: list[list[int]]


class DrawRecord(TypedDict, total=False):
    """What a resolution turned or rolled (C-3 "card (number) or dice"): the card with the cards its
    exploding entries `chained` and its EXTRA DAMAGE drew (`extra`), or every roll of the dice."""

    card: int
    chained: list[int]
    extra: list[int]
    dice: list[Roll]


class CheckRead(TypedDict, total=False):
    """One check's own read (initiative): the card, the entry read (a number or "CF") and its `chain`, or
    the pool's `dice` of so many `sides` and the `chains` given up."""

    card: int
    entry: int | str
    chain: list[int]
    dice: list[int]
    sides: int
    chains: list[list[int]]
