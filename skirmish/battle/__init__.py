"""The battle facade (ARCHITECTURE §1): one scenario, one seed, one esper world, one random source.

The scenario's ruleset (skirmish.rulesets) sets up the systems; their round table (declaration → initiative
→ phases I–IV → bookkeeping in Future Imperfect, R-5.1) is walked by `skirmish.core.flow.walk`, which yields
a `Request` whenever a side must decide; `submit()` answers it, `run()` lets the controllers answer until
the battle ends. Hooks (`battle.hooks`) run at round, step and turn boundaries and after every action.
"""

from __future__ import annotations

import hashlib
import random
import weakref
from collections.abc import Callable
from typing import Any

from skirmish import rulesets
from skirmish.battle.answers import Answer, Controller, Legal, Outcome, consult, given
from skirmish.battle.ending import Ending
from skirmish.battle.lazy import LazyView, lazy_view, make
from skirmish.battle.state import COMPONENT_TYPES, state_digest
from skirmish.content.scenario import Scenario
from skirmish.core.errors import IllegalAction, Refusal
from skirmish.core.events import BattleStartEvent, Event, RefusedEvent, make_from
from skirmish.core.flow import Hooks, Request, RoundTable, walk
from skirmish.core.legal import LegalActions
from skirmish.ecs.components import Identity
from skirmish.ecs.view import BattleView
from skirmish.ecs.world import World
from skirmish.log import EventLog
from skirmish.objectives import Play, deployed, uses_objectives
from skirmish.rules.actions import Action, EndTurn

__all__ = ["Answer", "Battle", "Controller", "Outcome", "Request", "consult"]


def battle_salt(seed: int) -> str:
    """The key a battle hands its AIs (BattleView.salt): fixed by the seed, different from seed to seed, and
    telling nothing of the random source's draws (blake2b of the seed, 8 bytes)."""
    return hashlib.blake2b(f"skirmish-salt|{seed}".encode(), digest_size=8).hexdigest()


def _closed(event: Event) -> None:
    raise RuntimeError(f"the battle is closed: no event may be written ({event.type})")


