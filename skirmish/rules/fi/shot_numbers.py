"""A shot's numbers before the card is turned (R-6.1, R-6.2, R-6.8, R-6.9): the TN and its modifiers, the
effect row a hit reads, and the chance to hit from a pool's distribution. The systems, the resolution
(skirmish.rules.fi.ranged) and the AI's estimates all read these, so they agree on every number. Pure."""

from __future__ import annotations

import math
from dataclasses import dataclass

from skirmish.rules.checks import Modifier
from skirmish.rules.equipment import Weapon

CALLED_PENALTY = {"torso": -2, "limb": -4, "head": -6, "extremity": -6, "pinpoint": -10}
CALLED_GROUP = {
    "head": "head", "chest": "torso", "vitals": "torso", "belly": "torso", "torso": "torso",
    "left_arm": "limb", "right_arm": "limb", "left_leg": "limb", "right_leg": "limb",
    "left_hand": "extremity", "right_hand": "extremity", "left_foot": "extremity", "right_foot": "extremity",
    "eye": "pinpoint", "heart": "pinpoint",
}
# The hit-location box a called shot strikes (R-4.4's eight): a hand is on its arm, a foot on its leg, an eye in
# the head, the heart among the vitals; `torso` is the card's own torso box (skirmish.rules.fi.ranged).
CALLED_LOCATION = {
    "left_hand": "left_arm", "right_hand": "right_arm", "left_foot": "left_leg", "right_foot": "right_leg",
    "eye": "head", "heart": "vitals",
}
CALLED_SHOTS = ("head", "chest", "vitals", "belly", "left_arm", "right_arm", "left_leg", "right_leg", "torso",
                "left_hand", "right_hand", "left_foot", "right_foot", "eye", "heart")
MAX_ROW = 7
MOUNTED_MOD = -2  # firing (or throwing) from a mount or a moving vehicle
# Target speed (seed 000_…, Ranged Combat, "Target Speed": "Any time a target is moving faster than a relative Rate
# of 20, subtract 4 from your roll"; RULES.md is silent, docs/RULES-NOTES.md "Target speed"): a target whose fastest
# move this round covered more than FAST_TARGET_M metres in its one action (the move event's `metres`: a Rate in
# metres an action, as R-5.6's walk and run) takes FAST_TARGET_MOD, besides R-6.1's −1 per 3 m moved.
FAST_TARGET_M = 20.0
FAST_TARGET_MOD = -4


def range_tn(distance_m: float, weapon: Weapon, base: int = 5) -> tuple[int, Modifier]:
    """R-6.1 base TN: Standard + one per full range increment."""
    steps = math.floor(distance_m / weapon.range_inc_m + 1e-9)
    return base + steps, Modifier(steps, f"range {distance_m:.1f} m / {weapon.range_inc_m:g} m increment")


