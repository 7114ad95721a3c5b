"""A battle record as the replay viewer walks it (`skirmish replay FILE --board`): a position on a timeline of
the record's answers, moved forward by feeding the next recorded answers to the live battle and back by
re-running the battle from its seed (record.resume), so any moment is the battle exactly as it was.

No pygame here: the viewer's rules side is testable on its own, and `skirmish bench --replay` times it.

A position is a number of answers given (0 … len(record.answers)). The viewer stops at the start of each
round (its declarations pending), before each action (an `act` answer) and at the end; stepping forward
from a round's start runs the declarations and initiative at once, as watching does.
"""

from __future__ import annotations

import bisect
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from skirmish import record
from skirmish.battle import Battle
from skirmish.content.scenario import Scenario
from skirmish.core.decision import decision_label
from skirmish.core.events import Event
from skirmish.ecs.view import BattleView


class ReplaySession:
    """One record on the replay viewer: the battle at the position shown, and the moves along the timeline."""

    def __init__(self, rec: record.Record, scenario: Scenario | None = None, *, at: int = 0,
                 checked: bool = False) -> None:
        """`scenario`: `record.scenario_of(rec)` if already made. The whole record is replayed and checked first
        (ContentError naming the record and what differs) unless `checked` says it was already."""
        self.rec = rec
        self.scenario = scenario or record.scenario_of(rec)
        if not checked:
            record.resume(rec, scenario=self.scenario).close()  # every round's hash, the end state, the result
        self.total = len(rec.answers)
        starts: dict[int, int] = {}
        for i, a in enumerate(rec.answers):
            starts.setdefault(a.round, i)
        self.round_starts: list[int] = [starts[r] for r in sorted(starts)]  # round n starts at round_starts[n-1]
        self.first_round = min(starts) if starts else 1
        acts = [i for i, a in enumerate(rec.answers) if a.request.kind == "act"]
        self.stops: list[int] = sorted({0, self.total, *self.round_starts, *acts})
        self.listener: Callable[[Event], None] | None = None  # the viewer's animations, for steps forward
        self.generation = 0  # bumped when the battle is rebuilt (the viewer drops what it derived from events)
        self._view: BattleView | None = None
        self._reasons: tuple[tuple[int, int] | None, dict[str, str]] = (None, {})
        self.battle = self._build(max(0, min(at, self.total)))

    # ------------------------------------------------------------------ the battle at the position shown
    def _build(self, upto: int) -> Battle:
        battle = record.resume(self.rec, answers=upto, scenario=self.scenario)
        battle.on_event = self._event
        return battle

    def _event(self, e: Event) -> None:
        self._view = None
        if self.listener is not None:
            self.listener(e)

    @property
    def position(self) -> int:
        """How many of the record's answers the battle shown has had."""
        return len(self.battle.answers)

    def view(self) -> BattleView:
        """The battle shown, as a frozen snapshot (cached until it changes)."""
        if self._view is None:
            self._view = self.battle.view()
        return self._view

    @property
    def at_end(self) -> bool:
        """True at the last position (the battle's end, or where the record was saved)."""
        return self.position >= self.total

    def acting(self) -> str | None:
        """The unit whose action comes next (None while declaring, between rounds and at the end)."""
        req = self.battle.pending
        return req.unit if req is not None and req.kind == "act" else None

    def round_at(self, pos: int) -> int:
        """The round the battle is in at position `pos` (the round of the next answer; the last at the end)."""
        if not self.rec.answers:
            return 1
        return self.rec.answers[min(max(pos, 0), self.total - 1)].round

    def done(self) -> set[str]:
        """Units that have taken their turn this round (the tracker's "done"): they answered an action this
        round and are not acting now."""
        pos = self.position
        start = self.round_start(self.round_at(pos))
        out = {a.request.unit for a in self.rec.answers[start:pos] if a.request.kind == "act"}
        out.discard(self.acting() or "")
        return out

    def reasons(self) -> dict[str, str]:
        """Each unit's AI reason label for its last action so far (the record's decision traces), as watching
        shows them over the acting miniature."""
        key = (self.generation, self.position)
        if self._reasons[0] != key:
            out: dict[str, str] = {}
            for a in self.rec.answers[:self.position]:
                if a.request.kind == "act" and a.trace is not None:
                    try:
                        out[a.request.unit] = decision_label(a.trace["chosen"], a.trace.get("intent"))
                    except (KeyError, TypeError, ValueError):  # a trace of another shape (another AI): no label
                        continue
            self._reasons = (key, out)
        return self._reasons[1]

    def round_start(self, round_no: int) -> int:
        """The position where round `round_no` starts (clamped to the rounds the record has)."""
        if not self.round_starts:
            return 0
        i = max(0, min(round_no - self.first_round, len(self.round_starts) - 1))
        return self.round_starts[i]

    @property
    def rounds(self) -> int:
        """The last round the record reaches."""
        return self.round_at(self.total)

    # ------------------------------------------------------------------ moving along the timeline
    def seek(self, pos: int) -> bool:
        """Show position `pos` (clamped): forward by feeding the answers in between (their events are not
        animated), back by re-running from the seed. False if it is already shown."""
        pos = max(0, min(pos, self.total))
        if pos == self.position:
            return False
        if pos > self.position:
            listener, self.listener = self.listener, None
            try:
                record.advance(self.battle, self.rec, pos)
            finally:
                self.listener = listener
        else:
            self.battle.close()
            self.battle = self._build(pos)
        self._view = None
        self.generation += 1
        return True

    def snap(self, pos: int) -> int:
        """The stop nearest to position `pos` (a round's start, an action, the end)."""
        i = bisect.bisect_left(self.stops, pos)
        near = [s for s in self.stops[max(0, i - 1):i + 1]]
        return min(near, key=lambda s: (abs(s - pos), s)) if near else 0

    def next_stop(self) -> int:
        """The next stop after the position shown (the end if none)."""
        i = bisect.bisect_right(self.stops, self.position)
        return self.stops[i] if i < len(self.stops) else self.total

    def previous_stop(self) -> int:
        """The stop before the position shown (0 if none)."""
        i = bisect.bisect_left(self.stops, self.position)
        return self.stops[i - 1] if i > 0 else 0

    def forward(self) -> bool:
        """One action forward (from a round's start: its declarations and initiative, up to the first action),
        its events going to `listener` to be animated; False at the end."""
        if self.at_end:
            return False
        record.advance(self.battle, self.rec, self.next_stop())
        self._view = None
        return True

    def back(self) -> bool:
        """One action back (re-run from the seed); False at the start."""
        return self.position > 0 and self.seek(self.previous_stop())

    def next_round(self) -> bool:
        """The start of the next round (the end in the last)."""
        later = [p for p in self.round_starts if p > self.position]
        return self.seek(later[0] if later else self.total)

    def previous_round(self) -> bool:
        """The start of the round shown, or of the one before if already there."""
        earlier = [p for p in self.round_starts if p < self.position]
        return self.seek(earlier[-1] if earlier else 0)

    def close(self) -> None:
        """Free the battle's world."""
        self.battle.close()


