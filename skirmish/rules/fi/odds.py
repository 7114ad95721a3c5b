"""Odds of a shot before it is taken (for the board's attack menu and the AI).

With the action deck the odds are exact over the cards that may come up: every card of the draw pile is
resolved as the top card (chains read on through a copy of the rest of the pile in a fixed order). In dice
mode a fixed number of seeded rolls estimates them. Nothing here touches a live battle (ARCHITECTURE §4).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from skirmish.rules.deck import Card, Deck
from skirmish.rules.fi.damage import after_damage
from skirmish.rules.fi.ranged import ShotSetup, TargetState, resolve_shot
from skirmish.rules.randomizer import CardDraw, DiceDraw

DICE_SAMPLES = 400  # rolls behind a dice-mode estimate (docs/RULES-NOTES.md)


@dataclass(frozen=True)
class ShotOdds:
    """What a shot is likely to do."""

    hit: float  # P(the attack check succeeds)
    damage: float  # P(at least one hit that deals wounds or CT)
    wounds: float  # expected wounds
    ct: float  # expected CT damage
    out_of_action: float  # P(the target is dead, incapacitated or knocked out afterwards)
    samples: int
    exact: bool
    ct_known: bool = True  # False: the asker's side does not know the target's CT (fog): `out_of_action` is
    # worked out on its estimate, the CT full, so it is the least it may be

    def label(self) -> str:
        """Short text for a menu line (an unknown CT: "down ≥N% (CT ?)")."""
        mark = "" if self.exact else "≈"
        down = f"down {self.out_of_action:.0%}" if self.ct_known else f"down ≥{self.out_of_action:.0%} (CT ?)"
        return f"{mark}hit {self.hit:.0%}  dmg {self.damage:.0%}  {self.wounds:.1f}W {self.ct:.1f}CT  {down}"


def shot_odds(setup: ShotSetup, target: TargetState, *, cards: Sequence[Card] | None,
              wounds: int, ct: int, seed: int = 0, ct_known: bool = True) -> ShotOdds:
    """Odds of one shot; `cards` is the pile that may be drawn (None: dice mode). The target has
    `wounds` and `ct` now (`ct_known` False: `ct` is the asker's estimate, see ShotOdds)."""
    outcomes = []
    if cards:
        pile = list(cards)
        for i, card in enumerate(pile):
            rest = pile[i + 1:] + pile[:i]
            deck = Deck([card, *rest], random.Random(seed), shuffle=False)
            draw = CardDraw(deck.draw(), deck)
            outcomes.append(resolve_shot(draw, setup, target))
        exact = True
    else:
        rng = random.Random(seed)
        outcomes = [resolve_shot(DiceDraw(rng), setup, target) for _ in range(DICE_SAMPLES)]
        exact = False
    n = len(outcomes)
    down = 0
    for o in outcomes:
        w, c, out = wounds, ct, False
        for h in o.hits:  # hit by hit, as the systems apply them; concussion saves not counted
            if h.wounds or h.ct:
                cond = after_damage(w, c, h.wounds, h.ct, h.wounds if h.location == "head" else 0)
                w, c, out = cond.wounds, cond.ct, out or cond.out_of_action
        down += out
    return ShotOdds(
        hit=sum(o.hit for o in outcomes) / n,
        damage=sum(1 for o in outcomes if o.wounds or o.ct) / n,
        wounds=sum(o.wounds for o in outcomes) / n,
        ct=sum(o.ct for o in outcomes) / n,
        out_of_action=down / n,
        samples=n,
        exact=exact,
        ct_known=ct_known,
    )
