"""What the board needs of Future*World's rules to build a declaration and show it (issue 13, items 5 and 6): the
weapons a figure may attack with (R-9.4, R-9.10), the energy they draw and the tacpack's check (R-9.8, R-9.9), the
order rule (R-9.3), and the pure parts of a preview that are about places, not dice: who a grenade's blast may
catch where it is aimed (`missiles.p_caught`, R-9.10), a seeker's acquisition against a CM the side cannot see
(R-9.9) and the reach of combat sensors. A facade like `rulesets/fw.py`: the board reaches fw rules only through
`skirmish.rulesets`.

There is one odds path: the chance and the exact odds of a declared attack come from the battle
(`Battle.odds`, `FwSystems.odds`: the same `Attack` the roll takes, the target's screen and HP as the asker's side
knows them); `catches` takes that chance and only adds where the others stand."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from skirmish.content.fw import shipped
from skirmish.ecs.fw_view import FwUnitView
from skirmish.ecs.systems.fw import ODDS_ACTS
from skirmish.rules.fw import gravcar, order
from skirmish.rules.fw import missiles as msl
from skirmish.rules.fw.actions import ATTACK_CLASSES, ATTACKS, SPENT, act_kind
from skirmish.rules.fw.checks import half_dex
from skirmish.rules.fw.equipment import FwWeapon
from skirmish.rules.fw.odds import tenths
from skirmish.rules.fw.tacpack import Allocation, Tacpack, refusal, seeker_acquisition, sensor_range_m

SPENT_CLASSES = SPENT  # grenades and missiles: used up when thrown or fired

__all__ = ["ATTACKS", "ODDS_ACTS", "SPENT_CLASSES", "act_refusal", "can_burst", "car_move_m", "car_split_refusal",
           "catches", "default_weapon", "half_dex",
           "order_refusal", "percent", "seeker_table", "sensor_range_m", "shot_energy", "split_refusal", "weapon",
           "weapon_choices", "weapon_fits"]


def weapon(wid: str | None) -> FwWeapon | None:
    """The weapons-table row of `wid` (None if there is none)."""
    return None if wid is None else shipped().weapons.get(wid)


def left(me: FwUnitView, wid: str) -> int:
    """How many of `wid` the figure still has (grenades and missiles are used up, R-9.10)."""
    w = weapon(wid)
    return me.left(wid, w is not None and w.weapon_class in SPENT)


def weapon_fits(wid: str | None, act: str) -> bool:
    """Whether attack `act` takes weapon `wid` (a firearm to shoot, a melee weapon to strike, ..., R-9.4)."""
    w = weapon(wid)
    return w is not None and w.weapon_class in ATTACK_CLASSES.get(act, ())


def weapon_choices(me: FwUnitView, act: str | None = None) -> tuple[str, ...]:
    """The figure's weapons in kit order, each once, that it still has (and that `act` takes, if given)."""
    out: list[str] = []
    for wid in me.weapons:
        if wid not in out and weapon(wid) is not None and left(me, wid) and (act is None or weapon_fits(wid, act)):
            out.append(wid)
    return tuple(out)


def default_weapon(me: FwUnitView, act: str | None) -> str | None:
    """The weapon a declaration that names none attacks with (as the rules pick it): the first the attack takes
    that the figure still has; without an attack, its first firearm."""
    choices = weapon_choices(me, act if act in ATTACKS else "shoot")
    return choices[0] if choices else None


def act_refusal(me: FwUnitView, name: str, act: str, wid: str | None) -> str | None:
    """Why `act` cannot be made with `wid` (None: the default), or None: the same words as the battle's check."""
    if act == "aid" and not me.medikit:
        return "R-9.7: First Aid needs a medikit"
    if act not in ATTACKS:
        return None
    wid = wid if wid is not None else default_weapon(me, act)
    if wid is None:
        if act in ("throw", "launch"):
            return f"R-9.10: {name} has no {'grenade' if act == 'throw' else 'missile'} left"
        return f"R-9.4: no weapon to {act} with"
    w = weapon(wid)
    if w is None or wid not in me.weapons:
        return f"R-9.4: {name} carries no {wid}"
    if w.weapon_class not in ATTACK_CLASSES[act]:
        rule = "R-9.10" if act in ("throw", "launch") else "R-9.4"
        return f"{rule}: a {w.name} ({w.weapon_class}) cannot {act} (it takes {', '.join(ATTACK_CLASSES[act])})"
    if not left(me, wid):
        return f"R-9.10: {name} has no {w.name} left"
    if act == "burst" and not w.burst:
        return f"R-9.5: a {w.name} fires single shots only (bursts: autoguns and support guns)"
    return None


