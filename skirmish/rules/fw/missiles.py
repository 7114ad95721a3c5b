"""Future*World missiles and grenades (R-9.10): guided missiles (20% base, line of sight, 5d8), seekers (no to-hit
roll: they acquire at 100% - 10% x max(0, CM - DCCM), 3d8), and thrown grenades (45%, 15 m): concussion 3d6 in
3 m, fragmentation 4d6 in 6 m, photon blinding for 1d6 rounds in 10 m unless a Luck roll.

Where seed 004 is silent (docs/RULES-NOTES.md, "Future*World: melee, missiles, grav cars and odds"): a missed
grenade scatters from the point aimed at, in a clock direction (1d12; 12 = on beyond the aim point along the
throw, 6 = back towards the thrower) by 1D10 metres; a blast's damage is rolled once and each figure within
its radius (the thrower too) takes it through its own armour and screen; a blinded figure fights as in the
dark (x1/5, R-9.4). Points are (x, y) in metres, y growing down the board (so clockwise is as seen on it).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.checks import ALWAYS_MISS_FROM
from skirmish.rules.fw.damage import photon_blinding
from skirmish.rules.fw.dice import DiceExpr
from skirmish.rules.fw.equipment import FwWeapon
from skirmish.rules.fw.tacpack import seeker_acquisition

Point = tuple[float, float]
GRENADE_RANGE_M = 15  # R-9.10 (the table's range; kept here for refusals when no row is at hand)
SCATTER_CLOCK = 12  # a missed grenade's direction: 1d12 clock (12 beyond the aim point, 6 back to the thrower)
SCATTER_M = DiceExpr(1, 10)  # ... and its distance from the aim point
BLIND_CONDITION = "darkness"  # R-9.4's modifier a blinded figure attacks under
EDGE_M = 1e-9  # a figure exactly on the blast's edge is inside it (float geometry of the clock directions)


def launch_refusal(weapon: FwWeapon, in_sight: bool) -> str | None:
    """Why `weapon` may not be fired at a target, or None: missiles need it in line of sight (R-9.10)."""
    if weapon.line_of_sight and not in_sight:
        return f"R-9.10: the {weapon.name} needs its target in line of sight"
    return None


def guided_attack(chance: int, weapon: FwWeapon, *, armour: Mapping[str, int] | None = None,
                  screen_type: str | None = None, screen: int = 0) -> Attack:
    """A guided missile (R-9.10): a to-hit roll at `chance` % (the table's 20% after R-9.4's modifiers), the
    table's damage (5D8) as class P (the kinetic screen and armour's P column apply)."""
    if weapon.damage is None:
        raise ValueError(f"{weapon.id!r} has no damage dice")
    return Attack.of(chance, weapon.damage, weapon.damage_class, impales=weapon.impales, armour=armour,
                     screen_type=screen_type, screen=screen)


def seeker_attack(target_cm: int, dccm_against: int, weapon: FwWeapon, *, armour: Mapping[str, int] | None = None,
                  screen_type: str | None = None, screen: int = 0) -> Attack:
    """A seeker missile (R-9.10): no to-hit roll and no modifiers; it acquires on d100 at or under
    100% - 10% x max(0, CM - DCCM) (so 100% always acquires: 96-00 is a to-hit rule), then the table's 3D8."""
    if weapon.damage is None:
        raise ValueError(f"{weapon.id!r} has no damage dice")
    return Attack.of(seeker_acquisition(target_cm, dccm_against), weapon.damage, weapon.damage_class,
                     armour=armour, screen_type=screen_type, screen=screen, always_miss=False)


def throw_refusal(distance_m: float, weapon: FwWeapon | None = None) -> str | None:
    """Why a grenade may not be thrown `distance_m`, or None (R-9.10: 15 m)."""
    reach = weapon.range_m if weapon is not None and weapon.range_m is not None else GRENADE_RANGE_M
    if distance_m > reach:
        return f"R-9.10: a grenade reaches {reach} m, the point is {distance_m:.0f} m away"
    return None