@dataclass(frozen=True)
class SeekTimes:
    """Medians over `repeat` tries, in milliseconds: CPU (`time.process_time`) and wall (`time.perf_counter`)."""

    answers: int
    rounds: int
    back_cpu: float  # one action back from the end: a re-run of all but the last action
    back_wall: float
    round_cpu: float  # to the start of the last round from the end
    round_wall: float
    start_cpu: float  # the first position, from the end
    start_wall: float
    forward_cpu: float  # one action forward from the start of the last round
    forward_wall: float


def seek_times(rec: record.Record, repeat: int = 9) -> SeekTimes:
    """How long the viewer's moves take on `rec` (for `skirmish bench --replay`)."""
    replay = ReplaySession(rec)

    def timed(prepare: Callable[[], object], move: Callable[[], object]) -> tuple[float, float]:
        cpu, wall = [], []
        for _ in range(repeat):
            prepare()
            t, c = time.perf_counter(), time.process_time()
            move()
            replay.view()
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - t)
        return statistics.median(cpu) * 1000, statistics.median(wall) * 1000

    last = replay.round_starts[-1] if replay.round_starts else 0
    try:
        back = timed(lambda: replay.seek(replay.total), replay.back)
        to_round = timed(lambda: replay.seek(replay.total), lambda: replay.seek(last))
        to_start = timed(lambda: replay.seek(replay.total), lambda: replay.seek(0))
        forward = timed(lambda: replay.seek(last), replay.forward)
    finally:
        replay.close()
    return SeekTimes(replay.total, replay.rounds, *back, *to_round, *to_start, *forward)