class Battle(Ending):
    """One battle: owns its world, deck, random source and log."""

    def __init__(self, scenario: Scenario, seed: int | None = None,
                 controllers: dict[str, Controller] | None = None,
                 on_event: Callable[[Event], None] | None = None, *, hashes: bool = False,
                 table: Callable[[RoundTable], RoundTable] | None = None, hooks: Hooks | None = None,
                 deploy: tuple[str, ...] = ()) -> None:
        play = uses_objectives(scenario)  # objectives, triggers, deployment (skirmish.objectives; issue 15)
        scenario = deployed(scenario) if play else scenario
        spec = scenario.spec
        try:
            self.ruleset = rulesets.get(spec.ruleset)
        except KeyError:
            raise ValueError(f"{scenario.source}: ruleset: '{spec.ruleset}' is not playable yet "
                             f"(playable: {', '.join(sorted(rulesets.REGISTRY))})") from None
        self.scenario = scenario
        self.seed = spec.seed if seed is None else seed
        self.rng = random.Random(self.seed)
        self.salt = battle_salt(self.seed)  # handed to the AIs in every view (BattleView.salt)
        self.log = EventLog()
        self.on_event = on_event
        self.world = World()
        self.sides = tuple(s.name for s in spec.sides)
        self.sys = self.ruleset.setup(scenario, self.rng, self.world, self._emit)
        self.ctx = self.sys.ctx  # round and phase
        self.knowledge = self.sys.side_views(self.sides)  # what each side knows of the others (fog, observe)
        self.controllers: dict[str, Controller] = dict(controllers or {})
        self.history: list[Action] = []  # accepted actions in order: with the seed, they replay the battle
        self.answers: list[Answer] = []  # every answer given, refused ones too (skirmish.record)
        self.hashes = hashes  # keep a state hash per round, for records (off: bench and tournament battles)
        self.round_hashes: list[str] = []  # state_hash() after each round's bookkeeping (skirmish.record)
        self._log_sha = hashlib.sha256()  # the events so far, folded in by state_hash()
        self._log_hashed = 0
        self._answers_sha = hashlib.sha256()  # the answers so far, as text, folded in by state_hash()
        self._answers_hashed = 0
        self.outcome: Outcome | None = None
        self._tallied = None  # the last count of who stands (Ending._tally)
        # Callbacks at round, step and turn boundaries and after each action (core.flow); pass `hooks` to
        # have them from the first request on (the battle asks its first question as it is made).
        self.hooks = hooks.copy() if hooks is not None else Hooks()
        self.play: Play | None = None  # the scenario's objectives and triggers in play, if it has any
        if play:
            self.play = Play(self)
            self.play.hook()
        if hashes:
            self.hooks.add("round_end", lambda: self.round_hashes.append(self.state_hash()))
        rows = self.sys.round_table()
        if self.play is not None and deploy:  # a person's sides place their units first (docs/FILES.md)
            rows = self.play.with_deployment(rows, deploy)
        self._flow = walk(rows if table is None else table(rows), self.hooks, ended=self._ended, refused=self._refuse,
                          ask=lambda unit: Legal(self, unit))  # Request.legal: worked out if asked
        self.pending: Request | None = None
        self._refusal: str | None = None
        self._lazy: list[weakref.ref[LazyView]] = []  # the views `observe` handed out not made yet (skirmish.battle.lazy)
        self._emit(BattleStartEvent(
            round=0, phase=None, actor=None, rules=("R-10.1",),
            scenario=spec.name, seed=self.seed, ruleset=spec.ruleset, **self.sys.start_info(),
            map=scenario.grid.name, sides=list(self.sides),
        ))
        self._advance(None)

    # ------------------------------------------------------------------ public API
    def view(self) -> BattleView:
        """A frozen snapshot of the whole battle, all-seeing (previews, the board watching, tools); an AI gets
        `observe(side)`."""
        view = self.world.snapshot(self.ctx.round, self.ctx.phase, self.ctx.grid, self.sides,
                                   self.ctx.scope, self.ctx.armoury, self.scenario.spec.victory.max_rounds,
                                   self.salt)
        return view if self.play is None else self.play.dress(view, None)

    def observe(self, side: str) -> BattleView:
        """What `side` may know now (issue 11, item 4; the ruleset's side views): its own units in full, enemies
        it sees with what shows of them, the others as ghosts at their last known cells, and the other sides'
        declarations hidden until initiative is flipped. KeyError for a side not in the battle.

        The view is made when first read (skirmish.battle.lazy: a decision that reads only its own unit costs no
        view of the others), and at the latest before the battle changes while it is still held: it is always the
        battle as it was at this call."""
        if self.play is None and not self.world._changing and side in self.sides:
            v = lazy_view(self, side)
            self._lazy.append(weakref.ref(v))
            return v
        return self.observe_now(side)

    def observe_now(self, side: str) -> BattleView:
        """`observe`, made at once."""
        view = self.knowledge.observe(self.view(), side)
        return view if self.play is None else self.play.dress(view, side)  # its own objectives' progress only

    def is_over(self) -> bool:
        """True once the battle has an outcome."""
        return self.outcome is not None

    def submit(self, action: Action) -> None:
        """Answer the pending request; raises IllegalAction (and keeps the request) if the rules refuse."""
        if self.pending is not None:
            self.answers.append(Answer(self.pending, action, None, self.ctx.round, self.ctx.phase, direct=True))
        self._submit(action)

    def _submit(self, action: Action) -> None:
        if self.pending is None:
            raise IllegalAction("the battle is over")
        if action.unit != self.pending.unit:
            raise IllegalAction(f"it is {self.pending.unit}'s decision, not {action.unit}'s")
        self._advance(action)
        self.history.append(action)

    def legal_actions(self, unit: str) -> LegalActions:
        """What `unit` may answer now (STYLE 13), from its ruleset: every declaration, or in its turn the
        cells it may move to walking and running, the shots, throws, aims, reload, wait and tacpack splits;
        kind "none" when the battle is not waiting for it. Every action listed is accepted by `submit`."""
        req = self.pending
        if req is None or req.unit != unit:
            return LegalActions(unit, "none")
        if self.play is not None and req.kind == self.play.DEPLOY:
            return self.play.deploy_legal(unit)
        return self.sys.legal_actions(req)

    def check(self, action: Action) -> Refusal | None:
        """None if `submit(action)` would be accepted now, else the Refusal (rule and reason); nothing
        changes. The systems apply an action only through these same checks."""
        req = self.pending
        if req is None:
            return Refusal("", "the battle is over")
        if action.unit != req.unit:
            return Refusal("", f"it is {req.unit}'s decision, not {action.unit}'s")
        return self.sys.refusal(req, action)

    def draws_made(self) -> int:
        """How many cards or dice resolutions this battle has made so far (for undo checks)."""
        return self.sys.draws()

    def state_hash(self) -> str:
        """sha256 of the whole battle state as canonical JSON (docs/RECORDS.md): every unit's components, the
        deck's piles in order, the random generator, round, phase, outcome and digests of the events and of the
        answers so far (so a changed event, AI trace or answer without effect shows too). The same answers from
        the same start give the same hash. What each side knows of the others (fog of war) is part of it."""
        for event in self.log.events[self._log_hashed:]:
            self._log_sha.update(event.to_line().encode("utf-8") + b"\n")
        self._log_hashed = len(self.log.events)
        for a in self.answers[self._answers_hashed:]:
            self._answers_sha.update(f"{a.request.kind} {a.request.unit} {a.direct:d} {a.action}\n".encode())
        self._answers_hashed = len(self.answers)
        state = {
            "round": self.ctx.round, "phase": self.ctx.phase,
            "outcome": self.outcome.summary() if self.outcome else None,
            "components": {t.__name__: self.world.query(t) for t in COMPONENT_TYPES},
            **self.sys.hash_state(), "rng": self.rng.getstate(),
            "events": [self._log_hashed, self._log_sha.hexdigest()],
            "answers": [self._answers_hashed, self._answers_sha.hexdigest()],
            "knowledge": self.knowledge.state(),
        }
        return state_digest(state)

    def odds(self, action: Action) -> Any:
        """The odds of a shot or throw by the unit the action names (`action.unit`), without making it (the
        ruleset's odds type: for Future Imperfect ShotOdds or ThrowOdds, for fw a Preview), as that unit's side
        knows the target; IllegalAction if the rules refuse it, or while no unit is asked to act. A ruleset whose
        odds are asked at other requests than "act" names their kinds in `odds_requests`."""
        req = self.pending
        if req is None or (req.kind not in getattr(self.sys, "odds_requests", ()) and req.kind == "declare"):
            raise IllegalAction("no unit is taking its turn")
        unit = getattr(action, "unit", None) or req.unit
        if not self.world.has(unit):
            raise IllegalAction(f"no unit called {unit!r}")
        return self.sys.odds(self.world.entity(unit), action, self.seed)

    def move_refusal(self) -> str | None:
        """Why the unit whose turn it is may not move now, or None if some move fits its declaration."""
        try:
            eid = self._pending_eid()
        except IllegalAction as exc:
            return str(exc)
        return self.sys.move_refusal(eid)

    def preview_move(self, to: tuple[int, int]) -> tuple[list[tuple[int, int]], float, bool]:
        """Route, metres and whether it is a run, for the unit whose turn it is: the same checks `submit`
        makes for that move (IllegalAction with the rule if refused)."""
        return self.sys.preview_move(self._pending_eid(), to)

    def allowance(self, unit: str) -> tuple[float, float]:
        """(walk, run) in metres for a unit this turn (R-5.6)."""
        return self.sys.move_allowance(self.world.entity(unit))

    def _pending_eid(self) -> int:
        if self.pending is None or self.pending.kind == "declare":  # FI's declaration; fw's odds come in its "intent"
            raise IllegalAction("no unit is taking its turn")
        return self.world.entity(self.pending.unit)

    def step(self) -> bool:
        """Let the controller of the pending request decide once; False when the battle is over."""
        req = self.pending
        if req is None:
            return False
        ctrl = self.controllers.get(req.side)
        if ctrl is None:
            raise RuntimeError(f"no controller for side {req.side!r}")
        action, trace = consult(ctrl, self.observe(req.side), req)  # an AI decides from its side's view only
        self.answer(req, action, trace)
        return self.pending is not None

    def answer(self, req: Request, action: Action, trace: dict[str, Any] | None = None) -> None:
        """Submit a controller's answer to `req`; if the rules refuse it, the refusal is logged and the
        controller loses the decision (declare NORMAL, or end the turn), not the battle. An AI's reasons
        (`trace`) go into the log first, as a `decision` event."""
        self.answers.append(given(req, action, trace, self.ctx.round, self.ctx.phase))
        if trace is not None:
            # a DecisionEvent (**trace), made without the frozen dataclass's __init__ (events.make_from)
            self._emit(make_from("decision", self.ctx.round, self.ctx.phase, req.unit, ("R-10.2",), dict(trace)))
        try:
            self._submit(action)
        except IllegalAction:
            if self.pending is not None and self.pending.unit == req.unit and self.pending.kind == req.kind:
                deploying = self.play is not None and req.kind == self.play.DEPLOY
                self._submit(EndTurn(req.unit) if deploying else self.sys.fallback(req))

    def run(self) -> Outcome:
        """Play until the end."""
        while self.step():
            pass
        assert self.outcome is not None
        return self.outcome

    def close(self) -> None:
        """Free the esper world and what refers back to the battle (round loop, event sink, pending request), so
        it is freed once nobody holds it, not at the next full garbage collection. Read a closed battle only."""
        self._make_views()
        self.world.close()
        self._flow.close()
        self.pending = None
        self.sys.ctx.emit = _closed

    def __enter__(self) -> Battle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals
    def _emit(self, event: Event) -> None:
        self.log.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def _make_views(self) -> None:
        """Make every view `observe` handed out that is still held and not made yet: the battle is about to change."""
        lazy, self._lazy = self._lazy, []
        for ref in lazy:
            v = ref()
            if v is not None:
                make(v)

    def _advance(self, action: Action | None) -> None:
        if self._lazy:
            self._make_views()
        self._refusal = None
        answered = self.pending
        self.world.begin_changes()  # the rules run: components change (World.snapshot keeps no views meanwhile)
        try:
            self.pending = self._flow.send(action) if action is not None else next(self._flow)
        except StopIteration:
            self.pending = None
        finally:
            self.world.end_changes()
        self.knowledge.update(self.world, self.ctx.grid, self.ctx.round)  # before any decision: every side looks again
        if answered is not None and isinstance(answered.ask, Legal):
            answered.ask.close()
        if self.pending is not None and self.pending.ask is None:  # its legal actions, if asked (Request.legal)
            req = self.pending
            self.pending = Request(req.kind, req.unit, req.side, req.error, Legal(self, req.unit))
        if self._refusal is not None:
            reason, self._refusal = self._refusal, None
            raise IllegalAction(reason)

    def _refuse(self, eid: int, action: Action, exc: IllegalAction) -> None:
        """A refused answer: written down (a `refused` event), and raised to the submitter by `_advance`."""
        self._refusal = reason = str(exc)
        self._emit(RefusedEvent(round=self.ctx.round, phase=self.ctx.phase, actor=self.world.get(eid, Identity).name,
                                rules=(), action=str(action), reason=reason))
