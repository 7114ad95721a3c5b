"""Future Imperfect systems: which waiting units a mover's step sets off, the Reflex contest, and damage held while
two actions are simultaneous (R-5.7; the trigger words are `skirmish.rules.fi.waiting`).

Functions over the systems (`sys`), called from movement (`FiMovement.walk_path`) and the turn order (`delay.py`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from skirmish.ecs.components import Identity, Profile, Status
from skirmish.rules import geometry as geo
from skirmish.rules.fi import waiting as wt

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.movement import FiMovement


def trigger_of(sys: FiMovement, eid: int) -> wt.Trigger | None:
    """The trigger the unit waits for, parsed (None when not waiting)."""
    text = sys.w.peek(eid, Status).waiting
    if not text:
        return None
    return wt.parse(text)


def set_off(sys: FiMovement, waiter: int, trig: wt.Trigger, mover: int, to: geo.Cell | None) -> bool:
    """True when the mover sets off the waiter's move trigger (R-5.7): `to` is the cell its step reached, None as the
    move begins (only `enemy_moves` is set off then: the waiter fires at it where it stood). Every trigger but
    `enemy_enters` needs the waiter to see the mover."""
    if to is None or trig.kind == "enemy_moves":
        return to is None and trig.kind == "enemy_moves" and sys.sight(waiter, mover).visible
    if trig.kind == "enemy_enters":
        return tuple(to) == trig.cell
    seen = sys.sight(waiter, mover).visible
    if trig.kind == "enemy_in_view":
        return seen
    if trig.kind == "enemy_in_range":
        wpn = sys.weapon(waiter)
        if wpn is None or not seen:
            return False
        dist = geo.distance_m(sys.w.cell(waiter), to, sys.ctx.grid.cell_m)
        return wt.in_range_increment(dist, wpn[0].range_inc_m)
    return False


def watchers(sys: FiMovement, mover: int) -> list[tuple[int, wt.Trigger]]:
    """The enemies of the mover in action that wait for a move trigger, in entity order."""
    side = sys.w.peek(mover, Identity).side_index
    out = []
    for eid, _ in sys.status_marks()[0]:  # the units with a wait, in scenario order
        if sys.w.peek(eid, Identity).side_index == side or not sys.active(eid):
            continue
        trig = trigger_of(sys, eid)
        if trig is not None and trig.on_move:
            out.append((eid, trig))
    return out


def reflex_contest(sys: FiMovement, waiter: int, other: int, *, preempt: bool = False) -> dict[str, Any]:
    """The Reflex contest between a waiter and the other combatant (R-5.7, R-3.8): each reads Reflexes on its own
    draw with wounds (a pre-emption −2 to the waiter); the fields of the `trigger` event, and who goes first."""
    r = sys.ctx.randomizer
    draw_w, draw_o = r.draw(), r.draw()
    pw = sys.w.get(waiter, Profile).traits["reflexes"]
    po = sys.w.get(other, Profile).traits["reflexes"]
    mw = sum(m.value for m in sys.wound_mod(waiter)) + (wt.PREEMPT_MOD if preempt else 0)
    mo = sum(m.value for m in sys.wound_mod(other))
    chips = sys.ctx.chips
    rw = draw_w.check(pw[0], pw[1], 0, 0)  # both cards read as they are, in one order, chips or not
    ro = draw_o.check(po[0], po[1], 0, 0)
    if chips is not None:  # a chip may turn the contest; the other's first, then the waiter's against it
        draw_o = chips.check_draw(sys, other, draw_o, kind="contest", kept=ro)
        ro = draw_o.check(po[0], po[1], 0, mo)
        beat = 0 if ro.cf else ro.result + mo
        draw_w = chips.check_draw(sys, waiter, draw_w, kind="contest", kept=rw)
        rw = draw_w.check(pw[0], pw[1], beat + 1, mw)
    tw = 0 if rw.cf else rw.result + mw
    to = 0 if ro.cf else ro.result + mo
    first, simultaneous = wt.goes_first(tw, to, draw_w.impulse, draw_o.impulse, preempt=preempt)
    if sys.ctx.chips is not None:
        sys.ctx.chips.flush(sys)
    return dict(waiter_result=tw, mover_result=to, waiter_first=first, simultaneous=simultaneous,
                waiter_draw=draw_w.record(), mover_draw=draw_o.record())


@contextmanager
def held_damage(sys: FiMovement) -> Iterator[None]:
    """Simultaneous actions (R-5.7: a tie): damage dealt inside waits in `sys.held` until `land_held`, after both
    acted."""
    was = sys.holding
    sys.holding = True
    try:
        yield
    finally:
        sys.holding = was


def land_held(sys: FiMovement) -> None:
    """Apply the damage held while two actions were simultaneous, in the order it was dealt (R-5.7)."""
    held, sys.held = sys.held, []
    for tgt, out in held:
        sys._apply_hits(tgt, out)
