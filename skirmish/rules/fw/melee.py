"""Future*World melee (R-9.4, R-9.6): the melee weapons of seed 004's table (the force sword is its only one),
the modifiers that apply hand to hand, reach, standing up after a knock-down, and the attack value to roll.

The seed has no parry or dodge (its Basic Role-Playing parent does, but the chapter never brings them in);
a melee attack is one percentile roll like a shot (docs/RULES-NOTES.md, "Future*World: melee, missiles, grav
cars and odds"). The force sword is damage class F: no armour slows it and any magnetic screen of at least
one point stops it entirely (R-9.6); each swing draws its table energy (3) from the tacpack (R-9.8).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from skirmish.rules import geometry as geo
from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.checks import Chance, attack_chance
from skirmish.rules.fw.dice import DiceExpr
from skirmish.rules.fw.equipment import FwWeapon

MELEE_REACH_M = 2.0  # a melee attack reaches a figure within 2 m (one figure's width at the seed's 2 m/inch)
# R-9.4's conditions that apply hand to hand. The missile-only ones (moving firer, prone firer and the prone
# target's halving) do not: a prone or fallen figure in melee counts as knocked down (+20 against it).
MELEE_CONDITIONS = ("darkness", "moving_target", "covered_target", "knocked_down_attacker", "knocked_down_target",
                    "surprised_target")
# "Regular missile weapon combat is unaffected by the knocked down situation on either side."
MISSILE_ONLY = ("moving_firer", "prone_firer", "prone_target", "target_in_air")
KNOCKED_DOWN_ONLY = ("knocked_down_attacker", "knocked_down_target")


@dataclass(frozen=True)
class MeleeWeapon:
    """What melee needs of a weapons-table row: its base chance, dice, damage class and energy per swing."""

    id: str
    base_chance: int
    damage: DiceExpr
    damage_class: str
    energy: int = 0
    impales: bool = False


def melee_weapon(row: FwWeapon) -> MeleeWeapon:
    """The melee view of a weapons-table row; raises ValueError naming it if it is not a melee weapon."""
    if row.weapon_class != "melee":
        raise ValueError(f"{row.id!r} is a {row.weapon_class} weapon, not a melee weapon")
    if row.base_chance is None or row.damage is None:
        raise ValueError(f"{row.id!r}: a melee weapon needs a base chance and damage dice")
    return MeleeWeapon(row.id, row.base_chance, row.damage, row.damage_class, row.energy, row.impales)


def in_reach(distance_m: float, *, reach_m: float = MELEE_REACH_M) -> bool:
    """Whether a figure `distance_m` away can be struck hand to hand."""
    return distance_m <= reach_m


def touching(grid: geo.GridMap, a: geo.Cell, b: geo.Cell) -> bool:
    """Whether figures in cells `a` and `b` are in contact (R-9.2, R-9.4): neighbouring cells (diagonals too)
    that see each other, so a diagonal pair across a closed wall corner is neither in reach nor engaged."""
    return geo.adjacent(a, b) and geo.sight(grid, a, b).visible


def condition_refusal(conditions: Iterable[str], *, melee: bool) -> str | None:
    """Why these R-9.4 conditions cannot apply to a melee (`melee`) or missile attack, or None."""
    conds = set(conditions)
    wrong = sorted(conds & set(MISSILE_ONLY)) if melee else sorted(conds & set(KNOCKED_DOWN_ONLY))
    if not wrong:
        return None
    if melee:
        return f"R-9.4: {wrong[0]} applies to missile fire, not melee (a prone figure in melee is knocked down)"
    return f"R-9.4: {wrong[0]} applies to melee only (missile fire is unaffected by knock-downs)"


def melee_chance(skill: int, conditions: Iterable[str] = ()) -> Chance:
    """The chance of a melee attack at `skill` % under R-9.4's melee conditions: a knocked-down attacker x1/2,
    +20 against a knocked-down target, x2 against a surprised or helpless one (impale chance too)."""
    conds = frozenset(conditions)
    why = condition_refusal(conds, melee=True)
    if why:
        raise ValueError(why)
    return attack_chance(skill, conds)


def melee_attack(weapon: MeleeWeapon, chance: int, *, armour: Mapping[str, int] | None = None,
                 screen_type: str | None = None, screen: int = 0) -> Attack:
    """The attack value to roll (`attack.resolve`) or preview (`odds.odds`) for a swing at `chance` %
    against a target with this armour and screen (R-9.6: a force sword ignores the armour)."""
    return Attack.of(chance, weapon.damage, weapon.damage_class, impales=weapon.impales, armour=armour,
                     screen_type=screen_type, screen=screen)


def swing_refusal(weapon: MeleeWeapon, shot_points: int) -> str | None:
    """Why `weapon` cannot be swung with the `shot_points` of this round's tacpack split, or None: a force
    sword draws its table energy (3) each swing (R-9.8)."""
    if weapon.energy > shot_points:
        return f"R-9.8: the {weapon.id.replace('_', ' ')} draws {weapon.energy} points a swing, {shot_points} allocated"
    return None


def may_stand(attacked_since_down: bool) -> bool:
    """Whether a knocked-down figure may stand this round: only if it was left alone for a melee round (R-9.4;
    a figure fallen from a major wound needs its d20 roll first, R-9.7)."""
    return not attacked_since_down
