"""Double tap in a battle (R-6.12): `shoot Kayla Agent-1 double_tap=yes`. The rules are in
skirmish.rules.fi.ranged_tap; the shot is checked as a single shot, then as a double tap (the weapon's attribute,
no burst, two rounds, the tacpack's power for both); one attack action spends both rounds and one card reads both
shots, each its own attack event (`double_tap`: 1, 2)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Profile, Readiness, Tacpack
from skirmish.rules.actions import Shoot
from skirmish.rules.fi.ranged import ShotSetup, TargetState
from skirmish.rules.fi.ranged_tap import SPECIALISATION, second_read, second_shift, tap_modifiers, tap_reliability

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting


def setup(sys: FiShooting, eid: int, action: Shoot, trigger: bool = False) -> tuple[ShotSetup, TargetState, int]:
    """The first shot of a double tap: a single shot's checks and numbers, then the maneuver's own checks, its
    modifiers and the lowered reliability."""
    if action.burst or action.also or action.split:
        raise IllegalAction("R-6.12: a double tap is two single shots, not a burst")
    single = replace(action, double_tap=False)
    first, target, tgt = sys.shot_setup(eid, single, trigger=trigger)
    weapon, ws = sys.weapon(eid)  # type: ignore[misc]
    if not weapon.double_tap:
        raise IllegalAction(f"R-6.12: the {weapon.name} cannot be double tapped (no double tap attribute)")
    if ws.rounds < 2:
        raise IllegalAction(f"R-6.12: {ws.rounds} round(s) left, 2 needed for a double tap; reload")
    if not trigger:  # both shots in one attack action, or a new one (the single's check held one shot)
        sys.check_parts(eid, replace(sys.attack_part(eid, weapon, action.mode, 2), shots=2))
    tp = sys.w.peek(eid, Tacpack)
    if weapon.energy and tp.spent + 2 * weapon.power > tp.generator:
        raise IllegalAction(f"R-6.13: the tacpack has {max(0, tp.generator - tp.spent)} point(s) left this round; "
                            f"a double tap draws {2 * weapon.power}")
    ready = action.mode != "snap" or sys.w.peek(eid, Readiness).target == action.target
    specialised = SPECIALISATION in sys.w.peek(eid, Profile).skills
    mods = tap_modifiers(weapon, ready, specialised)
    first = replace(first, result_mods=(*first.result_mods, *mods), reliability=tap_reliability(weapon.reliability))
    return first, target, tgt


def shoot(sys: FiShooting, eid: int, action: Shoot, *, trigger: bool = False) -> None:
    """Both shots of a double tap off one card: the first as read, the second a row up (or a column left) and a box
    up or down by the toggle (R-6.12)."""
    first, target, tgt = setup(sys, eid, action, trigger)
    weapon, ws = sys.weapon(eid)  # type: ignore[misc]
    sys.spend_shot(eid, weapon, ws, action, trigger, rounds=2)
    draw = sys.ctx.randomizer.draw()
    if sys.ctx.chips is not None:  # the first shot's attack check may take a story chip, as any shot's
        draw = sys.ctx.chips.check_draw(sys, eid, draw, first.halve)
    column, row = second_read(first.column, first.row)
    second = replace(first, column=column, row=row, start_shift=second_shift(draw.toggle), spends=None)
    sys.fire_at(eid, action, first, target, tgt, trigger, draw=draw, tap=1, settle=False)
    sys.fire_at(eid, action, second, sys._target_state(tgt), tgt, trigger, draw=draw, tap=2, power=False)
