"""What a hand-to-hand action is likely to do, read from a frozen view with the melee rules' own numbers (R-7.1-R-7.6,
R-5.4), for the utility AI's melee options (`melee_options.py`) and the search tier's exchange.

A blow is worked out as the engine works it: the TN from `melee.attack_tn` (the defender's Fighting level with what
it holds, the Defense shift, a Close, an active defence standing, a dodge), the attacker's Fighting pool on
Dexterity with its wounds and the charge, ground and annoyance modifiers (`melee.result_modifiers`), and the blow
put as a shot (`melee.as_shot`: Strength in melee, R-7.3), whose hit chance is exact over the pool and whose damage
is the shot estimate's per-hit model without cover (`estimate.per_hit_now`). So a blow, a charge and a shot are on
one scale (`scoring.harm`).
"""

from __future__ import annotations

from functools import lru_cache

from skirmish.ai.estimate import ShotEstimate, per_hit_now, pool_hit_chance
from skirmish.ai.utility.scoring import harm as _harm
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.checks import Modifier, skill_pool, tn
from skirmish.rules.deck import SIDES
from skirmish.rules.dice import pool_pmf
from skirmish.rules.equipment import MeleeWeapon
from skirmish.rulesets.fi import melee as ml
from skirmish.rulesets.fi import wound_penalty

ANNOYED = -4  # an annoyed unit's next check
NO_BLOW = ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)


def weapon_of(u: UnitView, wid: str = "") -> MeleeWeapon:
    """The hand-to-hand weapon named (a carried one), or the one in hand; fists when it has none (R-7.1)."""
    mv = u.melee
    if mv is None:
        return ml.UNARMED
    wid = wid or mv.held
    return next((w for w in mv.carried if w.id == wid), ml.UNARMED)


def armed(u: UnitView) -> bool:
    """It carries a hand-to-hand weapon (fists aside)."""
    return u.melee is not None and bool(u.melee.carried)


def fighter(u: UnitView, weapon: MeleeWeapon | None = None) -> ml.Fighter:
    """What the melee rules need of a unit (as the engine's `FiMeleeBase.fighter`)."""
    return ml.Fighter(u.name, u.size, u.trait("strength"), u.trait("dexterity"), dict(u.skills),
                      weapon or weapon_of(u), bool(u.melee is not None and u.melee.down))


def closed(a: UnitView, d: UnitView, wa: MeleeWeapon | None = None) -> str | None:
    """Who is inside whose guard between attacker `a` (holding `wa`) and defender `d` (R-7.2), as the engine reads
    it: "attacker" when `a` has closed on `d`'s longer weapon, "defender" when `d` has closed on `a`'s."""
    wa, wd = wa or weapon_of(a), weapon_of(d)
    if a.melee is not None and d.name in a.melee.inside and wd.length > wa.length:
        return "attacker"
    if d.melee is not None and a.name in d.melee.inside and wa.length > wd.length:
        return "defender"
    return None


def touching(view: BattleView, a: geo.Cell, b: geo.Cell) -> bool:
    """Whether figures in cells `a` and `b` are within 1 m for hand-to-hand, as the rules read it (R-1.3,
    `melee.in_contact`): neighbouring cells that see each other, so not diagonally across a closed wall corner."""
    return ml.in_contact(view.grid, a, b)


def held(view: BattleView, u: UnitView) -> str | None:
    """Why a unit may not move now (None: it may), as the engine's `held_reason` (R-7.2, R-7.6): entangled, down
    after a trip, or closed on by an enemy in contact (`touching`) inside its longer weapon."""
    mv = u.melee
    if mv is None:
        return None
    if mv.entangled_by is not None:
        return "entangled"
    if mv.down:
        return "down"
    for e in view.enemies(u):
        # (closed on only by an enemy that has `u` inside its guard: asked first, as most enemies have nobody there)
        if not e.ghost and not e.out_of_action and e.melee is not None and u.name in e.melee.inside \
                and touching(view, u.cell, e.cell) and closed(u, e) == "defender":
            return "closed on"
    return None


def engaged(view: BattleView, u: UnitView, at: geo.Cell | None = None) -> list[UnitView]:
    """The enemies in action within 1 m of `at` (the unit's cell): those it is engaged with (R-1.3, `touching`)."""
    here = at or u.cell
    return [e for e in view.enemies(u) if not e.ghost and not e.out_of_action and touching(view, here, e.cell)]


def blow_tn(view: BattleView, me: UnitView, t: UnitView, weapon: MeleeWeapon, *, close: str | None = "view",
            defence: int | None = -1) -> int:
    """The TN of a hand-to-hand roll by `me` holding `weapon` against `t` (R-7.1, R-7.2, R-7.5, R-5.4). `close`:
    the guard as the view shows it, or as given; `defence`: `t`'s active defence standing (-1: the view's)."""
    dodging = t.declared == "dodge" and view.round > 0
    return ml.attack_tn(fighter(me, weapon), fighter(t), closed=closed(me, t, weapon) if close == "view" else close,
                        defence=(t.melee.defence if t.melee is not None else None) if defence == -1 else defence,
                        dodge=t.skill("dodge") if dodging else 0,
                        base=tn("standard", view.scope))[0]  # type: ignore[arg-type]


