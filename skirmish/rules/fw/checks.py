"""Future*World characters, percentile checks and the attack chance (R-9.1, R-9.3, R-9.4, R-9.5).

A chance is a percentage; a check rolls d100 and succeeds on a roll at or under it, except that 96-00 always
misses (R-9.4). Modifiers multiply (or add) in the digest's order; the chance is kept exact through the
chain and rounded once at the end, so "halved three times" from 80 gives 10, as the seed's example does.
Every step is returned with its rule and reason so a log line can explain itself (R-10.2).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

CHARACTERISTICS = ("STR", "CON", "SIZ", "INT", "POW", "DEX")
CHARACTERISTIC_RANGE = (3, 18)  # R-9.1 (human range; other races' values are data in their own specs)
ALWAYS_MISS_FROM = 96  # a d100 roll of 96-00 misses whatever the chance
IMPALE_DIVISOR = 5  # impale on a roll at or under chance / 5
LUCK_PER_POW = 5  # Luck = POW x 5 %
SURVIVAL_PER_CON = 5  # the medikit's survival roll is CON x 5 %


@dataclass(frozen=True)
class Characteristics:
    """STR CON SIZ INT POW DEX (R-9.1); hit points are CON, Luck is POW x 5 %."""

    STR: int
    CON: int
    SIZ: int
    INT: int
    POW: int
    DEX: int

    @staticmethod
    def parse(raw: dict[str, object], *, limits: tuple[int, int] = CHARACTERISTIC_RANGE) -> Characteristics:
        """From a mapping with every characteristic; raises ValueError naming the bad one."""
        if not isinstance(raw, dict):
            raise ValueError(f"expected a mapping of {', '.join(CHARACTERISTICS)}")
        unknown = sorted(set(map(str, raw)) - set(CHARACTERISTICS))
        if unknown:
            raise ValueError(f"unknown characteristic {unknown[0]!r} (expected {', '.join(CHARACTERISTICS)})")
        values = {}
        lo, hi = limits
        for name in CHARACTERISTICS:
            if name not in raw:
                raise ValueError(f"missing characteristic {name}")
            v = raw[name]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise ValueError(f"{name}: expected a whole number {lo}-{hi}, got {v!r}")
            values[name] = v
        return Characteristics(**values)

    @property
    def hp(self) -> int:
        """Hit points (R-9.1: HP = CON)."""
        return self.CON

    @property
    def luck(self) -> int:
        """Luck percentage (R-9.1)."""
        return self.POW * LUCK_PER_POW

    @property
    def dead_at(self) -> int:
        """Dead at -CON hit points (R-9.7)."""
        return -self.CON


def half_dex(dex: int) -> int:
    """The DEX a second, different action acts at: half, rounded up (R-9.3)."""
    return (dex + 1) // 2


def d100(rng: random.Random) -> int:
    """A percentile roll, 1-100 (100 reads as 00)."""
    return rng.randint(1, 100)


def impale_chance(chance: int) -> int:
    """The chance of an impale for an attack at `chance` % (R-9.4), rounded as chances are."""
    return round_chance(Fraction(chance, IMPALE_DIVISOR))


def round_chance(x: Fraction) -> int:
    """A chance worked out exactly, rounded half up to a whole percentage, never below 0."""
    return math.floor(x + Fraction(1, 2)) if x > 0 else 0


@dataclass(frozen=True)
class Outcome:
    """One percentile check: the roll, the chance it was made against, and what it gave."""

    roll: int
    chance: int
    success: bool
    impale: bool

    @staticmethod
    def of(roll: int, chance: int, *, impales: bool = False) -> Outcome:
        """Read `roll` against `chance` (R-9.4): success at or under the chance unless 96-00; an impale at or
        under chance / 5 when the weapon impales (a success only)."""
        if not 1 <= roll <= 100:
            raise ValueError(f"a d100 roll is 1-100, got {roll}")
        success = roll <= chance and roll < ALWAYS_MISS_FROM
        return Outcome(roll, chance, success, impales and success and roll <= impale_chance(chance))


@dataclass(frozen=True)
class Step:
    """One modifier applied to a chance: what it did, why, and the rule (R-10.2)."""

    key: str
    rule: str
    reason: str
    times: Fraction = Fraction(1)
    plus: int = 0


# R-9.4's modifiers in the digest's order. `times` multiplies, `plus` adds (percentage points).
MODIFIERS: tuple[Step, ...] = (
    Step("darkness", "R-9.4", "fighting in the dark", times=Fraction(1, 5)),
    Step("moving_target", "R-9.4", "the target is moving", times=Fraction(1, 2)),
    Step("covered_target", "R-9.4", "the target is partly covered", times=Fraction(1, 2)),
    Step("target_in_air", "R-9.4", "the target is in the air", times=Fraction(1, 2)),
    Step("moving_firer", "R-9.4", "the firer moves while firing a missile weapon", times=Fraction(1, 2)),
    Step("prone_target", "R-9.4", "the target is prone (not attacked from above)", times=Fraction(1, 2)),
    Step("prone_firer", "R-9.4", "the firer is prone", plus=20),
    Step("knocked_down_attacker", "R-9.4", "a knocked-down attacker fights with a melee weapon", times=Fraction(1, 2)),
    Step("knocked_down_target", "R-9.4", "a melee attack on a knocked-down target", plus=20),
    Step("surprised_target", "R-9.4", "the target is surprised, attacked from the rear or helpless", times=Fraction(2)),
)
MODIFIER_KEYS = tuple(m.key for m in MODIFIERS)
_BY_KEY = {m.key: m for m in MODIFIERS}


@dataclass(frozen=True)
class Chance:
    """An attack chance after its modifiers: the base, the steps applied in order, the final chance and the
    impale chance (which follows the final chance, so surprise doubles it too: R-9.4)."""

    base: int
    steps: tuple[Step, ...]
    value: int

    @property
    def impale(self) -> int:
        """The impale chance at this chance."""
        return impale_chance(self.value)

    def explain(self) -> str:
        """`80% x1/2 (the target is moving) x1/2 (...) = 20%`."""
        parts = [f"{self.base}%"]
        for s in self.steps:
            op = f"+{s.plus}" if s.plus else f"x{s.times}"
            parts.append(f"{op} ({s.reason})")
        return " ".join(parts) + f" = {self.value}%"


def attack_chance(base: int, conditions: frozenset[str] | set[str] | tuple[str, ...] = ()) -> Chance:
    """The chance to hit from a `base` skill % under `conditions` (keys of MODIFIERS), applied in the digest's
    order whatever order they are given in (R-9.4); raises ValueError on an unknown condition."""
    unknown = sorted(set(conditions) - set(_BY_KEY))
    if unknown:
        raise ValueError(f"unknown attack condition {unknown[0]!r} (expected one of {', '.join(MODIFIER_KEYS)})")
    x = Fraction(base)
    steps = []
    for m in MODIFIERS:
        if m.key in conditions:
            x = x * m.times + m.plus
            steps.append(m)
    return Chance(base, tuple(steps), round_chance(x))


BURST_ROUNDS = 3  # autoguns and support guns fire one shot or a burst of three


def burst_hits(rng: random.Random) -> int:
    """How many rounds of a burst that hit strike home: 1d3 (R-9.5); only the first may impale."""
    return rng.randint(1, BURST_ROUNDS)
