"""Future Imperfect's round as a table (R-5.1): mind → declaration → initiative → phases I–IV → bookkeeping.

The `mind` row comes first: surprised units check their Bravery and units that see a fearsome enemy test (R-8.3,
R-8.4); a unit that sits the round out (surprised, catatonic) is neither asked to declare nor turns initiative.

The rows are data for `skirmish.core.flow.walk`; what each row does is a method of the systems. The units
that turned initiative are the ones asked in the phases (a unit put out of action before its turn is
skipped); the battle may end after any turn in a phase and after each round. Units waiting for a turn trigger
(`acts:`, `preempt:`, `later`, R-5.7) are put round the turns they wait for (`delay.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.core.events import make_from
from skirmish.core.flow import RoundTable, Step
from skirmish.ecs.components import Declared, Health, Identity
from skirmish.ecs.systems.fi import delay
from skirmish.rules.fi.initiative import PHASE_NAMES, PHASES

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi import FiSystems

MAX_ACTIONS_PER_TURN = 8  # accepted actions in one turn: a guard against a controller that never ends it


def round_table(sys: FiSystems) -> RoundTable:
    """The rows of one Future Imperfect round over these systems."""
    w, ctx = sys.w, sys.ctx
    turned: list[int] = []  # who turned initiative this round: asked in the phases

    def active() -> list[int]:
        return [e for e, _ in w.units() if not w.peek(e, Health).out_of_action]

    def taking_part() -> list[int]:  # a surprised or catatonic unit sits the round out
        return [e for e in active() if sys.takes_part(e)]

    def who(eid: int) -> tuple[str, str]:
        ident = w.get(eid, Identity)
        return ident.name, ident.side

    def begin_round() -> None:
        ctx.round += 1
        ctx.phase = None
        ctx.emit(make_from("round", ctx.round, None, None, ("R-5.1",), {}))  # RoundEvent, without its __init__

    def declare(eid: int, action: Any) -> bool:
        sys.declare(eid, action)  # refused unless a declaration (declare_check)
        return True

    def initiative() -> None:
        turned[:] = taking_part()
        sys.initiative(turned)

    def phase_step(phase: int) -> Step:
        def begin() -> None:
            ctx.phase = phase

        def start_turn(eid: int) -> bool:
            if w.peek(eid, Health).out_of_action or not sys.begin_turn(eid):
                return False
            ctx.emit(make_from("turn", ctx.round, phase, w.get(eid, Identity).name, ("R-5.3",),  # a TurnEvent
                               {"declared": w.peek(eid, Declared).speed}))
            return True

        return Step(f"phase {PHASE_NAMES[phase]}", begin=begin, order=lambda: delay.phase_turns(sys, turned, phase),
                    kind="act", who=who, start_turn=start_turn, answer=lambda e, a: delay.answer(sys, e, a),
                    limit=MAX_ACTIONS_PER_TURN, may_end=True)

    def bookkeeping() -> None:
        ctx.phase = None
        sys.end_round()
        sys.refresh_cover()

    return RoundTable(begin_round, (
        Step("mind", begin=sys.mind_round_start),  # surprise, then fear and terror
        Step("declaration", order=taking_part, kind="declare", who=who, answer=declare),
        Step("initiative", begin=initiative),
        *(phase_step(p) for p in PHASES),
        Step("bookkeeping", begin=bookkeeping),
    ))
