"""A throw as the search tier weighs it (R-6.9, R-6.10): the chance the burst lands on the aimed cell times the harm
of the weapon's damage dice on everyone the blast reaches there, our own side's counted against it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from skirmish.ai.blast import armoured
from skirmish.ai.estimate import effect_pmf, throw_chance
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Throw
from skirmish.rules.deck import SIDES
from skirmish.rulesets.fi import INCAPACITATED_AT
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
    grid = view.grid
    p = throw_chance(me, weapon, geo.distance_m(me.cell, action.at, grid.cell_m), view.scope)
    total, kills = 0.0, {}
    for u in view.units:
        if u.out_of_action:
            continue
        column = thr.in_blast(grid, weapon, action.at, u.cell, armoured=armoured(u))  # AV left
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
