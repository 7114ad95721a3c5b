"""Future*World's part of a battle's summary (skirmish/summary.py asks a ruleset for its `summary_tally` hook by
the name the battle-start event gives): each fw event read into plain notes the summary keeps, so the
summary names no fw event.

A note is a tuple:
- `("figure", name)`: a figure that takes part (it declared, R-9.2);
- `("attack", actor, [(figure, HP through), ...])`: one attack (a shot, a strike, a launch or a grenade's
  blast, friends too), a hit on every figure it took HP from (R-9.6);
- `("moment", text, weight)`: a telling moment of the round;
- `("fate", figure, state, announce)`: the figure is now `standing`, `unconscious` or `dead` (R-9.7);
  `announce`: a fall to be counted to whoever last harmed it and told as a moment.
"""

from __future__ import annotations

from typing import Any

from skirmish.core.events import Event
from skirmish.rules.fw.events import (
    FwAidEvent,
    FwAttackEvent,
    FwBleedEvent,
    FwDeclareEvent,
    FwThrowEvent,
    FwWoundEvent,
)

Note = tuple[Any, ...]
BIG_HIT = 10  # HP through in one attack that makes a telling moment


def summary_tally(e: Event) -> list[Note]:
    """The notes of one event (none for an event the summary does not count)."""
    if isinstance(e, FwDeclareEvent):
        return [("figure", e.actor)]
    if isinstance(e, FwAttackEvent):
        through = sum(h["through"] for h in e.damage) if e.hit else 0
        notes: list[Note] = [("attack", e.actor, [(e.target, through)])]
        if through >= BIG_HIT:
            notes.append(("moment", f"{e.actor} hits {e.target} for {through} HP", 1.0 + through / 10))
        return notes
    if isinstance(e, FwThrowEvent):  # a grenade: one throw; every figure its blast hurt, friends too
        return [("attack", e.actor, [(c["figure"], c["through"]) for c in e.caught])]
    if isinstance(e, (FwWoundEvent, FwBleedEvent)) and e.condition in ("unconscious", "dead"):
        return [("fate", e.actor, e.condition, True)]
    if isinstance(e, FwAidEvent):
        return [("fate", e.patient, "dead" if e.killed else ("standing" if e.hp_after > 0 else "unconscious"), False)]
    return []
