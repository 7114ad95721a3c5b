"""The utility AI's card-hand choices (R-5.8, option `initiative: cards`; issue 14 item 7). The battle lists every
`hand` answer it takes (`LegalActions.declare`): before the draw, a unit holding a reserve may forgo it; after it,
each keep of up to two cards' steps, each with each rush its Dexterity allows. Which one the AI gives, from its
declaration (NORMAL or DODGE: the only speeds cards mode reads):

- Forgo the draw (keep the reserve alone) when waiting pays: no enemy in sight and none threatens the unit's cell;
  else draw (the reserve counts among the cards).
- Keep the two cards that act soonest (the steps count down from 14) when an enemy is in sight, threatens or a
  shot is in hand; else the soonest and the latest, so one action comes late, after the enemy has shown itself.
- Rush the soonest kept card when acting first decides an exchange: an enemy threatens the unit and its best shot
  is likely to put that enemy down or hurt it badly (`RUSH_HARM`). The rush is the Dexterity check at the TN row
  shifted up one per step early, then the column left (`hand_rules.rush_shift`); a failure acts two steps after
  the card. The steps early are the ones whose expected gain (chance × steps early, less the failure's two steps)
  is best, and positive.

The choice is an Option (label, reasons) put first among the declaration options (`choose_hand`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from skirmish.ai.curves import Curve
from skirmish.ai.estimate import estimate_shot, pool_hit_chance
from skirmish.ai.utility.scoring import Option, harm, targets
from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.checks import tn
from skirmish.rulesets.fi import Hand, wound_penalty
from skirmish.rulesets.fi import hand_rules as hr

if TYPE_CHECKING:
    from skirmish.ai.utility.maps import TacticalMaps

THREATENED = 0.1  # threat at the unit's cell (chance of a hit per enemy action, roughly) above which it is pressed
RUSH_HARM = 0.35  # the harm (scoring.harm) of the best shot at which acting first decides the exchange
_CHOICE = Curve("linear", m=0.0, b=1.0)


def rush_chance(me: UnitView, steps_early: int, scope: str) -> float:
    """P(a rush `steps_early` steps early succeeds): Dexterity vs Standard at the shifted column and row (R-5.8)."""
    col, row = me.trait("dexterity")
    try:
        c, r = hr.rush_shift(col, row, steps_early)
    except hr.HandError:
        return 0.0
    return pool_hit_chance(c, r, tn("standard", scope), wound_penalty(me.wounds), False)  # type: ignore[arg-type]


def best_rush(me: UnitView, card: int, allowed: set[int], scope: str) -> tuple[int, float] | None:
    """(step to rush `card` at, its chance) with the best expected steps gained, or None when no rush gains."""
    best: tuple[float, int, float] | None = None
    for at in sorted(allowed):
        p = rush_chance(me, at - card, scope)
        gain = p * (at - card) - (1 - p) * min(hr.FAILED_RUSH_DELAY, card)
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, at, p)
    return None if best is None else (best[1], best[2])


def hand_plan(me: UnitView, hands: list[Hand], speed: str, threat: float, shot: float, in_sight: bool,
              scope: str) -> tuple[Hand, list[tuple[str, float]]] | None:
    """The hand answer among `hands` (the battle's list), with its reasons (name, input), for a unit declaring
    `speed` under `threat` at its cell with its best shot's harm `shot`; None when none is listed."""
    speed = "dodge" if speed == "dodge" else "normal"
    mine = [h for h in hands if h.speed == speed]
    if not mine:
        return None
    pressed = threat > THREATENED
    if any(h.forgo == "yes" for h in mine):  # before the draw, holding a reserve
        forgo = not pressed and not in_sight
        answer = next(h for h in mine if h.forgoes() == forgo)
        why = "waiting pays: nothing in sight, keep the reserve" if forgo else "enemy about: draw besides the reserve"
        return answer, [(why, 1.0)]
    most: Counter[int] = Counter()
    for h in mine:
        most |= Counter(h.keep_steps() or [])
    steps = sorted(most.elements(), reverse=True)  # the keepable cards' steps, soonest first
    if not steps:
        return None
    if pressed or shot > 0 or in_sight:
        keep = steps[:2]
        reasons = [("threatened or a shot in hand: keep the cards that act soonest", max(threat, shot))]
    else:
        keep = [steps[0], steps[-1]] if len(steps) > 1 else steps
        reasons = [("nothing in sight: one card soon, one late to answer the enemy", 1.0 - threat)]
    rush = ""
    if pressed and shot >= RUSH_HARM:
        top = keep[0]
        allowed = {int(at) for h in mine if h.rush and sorted(h.keep_steps() or []) == sorted(keep)
                   for card, _, at in [h.rush.partition("@")] if int(card) == top}
        got = best_rush(me, top, allowed, scope)
        if got is not None:
            rush = f"{top}@{got[0]}"
            reasons.append((f"acting first decides the exchange: rush {rush}", got[1]))
    pick = next((h for h in mine if sorted(h.keep_steps() or []) == sorted(keep) and h.rush == rush), None)
    return (pick, reasons) if pick is not None else None


def choose_hand(view: BattleView, me: UnitView, maps: TacticalMaps, legal: LegalActions,
                options: list[Option]) -> list[Option]:
    """`options` (the declaration options, best first) with the hand answer for the best one's speed first, when
    the battle lists hand answers (cards mode); unchanged otherwise."""
    hands = [a for a in legal.declare if isinstance(a, Hand)]
    if not hands or not options:
        return options
    best = options[0]
    threat = float(1 - np.exp(-maps.threat[me.cell[1], me.cell[0]]))
    seen = targets(view, me, me.cell) if me.weapon is not None and me.can_fire else []
    shot = max((harm(estimate_shot(view, me, t, mode="prepared")) for t in seen), default=0.0)
    in_sight = any(not e.ghost for e in view.enemies(me))
    plan = hand_plan(me, hands, str(getattr(best.action, "speed", "normal")), threat, shot, in_sight, view.scope)
    if plan is None:
        return options
    pick, reasons = plan
    o = Option(f"hand: {_label(pick)}", pick, ("hand",), considerations=list(best.considerations))
    for name, raw in reasons:
        o.add(name, min(1.0, max(0.0, raw)), _CHOICE)
    o.score = best.score
    return [o, *options]


def _label(h: Hand) -> str:
    if h.forgoes():
        return f"forgo the draw ({h.speed})"
    return f"keep {h.keep or 'the default'}" + (f", rush {h.rush}" if h.rush else "") + f" ({h.speed})"
