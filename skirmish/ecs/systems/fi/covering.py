"""Covering fire in a battle (R-6.12): `cover U X,Y [burst=N]` declares it (an attack action), movement calls
`stepped` after every step, and each enemy entering the area draws a covering shot (skirmish.rules.fi.ranged_cover).
The state is `Status.covering` (the cell and the burst); the firer's next turn clears it (round.py).

Pinning (R-6.12, docs/RULES-NOTES.md "Covering fire suppresses"): an enemy inside a covered area, in the coverer's
sight, is pinned: `pinned_mods` gives its shots the PINNED_SHOT modifier (FiShooting._shot_numbers asks it), and
a step out of the area draws the covering shot (`stepped`)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import TYPE_CHECKING

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Declared, Identity, Status, Tacpack, Turn
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, CoverFire, SetTacpack, Shoot
from skirmish.rules.checks import Modifier
from skirmish.rules.equipment import Weapon
from skirmish.rules.fi import ranged_cover as rc
from skirmish.rules.fi.ranged_events import CoverEvent  # noqa: F401  (registers the event)

UNSEEN = "an unseen enemy"  # a coverer the pinned figure does not see, in its shot's modifier and event

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting


def check(sys: FiShooting, eid: int, action: CoverFire) -> None:
    """Refuse covering fire the rules do not allow now (R-6.12, R-6.3, R-5.4), naming the rule."""
    weapon = firer_check(sys, eid, action.burst, timing=False)
    cell_check(sys, eid, weapon, (int(action.at[0]), int(action.at[1])))
    sys.check_parts(eid, sys.attack_part(eid, weapon, "prepared"))


def firer_check(sys: FiShooting, eid: int, burst: int, timing: bool = True) -> Weapon:
    """`check`'s checks about the firer alone (in action, not dodging, a weapon fired that can fire the volume
    now, R-6.12, R-6.3, R-5.4; with `timing`, the prepared attack fits the turn): the weapon; IllegalAction."""
    w = sys.w
    if not sys.active(eid):
        raise IllegalAction("R-8.1: out of action")
    if w.peek(eid, Declared).speed == "dodge":
        raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
    probe = Shoot(sys.name(eid), "", mode="prepared", burst=burst)
    weapon, _ = sys.shot_firer_check(eid, probe)  # a weapon fired, not jammed, the burst it has, rounds, power
    if timing:
        sys.check_parts(eid, sys.attack_part(eid, weapon, "prepared"))
    return weapon


def cell_check(sys: FiShooting, eid: int, weapon: Weapon, at: geo.Cell) -> None:
    """`check`'s checks about the cell named (on the map, in sight, within the weapon's range); IllegalAction."""
    grid = sys.ctx.grid
    here = sys.w.cell(eid)
    if not grid.inside(at):
        raise IllegalAction(f"cell {at[0]},{at[1]} is off the map")
    if not geo.sight(grid, here, at).visible:
        raise IllegalAction(f"R-6.12: no line of sight to {at[0]},{at[1]} to cover it")
    if geo.distance_m(here, at, grid.cell_m) > weapon.max_range_m + 1e-9:
        raise IllegalAction(f"R-6.12: {at[0]},{at[1]} is beyond the {weapon.name}'s {weapon.max_range_m:g} m")


def declare(sys: FiShooting, eid: int, action: CoverFire) -> None:
    """Begin covering the area (a continuing action)."""
    check(sys, eid, action)
    weapon, _ = sys.weapon(eid)  # type: ignore[misc]
    turn = sys.w.get(eid, Turn)
    turn.parts = sys.check_parts(eid, sys.attack_part(eid, weapon, "prepared"))
    turn.acted = True
    at = (int(action.at[0]), int(action.at[1]))
    sys.w.get(eid, Status).covering = (at[0], at[1], action.burst)
    pinned = [sys.name(e) for e in _inside(sys, eid, at, rc.area_m(weapon))]
    sys._event("cover", sys.name(eid), ("R-6.12",), at=list(at), burst=action.burst, volume=rc.volume(action.burst),
               radius_m=rc.area_m(weapon), **({"pinned": pinned} if pinned else {}))


def other_action(sys: FiShooting, eid: int, action: Action) -> None:
    """After an accepted action of `eid`'s: any but covering again or a tacpack split ends its covering fire (the
    seed's "until the firer takes a different action", R-6.12)."""
    if not isinstance(action, (CoverFire, SetTacpack)) and sys.w.peek(eid, Status).covering is not None:
        sys.w.get(eid, Status).covering = None


