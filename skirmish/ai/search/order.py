"""The turn order as the search tier reads it (R-5.1, R-5.2): which enemies act before our unit's next turn.

Once initiative is flipped the view shows every unit's phase (an enemy's too, R-5.1) and whether it hesitates;
within a phase the order is Reflex column, then training (higher first), then the side listed first. Next
round's phases are drawn then, so the order there is a chance (`Weights.tie` in `model`).
"""

from __future__ import annotations

import math

from skirmish.ai.estimate import ShotEstimate, estimate_shot
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.deck import SIDES
from skirmish.rules.geometry import Cell
from skirmish.rulesets.fi import initiative


def _order(u: UnitView) -> tuple[int, ...]:
    """A unit's place within a phase (R-5.1: Reflex column, then training, higher first, then the side listed
    first; the entity id never decides between two sides)."""
    col, tr = u.trait("reflexes")
    return initiative.order_key(col, tr, u.side_index, 0)


def turns_before(view: BattleView, me: UnitView, enemies: list[UnitView], tie: float
                 ) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """When each enemy acts, as `Replies` reads it (R-5.1, R-5.2): acting (initiative flipped, `view.phase` set),
    its turns later this round (1 in a later phase, or later within ours; 0 while it hesitates) and the chance it
    acts first next round; declaring, the chance it acts first this round. Phases to come are not known yet: an
    enemy that wins the tie within a phase acts first with chance 0.5 + `tie` / 2, else 0.5 - `tie` / 2."""
    later: dict[str, float] = {}
    nxt: dict[str, float] = {}
    first: dict[str, float] = {}
    try:
        mine = _order(me)
    except KeyError:  # no Reflexes (not an FI unit): no order to read
        return later, nxt, first
    now = view.phase
    for e in enemies:
        try:
            ahead = _order(e) < mine
        except KeyError:
            continue
        chance = 0.5 + (tie / 2 if ahead else -tie / 2)
        if now is None:
            first[e.name] = chance
            continue
        later[e.name] = float(not e.hesitating and e.phase is not None
                              and (e.phase > now or (e.phase == now and not ahead)))
        nxt[e.name] = chance
    return later, nxt, first


def closing_cell(view: BattleView, e: UnitView, to: Cell, run: bool = False) -> Cell | None:
    """Where an enemy that does not see `to` from its cell would fire from after a walk straight at it (R-5.6: a
    walk is its Dexterity die's sides in metres; SLOW allows a move and then attacks, R-5.4/R-5.5): the cell that
    far along the line (at most to the cell next to `to`), if one can stand there, else None. Whether it sees `to`
    from there is the shot's to say (`estimate_shot`). `run`: twice as far (a run, R-5.6)."""
    grid = view.grid
    try:
        walk_m = float(SIDES[e.trait("dexterity")[0]]) * (2 if run else 1)
    except KeyError:
        return None
    dx, dy = to[0] - e.cell[0], to[1] - e.cell[1]
    dist = math.hypot(dx, dy)
    if dist <= 1:
        return None
    f = min(walk_m / grid.cell_m, dist - 1) / dist  # no farther than the cell next to `to`
    at = (round(e.cell[0] + f * dx), round(e.cell[1] + f * dy))
    if at == to or not grid.passable(at):
        return None
    return at


def closing_shot(view: BattleView, e: UnitView, target: UnitView, run: bool = False) -> ShotEstimate | None:
    """The enemy's prepared shot (its smallest burst) at `target` from `closing_cell`, after its walk or run (R-5.4,
    R-6.1), or None when there is no such cell (a shot from there that does not see `target` has no odds)."""
    at = closing_cell(view, e, target.cell, run)
    if at is None:
        return None
    w = e.weapon
    burst = min(w.bursts) if w is not None and w.bursts else 0
    return estimate_shot(view, e, target, mode="prepared", burst=burst, moved="ran" if run else "walked", at=at)
