"""The utility AI's attack options: shots at targets in view, throws, aiming, and the best shot still
allowed after a move (a look ahead at the timing rule, R-5.4). Each option carries the considerations of
`scoring.shot_considerations`, so shooting now, after a move and after aiming compare on one scale.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from skirmish.ai.curves import Curve
from skirmish.ai.estimate import ShotEstimate, estimate_shot, throw_chance
from skirmish.ai.utility.maps import COVER_VALUE
from skirmish.ai.utility.scoring import HARM, Option, harm, shot_considerations, targets
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Aim, Shoot, Throw
from skirmish.rulesets.fi import Part, fits
from skirmish.rulesets.fi import thrown as thr

if TYPE_CHECKING:
    from skirmish.ai.utility.options import Situation

NO_SHOT = ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)


def shot_after(view: BattleView, me: UnitView, cell: geo.Cell, running: bool) -> tuple[ShotEstimate, UnitView | None,
                                                                                        int]:
    """The best attack still allowed this turn after moving to `cell`: a look ahead at the timing rule with
    this turn's actions so far (R-5.4 engage: moving loses readiness, so a snap at weapon speed unless the
    declaration allows the slower prepared shot)."""
    w = me.weapon
    if w is None or not me.can_fire:
        return NO_SHOT, None, 0
    moved = replace(me, cell=cell, ready_target=None, aim=0)
    for mode in ("prepared", "snap"):
        if not fits(me.declared, [*me.turn_parts, Part("move", running=running), Part("attack", int(w.speed), mode)]):
            continue
        burst = min((b for b in w.bursts if me.can_fire_burst(b)), default=0)
        best: tuple[ShotEstimate, UnitView | None, int] = (NO_SHOT, None, burst)
        for t in targets(view, me, cell):
            est = estimate_shot(view, moved, t, mode=mode, burst=burst, moved="ran" if running else "walked")
            if harm(est) > harm(best[0]):
                best = (est, t, burst)
        return best  # the first mode that fits is the better one
    return NO_SHOT, None, 0


def shoot_options(s: Situation) -> list[Option]:
    """Every legal shot at a target in view: each mode, and each burst the weapon can fire."""
    view, me, legal = s.view, s.me, s.legal
    w = me.weapon
    assert w is not None
    out = []
    for t in targets(view, me, me.cell):
        for mode in ("aimed", "prepared", "snap"):
            bursts = [0] + [b for b in w.bursts if me.can_fire_burst(b) and mode != "aimed"]
            for burst in bursts:
                shot = Shoot(me.name, t.name, mode=mode, burst=burst)
                if not legal.allows(shot):
                    continue
                est = estimate_shot(view, me, t, mode=mode, burst=burst, moved=me.moved)
                if est.hit <= 0:
                    continue
                label = f"shoot {t.name} {mode}" + (f" burst {burst}" if burst else "")
                o = Option(label, shot, ("shoot", t.name), estimate=est)
                shot_considerations(o, est, s.danger(t), s.p, s.committed, view, me, t, burst)
                out.append(o)
    return out


def throw_options(s: Situation) -> list[Option]:
    """A throw of the first explosive carried at each enemy's cell the battle allows (R-6.10)."""
    view, me, legal = s.view, s.me, s.legal
    weapon, _ = me.throwables[0]
    grid = view.grid
    enemies = view.enemies(me)
    out = []
    for e in enemies:
        aim = e.cell
        throw = Throw(me.name, aim, weapon.id)
        if e.ghost or not legal.allows(throw):  # never at a ghost: the enemy may have gone
            continue
        dist = geo.distance_m(me.cell, aim, grid.cell_m)
        p = throw_chance(me, weapon, dist, view.scope)
        inside = sum(1 for o in enemies if thr.in_blast(grid, weapon, aim, o.cell, armoured=True) is not None)
        friends = [me, *view.friends(me)]
        danger_m = weapon.blast_m + 2 * grid.cell_m
        near_friend = min((geo.distance_m(f.cell, aim, grid.cell_m) for f in friends), default=99.0)
        cover_t = view.sight(me, e).cover
        o = Option(f"throw {weapon.id} at {e.name}", throw, ("throw", e.name))
        o.add("burst covers the cell", p, Curve("logistic", k=10, c=0.35))
        o.add("enemies in the radius", min(1.0, inside / 3), Curve("polynomial", m=0.8, k=0.7, b=0.2))
        o.add("target behind cover", COVER_VALUE[cover_t], Curve("linear", m=0.5, b=0.5))
        o.add("friends clear", min(1.0, near_friend / (2 * danger_m)), Curve("logistic", k=20, c=0.5))
        out.append(o)
    return out


def aim_options(s: Situation) -> list[Option]:
    """Aiming at one of the first three targets in view (R-6.2), worth it when the steadier shot later beats
    what a plain shot does now."""
    view, me, legal = s.view, s.me, s.legal
    out = []
    for t in targets(view, me, me.cell)[:3]:
        if not legal.allows(Aim(me.name, t.name)):
            continue
        now = max((harm(estimate_shot(view, me, t, mode=m, moved=me.moved)) for m in ("prepared", "snap")
                   if legal.allows(Shoot(me.name, t.name, mode=m))), default=0.0)
        steady = replace(me, ready_target=t.name, aim=min(2, me.aim + 1 if me.ready_target == t.name else 1))
        later = harm(estimate_shot(view, steady, t, mode="prepared"))
        o = Option(f"aim at {t.name}", Aim(me.name, t.name), ("aim", t.name))
        o.add("aimed shot's harm", later, HARM)
        o.add("beats two plain shots", min(1.0, later / (4 * now + 1e-6)), Curve("logistic", k=14, c=0.5))
        out.append(o)
    return out