def _inside(sys: FiShooting, coverer: int, centre: geo.Cell, radius_m: float) -> list[int]:
    """The enemies of `coverer` in action inside its area and in its sight (pinned by it), in entity order."""
    w = sys.w
    side = w.peek(coverer, Identity).side_index
    cell_m = sys.ctx.grid.cell_m
    return [e for e, ident in w.units() if ident.side_index != side and sys.active(e)
            and rc.inside(centre, w.cell(e), radius_m, cell_m) and sys.sight(coverer, e).visible]


def pinned_by(sys: FiShooting, eid: int) -> list[int]:
    """The enemies whose covering fire pins `eid` now (R-6.12): each in action, its weapon able to fire the volume
    (rounds, power, not broken down: `firer_check`), covering an area `eid` stands in, with `eid` in its sight;
    entity order."""
    w = sys.w
    side = w.peek(eid, Identity).side_index
    out = []
    for e in sys.status_marks()[1]:  # the units covering an area, in scenario order
        cov = w.peek(e, Status).covering
        if cov is None or w.peek(e, Identity).side_index == side or not sys.active(e):
            continue
        try:  # an empty or broken-down weapon pins no one (R-6.12: covered until the rounds are spent)
            firer_check(sys, e, cov[2], timing=False)
        except IllegalAction:
            continue
        wpn = sys.weapon(e)
        if wpn is None or not rc.inside((cov[0], cov[1]), w.cell(eid), rc.area_m(wpn[0]), sys.ctx.grid.cell_m):
            continue
        if sys.sight(e, eid).visible:
            out.append(e)
    return out


def pinned_mods(sys: FiShooting, eid: int) -> list[Modifier]:
    """A pinned figure's shot modifier (R-6.12: PINNED_SHOT once, however many enemies pin it), or none."""
    who = pinned_by(sys, eid)
    if not who:
        return []
    names = ", ".join(pinned_names(sys, eid, who))
    return [Modifier(rc.PINNED_SHOT, f"pinned by {names}'s covering fire (R-6.12)")]


def pinned_names(sys: FiShooting, eid: int, who: list[int]) -> list[str]:
    """The coverers pinning `eid` as its side may read them: a coverer `eid` does not see (its position unknown round
    a corner, R-6.1) is "an unseen enemy" (fog: the pinned side's own shot names no one it cannot see)."""
    return [sys.name(e) if sys.sight(eid, e).visible else UNSEEN for e in who]


def stepped(sys: FiShooting, mover: int, before: geo.Cell, after: geo.Cell, pinners: Collection[int] = ()) -> None:
    """After a step: every enemy covering an area the step entered, or left when it pinned the mover as the move
    began (a pinned figure breaking out, LEAVING_DRAWS; `pinners`: `pinned_by` then), fires at the mover, in entity
    order. A figure running through the area draws one shot, entering."""
    w = sys.w
    side = w.peek(mover, Identity).side_index
    # The units covering an area as the step ends, in scenario order: a shot below may end one's covering fire (read
    # again at its turn), and none starts covering in another's move (covering.declare is its own action).
    for eid in list(sys.status_marks()[1]):
        cov = w.peek(eid, Status).covering
        if cov is None or w.peek(eid, Identity).side_index == side or not sys.active(mover):
            continue
        if not sys.active(eid):
            w.get(eid, Status).covering = None
            continue
        wpn = sys.weapon(eid)
        if wpn is None:
            continue
        centre = (cov[0], cov[1])
        how = rc.draws_fire(centre, before, after, rc.area_m(wpn[0]), sys.ctx.grid.cell_m)
        if how == "leaving" and eid not in pinners:
            continue  # not pinned where its move began: it ran through (or was not seen there)
        if how is not None:
            _fire(sys, eid, mover, cov[2])


def _fire(sys: FiShooting, eid: int, mover: int, burst: int) -> None:
    """One covering shot at an entrant: read at the volume's column and row (R-6.12)."""
    action = Shoot(sys.name(eid), sys.name(mover), mode="prepared", burst=burst)
    try:
        setup, target, tgt = sys.shot_setup(eid, action, trigger=True)
    except IllegalAction as exc:  # out of sight or range, or the weapon cannot fire the volume: no shot
        if "round(s) left" in str(exc) or "tacpack" in str(exc) or "broken down" in str(exc):
            sys.w.get(eid, Status).covering = None  # covered until the rounds are spent
        return
    weapon, ws = sys.weapon(eid)  # type: ignore[misc]
    column, row = rc.pool(burst)
    own = set(sys.skill_pool(eid, weapon.skill, "dexterity").modifiers)
    setup = replace(setup, column=column, row=row, halve=False,
                    result_mods=tuple(m for m in setup.result_mods if m not in own))
    ws.rounds -= burst or 1
    if weapon.energy:
        sys.w.get(eid, Tacpack).shot_points += weapon.shot_power(burst)
    sys.fire_at(eid, action, setup, target, tgt, True, covering=True)
