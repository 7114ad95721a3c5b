"""The turn order as the search tier reads it (R-5.1, R-5.2): which enemies act before our unit's next turn.

Once initiative is flipped the view shows every unit's phase (an enemy's too, R-5.1) and whether it hesitates;
within a phase the order is Reflex column, then training (higher first), then the side listed first. Next
round's phases are drawn then, so the order there is a chance (`Weights.tie` in `model`).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from skirmish.ai.estimate import ShotEstimate, estimate_shot
from skirmish.ai.reach import walk_field
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
    """Where an enemy that does not see `to` from its cell would fire from after a walk toward it (R-5.6: a walk
    is its Dexterity die's sides in metres; SLOW allows a move and then attacks, R-5.4/R-5.5): of the cells its
    walk reaches round walls and through the ground's move costs (`walk_field`, figures not counted), the one
    nearest `to` but not `to` itself (ties: the shorter walk, then the first in row order); None if that is its
    own cell (it gets no nearer). Whether it sees `to` from there is the shot's to say (`estimate_shot`)."""
    grid = view.grid
    try:
        walk = float(SIDES[e.trait("dexterity")[0]]) / grid.cell_m
    except KeyError:
        return None
    if math.hypot(to[0] - e.cell[0], to[1] - e.cell[1]) <= 1:
        return None
    # A function of the map, the enemy's cell, its walk and `to` alone: kept with the map (the search weighs the
    # same enemies against the same cells for every candidate), and the cells its walk reaches kept per walk.
    kept: dict[tuple[Cell, float, Cell], Cell | None] = grid.kept.setdefault("ai_closing_cells", {})
    key = (e.cell, walk, to)
    if key in kept:
        return kept[key]
    walks: dict[tuple[Cell, float], tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]] = \
        grid.kept.setdefault("ai_closing_walks", {})
    got = walks.get((e.cell, walk))
    if got is None:
        field = walk_field(grid, e.cell)
        ys, xs = np.nonzero(field <= walk)
        if len(walks) >= CLOSING_KEPT:
            walks.clear()
        got = walks[(e.cell, walk)] = (ys, xs, field[ys, xs])
    ys, xs, cost = got
    near = np.hypot(xs - to[0], ys - to[1])
    near[(xs == to[0]) & (ys == to[1])] = np.inf
    best = np.lexsort((cost, near))[0]  # nearest, then the shorter walk; row order breaks the rest
    at: Cell | None = (int(xs[best]), int(ys[best]))
    if at == e.cell or not math.isfinite(near[best]):
        at = None
    if len(kept) >= CLOSING_KEPT * 16:
        kept.clear()
    kept[key] = at
    return at


CLOSING_KEPT = 1024  # walks (and 16 times as many answers) `closing_cell` keeps per map before it starts again


def closing_shot(view: BattleView, e: UnitView, target: UnitView) -> ShotEstimate | None:
    """The enemy's prepared shot (its smallest burst) at `target` from `closing_cell`, after its walk (R-5.4,
    R-6.1), or None when there is no such cell (a shot from there that does not see `target` has no odds)."""
    at = closing_cell(view, e, target.cell)
    if at is None:
        return None
    w = e.weapon
    burst = min(w.bursts) if w is not None and w.bursts else 0
    return estimate_shot(view, e, target, mode="prepared", burst=burst, moved="walked", at=at)
