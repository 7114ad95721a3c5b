"""Future Imperfect's round under `initiative: cards` as a table (R-5.8): mind → hand → step 14 → continuing 14 → …
→ step 0 → continuing 0 → bookkeeping.

The hand row asks every unit in action (a `declare` request: answered with `hand …`, or a plain declaration,
which keeps the default hand); a unit holding a reserve is asked before it draws (it may forgo the draw) and
again after. Each step row tests the rushes planned for it, then asks the units with a card there (`act`
requests, one card one action); the continuing row after it counts aim steps (and is where continuing actions
such as covering fire and driving go). Selected by `FiSystems.round_table` when the option is set; the phase
table (`table.py`) is untouched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.core.events import RoundEvent, TurnEvent
from skirmish.core.flow import RoundTable, Step
from skirmish.ecs.components import Declared, Health, Identity
from skirmish.ecs.systems.fi import delay
from skirmish.ecs.systems.fi.table import MAX_ACTIONS_PER_TURN
from skirmish.rules.fi.hand import STEPS

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi import FiSystems


def cards_table(sys: FiSystems) -> RoundTable:
    """The rows of one Future Imperfect round with card hands (R-5.8)."""
    w, ctx = sys.w, sys.ctx

    def active() -> list[int]:  # a surprised or catatonic unit sits the round out: no hand
        return [e for e, _ in w.units() if not w.peek(e, Health).out_of_action and sys.takes_part(e)]

    def who(eid: int) -> tuple[str, str]:
        ident = w.get(eid, Identity)
        return ident.name, ident.side

    def begin_round() -> None:
        ctx.round += 1
        ctx.phase = None
        sys.counting = False
        ctx.emit(RoundEvent(round=ctx.round, phase=None, actor=None, rules=("R-5.1", "R-5.8")))

    def start_hand(eid: int) -> bool:
        if sys.hand(eid).reserve is None:
            sys.draw_hand(eid)  # a unit holding a reserve is asked first whether it draws at all
        return True

    def count_step(step: int) -> Step:
        def begin() -> None:
            sys.call_step(step)

        def start_turn(eid: int) -> bool:
            if not sys.begin_card(eid, step):
                return False
            ctx.emit(TurnEvent(round=ctx.round, phase=None, actor=w.get(eid, Identity).name, rules=("R-5.8",),
                               declared=w.peek(eid, Declared).speed))
            return True

        return Step(f"step {step}", begin=begin, order=lambda: delay.step_turns(sys, step), kind="act", who=who,
                    start_turn=start_turn, answer=lambda e, a: delay.answer(sys, e, a), limit=MAX_ACTIONS_PER_TURN,
                    may_end=True)

    def continuing(step: int) -> Step:
        return Step(f"continuing {step}", begin=lambda: sys.continuing(step))

    def bookkeeping() -> None:
        ctx.phase = None
        sys.end_hands()
        sys.end_round()
        sys.refresh_cover()

    rows: list[Any] = [Step("mind", begin=sys.mind_round_start),  # surprise, fear and terror first
                       Step("hand", order=active, kind="declare", who=who, start_turn=start_hand, answer=sys.keep)]
    for step in STEPS:
        rows += [count_step(step), continuing(step)]
    rows.append(Step("bookkeeping", begin=bookkeeping))
    return RoundTable(begin_round, tuple(rows))
