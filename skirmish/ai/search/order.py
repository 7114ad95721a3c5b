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


def turns_before(view: BattleView, me: UnitView, enemies: list[UnitView], tie: float) -> dict[str, float]:
    """How many turns each enemy takes before our unit's next one (R-5.1, R-5.2), once initiative is flipped
    (`view.phase` set; declaring: {}, one reply each): 1 if it acts later this round (a later phase, or later
    within ours; 0 while it hesitates or once it has acted), plus the chance it acts first next round. Phases to
    come are not drawn yet: an enemy that wins the tie within a phase acts first with chance 0.5 + `tie` / 2,
    else 0.5 - `tie` / 2."""
    turns: dict[str, float] = {}
    now = view.phase
    if now is None:
        return turns
    try:
        mine = _order(me)
    except KeyError:  # no Reflexes (not an FI unit): no order to read
        return turns
    for e in enemies:
        try:
            ahead = _order(e) < mine
        except KeyError:
            continue
        later = not e.hesitating and e.phase is not None and (e.phase > now or (e.phase == now and not ahead))
        turns[e.name] = float(later) + 0.5 + (tie / 2 if ahead else -tie / 2)
    return turns


def closing_cell(view: BattleView, e: UnitView, to: Cell) -> Cell | None:
    """Where an enemy that does not see `to` from its cell would fire from after a walk straight at it (R-5.6: a
    walk is its Dexterity die's sides in metres; SLOW allows a move and then attacks, R-5.4/R-5.5): the cell that
    far along the line (at most to the cell next to `to`), if one can stand there, else None. Whether it sees `to`
    from there is the shot's to say (`estimate_shot`)."""
    grid = view.grid
    try:
        walk_m = float(SIDES[e.trait("dexterity")[0]])
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


def closing_shot(view: BattleView, e: UnitView, target: UnitView) -> ShotEstimate | None:
    """The enemy's prepared shot (its smallest burst) at `target` from `closing_cell`, after its walk (R-5.4,
    R-6.1), or None when there is no such cell (a shot from there that does not see `target` has no odds)."""
    at = closing_cell(view, e, target.cell)
    if at is None:
        return None
    w = e.weapon
    burst = min(w.bursts) if w is not None and w.bursts else 0
    return estimate_shot(view, e, target, mode="prepared", burst=burst, moved="walked", at=at)
