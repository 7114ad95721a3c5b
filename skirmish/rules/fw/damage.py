"""Future*World damage and wounds (R-9.6, R-9.7): armour by damage class, then the matching force screen,
point for point; major wounds; unconsciousness, bleeding and death; the medikit.

Damage classes are the armour table's columns: P (projectile), B (blaster), L (laser). Missiles and grenades
hit as P (their blast and fragments are impact damage: a kinetic screen stops them; docs/RULES-NOTES.md);
the force sword's class is F: no armour helps and any magnetic screen stops it entirely (R-9.6).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from skirmish.rules.fw.checks import SURVIVAL_PER_CON, Outcome

DAMAGE_CLASSES = ("P", "B", "L", "F")
ARMOURED_CLASSES = ("P", "B", "L")
SCREEN_STOPS = {"kinetic": "P", "diffusion": "L", "magnetic": "B"}  # the class each screen type stops
SCREEN_TYPES = tuple(SCREEN_STOPS)
FORCE_SWORD = "F"
MAJOR_WOUND_DIE = 20  # roll d20 at or under the remaining HP or fall


@dataclass(frozen=True)
class Absorbed:
    """One hit through armour and screen: the rolled damage, what each stopped, and what got through."""

    rolled: int
    damage_class: str
    armour: int
    screen: int
    through: int


def through_protection(rolled: int, damage_class: str, armour: dict[str, int] | None, screen_type: str | None,
                       screen_points: int) -> Absorbed:
    """Damage of one hit after body armour (the value for its class) and then a force screen of the matching
    type (1 energy point stops 1 point) (R-9.6). A force sword ignores armour; any magnetic screen of at least
    one point stops it entirely."""
    if damage_class not in DAMAGE_CLASSES:
        raise ValueError(f"damage class: expected one of {', '.join(DAMAGE_CLASSES)}, got {damage_class!r}")
    if screen_type is not None and screen_type not in SCREEN_STOPS:
        raise ValueError(f"screen: expected one of {', '.join(SCREEN_TYPES)}, got {screen_type!r}")
    rolled = max(0, rolled)
    if damage_class == FORCE_SWORD:
        stopped = rolled if screen_type == "magnetic" and screen_points >= 1 else 0
        return Absorbed(rolled, damage_class, 0, stopped, rolled - stopped)
    by_armour = min(rolled, (armour or {}).get(damage_class, 0))
    left = rolled - by_armour
    by_screen = min(left, screen_points) if screen_type and SCREEN_STOPS[screen_type] == damage_class else 0
    return Absorbed(rolled, damage_class, by_armour, by_screen, left - by_screen)


def is_major_wound(hp_before: int, through: int) -> bool:
    """A single hit taking at least half the current hit points is a major wound (R-9.7; the digest's "at
    least" settles the seed's "more than", whose own example counts exactly half)."""
    return hp_before > 0 and through > 0 and 2 * through >= hp_before


def stays_up(rng: random.Random, hp_left: int) -> tuple[int, bool]:
    """The major-wound roll (R-9.7): d20 at or under the remaining HP keeps the figure up; returns (roll, ok).
    Also the roll a fallen figure makes at each later bookkeeping to rise."""
    roll = rng.randint(1, MAJOR_WOUND_DIE)
    return roll, roll <= hp_left


def condition(hp: int, con: int) -> str:
    """"ok" above 0 HP, "unconscious" at 0 or below (losing 1 HP a round), "dead" at -CON or below (R-9.7)."""
    if hp <= -con:
        return "dead"
    return "unconscious" if hp <= 0 else "ok"


def bleed(hp: int, treated: bool = False) -> int:
    """Bookkeeping for an unconscious figure: one more HP lost (R-9.7), unless medikit First Aid has been applied
    successfully since it went down ("will halt the march of death", seed 004)."""
    return hp - 1 if hp <= 0 and not treated else hp


@dataclass(frozen=True)
class Treatment:
    """One medikit use (R-9.7): the First Aid roll, the survival roll, HP restored and whether it killed."""

    first_aid_roll: int
    first_aid: int
    survival_roll: int
    survival: int
    restored: int
    killed: bool


def medikit(rng: random.Random, first_aid: int, con: int) -> Treatment:
    """Use a medikit (R-9.7): d100 at or under First Aid % restores 1d6 HP; every use needs d100 at or under
    CON x 5 or the shock kills the patient. First Aid is a check like any other (96-00 fails).
    Rolls in that order: First Aid, survival, then 1d6 if it worked."""
    fa_roll = rng.randint(1, 100)
    survival = con * SURVIVAL_PER_CON
    sv_roll = rng.randint(1, 100)
    killed = not Outcome.of(sv_roll, survival).success  # a check like any other: 96-00 fails
    restored = rng.randint(1, 6) if Outcome.of(fa_roll, first_aid).success and not killed else 0
    return Treatment(fa_roll, first_aid, sv_roll, survival, restored, killed)


BLIND_DIE = 6  # a photon grenade blinds for 1d6 rounds


def photon_blinding(rng: random.Random, luck: int) -> tuple[int, int]:
    """A figure within a photon grenade's radius (R-9.10): a Luck roll (d100 at or under Luck %) escapes;
    otherwise it is blind for 1d6 rounds. Returns (luck roll, rounds blind: 0 if the roll was made)."""
    roll = rng.randint(1, 100)
    if Outcome.of(roll, luck).success:
        return roll, 0
    return roll, rng.randint(1, BLIND_DIE)
