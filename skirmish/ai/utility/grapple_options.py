"""The utility AI's entangle and trip (R-7.6, issue 14 item 7): each listed `Entangle` or `Trip` weighed by what
winning it buys, on the shots' scale (`scoring.harm`), and offered only when that beats the best blow the unit has at
the same enemy (a maneuver that does not pay is left alone).

- The odds: the attacker's Fighting with the weapon (on Dexterity, its wounds, annoyance and the ground's modifiers,
  `melee.result_modifiers`) against the defender's Dexterity, highest total wins, ties to the impulse (R-3.8) —
  counted as a coin toss here (`grapple_chance`).
- A trip puts the enemy on the ground: every friend engaged with it (and this unit next) strikes at +2, it fights
  at −2 (docs/RULES-NOTES.md), and it spends an action rising or stays held (R-7.6). Its worth is the blows' gain
  summed over the engaged friends plus a share (`HELD_SHARE`) of the enemy's next action (`enemy_harm`).
- An entangle holds the enemy in place until it breaks free (an action, R-7.6): it cannot walk off, charge or
  reach cover, so a share of its next action, times the tries a break by Strength against the weapon's TN is
  likely to take (at most two); less the blows this unit loses when the entangling weapon is its only
  one (the weapon stays on the target, docs/RULES-NOTES.md). An entangled figure may still shoot (the rules as
  built), so a rifleman is not silenced by a net: only held.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from skirmish.ai.curves import Curve
from skirmish.ai.estimate import ShotEstimate, pool_hit_chance, replaced
from skirmish.ai.utility import melee as mm
from skirmish.ai.utility.scoring import HARM, Option
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.checks import skill_pool, tn
from skirmish.rulesets.fi import Entangle, Trip, wound_penalty
from skirmish.rulesets.fi import melee as ml

if TYPE_CHECKING:
    from skirmish.ai.utility.options import Situation

HELD_SHARE = 0.5  # the share of an enemy's next action a hold takes (it rises or breaks free, or fights held)
_WIN = Curve("linear", m=0.4, b=0.6)
_BEATS = Curve("linear", m=0.3, b=0.7)
_THREAT = Curve("linear", m=0.3, b=0.7)


def raw_harm(est: ShotEstimate) -> float:
    """`scoring.harm` without its cap at 1: a blow's gain on a figure it would likely put down still counts."""
    return (est.wounds + est.ct / 6) / 3 + est.kill


def grapple_chance(view: BattleView, me: UnitView, t: UnitView, wid: str) -> float:
    """P(`me` wins an entangle or trip at `t` with weapon `wid`): its Fighting against `t`'s Dexterity (R-7.6)."""
    from skirmish.ai.utility.melee_options import _totals

    weapon = mm.weapon_of(me, wid)
    mine = skill_pool(me.trait("dexterity"), dict(me.skills), weapon.skill)
    base = tn("standard", view.scope)  # type: ignore[arg-type]
    my_mod = sum(m.value for m in mine.modifiers) + wound_penalty(me.wounds) + \
        (mm.ANNOYED if "annoyed" in me.mind else 0) + \
        sum(m.value for m in ml.result_modifiers(mm.fighter(me, weapon), mm.fighter(t)))
    col, row = t.trait("dexterity")
    ours = _totals(mine.column, mine.row, mine.halve, my_mod, base)
    theirs = _totals(col, row, False, wound_penalty(t.wounds), base)
    win = 0.0
    for a, pa in ours:
        if a <= 0:
            continue
        for b, pb in theirs:
            win += pa * pb * (1.0 if a > b else 0.5 if a == b else 0.0)
    return win


def downed(t: UnitView) -> UnitView:
    """`t` on the ground after a trip, as the view would show it (R-7.6)."""
    assert t.melee is not None
    return replaced(t, melee=dataclasses.replace(t.melee, down=True))


