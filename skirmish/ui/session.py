"""A battle as the board runs it: AI sides step on demand, human sides answer through `submit`, and a
move not yet followed by any draw can be taken back (the battle is replayed from its seed without it).

No pygame here, so the rules side of the board is testable on its own.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skirmish import record
from skirmish.ai.controllers import make_ai, make_controller
from skirmish.battle import Battle, Controller, Request, consult
from skirmish.content.errors import ContentError
from skirmish.content.scenario import Scenario
from skirmish.core.errors import IllegalAction
from skirmish.core.events import Event
from skirmish.ecs.view import BattleView
from skirmish.rules.actions import Action, Move

CONTROLS = ("ai", "human")


@dataclass
class _UndoMark:
    history: int  # len(history) before the move
    draws: int  # draws made before the move
    unit: str


class Session:
    """One battle on the board."""

    def __init__(self, scenario: Scenario, seed: int | None = None, controls: dict[str, str] | None = None,
                 on_event: Callable[[Event], None] | None = None, ai: dict[str, str] | None = None, *,
                 resume: record.Record | None = None) -> None:
        self.scenario = scenario
        spec = scenario.spec
        self.controls = {s.name: (controls or {}).get(s.name, "ai") for s in spec.sides}
        ai = ai or {}  # {side: AI spec} replacing the scenario's controller (`--ai SIDE=AI`)
        self.ai = {side: spec_ for side, spec_ in ai.items() if self.controls.get(side) == "ai"}
        self.controllers: dict[str, Controller] = {
            s.name: make_ai(ai[s.name], spec.ruleset) if s.name in ai
            else make_controller(s.controller, s.orders, s.ai, spec.ruleset)
            for s in spec.sides if self.controls[s.name] == "ai"
        }
        self._on_event = on_event
        self.sources: record.Sources | None
        if resume is None:
            self.name = Path(scenario.source).stem
            try:  # the files as played, for Ctrl+S (read again at save time if they cannot be read now)
                self.sources = record.capture(scenario, scenario.source, file=Path(scenario.source).name)
            except (ContentError, OSError, ValueError):
                self.sources = None
            self.battle = Battle(scenario, seed, controllers=self.controllers, on_event=self._event, hashes=True,
                                 deploy=self.deploying())
        else:  # replayed and checked; the AIs asked the recorded requests again so they continue exactly
            self.name = Path(resume.sources.file).stem or "battle"
            self.sources = resume.sources
            self.battle = record.resume(resume, self.controllers, catch_up=True, scenario=scenario)
            self.battle.on_event = self._event
        self.seed = self.battle.seed
        self.generation = 0  # bumped when the battle is rebuilt (undo): the board drops its caches
        self._undo: _UndoMark | None = None
        self._view: BattleView | None = None
        self._seen: tuple[BattleView | None, dict[str, BattleView]] = (None, {})  # side views of one `view()`
        self._pool: ThreadPoolExecutor | None = None
        self._thinking: tuple[Request, Future[tuple[Action, dict[str, Any] | None]]] | None = None

    @classmethod
    def from_record(cls, rec: record.Record, controls: dict[str, str] | None = None,
                    on_event: Callable[[Event], None] | None = None, ai: dict[str, str] | None = None, *,
                    scenario: Scenario | None = None) -> Session:
        """The battle of a saved record (`record.load`), replayed and checked, ready to continue. `controls`:
        {side: "ai" | "human"} (default: the record's, `human` where a person played); AI sides get `ai`'s
        spec, else the AI the record names (`ai:SPEC`), else the scenario's controller. ContentError (one
        line naming the record and key) if the record is damaged or drifted."""
        scenario = scenario or record.scenario_of(rec)
        sides = [s.name for s in scenario.spec.sides]
        if controls is None:
            controls = {s: "human" if rec.controllers.get(s) == "human" else "ai" for s in sides}
        specs: dict[str, str] = {}
        for side in sides:
            label = rec.controllers.get(side, "")
            if controls.get(side, "ai") == "ai" and label.startswith("ai:"):
                try:
                    make_ai(label[3:], scenario.spec.ruleset)
                except ValueError:
                    continue  # informational only: an AI this engine does not know plays as the scenario says
                specs[side] = label[3:]
        specs.update(ai or {})
        return cls(scenario, rec.seed, controls, on_event, specs, resume=rec)

    def deploying(self) -> tuple[str, ...]:
        """The sides a person plays: each places its units in its deployment zone, if it has one (issue 15)."""
        return tuple(side for side, c in self.controls.items() if c == "human")

    def labels(self) -> dict[str, str]:
        """Who plays each side, for a record: `human`, `ai:SPEC`, `scripted`, `idle`."""
        out = record.controller_labels(self.scenario, self.ai)
        out.update({side: "human" for side, c in self.controls.items() if c == "human"})
        return out

    def save(self, path: str | os.PathLike[str]) -> record.Record:
        """Write the battle's record as it stands (Ctrl+S), whole or not at all; OutputError or ContentError
        (one line) if it cannot be written or the scenario's files cannot be read."""
        if self.sources is None:
            self.sources = record.capture(self.scenario, self.scenario.source, file=Path(self.scenario.source).name)
        return record.save(self.battle, path, self.sources, self.labels())

    # ------------------------------------------------------------------ reading
    def listen(self, fn: Callable[[Event], None] | None) -> None:
        """Send every later battle event to `fn` (the board's animations and panels)."""
        self._on_event = fn

    def _event(self, e: Event) -> None:
        self._view = None
        if self._on_event is not None:
            self._on_event(e)
            self._view = None  # a view taken while the action is still being resolved is not kept

    def view(self) -> BattleView:
        """The current snapshot (cached until something happens)."""
        if self._view is None:
            self._view = self.battle.view()
        return self._view

    def observe(self, side: str) -> BattleView:
        """What `side` may know now (`Battle.observe`: fog of war), cached like `view`."""
        base = self.view()  # side views are kept as long as this snapshot is
        if self._seen[0] is not base:
            self._seen = (base, {})
        seen = self._seen[1].get(side)
        if seen is None:
            seen = self._seen[1][side] = self.battle.knowledge.observe(base, side)  # Battle.observe, on this snapshot
        return seen

    def heat(self, unit: str) -> Any:
        """The move scores an AI last gave `unit`'s reachable cells (a numpy array, NaN where it could not
        go), or None if its side's AI keeps none (issue 4: the board's heat map)."""
        for ctrl in self.controllers.values():
            scores = getattr(ctrl, "heat", None)
            if isinstance(scores, dict) and unit in scores:
                return scores[unit]
        return None

    @property
    def pending(self) -> Request | None:
        """What the battle waits for."""
        return self.battle.pending

    def human_request(self) -> Request | None:
        """The pending request if a person must answer it."""
        req = self.battle.pending
        return req if req is not None and self.controls.get(req.side) == "human" else None

    def ai_turn(self) -> bool:
        """True if the pending decision belongs to an AI side."""
        req = self.battle.pending
        return req is not None and self.controls.get(req.side) == "ai"

    def is_over(self) -> bool:
        """True once the battle has an outcome."""
        return self.battle.is_over()

    # ------------------------------------------------------------------ acting
    def ai_step(self) -> bool:
        """Let the AI answer the pending request once, now; False if it is not an AI's turn."""
        if not self.ai_turn():
            return False
        if self._thinking is not None:  # a decision is already being made: wait for it
            self._thinking[1].result()
            return self.ai_poll()
        self._undo = None
        self._view = None
        self.battle.step()
        return True

    def ai_think(self) -> None:
        """Start the AI's decision on a worker thread (it reads only a frozen view), so the board keeps
        drawing while it thinks; `ai_poll` applies it once ready."""
        if self._thinking is not None or not self.ai_turn():
            return
        req = self.battle.pending
        assert req is not None
        ctrl = self.controllers[req.side]
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skirmish-ai")
        if req.ask is not None:
            req.legal()  # worked out here, on the board's thread: the worker then reads only frozen values
        # The view made here too (`observe_now`, not a lazy view the worker would make while the board reads
        # the battle's kept views: skirmish.battle.lazy).
        self._thinking = (req, self._pool.submit(consult, ctrl, self.battle.observe_now(req.side), req))

    @property
    def thinking(self) -> bool:
        """True while an AI decision is being made."""
        return self._thinking is not None

    def ai_poll(self, wait: float = 0.0) -> bool:
        """Apply a finished AI decision, waiting up to `wait` seconds for it (the wait lets the worker run);
        True if one was applied."""
        if self._thinking is None:
            return False
        if not self._thinking[1].done():
            futures_wait([self._thinking[1]], timeout=wait)
            if not self._thinking[1].done():
                return False
        req, fut = self._thinking
        self._thinking = None
        action, trace = fut.result()  # an AI bug surfaces here, on the board's thread
        if self.battle.pending != req:
            return False
        self._undo = None
        self._view = None
        self.battle.answer(req, action, trace)
        return True

    def submit(self, action: Action) -> None:
        """A person's action; raises IllegalAction with the rule's reason if refused."""
        req = self.human_request()
        if req is None:
            raise IllegalAction("it is not a human side's decision")
        mark = _UndoMark(len(self.battle.history), self.battle.draws_made(), action.unit)
        self._view = None
        self.battle.submit(action)
        self._undo = mark if isinstance(action, Move) else None

    def can_undo(self) -> bool:
        """A move can be taken back while nothing has been drawn since and the unit is still acting."""
        m = self._undo
        if m is None:
            return False
        req = self.battle.pending
        return (len(self.battle.history) == m.history + 1 and self.battle.draws_made() == m.draws
                and req is not None and req.kind == "act" and req.unit == m.unit)

    def undo(self) -> bool:
        """Take back the last move (replaying the battle from its seed without it)."""
        if not self.can_undo():
            return False
        assert self._undo is not None
        keep = self.battle.history[: self._undo.history]
        self.battle.close()
        battle = Battle(self.scenario, self.seed, controllers=self.controllers, hashes=True, deploy=self.deploying())
        for action in keep:
            battle.submit(action)
        battle.on_event = self._event  # later events reach the board again
        self.battle = battle
        self._undo = None
        self._view = None
        self.generation += 1
        return True

    def close(self) -> None:
        """Stop the AI worker and free the battle's world."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._thinking = None
        self.battle.close()


def human_sides(controls: dict[str, str]) -> list[str]:
    """Sides a person plays."""
    return [s for s, c in controls.items() if c == "human"]
