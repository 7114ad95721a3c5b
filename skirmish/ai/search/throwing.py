"""A throw or a launch as the search tier weighs it (R-6.9, R-6.10): the chance the burst lands on the aimed cell times the harm
of the weapon's damage dice on everyone the blast reaches there, our own side's counted against it."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from skirmish.ai.blast import armoured
from skirmish.ai.estimate import effect_pmf, firer_mounted, throw_chance
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Launch, Throw
from skirmish.rules.checks import skill_pool, tn
from skirmish.rules.deck import SIDES
from skirmish.rules.dice import pool_pmf
from skirmish.rules.equipment import Weapon
from skirmish.rulesets.fi import INCAPACITATED_AT, MOUNTED_MOD, hand_penalty
from skirmish.rulesets.fi import thrown as thr

if TYPE_CHECKING:
    from skirmish.ai.search.model import Weights

WOUND = 1 / INCAPACITATED_AT  # an expected wound, in units put out of action


def throw_material(view: BattleView, me: UnitView, action: Throw, w: Weights,
                   present: dict[str, float]) -> tuple[float, dict[str, float]]:
    """A throw's expected material net of our own caught in it (R-6.9, R-6.10), and each enemy's chance to
    be put out of action by it: the chance the burst lands on the aimed cell times the harm of the weapon's
    damage dice on everyone it reaches there (explosives take no location rows, R-6.8; worn armour is not
    counted, so the harm is an upper bound; a concussion blast deals CT only, R-6.9, and puts out of action
    whoever it takes to CT 0, R-8.1)."""
    weapon = next((wp for wp, n in me.throwables if wp.id == action.item and n > 0), None)
    if weapon is None and me.throwables and not action.item:
        weapon = me.throwables[0][0]
    if weapon is None:
        return 0.0, {}
    p = throw_chance(me, weapon, geo.distance_m(me.cell, action.at, view.grid.cell_m), view.scope,
                     firer_mounted(view, me))
    return _burst_material(view, me, weapon, action.at, p, w, present)


def launch_material(view: BattleView, me: UnitView, action: Launch, w: Weights,
                    present: dict[str, float]) -> tuple[float, dict[str, float]]:
    """A launch's material as a throw's (`throw_material`), the launcher in the hand `action` names (R-6.10,
    R-6.12): the chance its burst covers the aimed cell is a shot's TN by range increments on the launcher's skill
    pool, a miss scattering the card's launched multiplier x margin (`launch_chance`)."""
    weapon = me.off_hand if action.hand == "off" else me.weapon
    if weapon is None or not weapon.launched:
        return 0.0, {}
    p = launch_chance(me, weapon, geo.distance_m(me.cell, action.at, view.grid.cell_m), view.scope,
                      action.hand == "off", firer_mounted(view, me))
    return _burst_material(view, me, weapon, action.at, p, w, present)


def launch_chance(me: UnitView, weapon: Weapon, dist: float, scope: str, off: bool, mounted: bool = False) -> float:
    """Chance a launch's burst still covers the aimed cell (R-6.10): on target, or scattered (launched multiplier
    x margin) no farther than its radius; the firer's wounds, its move this turn, two weapons' penalties
    (R-6.12, `off`: the other hand's) and the saddle's (R-6.1, `mounted`) counted."""
    from skirmish.ai.blast import MOVED_MODIFIER
    from skirmish.ai.utility.ranged_extra import launched_p

    target = tn("standard", scope) + math.floor(dist / weapon.range_inc_m + 1e-9)  # type: ignore[arg-type]
    pool = skill_pool(me.trait("dexterity"), dict(me.skills), weapon.skill)
    mod = (sum(m.value for m in pool.modifiers) - min(3, me.wounds) + MOVED_MODIFIER.get(me.moved, 0)
           + (hand_penalty(weapon, off) if me.off_hand is not None else 0) + (MOUNTED_MOD if mounted else 0))
    total = 0.0
    for v, p in pool_pmf(SIDES[pool.column], pool.row, target - mod):
        if v <= 0:
            continue  # a CF scatters from the firer
        margin = target - ((v // 2 if pool.halve else v) + mod)
        total += p if margin <= 0 else p * sum(q for mult, q in launched_p() if mult * margin <= weapon.blast_m)
    return total


def _burst_material(view: BattleView, me: UnitView, weapon: Weapon, at: geo.Cell, p: float, w: Weights,
                    present: dict[str, float]) -> tuple[float, dict[str, float]]:
    """The material of a burst at `at` that covers it with chance `p` (see `throw_material`)."""
    grid = view.grid
    total, kills = 0.0, {}
    for u in view.units:
        if u.out_of_action:
            continue
        column = thr.in_blast(grid, weapon, at, u.cell, armoured=armoured(u))  # AV left
        if column is None:
            continue
        pmf = effect_pmf(SIDES[column], max(1, weapon.damage.row))
        d = np.arange(len(pmf))
        size = max(1, u.size)
        if weapon.weapon_class == "stun":
            wounds, kill = 0.0, float(pmf[d >= max(1, u.ct)].sum())
        else:
            wounds = float((pmf * (d // size)).sum())
            kill = float(pmf[(u.wounds + d // size) >= INCAPACITATED_AT].sum())
        value = p * (kill + WOUND * (1 - kill) * min(float(max(0, INCAPACITATED_AT - 1 - u.wounds)), wounds))
        if u.side == me.side:
            total -= w.friendly * value
        else:
            there = present.get(u.name, 0.0)  # a ghost caught in the burst counts as surely as it is there
            total += value * there
            kills[u.name] = p * kill * there
    return total, kills
