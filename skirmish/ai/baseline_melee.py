"""The scripted baselines' minimum in melee and fear (issue 14 item 7): they hold their one plan without asking the
battle what is legal, except when the rules hold them: a unit held in melee (entangled, on the ground, closed on;
R-7.2, R-7.6) may not move, and a terrified one (R-8.4) may only move away. Then they read the battle's list."""

from __future__ import annotations

from skirmish.ai.utility.melee import engaged
from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, EndTurn, Move
from skirmish.rulesets.fi import BreakFree, MeleeAttack, Open, Rise


def flee(view: BattleView, me: UnitView, legal: LegalActions) -> Action:
    """A terrified unit (R-8.4) runs: the listed cell farthest from the nearest enemy it knows, else it ends its
    turn (the battle lists only the moves that take it farther from what it fears)."""
    enemies = [e.cell for e in view.enemies(me)]
    cells = sorted(legal.walk | legal.run)
    if not cells or not enemies:
        return EndTurn(me.name)
    best = max(cells, key=lambda c: min(geo.distance_m(c, e, view.grid.cell_m) for e in enemies))
    return Move(me.name, best)


def held_answer(view: BattleView, me: UnitView, legal: LegalActions) -> Action | None:
    """A unit held in melee answers legally: it breaks free (Strength) or rises, else strikes back at an enemy engaged
    with it with what it holds, else opens the distance; None when none of these fits now (the baseline then plays
    its turn without moving: shooting at point blank is allowed)."""
    near = [e.name for e in engaged(view, me)]
    wants: list[Action] = [BreakFree(me.name, "strength"), Rise(me.name),
                           *(MeleeAttack(me.name, n) for n in near), *(Open(me.name, n) for n in near)]
    return next((a for a in wants if legal.allows(a)), None)
