"""The turn order as the search tier reads it (R-5.1, R-5.2): which enemies act before our unit's next turn.

Once initiative is flipped the view shows every unit's phase (an enemy's too, R-5.1) and whether it hesitates;
within a phase the order is Reflex column, then training (higher first), then the side listed first. Next
round's phases are drawn then, so the order there is a chance (`Weights.tie` in `model`).
"""

from __future__ import annotations

from skirmish.ecs.view import BattleView, UnitView
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
