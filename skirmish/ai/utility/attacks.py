"""The utility AI's attack options: shots at targets in view, throws, aiming, and the best shot still
allowed after a move (a look ahead at the timing rule, R-5.4). Each option carries the considerations of
`scoring.shot_considerations` (a throw the same six, read from its blast), so shooting now, after a move,
after aiming and throwing compare on one scale.

Equipment (issue 12): a throw is aimed at the cell with the most expected harm to enemies net of friends
(`skirmish.ai.blast`: the rules' throw, scatter and blast numbers over candidate cells near the enemies in
sight); a shot is weighed against the best other use of the action (that throw, or aiming for a steadier
shot), so a hopeless shot loses to a better option instead of holding a floor; aiming whose prepared shot
cannot follow this turn is discounted by AIM_CARRY (the aim persists to the next round, R-6.2, but the
target may move or the unit be hit before it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.ai.blast import FRIEND_WEIGHT, ThrowPlan, candidate_cells, plan_throws
from skirmish.ai.curves import Curve
from skirmish.ai.estimate import ShotEstimate, estimate_shot, fits_kept, replaced
from skirmish.ai.utility.ranged_extra import mind_the_line
from skirmish.ai.utility.scoring import HARM, Option, harm, shot_considerations, targets
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Aim, Shoot, Throw
from skirmish.rulesets.fi import Part

if TYPE_CHECKING:
    from skirmish.ai.utility.options import Situation

NO_SHOT = ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)
AIM_CARRY = 0.5  # what aiming is worth when its prepared shot cannot follow this turn (R-6.2: it persists)
WORTH = Curve("linear", m=0.8, b=0.2)  # a shot's harm as a share of the best use of the action


def shot_after(view: BattleView, me: UnitView, cell: geo.Cell, running: bool) -> tuple[ShotEstimate, UnitView | None,
                                                                                        int]:
    """The best attack still allowed this turn after moving to `cell`: a look ahead at the timing rule with
    this turn's actions so far (R-5.4 engage: moving loses readiness, so a snap at weapon speed unless the
    declaration allows the slower prepared shot)."""
    w = me.weapon
    if w is None or not me.can_fire:
        return NO_SHOT, None, 0
    moved = replaced(me, cell=cell, ready_target=None, aim=0)
    for mode in ("prepared", "snap"):
        if not fits_kept(me.declared, (*me.turn_parts, Part("move", running=running), Part("attack", int(w.speed), mode))):
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
    """Every legal shot at a target in view: each mode, and each burst the weapon can fire; each weighed
    against the best other use of the action (a throw, or aiming for a steadier shot)."""
    view, me, legal = s.view, s.me, s.legal
    w = me.weapon
    assert w is not None
    other = alternatives(s)
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
                h = harm(est)
                o.add("worth the action", 1.0 if h >= other else h / other, WORTH)
                if mind_the_line(s, o, t, est, burst):  # friends on the line of fire (R-6.11; ranged_extra.py)
                    out.append(o)
    return out


def alternatives(s: Situation) -> float:
    """The harm of the best other use of this action, on the shots' scale: the best throw net of friends,
    or aiming now for a steadier shot (its harm halved: it takes two actions, and discounted by AIM_CARRY
    when the shot cannot follow this turn)."""
    best = 0.0
    if s.p.use_grenades and s.me.throwables and not s.me.attacked:
        for plan, i in throw_plans(s):
            best = max(best, min(1.0, float(plan.net[i])))
    for _, later, follows in _aims(s):
        best = max(best, later * (1.0 if follows else AIM_CARRY) / 2)
    return best


def throw_plans(s: Situation) -> list[tuple[ThrowPlan, int]]:
    """For each explosive the battle lets the unit throw now, its plan over the candidate cells and the index
    of the best cell (explosives with no cell doing net harm are left out)."""
    plans: list[tuple[ThrowPlan, int]] = s.keep("throws", _plan)
    return plans


def _plan(s: Situation) -> list[tuple[ThrowPlan, int]]:
    view, me = s.view, s.me
    carried = {w.id: w for w, n in me.throwables if n > 0}
    out = []
    for item, cells in s.legal.throws:
        weapon = carried.get(item)
        if weapon is None:
            continue
        plan = plan_throws(view, me, weapon, candidate_cells(view, me, weapon, cells))
        best = plan.best()
        if best is not None:
            out.append((plan, best))
    return out


def throw_options(s: Situation) -> list[Option]:
    """A throw of each explosive the battle allows at the cell with the most expected harm to the enemies in
    sight net of friends (R-6.9, R-6.10; `skirmish.ai.blast`); none where every cell would do more harm to
    friends than to enemies."""
    view, me = s.view, s.me
    counts = {w.id: n for w, n in me.throwables}
    out = []
    for plan, i in throw_plans(s):
        cell = plan.cells[i]
        weapon = plan.weapon
        enemy, friend = float(plan.enemy_harm[i]), float(plan.friend_harm[i])
        caught = [view.unit(n) for n in plan.caught[i]]
        who = ", ".join(plan.caught[i]) or "scatter"
        o = Option(f"throw {weapon.id} at {cell[0]},{cell[1]} ({who})", Throw(me.name, cell, weapon.id),
                   ("throw", weapon.id))
        o.add("burst covers the cell", float(plan.covers[i]), Curve("linear", m=0.3, b=0.7))
        o.add("expected harm", min(1.0, float(plan.net[i])), HARM)
        o.add("kill chance", min(1.0, float(plan.enemy_kill[i])), s.p.kill_curve())
        o.add("target threat", max((s.danger(e) for e in caught), default=0.0), Curve("linear", m=0.3, b=0.7))
        o.add("friends clear", 1 - min(1.0, FRIEND_WEIGHT * friend / max(enemy, 1e-9)), Curve("linear", m=0.8, b=0.2))
        n = counts.get(weapon.id, 1)
        o.add("grenades left after", (n - 1) / max(1, n), Curve("linear", m=0.2, b=0.8))
        out.append(o)
    return out


def _aims(s: Situation) -> list[tuple[UnitView, float, bool]]:
    """Each target the unit may aim at (the first three in view): the harm of the prepared shot after aiming,
    and whether that shot still fits this turn after the aim (R-5.3, R-5.5, R-6.2)."""
    aims: list[tuple[UnitView, float, bool]] = s.keep("aims", _work_out_aims)
    return aims


def _work_out_aims(s: Situation) -> list[tuple[UnitView, float, bool]]:
    view, me, legal = s.view, s.me, s.legal
    w = me.weapon
    if w is None:
        return []
    follows = fits_kept(me.declared, (*me.turn_parts, Part("aim", int(w.speed)), Part("attack", int(w.speed), "prepared")))
    out = []
    for t in targets(view, me, me.cell)[:3]:
        if not legal.allows(Aim(me.name, t.name)):
            continue
        steady = replaced(me, ready_target=t.name, aim=min(2, me.aim + 1 if me.ready_target == t.name else 1))
        out.append((t, harm(estimate_shot(view, steady, t, mode="prepared")), follows))
    return out


def aim_options(s: Situation) -> list[Option]:
    """Aiming at one of the first three targets in view (R-6.2), worth it when the steadier shot later beats
    what a plain shot does now, and discounted (AIM_CARRY) when that shot cannot follow this turn."""
    view, me, legal = s.view, s.me, s.legal
    out = []
    for t, later, follows in _aims(s):
        now = max((harm(estimate_shot(view, me, t, mode=m, moved=me.moved)) for m in ("prepared", "snap")
                   if legal.allows(Shoot(me.name, t.name, mode=m))), default=0.0)
        o = Option(f"aim at {t.name}", Aim(me.name, t.name), ("aim", t.name))
        o.add("aimed shot's harm", later, HARM)
        o.add("beats two plain shots", min(1.0, later / (4 * now + 1e-6)), Curve("logistic", k=14, c=0.5))
        o.add("shot follows this turn", 1.0 if follows else 0.0, Curve("linear", m=1 - AIM_CARRY, b=AIM_CARRY))
        out.append(o)
    return out