def order_refusal(acts: Iterable[str]) -> str | None:
    """Why a figure may not declare these acts together, or None (R-9.3: never the same action twice; every
    attack counts as one)."""
    return order.refusal(tuple(act_kind(a) for a in acts))


def shot_energy(wid: str | None, acts: tuple[str, ...]) -> int:
    """Tacpack points the declared attacks draw: the weapon's energy an attack, x3 a burst (R-9.8)."""
    w = weapon(wid)
    if w is None:
        return 0
    return sum(w.shot_energy(burst=a == "burst") for a in acts if a in ATTACKS)


def split_refusal(generator: int, effectors: int, sensors: int, *, screen: str, points: int, shots: int, cm: int,
                  dccm: int, sensor_points: int, jump: int, program: bool, dccm_at: str | None = None) -> str | None:
    """Why the tacpack would refuse this split (R-9.8, R-9.9: never above G, EW within the effectors), or None."""
    split = Allocation(screen_type=None if screen == "none" else screen, screen=points, shots=shots, cm=cm, dccm=dccm,
                       sensors=sensor_points, jump=jump, dccm_target=dccm_at)
    return refusal(Tacpack(generator, effectors, sensors), split, whole_round_programming=program)


def can_burst(wid: str | None) -> bool:
    """True if `wid` fires bursts of three (R-9.5)."""
    w = weapon(wid)
    return w is not None and w.burst


def _centre(cell: tuple[float, float], cell_m: float) -> tuple[float, float]:
    return (cell[0] + 0.5) * cell_m, (cell[1] + 0.5) * cell_m


def catches(chance: int, thrower: tuple[int, int], aim: tuple[int, int], figures: Iterable[tuple[str, tuple[int, int]]],
            radius_m: float, cell_m: float) -> list[tuple[str, Fraction]]:
    """Each figure (name, cell) a grenade thrown from `thrower` at `aim` at `chance` % may catch, with the exact
    chance that it lands within `radius_m` of it (a hit on the aim point, or a scatter of 1d12 clock and 1D10 m,
    R-9.10); those it cannot reach are left out."""
    frm, at = _centre(thrower, cell_m), _centre(aim, cell_m)
    out = []
    for name, cell in figures:
        p = msl.p_caught(chance, frm, at, _centre(cell, cell_m), radius_m)
        if p:
            out.append((name, p))
    return out


def seeker_table(dccm: int, most_cm: int) -> list[tuple[int, int]]:
    """(the target's CM, the seeker's acquisition %) for each CM from 0 to `most_cm`, after `dccm` (R-9.9, R-9.10)."""
    return [(cm, seeker_acquisition(cm, dccm)) for cm in range(0, max(0, most_cm) + 1)]


def percent(p: Fraction) -> str:
    """A probability as the board prints it: '37.5%' (rounded half up from the exact value)."""
    return f"{tenths(p * 100)}%"


def car_split_refusal(car_type: str, screen: str, points: int, weapons: int, ew: int) -> str | None:
    """Why a grav car of `car_type` refuses this split of its generator (R-9.12: never above G, the screen at most
    the car's, EW at most its rating), or None: the same words as the battle's check."""
    if points and screen == "none":
        return "R-9.12: screen points need a screen type (kinetic, diffusion, magnetic)"
    car = shipped().grav_cars[car_type]
    return gravcar.split_refusal(car, gravcar.CarSplit(None if screen == "none" else screen, points, weapons, ew))


def car_move_m(car_type: str, screen: str, points: int, weapons: int, ew: int, riders: int) -> int:
    """Metres the rest of the car's generator buys this round (R-9.12; 0 for a refused split)."""
    if car_split_refusal(car_type, screen, points, weapons, ew):
        return 0
    car = shipped().grav_cars[car_type]
    return gravcar.move_m(car, gravcar.CarSplit(None if screen == "none" else screen, points, weapons, ew), riders)