def blow_estimate(view: BattleView, me: UnitView, t: UnitView, wid: str = "", *, charge: bool = False,
                  lethal: str = "", close: str | None = "view", defence: int | None = -1) -> ShotEstimate:
    """Chance to hit, chance of damage, expected wounds and CT, and the chance `t` is out of action after one blow
    (R-7.1-R-7.4; a charge's −2, R-5.4), as the engine's `melee_setup` works the numbers out."""
    weapon = weapon_of(me, wid)
    if weapon.id != wid and wid and wid != "fists":
        return NO_BLOW
    try:
        lethal_blow = ml.lethal_choice(weapon, lethal or None)
    except ValueError:
        return NO_BLOW
    guard = closed(me, t, weapon) if close == "view" else close
    target_tn = blow_tn(view, me, t, weapon, close=guard, defence=defence)
    a, d = fighter(me, weapon), fighter(t)
    pool = skill_pool(me.trait("dexterity"), dict(me.skills), weapon.skill)
    mods: list[Modifier] = [*pool.modifiers, *ml.result_modifiers(a, d, charge=charge)]
    mod = sum(m.value for m in mods) + wound_penalty(me.wounds) + (ANNOYED if "annoyed" in me.mind else 0)
    setup, _ = ml.as_shot(a, pool.row, pool.column, pool.halve, target_tn, [], mods, lethal=lethal_blow,
                          strength_ok=guard != "defender")
    hit = pool_hit_chance(pool.column, pool.row, target_tn, mod, pool.halve)
    if hit <= 0:
        return ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, target_tn, mod)
    dmg_p, wounds, ct, kill = per_hit_now(setup.weapon, t, "none", 0, False, 1.0)
    if not lethal_blow:  # never kills outright (held one short of death: only incapacitation is left)
        kill = min(kill, 1.0 if t.wounds + wounds >= 4 else kill * 0.5)
    return ShotEstimate(hit, hit * dmg_p, hit * wounds, hit * ct, hit * kill, target_tn, mod)


def best_blow(view: BattleView, me: UnitView, t: UnitView, *, charge: bool = False) -> tuple[ShotEstimate, str]:
    """The best blow `me` could strike at `t` with what it carries or its fists (its estimate, the weapon's id)."""
    best, wid = NO_BLOW, ""
    mv = me.melee
    for w in [*(mv.carried if mv is not None else ()), ml.UNARMED]:
        est = blow_estimate(view, me, t, w.id, charge=charge)
        if _harm(est) > _harm(best):
            best, wid = est, w.id
    return best, wid


def melee_threat(view: BattleView, e: UnitView, me: UnitView) -> float:
    """How much harm an enemy's next blow would do to `me` (the harm scale), if it is engaged with `me` or could
    charge it (a run away); 0 for one that has no blow worth the name (a gun and fists stay at range)."""
    if e.ghost or e.out_of_action or e.melee is None:
        return 0.0
    run = 2 * SIDES[e.trait("dexterity")[0]]
    dist = geo.distance_m(e.cell, me.cell, view.grid.cell_m)
    near = touching(view, e.cell, me.cell)
    if not near and (not armed(e) or dist > run + view.grid.cell_m):
        return 0.0
    est, _ = best_blow(view, e, me, charge=not near)
    return _harm(est)


@lru_cache(maxsize=1024)
def check_pmf(column: str, row: int, want: int) -> tuple[tuple[int, float], ...]:
    """A pool's read distribution (CF as 0), rerolling toward `want` (R-3.4), kept."""
    return pool_pmf(SIDES[column], row, want)


def defence_result(me: UnitView, skill: str, stepped: bool) -> tuple[tuple[int, float], ...]:
    """The distribution of an active defence's result (R-7.5): Fighting with the weapon in hand on Dexterity, or
    Dodge on Reflexes; its wounds; −4 without a step of at least 1 m."""
    if skill == "fighting":
        pool = skill_pool(me.trait("dexterity"), dict(me.skills), weapon_of(me).skill)
    else:
        pool = skill_pool(me.trait("reflexes"), dict(me.skills), "dodge")
    mod = sum(m.value for m in pool.modifiers) + wound_penalty(me.wounds) + \
        sum(m.value for m in ml.defence_modifiers(stepped))
    out: dict[int, float] = {}
    for v, p in check_pmf(pool.column, pool.row, 99):
        total = 0 if v <= 0 else (v // 2 if pool.halve else v) + mod
        out[total] = out.get(total, 0.0) + p
    return tuple(sorted(out.items()))


def defended_harm(view: BattleView, me: UnitView, skill: str, stepped: bool) -> tuple[float, float]:
    """The harm the enemies engaged with `me` would do with one blow each, now and against this active defence
    (R-7.5: their TN becomes the greater of the normal TN and the defence's result)."""
    dist = defence_result(me, skill, stepped)
    now = after = 0.0
    for e in engaged(view, me):
        if e.melee is None:
            continue
        est, wid = best_blow(view, e, me)
        if est.hit <= 0:
            continue
        h = _harm(est)
        now += h
        pool = skill_pool(e.trait("dexterity"), dict(e.skills), weapon_of(e, wid).skill)
        for total, p in dist:  # a hit's damage does not read the TN: the harm scales with the chance to hit
            tn_now = max(est.tn, total)
            after += p * h * (1.0 if tn_now == est.tn else
                              pool_hit_chance(pool.column, pool.row, tn_now, est.modifier, pool.halve) / est.hit)
    return now, after