def scatter(thrower: Point, aim: Point, clock: int, metres: float) -> Point:
    """Where a missed grenade lands: `metres` from `aim` towards `clock` o'clock, 12 pointing on along the
    throw from `thrower` (straight up the board if thrown at the thrower's own feet)."""
    dx, dy = aim[0] - thrower[0], aim[1] - thrower[1]
    length = math.hypot(dx, dy)
    ux, uy = (dx / length, dy / length) if length else (0.0, -1.0)
    theta = math.radians(30 * (clock % SCATTER_CLOCK))
    c, s = math.cos(theta), math.sin(theta)
    return aim[0] + metres * (ux * c - uy * s), aim[1] + metres * (ux * s + uy * c)


def within(point: Point, centre: Point, radius_m: float) -> bool:
    """Whether `point` is inside a blast of `radius_m` at `centre` (the edge counts)."""
    return math.hypot(point[0] - centre[0], point[1] - centre[1]) <= radius_m + EDGE_M


@dataclass(frozen=True)
class Throw:
    """A thrown grenade: the d100 roll, hit or not, and on a miss the clock and metres it scattered."""

    roll: int
    chance: int
    hit: bool
    clock: int
    scatter_m: int
    lands: Point


def throw(rng: random.Random, chance: int, thrower: Point, aim: Point) -> Throw:
    """Throw a grenade at `aim` at `chance` % (R-9.10, 96-00 misses): d100, then on a miss 1d12 and 1D10."""
    roll = rng.randint(1, 100)
    if roll <= chance and roll < ALWAYS_MISS_FROM:
        return Throw(roll, chance, True, 0, 0, aim)
    clock = rng.randint(1, SCATTER_CLOCK)
    metres = SCATTER_M.roll(rng)
    return Throw(roll, chance, False, clock, metres, scatter(thrower, aim, clock, metres))


def p_caught(chance: int, thrower: Point, aim: Point, target: Point, radius_m: float) -> Fraction:
    """The exact chance that a grenade thrown at `aim` lands within `radius_m` of `target` (R-9.10)."""
    n_hit = sum(1 for r in range(1, 101) if r <= chance and r < ALWAYS_MISS_FROM)
    p_hit = Fraction(n_hit, 100)
    hit_part = p_hit if within(aim, target, radius_m) else Fraction(0)
    ways = SCATTER_M.sides * SCATTER_CLOCK
    near = sum(1 for clock in range(1, SCATTER_CLOCK + 1) for m in range(SCATTER_M.low, SCATTER_M.high + 1)
               if within(scatter(thrower, aim, clock, m), target, radius_m))
    return hit_part + (1 - p_hit) * Fraction(near, ways)


def blast_attack(weapon: FwWeapon, *, armour: Mapping[str, int] | None = None, screen_type: str | None = None,
                 screen: int = 0) -> Attack:
    """The blast of a concussion or fragmentation grenade on one figure in its radius, to take `blast_roll`'s
    damage through (`Attack.through`) or to preview (`odds.blast_odds`)."""
    if weapon.damage is None or not weapon.blast_radius_m:
        raise ValueError(f"{weapon.id!r} has no blast damage")
    return Attack.of(100, weapon.damage, weapon.damage_class, armour=armour, screen_type=screen_type,
                     screen=screen, always_miss=False)


def blast_roll(rng: random.Random, weapon: FwWeapon) -> int:
    """A blast's damage, rolled once for every figure it catches (R-9.10)."""
    if weapon.damage is None:
        raise ValueError(f"{weapon.id!r} has no blast damage")
    return weapon.damage.roll(rng)


def p_blinded(p_caught_: Fraction, luck: int) -> Fraction:
    """The exact chance a figure is blinded by a photon grenade that catches it with probability `p_caught_`:
    it fails its Luck roll (96-00 fails, R-9.10)."""
    made = sum(1 for r in range(1, 101) if r <= luck and r < ALWAYS_MISS_FROM)
    return p_caught_ * Fraction(100 - made, 100)


def photon_flash(rng: random.Random, lucks: Mapping[str, int]) -> dict[str, tuple[int, int]]:
    """A photon grenade's flash on the figures within its radius, name -> Luck %, in name order (for a stable
    log): each rolls Luck or is blind for 1d6 rounds (R-9.10). Returns name -> (Luck roll, rounds blind)."""
    return {name: photon_blinding(rng, lucks[name]) for name in sorted(lucks)}
