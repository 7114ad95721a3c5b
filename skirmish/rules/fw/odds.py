"""Exact odds of a Future*World attack for the board's preview and the AI's estimates (issue 13: "hit, impale,
damage distribution after armour and screen").

Percentile rolls and sums of dice make every figure a Fraction: P(hit), P(impale), the burst's 1d3 hits and
the distribution of the damage that gets through armour and screen (R-9.4, R-9.5, R-9.6), for the same
`attack.Attack` value that `attack.resolve` rolls. Nothing is sampled.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from skirmish.rules.fw.attack import IMPALE_ROLLS, Attack
from skirmish.rules.fw.checks import BURST_ROUNDS
from skirmish.rules.fw.damage import is_major_wound
from skirmish.rules.fw.dice import DiceExpr

Pmf = dict[int, Fraction]
D100 = 100


@lru_cache(maxsize=512)
def _dice_counts(count: int, sides: int) -> tuple[tuple[int, int], ...]:
    """Ways to roll each total of `count` dice of `sides` sides (integers: exact)."""
    ways = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for f in range(1, sides + 1):
                nxt[total + f] = nxt.get(total + f, 0) + n
        ways = nxt
    return tuple(sorted(ways.items()))


def dice_pmf(dice: DiceExpr, times: int = 1) -> Pmf:
    """The exact distribution of `dice` rolled `times` times and added (an impale: twice, R-9.4)."""
    whole = dice.sides ** (dice.count * times)
    ways = _dice_counts(dice.count * times, dice.sides)
    return {t + dice.add * times: Fraction(n, whole) for t, n in ways}


def convolve(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Pmf:
    """The distribution of the sum of two independent amounts."""
    out: Pmf = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def mix(parts: Iterable[tuple[Fraction, Mapping[int, Fraction]]]) -> Pmf:
    """The distribution that is each part with its weight (weights summing to 1)."""
    out: Pmf = {}
    for w, pmf in parts:
        if w:
            for x, p in pmf.items():
                out[x] = out.get(x, Fraction(0)) + w * p
    return out


def through_pmf(attack: Attack, times: int = 1) -> Pmf:
    """One hit's damage after armour and screen (R-9.6), the dice rolled `times` times."""
    out: Pmf = {}
    for rolled, p in dice_pmf(attack.dice, times).items():
        t = attack.through(rolled).through
        out[t] = out.get(t, Fraction(0)) + p
    return out


@dataclass(frozen=True)
class Odds:
    """The exact odds of one attack: `damage` is the distribution of the points that get through for the
    whole attack (a miss counts 0), `hits` that of the number of hits (0 on a miss; 1-3 for a burst)."""

    hit: Fraction
    impale: Fraction
    hits: Pmf
    damage: Pmf

    @property
    def mean(self) -> Fraction:
        """The expected damage through armour and screen."""
        return sum((x * p for x, p in self.damage.items()), Fraction(0))

    def at_least(self, points: int) -> Fraction:
        """P(at least `points` get through in all): with the target's HP, the chance of dropping it (R-9.7;
        a major wound is a single hit's: `major_wound_chance`)."""
        return sum((p for x, p in self.damage.items() if x >= points), Fraction(0))

    def percent(self, p: Fraction) -> str:
        """A probability as the board prints it, '37.5%' (rounded half up from the exact value)."""
        return f"{tenths(p * 100)}%"


def tenths(x: Fraction) -> str:
    """`x` to one decimal place, rounded half up from its exact value (3.15 prints 3.2)."""
    n = math.floor(x * 10 + Fraction(1, 2))
    return f"{'-' if n < 0 else ''}{abs(n) // 10}.{abs(n) % 10}"


def roll_counts(attack: Attack) -> tuple[int, int]:
    """(d100 rolls that hit, d100 rolls that impale) out of 100 (R-9.4)."""
    hits = sum(1 for r in range(1, D100 + 1) if attack.hits_on(r))
    impales = sum(1 for r in range(1, D100 + 1) if attack.impales_on(r))
    return hits, impales


