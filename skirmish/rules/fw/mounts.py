"""Future*World grav-car weapon mounts (R-9.12 with R-9.4, R-9.5, R-9.8), the pure rules: who aboard may work a
mount, the weapon it fires (its own, or for an empty mount the rider's weapon set on it), the mounted chance (a
semi-portable's 20% rather than 5% hand-held), and the energy a mount's shot draws from the car's split (the
weapon's energy a shot, x3 for a burst, within the weapon points the split gives and never above the
generator). Choices where seed 004 is silent are listed in docs/RULES-NOTES.md ("Future*World: grav-car
weapons")."""

from __future__ import annotations

from skirmish.rules.fw.equipment import CarMount, FwWeapon, GravCar

__all__ = ["budget", "crew_refusal", "draw_refusal", "fired_left", "load_refusal", "mounted_chance", "shot_draw"]

FIRES = ("shoot", "burst", "launch", "react")  # the attacks made from a mount (no strike, no throw)


def crew_refusal(car: GravCar, mount: CarMount, rider: str, driver: bool) -> str | None:
    """Why `rider` (the driver or not) may not work `mount` of `car`, or None (the data's `crew`)."""
    if mount.crew == "driver" and not driver:
        return f"R-9.12: the {car.name}'s {mount.name} is worked by its driver"
    if mount.crew == "passenger" and driver:
        return f"R-9.12: the driver flies the {car.name}; a passenger works its {mount.name}"
    return None


def load_refusal(mount: CarMount, weapon: FwWeapon | None, fixed: str | None) -> str | None:
    """Why `weapon` cannot fire from `mount`, or None: a mount with its own weapon (or one the scenario set on it,
    `fixed`) fires that; an empty mount takes a rider's weapon of its category (R-9.5: a semi-portable)."""
    own = mount.weapon or fixed
    if own is not None:
        if weapon is not None and weapon.id != own:
            return f"R-9.12: the {mount.name} fires its {own}, not a {weapon.name}"
        return None
    if weapon is None:
        return f"R-9.12: the {mount.name} is empty: name the weapon set on it (weapon=ID, a {mount.takes} weapon)"
    if weapon.category != mount.takes:
        return f"R-9.12: the {mount.name} takes a {mount.takes} weapon, not a {weapon.name}"
    if weapon.weapon_class == "missile":  # (no rack to count it off: its carrier launches it, R-9.10)
        return f"R-9.12: the {mount.name} takes a gun; a {weapon.name} is launched by its carrier"
    return None


def mounted_chance(weapon: FwWeapon, skill: int | None) -> int:
    """The base chance of a shot from a mount (R-9.4, R-9.5): the firer's skill with the weapon (by id or
    category) if it has one, else the table's mounted chance (a semi-portable's 20%, not the hand-held 5%)."""
    if skill is not None:
        return skill
    return weapon.chance(mounted=True) or 0


def shot_draw(weapon: FwWeapon, act: str) -> int:
    """Points a mount's attack draws from the car's split (R-9.8): the table's energy a shot, x3 for a burst;
    ammunition and missiles draw none."""
    return weapon.shot_energy(burst=act == "burst")


def budget(car: GravCar, drives: bool, weapons: int, screen: int, ew: int) -> int:
    """Weapon points a car's mounts may draw this round: what its driver's split gives weapons when it drives;
    a car that does not move may give its whole generator's rest after its screen and EW (R-9.12)."""
    return weapons if drives else max(0, car.generator - screen - ew)


def draw_refusal(car: GravCar, budget_points: int, drawn: int, draw: int) -> str | None:
    """Why a mount's shot of `draw` points cannot be paid with `drawn` already drawn this round, or None (R-9.8:
    never above the split's weapon points, nor the generator)."""
    if drawn + draw > budget_points:
        return (f"R-9.8: the shot draws {draw} points; the {car.name}'s weapons have {max(0, budget_points - drawn)} "
                f"left of {budget_points} this round (its generator gives {car.generator})")
    return None


def fired_left(mount: CarMount, fired: int) -> int | None:
    """Missiles left on a rack (R-9.10: used up when fired), or None for a gun (its ammunition is not counted)."""
    return max(0, mount.rounds - fired) if mount.rounds else None
