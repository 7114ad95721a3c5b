"""The utility AI's hand-to-hand and psychological options (issue 14 item 7): blows, charges, Close, active defence,
breaking free and rising (R-7.1-R-7.6, R-5.4), and contests before a fight (R-8.4). Only what the battle lists
(`LegalActions.melee`, `.contests`) becomes an option, each valued on the shots' scale (`scoring.harm`) with the
melee rules' own numbers (`melee.py`), with its reasons in the trace.

Melee options are weighed only where melee matters to the unit: it carries a hand-to-hand weapon, is held (R-7.2,
R-7.6), or an enemy engaged with it carries one (two riflemen side by side keep to their guns: fists are a last
resort the AI leaves alone, and the shipped scenarios, where nobody carries a melee weapon, play as before). A
contest is weighed only by a unit trained in its skill, and offered only when its worth beats the best shot the
unit has (never when a shot is better).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from skirmish.ai.curves import Curve
from skirmish.ai.estimate import ShotEstimate, estimate_shot
from skirmish.ai.utility import melee as mm
from skirmish.ai.utility.grapple_options import grapple_material, grapple_options
from skirmish.ai.utility.scoring import HARM, Option, harm
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action
from skirmish.rules.checks import skill_pool, tn
from skirmish.rulesets.fi import (
    CONTESTS,
    SKILL_TRAIT,
    BreakFree,
    Charge,
    Close,
    Contest,
    Defend,
    Entangle,
    MeleeAttack,
    Open,
    Rise,
    Trip,
    wound_penalty,
)

if TYPE_CHECKING:
    from skirmish.ai.utility.options import Cells, Situation

MELEE_KEYS = frozenset({"melee", "charge", "close", "open", "defend", "break", "rise", "contest"})  # material.attacks
_HIT = Curve("linear", m=0.3, b=0.7)
_THREAT = Curve("linear", m=0.3, b=0.7)
_OVERKILL = Curve("linear", m=0.8, b=0.2)
HELD = Curve("linear", m=0.6, b=0.4)  # held in place: freeing itself is worth a fair shot
ANNOYED_SHARE = 0.5  # what a −4 on the target's next action takes off its harm, roughly
BOLD = 0.1  # threat at the unit's cell above which a contest is made cautious (−2 to the check) rather than focused


def melee_matters(view: BattleView, me: UnitView) -> bool:
    """Whether melee options are weighed for this unit (the module's docstring)."""
    if me.melee is None:
        return False
    return mm.armed(me) or mm.held(view, me) is not None or any(mm.armed(e) for e in mm.engaged(view, me))


def threat_of(s: Situation, t: UnitView) -> float:
    """An enemy's danger to the side (its best hit chance at range) or its blow at this unit, whichever is more."""
    return max(s.danger(t), mm.melee_threat(s.view, t, s.me))


def blow_considerations(o: Option, s: Situation, est: ShotEstimate, t: UnitView) -> Option:
    """A blow's worth, as a shot's (`scoring.shot_considerations` but the gun's rounds)."""
    o.estimate = est
    o.add("hit chance", est.hit, _HIT)
    o.add("expected harm", harm(est), HARM)
    o.add("kill chance", est.kill, s.p.kill_curve())
    o.add("target threat", threat_of(s, t), _THREAT)
    if s.p.use_commitment:
        sent = s.committed.get((s.view.round, t.name), 0.0)
        o.add("not overkill", max(0.0, 1 - sent / max(4 - t.wounds, 0.5)), _OVERKILL)
    return o


def melee_options(s: Situation, plan: Cells, stay: Callable[[Option], Option]) -> list[Option]:
    """Every melee option worth weighing: the best blow at each adjacent enemy, the best charge at each enemy in
    reach (ending in the best-scored cell next to it), Close on a longer weapon, active defence, breaking free and
    rising. `stay` adds the considerations of the unit's cell to an option that does not move it."""
    view, me = s.view, s.me
    if not melee_matters(view, me) or not s.legal.melee:  # (the list is worked out when first read)
        return []
    blows: dict[str, tuple[float, Option]] = {}
    charges: dict[str, tuple[float, Option]] = {}
    out: list[Option] = []
    defends: list[Defend] = []
    grapples: list[Entangle | Trip] = []
    for a in s.legal.melee:
        if isinstance(a, MeleeAttack):
            t = view.unit(a.target)
            est = mm.blow_estimate(view, me, t, a.weapon, lethal=a.lethal)
            wname = mm.weapon_of(me, a.weapon).name
            o = Option(f"strike {t.name} with {wname}" + (" (not lethal)" if a.lethal == "no" else ""), a,
                       ("melee", t.name))
            if t.name not in blows or harm(est) > blows[t.name][0]:
                blows[t.name] = (harm(est), stay(blow_considerations(o, s, est, t)))
        elif isinstance(a, Charge) and a.ranged != "yes":
            _charge(s, plan, a, charges)
        elif isinstance(a, Close):
            closing = _close(s, a)
            if closing is not None:
                out.append(stay(closing))
        elif isinstance(a, Defend):
            defends.append(a)
        elif isinstance(a, Open | BreakFree | Rise):
            out.append(stay(_free(s, a)))
        elif isinstance(a, Entangle | Trip):
            grapples.append(a)
    out += [o for _, o in blows.values()] + [o for _, o in charges.values()]
    if grapples and s.p.use_grapple:  # when it beats the blow (grapple_options.py)
        out += grapple_options(s, grapples, {n: h for n, (h, _) in blows.items()}, stay)
    defence = _defend(s, plan, defends) if defends else None
    if defence is not None:
        out.append(stay(defence) if getattr(defence.action, "to", None) is None else defence)
    return out


def _cell_score(plan: Cells, cell: geo.Cell) -> float:
    return float(plan.scores[cell[1], cell[0]])


def _charge(s: Situation, plan: Cells, a: Charge, charges: dict[str, tuple[float, Option]]) -> None:
    """A charge at `a.target`: the blow at −2 (R-5.4) with the weapon named, from the best-scored end cell."""
    view, me = s.view, s.me
    t = view.unit(a.target)
    est = mm.blow_estimate(view, me, t, a.weapon, charge=True)
    cell = (int(a.at[0]), int(a.at[1]))
    value = harm(est) + 1e-3 * _cell_score(plan, cell)  # the same blow from every cell: the better cell first
    if a.target in charges and charges[a.target][0] >= value:
        return
    o = Option(f"charge {t.name} from {cell[0]},{cell[1]} with {mm.weapon_of(me, a.weapon).name}", a,
               ("charge", t.name))
    if plan.moves[cell[1], cell[0]]:
        o.considerations += plan.parts.at(cell)
    blow_considerations(o, s, est, t)
    charges[a.target] = (value, o)


def _close(s: Situation, a: Close) -> Option | None:
    """Close on a longer weapon (R-7.2): worth the odds of the roll times what it changes: our blows ignore its
    Defense, its blows take that Defense as a penalty and add no Strength; over the next exchange."""
    view, me = s.view, s.me
    t = view.unit(a.target)
    now = mm.blow_estimate(view, me, t, a.weapon)
    inside = mm.blow_estimate(view, me, t, a.weapon, close="attacker")
    theirs, wid = mm.best_blow(view, t, me)
    w = mm.weapon_of(t)
    theirs_in = mm.blow_estimate(view, t, me, wid, close="defender")
    gain = max(0.0, harm(inside) - harm(now)) + max(0.0, harm(theirs) - harm(theirs_in))
    if gain <= 0:
        return None
    o = Option(f"close on {t.name}'s {w.name}", a, ("close", t.name))
    o.add("close succeeds", now.hit, _HIT)
    o.add("expected harm", min(1.0, now.hit * 2 * gain), HARM)  # the guard lasts: two exchanges of it
    o.add("target threat", threat_of(s, t), _THREAT)
    return o


def _free(s: Situation, a: Open | BreakFree | Rise) -> Option:
    """Open the distance, break free or rise: a held unit's way out (R-7.2, R-7.6)."""
    me = s.me
    if isinstance(a, Open):
        label, why = f"open the distance from {a.target}", "closed on"
    elif isinstance(a, BreakFree):
        s_col, d_col = me.trait("strength")[0], me.trait("dexterity")[0]
        better = "strength" if (s_col, me.trait("strength")[1]) >= (d_col, me.trait("dexterity")[1]) else "wriggle"
        label, why = f"break free ({a.how})", "entangled" if a.how == better else "entangled (the weaker way)"
    else:
        label, why = "rise", "on the ground"
    o = Option(label, a, ("break" if isinstance(a, BreakFree) else a.verb,))
    o.add(f"held in place: {why}", 1.0 if "weaker" not in why else 0.5, HELD)
    o.add("enemies engaged", min(1.0, len(mm.engaged(s.view, me)) / 2), Curve("linear", m=0.4, b=0.6))
    return o


def _defend(s: Situation, plan: Cells, defends: list[Defend]) -> Option | None:
    """Active defence (R-7.5) when engaged and outmatched: the harm the engaged enemies' blows would do, less what
    they do against the defence, for the better skill; a step to the best-scored adjacent cell, else −4 in place."""
    view, me = s.view, s.me
    steps = [d for d in defends if d.to is not None]
    best_step = max(steps, key=lambda d: _cell_score(plan, (int(d.to[0]), int(d.to[1]))), default=None)  # type: ignore[index]
    best: tuple[float, float, Defend] | None = None
    for skill in ("fighting", "dodge"):
        for d in ([best_step] if best_step is not None and best_step.skill == skill else []) + \
                [x for x in defends if x.skill == skill and x.to is None]:
            now, after = mm.defended_harm(view, me, skill, d.to is not None)
            if now > 0 and (best is None or now - after > best[0]):
                best = (now - after, now, d)
            break  # the step first when there is one: it avoids the −4
    if best is None:
        return None
    saved, now, d = best
    ours = max((harm(mm.best_blow(view, me, e)[0]) for e in mm.engaged(view, me)), default=0.0)
    where = f" stepping to {d.to[0]},{d.to[1]}" if d.to is not None else ""
    o = Option(f"defend ({d.skill}){where}", d, ("defend",))
    o.add("blows turned aside", min(1.0, saved), HARM)
    o.add("outmatched", min(1.0, now / max(ours + now, 1e-9)), Curve("linear", m=0.8, b=0.2))
    o.add("wounded", min(1.0, me.wounds / 2), Curve("linear", m=0.4, b=0.6))
    if d.to is not None:
        cell = (int(d.to[0]), int(d.to[1]))
        if plan.moves[cell[1], cell[0]]:
            o.considerations += plan.parts.at(cell)
    return o


# ---------------------------------------------------------------------------------------------- contests


def contest_successes(view: BattleView, me: UnitView, t: UnitView, kind: str, cautious: bool) -> tuple[float, float]:
    """P(exactly one success: annoyed) and P(two or more: distraught, broken) of an opposed contest (R-8.4, R-3.8):
    the initiator's skill against the defender's resisting skill, one more success per full 5 above it; ties and
    a critical failure of the initiator to the defender (ties of impulse aside)."""
    resist = CONTESTS[kind]
    mine = skill_pool(me.trait(SKILL_TRAIT[kind]), dict(me.skills), kind)
    theirs = skill_pool(t.trait(SKILL_TRAIT[resist]), dict(t.skills), resist)
    base = tn("standard", view.scope)  # type: ignore[arg-type]
    my_mod = sum(m.value for m in mine.modifiers) + wound_penalty(me.wounds) + (-2 if cautious else 0) + \
        (mm.ANNOYED if "annoyed" in me.mind else 0)
    their_mod = sum(m.value for m in theirs.modifiers) + wound_penalty(t.wounds) + \
        (mm.ANNOYED if "annoyed" in t.mind else 0)
    ours = _totals(mine.column, mine.row, mine.halve, my_mod, base)
    resists = _totals(theirs.column, theirs.row, theirs.halve, their_mod, base)
    r_total = np.array([v for v, _ in resists], dtype=float)
    r_p = np.array([p for _, p in resists])
    one = more = 0.0
    for v, p in ours:
        if v <= 0:
            continue
        margin = v - r_total
        won = margin > 0
        more += p * float(r_p[won & (margin >= 5)].sum())
        one += p * float(r_p[won & (margin < 5)].sum())
    return one, more


def _totals(column: str, row: int, halve: bool, mod: int, want: int) -> list[tuple[int, float]]:
    """A check's total (0 on a CF) and its chance, rerolling toward `want` (R-3.4)."""
    out: dict[int, float] = {}
    for v, p in mm.check_pmf(column, row, want - mod):
        total = 0 if v <= 0 else max(0, (v // 2 if halve else v) + mod)
        out[total] = out.get(total, 0.0) + p
    return sorted(out.items())


def enemy_harm(view: BattleView, t: UnitView, me: UnitView) -> float:
    """The harm an enemy's next action would do to our side: its prepared shot at the one of us it harms most
    (in sight), or its blow at us."""
    best = mm.melee_threat(view, t, me)
    if t.weapon is not None:
        for f in [me, *view.friends(me)]:
            if not f.out_of_action:
                best = max(best, harm(estimate_shot(view, t, f, mode="prepared")))
    return best


def contest_options(s: Situation, stay: Callable[[Option], Option]) -> list[Option]:
    """A contest at each enemy the battle lists, of the kind the unit is best at (trained only), when its worth —
    the enemy's next action lost (distraught) or at −4 (annoyed) — beats the best shot the unit has now; cautious
    (−2 to the check) while an enemy threatens the unit, else focused (attackers' TN −2 at it, R-5.4)."""
    view, me = s.view, s.me
    if not s.legal.contests:
        return []
    kinds = [k for k in CONTESTS if me.skill(k) > 0]
    if not kinds:
        return []
    here_threat = float(1 - np.exp(-s.maps.threat[me.cell[1], me.cell[0]]))
    cautious = here_threat > BOLD
    mode = "cautious" if cautious else "focused"
    shot = float(s.kept.get("shot here", 0.0))
    listed = set(s.legal.contests)
    best: dict[str, tuple[float, Option]] = {}
    for target in dict.fromkeys(c.target for c in s.legal.contests):  # type: ignore[attr-defined]
        t = view.unit(target)
        if "distraught" in t.mind:
            continue  # it loses its next action already
        reply = enemy_harm(view, t, me)
        if reply <= 0:
            continue
        for kind in kinds:
            a = Contest(me.name, target, kind, mode)
            if a not in listed:
                continue
            one, more = contest_successes(view, me, t, kind, cautious)
            worth = more * reply + one * ANNOYED_SHARE * reply * (0 if "annoyed" in t.mind else 1)
            if worth <= shot or worth < 0.02:
                continue  # never when a shot is better
            o = Option(f"{kind} {target} ({mode})", a, ("contest", target))
            o.add("distraught or broken", more, Curve("linear", m=0.4, b=0.6))
            o.add("expected harm", min(1.0, worth), HARM)
            o.add("target threat", threat_of(s, t), _THREAT)
            o.add("beats the shot in hand", 1.0 if shot <= 0 else min(1.0, worth / shot - 1), Curve("linear", m=0.3, b=0.7))
            if target not in best or worth > best[target][0]:
                best[target] = (worth, stay(o))
    return [o for _, o in best.values()]


# ---------------------------------------------------------------------------------------------- the material scale


def melee_exchange(view: BattleView, me: UnitView, action: Action,
                   material: Callable[[ShotEstimate, UnitView], float]) -> tuple[float, dict[str, float], UnitView] | None:
    """A melee action or contest on the search tier's material scale (`search.model.exchange`): what it takes from
    the enemy now (a blow's or charge's material; a Close's gain; for an active defence, the material the engaged
    enemies' blows would take from us that it turns aside; for a contest, the enemy's next action lost or at −4),
    the kill chances, and the unit after it. None for other actions."""
    from skirmish.ai.estimate import replaced

    if isinstance(action, MeleeAttack):
        t = view.unit(action.target)
        est = mm.blow_estimate(view, me, t, action.weapon, lethal=action.lethal)
        return material(est, t), {t.name: est.kill}, me
    if isinstance(action, Charge) and action.ranged != "yes":
        t = view.unit(action.target)
        est = mm.blow_estimate(view, me, t, action.weapon, charge=True)
        after = replaced(me, cell=(int(action.at[0]), int(action.at[1])), ready_target=None, aim=0)
        return material(est, t), {t.name: est.kill}, after
    if isinstance(action, Close):
        t = view.unit(action.target)
        now = mm.blow_estimate(view, me, t, action.weapon)
        inside = mm.blow_estimate(view, me, t, action.weapon, close="attacker")
        theirs, wid = mm.best_blow(view, t, me)
        theirs_in = mm.blow_estimate(view, t, me, wid, close="defender")
        gain = max(0.0, material(inside, t) - material(now, t)) + max(0.0, material(theirs, me) - material(theirs_in, me))
        return now.hit * 2 * gain, {}, me  # the guard lasts: two exchanges of it (as `_close`)
    if isinstance(action, Defend):
        before, defended = mm.defended_harm(view, me, action.skill, action.to is not None)
        taken = sum(material(mm.best_blow(view, e, me)[0], me) for e in mm.engaged(view, me))
        cell = me.cell if action.to is None else (int(action.to[0]), int(action.to[1]))
        return (taken * (1 - defended / before) if before > 0 else 0.0), {}, replaced(me, cell=cell)
    if isinstance(action, Contest):
        t = view.unit(action.target)
        one, more = contest_successes(view, me, t, action.kind, action.mode == "cautious")
        lost = material(_reply(view, t, me), me)
        return (more + ANNOYED_SHARE * one) * lost, {}, me
    if isinstance(action, Open | BreakFree | Rise):
        return 0.0, {}, me
    if isinstance(action, Entangle | Trip):
        return grapple_material(view, me, action, material), {}, me
    return None


def _reply(view: BattleView, t: UnitView, me: UnitView) -> ShotEstimate:
    """The enemy's next attack on `me`: its blow if it is engaged or could charge, else its prepared shot."""
    blow, _ = mm.best_blow(view, t, me, charge=not mm.touching(view, t.cell, me.cell))
    shot = estimate_shot(view, t, me, mode="prepared") if t.weapon is not None else mm.NO_BLOW
    if mm.melee_threat(view, t, me) > 0 and harm(blow) >= harm(shot):
        return blow
    return shot