@lru_cache(maxsize=1024)
def odds(attack: Attack) -> Odds:
    """The exact odds of `attack` (R-9.4, R-9.5, R-9.6), matching `attack.resolve` roll for roll."""
    n_hit, n_imp = roll_counts(attack)
    p_hit, p_imp = Fraction(n_hit, D100), Fraction(n_imp, D100)
    plain = through_pmf(attack)
    first_impaled = through_pmf(attack, IMPALE_ROLLS) if n_imp else plain
    counts = range(1, BURST_ROUNDS + 1) if attack.burst else range(1, 2)
    each = Fraction(1, len(counts))

    def total(first: Pmf) -> Pmf:
        parts = []
        acc = first
        for k in counts:
            if k > 1:
                acc = convolve(acc, plain)
            parts.append((each, acc))
        return mix(parts)

    damage = mix(((1 - p_hit, {0: Fraction(1)}), (p_hit - p_imp, total(plain)), (p_imp, total(first_impaled))))
    hits = mix(((1 - p_hit, {0: Fraction(1)}), (p_hit, {k: each for k in counts})))
    return Odds(p_hit, p_imp, hits, damage)


def major_wound_chance(attack: Attack, hp: int) -> Fraction:
    """The exact chance that some single hit of `attack` is a major wound to a figure at `hp` (R-9.7: a hit
    taking at least half the HP it finds, a burst's hits taking effect one after another)."""
    n_hit, n_imp = roll_counts(attack)
    plain = through_pmf(attack)
    counts = range(1, BURST_ROUNDS + 1) if attack.burst else range(1, 2)

    def chance(first: Pmf) -> Fraction:
        total = Fraction(0)
        for k in counts:
            states: dict[int, Fraction] = {hp: Fraction(1)}  # HP left -> P(no major wound so far)
            major = Fraction(0)
            for i in range(k):
                nxt: dict[int, Fraction] = {}
                for left, p in states.items():
                    for t, q in (first if i == 0 else plain).items():
                        if is_major_wound(left, t):
                            major += p * q
                        else:
                            nxt[left - t] = nxt.get(left - t, Fraction(0)) + p * q
                states = nxt
            total += major / len(counts)
        return total

    plain_hit = Fraction(n_hit - n_imp, D100) * chance(plain) if n_hit > n_imp else Fraction(0)
    impaled = Fraction(n_imp, D100) * chance(through_pmf(attack, IMPALE_ROLLS)) if n_imp else Fraction(0)
    return plain_hit + impaled


def describe(attack: Attack, hp: int | None = None) -> str:
    """The preview's line: hit, impale, the mean through armour and screen, and with the target's HP the chances
    of a major wound and of dropping it (R-9.4, R-9.6, R-9.7)."""
    o = odds(attack)
    parts = [f"hit {o.percent(o.hit)}"]
    if attack.impales:
        parts.append(f"impale {o.percent(o.impale)}")
    parts.append(f"mean {tenths(o.mean)} through")
    if hp is not None and hp > 0:
        parts += [f"major wound {o.percent(major_wound_chance(attack, hp))}", f"down {o.percent(o.at_least(hp))}"]
    return ", ".join(parts)


def blast_odds(p_caught: Fraction, attack: Attack) -> Odds:
    """The odds for a figure caught in a blast with probability `p_caught` (a grenade, R-9.10): the blast's
    dice once (no impale), through its armour and screen."""
    damage = mix(((1 - p_caught, {0: Fraction(1)}), (p_caught, through_pmf(attack))))
    hits = mix(((1 - p_caught, {0: Fraction(1)}), (p_caught, {1: Fraction(1)})))
    return Odds(p_caught, Fraction(0), hits, damage)


@dataclass(frozen=True)
class Preview:
    """What the board shows before an fw attack is declared: the chance worked out (with R-9.4's steps), the
    `Attack` value the roll would take, its exact odds, the target's HP and the line `describe` prints."""

    chance: int
    steps: tuple[str, ...]
    attack: Attack
    odds: Odds
    hp: int
    text: str

    @staticmethod
    def of(chance: int, steps: Iterable[str], attack: Attack, hp: int) -> Preview:
        """The preview of `attack` on a target at `hp`."""
        return Preview(chance, tuple(steps), attack, odds(attack), hp, describe(attack, hp))