def size_modifiers(size: int) -> tuple[int, int]:
    """R-6.1 size: (TN increase for small targets, result bonus for big ones), each capped at 6."""
    tn_up = 0
    if size <= 3:
        tn_up = min(6, 1 + math.floor(math.log2(3 / size) + 1e-9))
    bonus = 0
    if size >= 12:
        bonus = min(6, size // 6 - 1)
    return tn_up, bonus


@dataclass(frozen=True)
class ShotFacts:
    """What decides a shot's TN and modifiers, read from the world or from a frozen view (R-6.1, R-6.2)."""

    distance_m: float
    mode: str = "prepared"
    burst: int = 0
    called: str | None = None
    firer_moved: str = "none"  # none | walked | ran (this turn, before the shot)
    ready: bool = False  # the weapon is readied on this target
    aims: int = 0  # aim actions already spent on this target
    target: str = ""
    target_size: int = 6
    target_dodge: int = 0  # Dodge level if the target is dodging
    target_moved_m: float = 0.0
    target_rate_m: float = 0.0  # the metres of the target's fastest move this round (its Rate: FAST_TARGET_M)
    concealed: bool = False
    firer_mounted: bool = False  # firing from a mount or a moving vehicle, -2


def shot_numbers(weapon: Weapon, facts: ShotFacts, base: int) -> tuple[int, list[Modifier], list[Modifier]]:
    """TN, TN modifiers and result modifiers of a shot, before the firer's skill and wound modifiers
    (R-6.1, R-6.2, R-5.4). The systems and the AI both use this, so they agree on every number."""
    tn_value, range_mod = range_tn(facts.distance_m, weapon, base)
    tn_mods = [range_mod]
    if facts.target_dodge:
        tn_mods.append(Modifier(facts.target_dodge, f"{facts.target} is dodging (Dodge {facts.target_dodge}, R-5.4)"))
        tn_value += facts.target_dodge
    small, big = size_modifiers(facts.target_size)
    if small:
        tn_mods.append(Modifier(small, f"small target (size {facts.target_size})"))
        tn_value += small
    mods: list[Modifier] = []
    if facts.firer_moved == "ran":
        mods.append(Modifier(-2, "running attack (R-5.4)"))
    elif facts.firer_moved == "walked":
        mods.append(Modifier(-1, "firer walked (R-6.1)"))
    if facts.firer_mounted:
        mods.append(Modifier(MOUNTED_MOD, "firer mounted (R-6.1)"))
    if facts.target_moved_m >= 3:
        mods.append(Modifier(-int(facts.target_moved_m // 3), f"target moved {facts.target_moved_m:.0f} m this round"))
    fast = fast_target(facts.target_rate_m)
    if fast is not None:
        mods.append(fast)
    if facts.mode == "snap" and not facts.ready:
        mods.append(Modifier(-weapon.aim_penalty, f"snap attack, not readied (aim {weapon.aim_bonus}/"
                             f"{weapon.aim_penalty}, R-6.2)"))
    aims = min(2, (facts.aims if facts.ready else 0) + (1 if facts.mode == "aimed" else 0))
    if aims:
        mods.append(Modifier(weapon.aim_bonus * aims, f"aimed ×{aims} (R-6.2)"))
    if big:
        mods.append(Modifier(big, f"large target (size {facts.target_size})"))
    if facts.called:
        mods.append(called_penalty(facts.called))
    if facts.concealed:
        mods.append(Modifier(-4, f"{facts.target} is fully concealed, position known (R-6.1)"))
    spread = ae_bonus(weapon, facts.distance_m)
    if spread:
        mods.append(Modifier(spread, f"area weapon: AE {weapon.ae} less {ae_shift(weapon, facts.distance_m)} "
                             f"row shift at {facts.distance_m:.0f} m (R-6.9)"))
    return tn_value, tn_mods, mods


def fast_target(rate_m: float) -> Modifier | None:
    """The target-speed modifier (seed 000's "Target Speed"): FAST_TARGET_MOD when the target's fastest move this
    round covered more than FAST_TARGET_M metres, else None."""
    if rate_m <= FAST_TARGET_M + 1e-9:
        return None
    return Modifier(FAST_TARGET_MOD, f"target faster than Rate {FAST_TARGET_M:g} ({rate_m:.0f} m in an action)")


def called_penalty(location: str) -> Modifier:
    """R-6.1 called-shot penalty by location group."""
    group = CALLED_GROUP[location]
    return Modifier(CALLED_PENALTY[group], f"called shot ({location.replace('_', ' ')})")


def ae_shift(weapon: Weapon, distance_m: float) -> int:
    """Rows an area weapon shifts damage down: its AE, less one per started 10 m past the first 10
    (R-6.9: a shotgun shifts 4 at 1–10 m, 3 at 11–20 m …); 0 for other weapons."""
    if not weapon.ae:
        return 0
    return max(0, weapon.ae - max(0, math.ceil(distance_m / 10 - 1e-9) - 1))


def ae_bonus(weapon: Weapon, distance_m: float) -> int:
    """The area weapon's to-hit bonus, AE less the shift it still gets (R-6.9: a wide beam at 20 m, +1)."""
    return weapon.ae - ae_shift(weapon, distance_m) if weapon.ae else 0


def damage_row(weapon: Weapon, row: int, location: str, distance_m: float) -> int:
    """The effect-grid row a hit reads: vitals +1 and head +2 (not for explosives, R-6.8), plus an area
    weapon's shift (R-6.9), at most row 7."""
    if not weapon.explosive:
        row += {"vitals": 1, "head": 2}.get(location, 0)
    return min(MAX_ROW, row + ae_shift(weapon, distance_m))


def expected_hit_probability(pmf: tuple[tuple[int, float], ...], tn: int, mod: int, halve: bool) -> float:
    """Chance a read plus modifiers reaches the TN, from a pool distribution (CF at 0 never hits)."""
    total = 0.0
    for v, p in pmf:
        if v <= 0:
            continue
        base = v // 2 if halve else v
        if base + mod >= tn:
            total += p
    return total
