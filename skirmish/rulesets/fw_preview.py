"""The board's exact odds for a Future*World declaration (issue 13: "Odds previews on the board are exact for
fw"): the chance the rules work out (`Battle.odds`, R-9.4) turned into the `rules/fw/odds.py` preview of hit,
impale and the damage that gets through the target's armour and screen (R-9.5, R-9.6, R-9.7). A facade like
`rulesets/fw.py`: the board reaches fw rules only through `skirmish.rulesets`."""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.content.fw import shipped
from skirmish.ecs.fw_view import FwUnitView
from skirmish.ecs.systems.fw.legality import FIREARMS
from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.odds import describe, odds
from skirmish.rules.fw.tacpack import Allocation, Tacpack, refusal

__all__ = ["AttackPreview", "attack_preview", "can_burst", "first_firearm", "shot_energy", "split_refusal"]


@dataclass(frozen=True)
class AttackPreview:
    """One attack's exact odds as the board prints them, and the screen it assumed for the target."""

    text: str
    hit: float
    mean: float
    screen: str  # "kinetic 3 (declared)", "magnetic 2 (its usual split)", "none"


def _screen_of(target: FwUnitView) -> tuple[str | None, int, str]:
    """The target's screen: its declared one if this view shows it, else its kit's usual split (a side does not
    see the enemy's declaration, docs/RULES-NOTES.md)."""
    if target.full and target.declared:
        kind, points, how = target.screen, target.screen_points, "declared"
    else:
        kind, points, how = target.default_screen, target.default_points, "its usual split"
    if kind in (None, "", "none") or not points:
        return None, 0, "no screen" + (" (declared)" if how == "declared" else "")
    return kind, points, f"{kind} {points} ({how})"


def attack_preview(chance: int, weapon: str, burst: bool, target: FwUnitView) -> AttackPreview:
    """The exact odds of firing `weapon` (a burst if `burst`) at `target` at `chance` % (R-9.4 to R-9.7);
    KeyError if the weapon is not in the shipped tables."""
    w = shipped().weapons[weapon]
    kind, points, screen = _screen_of(target)
    assert w.damage is not None
    attack = Attack.of(chance, w.damage, w.damage_class, impales=w.impales, burst=burst,
                       armour=dict(target.armour_stops), screen_type=kind, screen=points)
    o = odds(attack)
    return AttackPreview(describe(attack, target.hp), float(o.hit), float(o.mean), screen)


def shot_energy(weapon: str | None, acts: tuple[str, ...]) -> int:
    """Tacpack points the declared attacks draw: the weapon's energy a shot, x3 a burst (R-9.8)."""
    if weapon is None or weapon not in shipped().weapons:
        return 0
    w = shipped().weapons[weapon]
    return sum(w.shot_energy(burst=a == "burst") for a in acts if a in ("shoot", "burst", "react"))


def split_refusal(generator: int, effectors: int, sensors: int, *, screen: str, points: int, shots: int, cm: int,
                  dccm: int, sensor_points: int, jump: int, program: bool, dccm_at: str | None = None) -> str | None:
    """Why the tacpack would refuse this split (R-9.8, R-9.9: never above G, EW within the effectors), or None."""
    split = Allocation(screen_type=None if screen == "none" else screen, screen=points, shots=shots, cm=cm, dccm=dccm,
                       sensors=sensor_points, jump=jump, dccm_target=dccm_at)
    return refusal(Tacpack(generator, effectors, sensors), split, whole_round_programming=program)


def first_firearm(weapons: tuple[str, ...]) -> str | None:
    """The weapon a declaration fires when it names none: the figure's first firearm (as the rules pick it)."""
    table = shipped().weapons
    return next((w for w in weapons if w in table and table[w].weapon_class in FIREARMS), None)


def can_burst(weapon: str | None) -> bool:
    """True if `weapon` fires bursts of three (R-9.5)."""
    return weapon is not None and weapon in shipped().weapons and shipped().weapons[weapon].burst
