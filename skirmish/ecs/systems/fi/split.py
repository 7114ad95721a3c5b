"""Split bursts in a battle (R-6.3): `shoot Harry Kyr-1 burst=5 also=Kyr-2 split=3,2`. The plan is in
skirmish.rules.fi.ranged_split; each target is checked as a shot of its own (sight, range, an enemy in action),
then one attack action spends the whole burst and draws one card per target, in the order named. The rounds
left over miss along the first target's line (R-6.11 may find them a figure)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from skirmish.core.errors import IllegalAction
from skirmish.rules.actions import Shoot
from skirmish.rules.fi.ranged import ShotSetup, TargetState
from skirmish.rules.fi.ranged_split import SplitError, SplitPlan, plan_split

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting


def plan(sys: FiShooting, eid: int, action: Shoot) -> SplitPlan:
    """The split of a checked firer's burst (R-6.3); IllegalAction naming the rule when it is refused."""
    if not action.also:
        raise IllegalAction("R-6.3: split= divides a burst between targets; name the others with also=")
    if not action.burst:
        raise IllegalAction("R-6.3: only a burst is split between targets; give burst=")
    if action.spends is not None:
        raise IllegalAction("R-6.4: a split burst spends each target's bump pool itself; leave out spends=")
    weapon, _ = sys.shot_firer_check(eid, action)
    pool = sys.skill_pool(eid, weapon.skill, "dexterity")
    try:
        return plan_split(action.burst, (action.target, *action.also), pool.row, action.split)
    except SplitError as exc:
        raise IllegalAction(str(exc)) from None


def setups(sys: FiShooting, eid: int, action: Shoot, trigger: bool = False
           ) -> tuple[SplitPlan, list[tuple[ShotSetup, TargetState, int]]]:
    """The plan and each target's shot: its own checks and numbers, then its share of the dice, its rounds and
    card section, and the TN rise for the extra targets."""
    p = plan(sys, eid, action)
    shots = []
    for share in p.shares:
        single = replace(action, target=share.target, also=(), split=())
        setup, target, tgt = sys.shot_setup(eid, single, trigger=trigger)
        setup = replace(setup, row=share.dice, burst=share.section, rounds=share.rounds, tn=setup.tn + p.tn_up,
                        tn_mods=(*setup.tn_mods, p.tn_modifier()))
        shots.append((setup, target, tgt))
    return p, shots


def shoot(sys: FiShooting, eid: int, action: Shoot, *, trigger: bool = False) -> None:
    """Fire a split burst: one attack action, the whole burst spent, one card per target (R-6.3)."""
    p, shots = setups(sys, eid, action, trigger)
    weapon, ws = sys.weapon(eid)  # type: ignore[misc]
    sys.spend_shot(eid, weapon, ws, action, trigger)
    info = p.to_json()
    for i, (first, _, tgt) in enumerate(shots):
        share = p.shares[i]
        target = sys._target_state(tgt)  # as it stands now: an earlier card's stray rounds may have struck it
        setup = replace(first, prone_rule=target.prone and first.distance_m > 2.0 + 1e-9)  # as it lies now
        sys.fire_at(eid, replace(action, target=share.target, also=(), split=()), setup, target, tgt, trigger,
                    split_plan=info, extra=p.extra if i == 0 else 0, power=i == 0)
