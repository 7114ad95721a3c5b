"""Future Imperfect systems: the turn triggers of waiting (R-5.7) in a phase's order of turns.

A phase asks its units in the R-5.1 order; around each unit's turn this puts the units waiting for it:
- `acts:NAME` — when NAME's turn comes up: an enemy's, after a Reflex contest (the winner goes first; a tie is
  simultaneous: both turns are taken, the waiter's first, and the damage of both lands after both); a friend's,
  right after it (no contest: they act together as the players arranged);
- `preempt:NAME` — the seed's pre-emption without a trigger: a Reflex contest with the waiter at −2; a win goes
  first, anything else right after NAME's turn;
- `later` — after every turn that ends, each unit waiting `later` (but one that just had a turn) is offered a turn
  of its own: it acts, or waits `later` again, or ends it (it stops waiting). A wait held at the end of the round
  carries over and declares FAST (R-5.7), as any wait does.
A waiter put out of action, or whose trigger names a unit put out of action, is not asked; nor is one waiting for an
enemy it does not see when that enemy's turn comes (the sight is checked again then, not only when the wait was
declared): it keeps waiting, and no event tells of the unseen turn (fog).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from skirmish.ecs.components import Identity, Profile, Status
from skirmish.ecs.systems.fi import mounts, triggers
from skirmish.rules.actions import Action
from skirmish.rules.fi import initiative as ini
from skirmish.rules.fi import waiting as wt

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi import FiSystems


def _key(sys: FiSystems, eid: int) -> tuple[int, ...]:
    col, tr = sys.w.get(eid, Profile).traits["reflexes"]
    return ini.order_key(col, tr, sys.w.get(eid, Identity).side_index, eid)


def _holding(sys: FiSystems) -> list[tuple[int, str]]:
    """(unit, its waiting text) of every unit with a wait (R-5.7), in scenario order (read-only;
    FiBase.status_marks)."""
    return sys.status_marks()[0]


def _waiting(sys: FiSystems, kind: str, unit: str | None = None) -> list[int]:
    """Units in action waiting for a trigger of `kind` (naming `unit`), in the R-5.1 order."""
    out = []
    for eid, text in _holding(sys):
        if not sys.active(eid) or not text.startswith(kind):
            continue
        trig = wt.parse(text)
        if trig.kind == kind and trig.unit == unit:
            out.append(eid)
    return sorted(out, key=lambda e: _key(sys, e))


def _waiting_for(sys: FiSystems, unit: str) -> tuple[list[int], list[int]]:
    """(`_waiting(sys, "preempt", unit)`, `_waiting(sys, "acts", unit)`) in one look over the units."""
    pre: list[int] = []
    acts: list[int] = []
    for eid, text in _holding(sys):
        if not (text.startswith("preempt") or text.startswith("acts")) or not sys.active(eid):
            continue
        trig = wt.parse(text)
        if trig.unit == unit:
            if trig.kind == "preempt":
                pre.append(eid)
            elif trig.kind == "acts":
                acts.append(eid)
    key = lambda e: _key(sys, e)  # noqa: E731
    return sorted(pre, key=key), sorted(acts, key=key)


def phase_turns(sys: FiSystems, turned: list[int], phase: int) -> Iterator[int]:
    """The units asked in a phase, in order, with the waiters for turn triggers and `later` put round them."""
    for eid in sys.phase_order(turned, phase):
        yield from around(sys, eid)


def step_turns(sys: FiSystems, step: int) -> Iterator[int]:
    """Card hands (R-5.8): the units with a card at this step, in order, with the reserves waiting for a turn's
    trigger (`acts:`, `preempt:`) or `later` put round them as above; each such waiter plays its reserve card
    (`sys.reserve_turns`: `begin_card` starts its turn on the reserve)."""
    for eid in sys.step_order(step):
        for who in around(sys, eid):
            if who != eid:
                sys.reserve_turns.add(who)
            yield who


def around(sys: FiSystems, eid: int) -> Iterator[int]:
    """`eid`'s turn with the units waiting for it before and after it, then the `later` waiters offered."""
    if not _holding(sys):  # nobody waits (most turns): no waiter to put round it, none to offer a turn after it
        yield eid
        land_tie(sys)
        if _holding(sys):  # a wait made in its turn: `later` waiters are offered a turn (as below)
            yield from offer_later(sys, {eid})
        return
    name = sys.name(eid)
    before: list[int] = []
    after: list[int] = []
    tied: list[int] = []  # simultaneous with `eid` (after the outright winners): their damage and its land after
    if sys.active(eid):
        side = sys.w.peek(eid, Identity).side_index
        # Both kinds read at once: nothing below changes who waits until every contest is made (`_waiting`).
        for kind, waiters in zip(("preempt", "acts"), _waiting_for(sys, name), strict=True):
            for waiter in waiters:
                if waiter in before or waiter in tied or waiter in after:
                    continue
                if kind == "acts" and sys.w.peek(waiter, Identity).side_index == side:
                    after.append(waiter)  # a friend's turn: right after it
                    continue
                if not sys.sight(waiter, eid).visible:
                    continue  # an enemy's turn sets off only a waiter that sees it now; no event (fog), it waits on
                contest = triggers.reflex_contest(sys, waiter, eid, preempt=kind == "preempt")
                sys._event("trigger", sys.name(waiter), ("R-5.7", "R-3.8"), target=name, **contest,
                           trigger=f"{kind}:{name}")
                sys.ctx.randomizer.settle()
                (tied if contest["simultaneous"] else before if contest["waiter_first"] else after).append(waiter)
    for waiter in [*before, *tied, *after]:
        sys.w.get(waiter, Status).waiting = None  # its trigger came: this turn is its held action
    for waiter in before:  # an outright winner acts first: its damage lands at once
        if sys.active(waiter):
            yield waiter
    if tied and sys.active(eid):
        sys.holding, sys.tie_turn = True, eid  # both act; the damage lands after both (`answer`)
    for waiter in tied:
        if sys.active(waiter):
            yield waiter
    yield eid
    land_tie(sys)  # its turn did not end on an answer (lost, or the action limit): the damage lands now
    for waiter in after:
        if sys.active(waiter):
            yield waiter
    yield from offer_later(sys, {eid, *before, *tied, *after})


def offer_later(sys: FiSystems, just: set[int]) -> Iterator[int]:
    """After a turn ends, each unit waiting `later` (not one that just had a turn) is offered a turn (R-5.7)."""
    for waiter in _waiting(sys, wt.LATER):
        if waiter not in just and sys.w.peek(waiter, Status).waiting == wt.LATER and sys.active(waiter):
            sys.w.get(waiter, Status).waiting = None
            yield waiter


def land_tie(sys: FiSystems) -> None:
    """The turn simultaneous with tied waiters is over: the damage held in them lands (R-5.7)."""
    if sys.tie_turn is not None:
        sys.holding, sys.tie_turn = False, None
        triggers.land_held(sys)
        if sys.w.mounts:  # a rider the held damage put down comes off its mount (R-6.1 mounts)
            mounts.unseat_fallen(sys)


def answer(sys: FiSystems, eid: int, action: Action) -> bool:
    """A phase's answer (`sys.apply`); as the turn simultaneous with tied waiters ends, the damage held lands, so
    the battle's end check after the turn sees it (a battle it decides asks no one else)."""
    done = sys.apply(eid, action)
    if done and sys.tie_turn == eid:
        land_tie(sys)
    return done
