"""Two weapons (R-6.12; the seed's "Two Weapons" and "Two handed ranged weapons"), as numbers: a figure holding a
weapon in each hand takes −2 to every attack, −4 more with the off hand (−6 in all), and −2 more for a two-handed
weapon fired with one hand. The engine (skirmish/ecs/systems/fi/two_weapons.py) and the AIs' estimates read these."""

from __future__ import annotations

from skirmish.rules.checks import Modifier
from skirmish.rules.equipment import Weapon

BOTH = -2  # every attack of a figure holding two weapons
OFF = -4  # the off hand's, besides
ONE_HANDED = -2  # a two-handed weapon in one hand


def hand_modifiers(weapon: Weapon, off: bool) -> list[Modifier]:
    """The modifiers of a shot with `weapon` by a figure holding a weapon in each hand (`off`: the other hand's)."""
    out = [Modifier(BOTH, "two weapons (R-6.12)")]
    if off:
        out.append(Modifier(OFF, "off hand (R-6.12)"))
    if weapon.two_handed:
        out.append(Modifier(ONE_HANDED, f"the two-handed {weapon.name} in one hand (R-6.12)"))
    return out


def hand_penalty(weapon: Weapon, off: bool) -> int:
    """The sum of `hand_modifiers`."""
    return BOTH + (OFF if off else 0) + (ONE_HANDED if weapon.two_handed else 0)
