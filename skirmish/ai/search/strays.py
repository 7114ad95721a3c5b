"""The rounds a shot sends past its target, as the search tier weighs them (R-6.11, unintended targets).

Before the draw the figures within 1 m of the line of fire (2 m for a `suppression` weapon) are listed, nearest
the firer first (`rulesets.fi.unintended.candidates`, the rules' own list); after it every missed round strikes
the first listed figure whose box on the card's strip is crossed and which no earlier round struck, friend or
foe. A strip box is crossed on 16 of the deck's 54 cards (and rolled so in dice mode, R-4.10), so a figure in
place i of the list is struck by m missed rounds when its box is crossed and fewer than m boxes before it are.

`stray_material` is the expected material those rounds take: enemies struck count for us (as surely as the view
places them), our own count against us at `Weights.friendly` (firing past a friend costs more than it gains).
The missed rounds are all of them on a miss, and half a burst's on a hit (the burst field is not known before the
draw). A struck figure takes one round as a shot from the firer would (its cover and armour; no bumps).
"""

from __future__ import annotations

from math import comb

from skirmish.ai.estimate import estimate_shot
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rulesets.fi import unintended as ui

CROSSED = 16 / 54  # the chance a strip box is crossed (rules/deck.py, rules/randomizer.py)


def struck_chance(place: int, missed: int, p: float = CROSSED) -> float:
    """The chance the figure in `place` (0: nearest the firer) of the list is struck by `missed` rounds: its box
    crossed, and fewer than `missed` of the boxes before it crossed (each such box takes a round first)."""
    if missed <= 0:
        return 0.0
    before = sum(comb(place, k) * p ** k * (1 - p) ** (place - k) for k in range(min(missed, place + 1)))
    return p * before


def stray_material(view: BattleView, me: UnitView, target: UnitView, mode: str, burst: int, hit: float,
                   friendly: float, present: dict[str, float]) -> float:
    """The expected material of the rounds of one shot at `target` that miss it (R-6.11): enemies on the line
    struck, less `friendly` times our own struck. 0 when nobody else stands within the line's width."""
    w = me.weapon
    if w is None:
        return 0.0
    others = [u for u in view.units if not u.out_of_action and u.name not in (me.name, target.name)
              and (u.side == me.side or present.get(u.name, 0.0) > 0)]
    if not others:
        return 0.0
    listed = ui.candidates(view.grid, me.cell, target.cell, [ui.Figure(u.name, u.cell) for u in others], w)
    if not listed:
        return 0.0
    from skirmish.ai.search.model import material  # (model imports this module)

    by_name = {u.name: u for u in others}
    fired = max(1, burst)
    outcomes = ((1 - hit, fired), (hit, fired // 2))  # a miss: every round; a hit: half a burst's, none of one
    total = 0.0
    for place, fig in enumerate(listed):
        u = by_name[fig.name]
        chance = sum(p * struck_chance(place, m) for p, m in outcomes if p > 0)
        if chance <= 0:
            continue
        one = estimate_shot(view, me, u, mode=mode, burst=0)  # a round as it reaches that figure (cover, armour)
        if one.hit <= 0:
            continue
        harm = chance * material(one, u) / one.hit  # the harm of a round that strikes it
        total += -friendly * harm if u.side == me.side else present.get(u.name, 0.0) * harm
    return total