def trip_gain(view: BattleView, me: UnitView, t: UnitView, value: Callable[[ShotEstimate, UnitView], float]) -> float:
    """What the blows of `me` and every friend engaged with `t` gain against it on the ground (+2, R-7.6)."""
    down = downed(t)
    gain = 0.0
    for f in [me, *view.friends(me)]:
        if f.out_of_action or f.melee is None or not (f is me or any(e.name == t.name for e in mm.engaged(view, f))):
            continue
        up_est, wid = mm.best_blow(view, f, t)
        gain += max(0.0, value(mm.blow_estimate(view, f, down, wid), down) - value(up_est, t))
    return gain


def grapple_worth(view: BattleView, me: UnitView, a: Entangle | Trip,
                  value: Callable[[ShotEstimate, UnitView], float], reply: float) -> tuple[float, float, str]:
    """(chance, worth on `value`'s scale, the reason) of an entangle or trip; `reply`: the enemy's next action on
    that scale (`melee_options.enemy_harm`, or its material)."""
    t = view.unit(a.target)
    p = grapple_chance(view, me, t, a.weapon)
    if isinstance(a, Trip):
        gain = trip_gain(view, me, t, value)
        return p, p * (gain + HELD_SHARE * reply), f"downs {t.name}: friends strike at +2, it rises or fights at −2"
    weapon = mm.weapon_of(me, a.weapon)
    col, row = t.trait("strength")
    free = pool_hit_chance(col, row, weapon.entangle, wound_penalty(t.wounds), False)
    lost = 0.0
    if me.melee is not None and len(me.melee.carried) <= 1:  # the weapon stays on the target: fists after
        with_it, _ = mm.best_blow(view, me, t)
        lost = max(0.0, value(with_it, t) - value(mm.blow_estimate(view, me, t, "fists"), t))
    why = f"holds {t.name} in place: it breaks free ({free:.0%} a try) or stays"
    return p, p * HELD_SHARE * reply * min(2.0, 1 / max(free, 0.5)) - 0.5 * lost, why


def grapple_options(s: Situation, actions: list[Entangle | Trip], blows: dict[str, float],
                    stay: Callable[[Option], Option]) -> list[Option]:
    """The best entangle or trip at each enemy, when it beats the best blow at it (`blows`: target -> harm)."""
    from skirmish.ai.utility.melee_options import enemy_harm, threat_of

    view, me = s.view, s.me
    best: dict[str, tuple[float, Option]] = {}
    for a in actions:
        t = view.unit(a.target)
        reply = enemy_harm(view, t, me)
        p, worth, why = grapple_worth(view, me, a, lambda e, _u: raw_harm(e), reply)
        blow = blows.get(t.name, 0.0)
        if worth <= blow or worth < 0.02 or (t.name in best and best[t.name][0] >= worth):
            continue  # never when a blow is better
        wname = mm.weapon_of(me, a.weapon).name
        o = Option(f"{a.verb} {t.name} with {wname}", a, (a.verb, t.name))
        o.add(f"wins the contest: {why}", p, _WIN)
        o.add("expected harm", min(1.0, worth), HARM)
        o.add("target threat", threat_of(s, t), _THREAT)
        o.add("beats the blow", 1.0 if blow <= 0 else min(1.0, worth / blow - 1), _BEATS)
        from skirmish.ai.search.model import material

        o.attack_material = grapple_material(view, me, a, material)  # on the material scale (material_pick)
        best[t.name] = (worth, stay(o))
    return [o for _, o in best.values()]


def grapple_material(view: BattleView, me: UnitView, a: Entangle | Trip,
                     material: Callable[[ShotEstimate, UnitView], float]) -> float:
    """An entangle's or trip's worth on the search tier's material scale (`melee_options.melee_exchange`)."""
    from skirmish.ai.utility.melee_options import _reply

    t = view.unit(a.target)
    return max(0.0, grapple_worth(view, me, a, material, material(_reply(view, t, me), me))[1])
