"""The shots that are not one shot at one target (issue 14): an off-hand shot (R-6.12, two_weapons), a double tap
(R-6.12, double_tap) and a burst split between targets (R-6.3, split). FiShooting.shot_setup and .shoot hand such
an order here first; None / False means an ordinary shot."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from skirmish.ecs.systems.fi import double_tap, split, two_weapons
from skirmish.rules.actions import Shoot
from skirmish.rules.fi.ranged import ShotSetup, TargetState

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting


def setup(sys: FiShooting, eid: int, action: Shoot, trigger: bool) -> tuple[ShotSetup, TargetState, int] | None:
    """The checks and numbers of a special shot (its first card's), or None for an ordinary one."""
    if action.hand:
        with two_weapons.hand(sys, eid, action.hand):
            return sys.shot_setup(eid, replace(action, hand=""), trigger=trigger)
    if action.double_tap:
        return double_tap.setup(sys, eid, action, trigger)  # the first shot's
    if action.also or action.split:
        return split.setups(sys, eid, action, trigger)[1][0]  # the first target's
    return None


def shoot(sys: FiShooting, eid: int, action: Shoot, trigger: bool) -> bool:
    """Fire a special shot; False for an ordinary one (nothing done)."""
    if action.hand:
        with two_weapons.hand(sys, eid, action.hand):
            sys.shoot(eid, replace(action, hand=""), trigger=trigger)
    elif action.also or action.split:
        split.shoot(sys, eid, action, trigger=trigger)
    elif action.double_tap:
        double_tap.shoot(sys, eid, action, trigger=trigger)
    else:
        return False
    return True
