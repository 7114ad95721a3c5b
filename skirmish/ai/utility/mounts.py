"""The utility AI and mounts (R-6.1; docs/AI.md "Mounts"): a unit on foot next to a riderless mount mounts when the
ground to its goal pays for the action and for the −2 every shot takes from the saddle; a rider dismounts to fight
once the enemy is near enough that the −2 costs more than the pace gives. Both are weighed as staying where the unit
stands (the cell considerations of its cell), beside the moves and shots of the same decision."""

from __future__ import annotations

from collections.abc import Callable

from skirmish.ai.curves import Curve
from skirmish.ai.utility.scoring import Option, targets
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Aim, EndTurn, Move, Wait
from skirmish.rules.deck import SIDES
from skirmish.rulesets.fi import Dismount, Mount

__all__ = ["mount_options", "riding_walk_m", "saddle_cost", "walk_on_foot_m"]

_PAYS = Curve("logistic", k=10, c=0.35)
_SADDLE = Curve("linear", m=0.3, b=0.7)  # the −2 of every shot from the saddle: at most x0.7
_FIGHT = Curve("logistic", k=10, c=0.5)
_NO_TARGET = Curve("linear", m=0.6, b=0.4)
_STILL = Curve("linear", m=-0.4, b=1.0)  # near the fight, an option that keeps the rider up: down to x0.6


def riding_walk_m(view: BattleView, me: UnitView) -> float | None:
    """The walk in metres of the mount `me` rides (R-5.6: its run twice it), None on foot."""
    for m in view.mounts:
        if m.rider == me.name:
            return float(m.move_m)
    return None


def walk_on_foot_m(me: UnitView) -> float:
    """A figure's own walk in metres (its Dexterity die, R-5.6)."""
    col, _ = me.trait("dexterity")
    return float(SIDES[col])


def _goal_m(view: BattleView, me: UnitView, goals: tuple[geo.Cell, ...]) -> float | None:
    """How far the nearest enemy the view holds is, else the nearest goal of the side's intent (metres)."""
    cells = [e.cell for e in view.enemies(me)] or list(goals)
    if not cells:
        return None
    return min(geo.distance_m(me.cell, c, view.grid.cell_m) for c in cells)


def mount_options(view: BattleView, me: UnitView, listed: tuple[object, ...], goals: tuple[geo.Cell, ...],
                  stay: Callable[[Option], Option]) -> list[Option]:
    """Mounting each listed mount where the mount saves more than the action it costs, or dismounting to the listed
    cell the enemy sees least of, scored."""
    if not listed:
        return []
    far = _goal_m(view, me, goals)
    if far is None:
        return []
    w = me.weapon
    fight_m = 1.5 * w.range_inc_m if w is not None else 4.0  # where shots are worth taking at full skill
    in_view = bool(targets(view, me, me.cell))
    out: list[Option] = []
    mounts = [a for a in listed if isinstance(a, Mount)]
    if mounts:
        foot = 2 * walk_on_foot_m(me)  # a run a turn
        by_name = {m.name: m for m in view.mounts}
        for a in mounts:
            m = by_name.get(a.mount)
            if m is None:
                continue
            ground = max(0.0, far - fight_m)  # what is left to cover before the fight
            saved = ground / foot - ground / (2 * m.move_m)  # turns the mount saves on it
            if saved <= 1:  # not even the action mounting costs: not an option (nor a dismount's undoing)
                continue
            o = Option(f"mount {m.name}", a, ("mount", m.name))
            o.add("ground the mount saves", min(1.0, max(0.0, (saved - 1) / 3)), _PAYS)
            o.add("shots at -2 from the saddle", 1.0, _SADDLE)
            o.add("no target in view now", 0.0 if in_view else 1.0, _NO_TARGET)
            out.append(stay(o))
        return out
    dismounts = [a for a in listed if isinstance(a, Dismount) and a.to is not None]
    if not dismounts:
        return []
    enemies = view.enemies(me)

    def exposed(a: Dismount) -> float:  # how many enemies see the cell stepped to (then its place in the list)
        assert a.to is not None
        cell = (int(a.to[0]), int(a.to[1]))
        return sum(1 for e in enemies if geo.unit_sight(view.grid, e.cell, cell, False, True).visible)

    best = min(dismounts, key=exposed)
    o = Option("dismount to fight", best, ("dismount",))
    near = min(1.0, max(0.0, 1 - (far - fight_m) / max(1.0, fight_m)))
    o.add("enemy near enough to fight", near, _FIGHT)
    o.add("the -2 shed", 1.0, Curve("linear"))
    out.append(stay(o))
    return out


def saddle_cost(options: list[Option], view: BattleView, me: UnitView, goals: tuple[geo.Cell, ...]) -> None:
    """A rider near the fight: what it does without a shot (moves, waits, aims, the end of its turn) keeps it in the
    saddle, where every later shot takes −2 (R-6.1); those options take that as a consideration. Shots already
    read the −2 in their hit chance."""
    far = _goal_m(view, me, goals)
    if far is None or riding_walk_m(view, me) is None:
        return
    w = me.weapon
    fight_m = 1.5 * w.range_inc_m if w is not None else 4.0
    near = min(1.0, max(0.0, 1 - (far - fight_m) / max(1.0, fight_m)))
    for o in options:
        if isinstance(o.action, Move | Wait | EndTurn | Aim):
            o.add("still in the saddle near the fight", near, _STILL)
