"""The attack event of one shot (C-3, R-6): the rules it applied and every number of its read and hits, written
by FiShooting.fire_at for single shots, bursts, split bursts (R-6.3) and double taps (R-6.12)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.ecs.components import Tacpack
from skirmish.ecs.systems.fi import covering as cover_fire
from skirmish.rules.actions import Shoot
from skirmish.rules.fi.ranged import ShotOutcome, ShotSetup, TargetState
from skirmish.rules.randomizer import Draw

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting


def emit(sys: FiShooting, eid: int, action: Shoot, setup: ShotSetup, target: TargetState, out: ShotOutcome,
         draw: Draw, on_line: list[int], *, trigger: bool, split_plan: dict[str, Any] | None, tap: int | None,
         power: bool, covering: bool = False, charge: bool = False) -> None:
    """Write the shot's `attack` event; `power` False leaves the tacpack's power to the action's first event (a
    double tap's first event carries both shots' power)."""
    weapon, ws = sys.weapon(eid)  # type: ignore[misc]
    tp = sys.w.peek(eid, Tacpack)
    drawn = weapon.shot_power(action.burst) * (2 if tap else 1)
    rules = ["R-6.1", "R-6.2", "R-3.3", "R-6.4"] + (["R-5.4"] if charge else [])  # a charge's shot
    if action.burst:
        rules.append("R-6.3")
    pinned = cover_fire.pinned_names(sys, eid, cover_fire.pinned_by(sys, eid))  # the enemies whose covering fire pins the firer
    if tap is not None or covering or pinned:
        rules.append("R-6.12")
    if setup.cover != "none":
        rules.append("R-6.6")
    if any(h.layers for h in out.hits):
        rules.append("R-6.7")
    if out.hits:
        rules += ["R-4.4", "R-6.8"]
    if setup.prone_rule:
        rules.append("R-6.5")
    if out.cf:
        rules.append("R-3.5")
    if out.breakdown:
        rules.append("R-4.8")
    if target.screen_type:
        rules.append("R-6.13")
    if on_line:
        rules.append("R-6.11")
    first = out.hits[0] if out.hits else None
    sys._event(
        "attack", sys.name(eid), tuple(rules),
        target=action.target, weapon=weapon.id, mode=action.mode, burst=action.burst,
        called=action.called, trigger=trigger, distance_m=round(setup.distance_m, 2),
        tn=out.tn, tn_modifiers=[m.to_json() for m in setup.tn_mods],
        column=setup.column, row=setup.row, halved=setup.halve, read=out.read, cf=out.cf,
        result=out.total, hit=out.hit, bumps=out.bumps, bump_pool=out.pool, spent=out.spent,
        rounds_hit=out.rounds_hit, cover=setup.cover, cover_av=setup.cover_av,
        location=first.location if first else None,
        ablation=first.layers if first else [],
        damage=out.damage, wounds=out.wounds, ct=out.ct,
        hits=[h.to_json() for h in out.hits], extra_damage=out.extra,
        breakdown=out.breakdown, ammo_left=ws.rounds,
        **({"power": drawn, "power_left": tp.generator - tp.spent}
           if weapon.energy and power else {}),
        **({"unintended": [sys.name(e) for e in on_line]} if on_line else {}),
        **({"split": split_plan} if split_plan is not None else {}),
        **({"double_tap": tap} if tap is not None else {}),
        **({"covering": True} if covering else {}),
        **({"pinned": pinned} if pinned else {}),
        modifiers=[m.to_json() for m in setup.result_mods], **draw.record(),
    )
