"""One Future*World attack, resolved on the battle's random source (R-9.4, R-9.5, R-9.6): the percentile roll,
the impale, a burst's 1d3 hits, damage rolled (twice on an impale) and taken through armour and screen.

An `Attack` is a value holding everything the roll needs, worked out beforehand by the caller: the final
chance (`checks.attack_chance(...).value`), the weapon's dice, damage class, whether it impales or bursts,
and the target's armour and screen. `resolve` rolls it; `skirmish.rules.fw.odds` gives the exact
distribution of the same value, so the board's preview and the roll can never disagree.

The rolls, in order (R-10.2: each is kept in the result for the log): d100; on a hit, 1d3 for a burst; then
for each hit its damage dice (the first hit of an impale rolls them twice and adds).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from skirmish.rules.fw.checks import ALWAYS_MISS_FROM, BURST_ROUNDS, impale_chance
from skirmish.rules.fw.damage import DAMAGE_CLASSES, SCREEN_TYPES, Absorbed, through_protection
from skirmish.rules.fw.dice import DiceExpr

IMPALE_ROLLS = 2  # an impale rolls the damage twice and adds


@dataclass(frozen=True)
class Attack:
    """An attack ready to roll. `armour` holds (class, points) pairs (see `Attack.of`); `always_miss` is False
    only for a seeker's acquisition, which is no to-hit roll (R-9.10: 100% acquires)."""

    chance: int
    dice: DiceExpr
    damage_class: str
    impales: bool = False
    burst: bool = False
    armour: tuple[tuple[str, int], ...] = ()
    screen_type: str | None = None
    screen: int = 0
    always_miss: bool = True

    @staticmethod
    def of(chance: int, dice: DiceExpr | str, damage_class: str, *, impales: bool = False, burst: bool = False,
           armour: Mapping[str, int] | None = None, screen_type: str | None = None, screen: int = 0,
           always_miss: bool = True) -> Attack:
        """Build and check an attack; raises ValueError naming the bad value."""
        if not isinstance(dice, DiceExpr):
            dice = DiceExpr.parse(dice)
        if damage_class not in DAMAGE_CLASSES:
            raise ValueError(f"damage class: expected one of {', '.join(DAMAGE_CLASSES)}, got {damage_class!r}")
        if screen_type is not None and screen_type not in SCREEN_TYPES:
            raise ValueError(f"screen: expected one of {', '.join(SCREEN_TYPES)}, got {screen_type!r}")
        if chance < 0 or screen < 0:
            raise ValueError(f"chance and screen are never below 0, got {chance} and {screen}")
        return Attack(chance, dice, damage_class, impales, burst, tuple(sorted((armour or {}).items())),
                      screen_type, screen, always_miss)

    @property
    def armour_points(self) -> dict[str, int]:
        """The target's armour, class -> points."""
        return dict(self.armour)

    def hits_on(self, roll: int) -> bool:
        """Whether a d100 `roll` hits: at or under the chance, and 96-00 misses whatever it is (R-9.4)."""
        return roll <= self.chance and (roll < ALWAYS_MISS_FROM or not self.always_miss)

    def impales_on(self, roll: int) -> bool:
        """Whether a d100 `roll` impales: a hit at or under chance / 5 with an impaling weapon (R-9.4)."""
        return self.impales and self.hits_on(roll) and roll <= impale_chance(self.chance)

    def through(self, rolled: int) -> Absorbed:
        """One hit of `rolled` points through the target's armour and then its screen (R-9.6)."""
        return through_protection(rolled, self.damage_class, self.armour_points, self.screen_type, self.screen)


@dataclass(frozen=True)
class Hit:
    """One hit of an attack: its dice as rolled (two totals on an impale) and what armour and screen left."""

    rolls: tuple[int, ...]
    absorbed: Absorbed


@dataclass(frozen=True)
class Result:
    """A resolved attack: the d100 roll, hit, impale, the burst's 1d3 (0 if none) and each hit (R-10.2)."""

    roll: int
    hit: bool
    impale: bool
    burst_roll: int
    hits: tuple[Hit, ...]

    @property
    def damage(self) -> int:
        """Every point that got through armour and screen."""
        return sum(h.absorbed.through for h in self.hits)


def resolve(rng: random.Random, attack: Attack) -> Result:
    """Roll `attack` on the battle's random source (R-9.4, R-9.5, R-9.6; order in the module's docstring)."""
    roll = rng.randint(1, 100)
    if not attack.hits_on(roll):
        return Result(roll, False, False, 0, ())
    impale = attack.impales_on(roll)
    burst_roll = rng.randint(1, BURST_ROUNDS) if attack.burst else 0
    hits = []
    for i in range(burst_roll or 1):
        times = IMPALE_ROLLS if impale and i == 0 else 1  # only a burst's first hit impales
        rolls = tuple(attack.dice.roll(rng) for _ in range(times))
        hits.append(Hit(rolls, attack.through(sum(rolls))))
    return Result(roll, True, impale, burst_roll, tuple(hits))

