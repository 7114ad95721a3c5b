"""The battle facade (ARCHITECTURE §1): one scenario, one seed, one esper world, one random source.

The round (declaration → initiative → phases I–IV → bookkeeping, R-5.1) is a table of steps walked by a
generator that yields a `Request` whenever a side must decide; `submit()` answers it. `run()` lets the
controllers answer until the battle ends.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Generator
from dataclasses import dataclass, is_dataclass
from operator import attrgetter
from typing import Any, Literal, Protocol

from skirmish import legality
from skirmish.content.scenario import Scenario
from skirmish.core.errors import Refusal
from skirmish.core.legal import LegalActions
from skirmish.ecs import components as ecs_components
from skirmish.ecs.components import Declared, Health, Identity, Turn
from skirmish.ecs.knowledge import Knowledge
from skirmish.ecs.systems.fi import Ctx, FiSystems, IllegalAction, spawn_unit
from skirmish.ecs.view import BattleView
from skirmish.ecs.world import World
from skirmish.log import EventLog
from skirmish.nav import Navigator
from skirmish.rules.actions import Action, Declare, EndTurn, Shoot, Throw
from skirmish.rules.deck import Card, Deck, builtin
from skirmish.rules.events import Event
from skirmish.rules.fi import initiative as ini
from skirmish.rules.fi.initiative import PHASES
from skirmish.rules.fi.odds import ShotOdds, shot_odds
from skirmish.rules.fi.thrown import Bystander, ThrowOdds, throw_odds
from skirmish.rules.fi.timing import Part
from skirmish.rules.randomizer import Randomizer

# Every component type, for state_hash (found once: a new component is hashed without being listed).
_COMPONENT_TYPES = tuple(t for t in vars(ecs_components).values()
                         if isinstance(t, type) and is_dataclass(t) and t.__module__ == ecs_components.__name__)

MAX_ACTIONS_PER_TURN = 8  # accepted actions in one turn: a guard against a controller that never ends it


@dataclass(frozen=True)
class Request:
    """A decision the battle waits for: a declaration or an action in a turn."""

    kind: Literal["declare", "act"]
    unit: str
    side: str
    error: str | None = None


@dataclass(frozen=True)
class Answer:
    """One answer given to the battle, refused ones too (skirmish.record saves and replays them): the request,
    the action, the AI's reasons, the round and phase it came in, and `direct` for `submit` (a person on the
    board: no fallback after a refusal) rather than `answer`."""

    request: Request
    action: Action
    trace: dict[str, Any] | None
    round: int
    phase: int | None
    direct: bool = False


def consult(ctrl: Controller, view: BattleView, req: Request) -> tuple[Action, dict[str, Any] | None]:
    """Ask a controller; AIs that explain themselves (`decide_traced`) also return their reasons."""
    traced = getattr(ctrl, "decide_traced", None)
    if traced is not None:
        action, trace = traced(view, req)
        return action, trace
    return ctrl.decide(view, req), None


class Controller(Protocol):
    """Anything that answers requests from a frozen view (AIs, scripts, the board)."""

    def decide(self, view: BattleView, request: Request) -> Action: ...


@dataclass(frozen=True)
class Outcome:
    """How a battle ended."""

    winner: str | None
    rounds: int
    seed: int
    casualties: dict[str, int]

    def summary(self) -> str:
        """The C-1 summary line."""
        return f"result: winner={self.winner or 'draw'} rounds={self.rounds} seed={self.seed}"


class Battle:
    """One battle: owns its world, deck, random source and log."""

    def __init__(self, scenario: Scenario, seed: int | None = None,
                 controllers: dict[str, Controller] | None = None,
                 on_event: Callable[[Event], None] | None = None, *, hashes: bool = False) -> None:
        spec = scenario.spec
        if spec.ruleset != "fi":
            raise ValueError(f"{scenario.source}: ruleset: '{spec.ruleset}' is not playable yet (fi only)")
        self.scenario = scenario
        self.seed = spec.seed if seed is None else seed
        self.rng = random.Random(self.seed)
        opts = spec.options
        deck: Deck | None = None
        if opts.randomizer == "cards" or scenario.stacked:
            if scenario.stacked is not None and spec.deck is not None:
                deck = Deck(scenario.stacked, self.rng, shuffle=spec.deck.shuffle)
            else:
                deck = Deck(builtin(opts.deck), self.rng)
        mode: Literal["cards", "dice"] = "cards" if scenario.stacked else opts.randomizer
        self.randomizer = Randomizer(mode, self.rng, deck)
        self.deck = deck
        self.log = EventLog()
        self.on_event = on_event
        self.world = World()
        self.sides = tuple(s.name for s in spec.sides)
        self.ctx = Ctx(
            world=self.world, grid=scenario.grid, armoury=scenario.armoury, randomizer=self.randomizer,
            nav=Navigator(scenario.grid), emit=self._emit, scope=opts.scope, side_names=self.sides,
            initiative_cards=opts.initiative_cards, concussion_saves=opts.concussion_saves,
        )
        self.sys = FiSystems(self.ctx)
        order = 0
        for si, side in enumerate(spec.sides):
            for unit in side.units:
                spawn_unit(self.ctx, unit, side.name, si, order)
                order += 1
        self.sys.face_enemies()
        self.sys.refresh_cover()
        self.knowledge = Knowledge(self.sides)  # what each side knows of the others (fog of war, observe)
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
        self._flow = self._round_flow()
        self.pending: Request | None = None
        self._refusal: str | None = None
        self._emit(Event("battle_start", 0, None, None, ("R-10.1",), {
            "scenario": spec.name, "seed": self.seed, "ruleset": spec.ruleset,
            "randomizer": mode, "deck": "stacked" if scenario.stacked else opts.deck,
            "map": scenario.grid.name, "sides": list(self.sides),
        }))
        self._advance(None)

    # ------------------------------------------------------------------ public API
    def view(self) -> BattleView:
        """A frozen snapshot of the whole battle, all-seeing (previews, the board watching, tools); an AI gets
        `observe(side)`."""
        return self.world.snapshot(self.ctx.round, self.ctx.phase, self.ctx.grid, self.sides,
                                   self.ctx.scope, self.ctx.armoury, self.scenario.spec.victory.max_rounds)

    def observe(self, side: str) -> BattleView:
        """What `side` may know now (issue 11, item 4; skirmish.ecs.knowledge): its own units in full, enemies
        it sees with what shows of them, the others as ghosts at their last known cells, and the other sides'
        declarations hidden until initiative is flipped. KeyError for a side not in the battle."""
        return self.knowledge.observe(self.view(), side)

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
        """What `unit` may answer now (STYLE 13): every declaration, or in its turn the cells it may move to
        walking and running, the shots, throws, aims, reload, wait and tacpack splits; kind "none" when the
        battle is not waiting for it. Every action listed is accepted by `submit`."""
        req = self.pending
        if req is None or req.unit != unit:
            return LegalActions(unit, "none")
        if req.kind == "declare":
            return legality.declarations(unit)
        return legality.turn_actions(self.sys, self.world.entity(unit))

    def check(self, action: Action) -> Refusal | None:
        """None if `submit(action)` would be accepted now, else the Refusal (rule and reason); nothing
        changes. The systems apply an action only through these same checks."""
        req = self.pending
        if req is None:
            return Refusal("", "the battle is over")
        if action.unit != req.unit:
            return Refusal("", f"it is {req.unit}'s decision, not {action.unit}'s")
        if req.kind == "declare":
            if not isinstance(action, Declare):
                return Refusal("R-5.1", "declare a speed first")
            if action.speed not in ini.DECLARATIONS:
                return Refusal("R-5.1", f"declare one of {', '.join(ini.DECLARATIONS)}, not {action.speed!r}")
            return None
        refused = legality.refusal_of(self.sys, self.world.entity(req.unit), action)
        return refused.refusal if refused is not None else None

    def draws_made(self) -> int:
        """How many cards or dice resolutions this battle has made so far (for undo checks)."""
        return self.randomizer.draws

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
        deck = self.deck
        state = {
            "round": self.ctx.round, "phase": self.ctx.phase,
            "outcome": self.outcome.summary() if self.outcome else None,
            "components": {t.__name__: self.world.query(t) for t in _COMPONENT_TYPES},
            "deck": None if deck is None else {
                "draw": [c.number for c in deck.draw_pile], "discard": [c.number for c in deck.discard_pile],
                "pending_shuffle": deck.pending_shuffle, "shuffles": deck.shuffles},
            "draws": self.randomizer.draws, "rng": self.rng.getstate(),
            "events": [self._log_hashed, self._log_sha.hexdigest()],
            "answers": [self._answers_hashed, self._answers_sha.hexdigest()],
            "knowledge": self.knowledge.state(),
        }

        def plain(value: Any) -> Any:
            if is_dataclass(value):
                return attrgetter(*value.__dataclass_fields__)(value)  # the fields' values in their order
            if isinstance(value, set | frozenset):
                return sorted(value)
            if hasattr(value, "item"):  # a numpy scalar
                return value.item()
            raise TypeError(f"state_hash: cannot write {type(value).__name__}")

        text = json.dumps(state, sort_keys=True, separators=(",", ":"), default=plain)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def preview_shot(self, action: Shoot) -> ShotOdds:
        """Odds of a shot by the unit whose turn it is, without taking it; IllegalAction if not allowed."""
        eid = self._pending_eid()
        setup, target, tgt = self.sys.shot_setup(eid, action)
        hp = self.world.get(tgt, Health)
        return shot_odds(setup, target, cards=self._pile(), wounds=hp.wounds, ct=hp.ct, seed=self.seed)

    def _pile(self) -> list[Card] | None:
        """The cards the next draw may turn (None in dice mode)."""
        if self.deck is not None and self.randomizer.mode == "cards":
            return list(self.deck.draw_pile) or list(self.deck.discard_pile)
        return None

    def preview_throw(self, action: Throw) -> ThrowOdds:
        """Odds of a throw by the unit whose turn it is: where it lands and whom the burst reaches."""
        eid = self._pending_eid()
        setup = self.sys.throw_setup(eid, action)
        people = [Bystander(i.name, self.world.cell(e), self.sys.armoured(e)) for e, i in self.world.units()
                  if not self.world.get(e, Health).dead]
        return throw_odds(setup, self.ctx.grid, self.world.cell(eid), (int(action.at[0]), int(action.at[1])),
                          people, cards=self._pile(), seed=self.seed)

    def move_refusal(self) -> str | None:
        """Why the unit whose turn it is may not move now, or None if it may: some move (a walk, or a run,
        which is the only move under FAST, R-5.4) fits its declared speed."""
        try:
            eid = self._pending_eid()
            if self.world.get(eid, Turn).moved_this_turn:
                return "one movement action per turn (docs/RULES-NOTES.md)"
            self.sys.check_parts(eid, Part("move", running=True))  # a run is the fastest move
        except IllegalAction as exc:
            return str(exc)
        return None

    def preview_move(self, to: tuple[int, int]) -> tuple[list[tuple[int, int]], float, bool]:
        """Route, metres and whether it is a run, for the unit whose turn it is: the same checks `submit`
        makes for that move (IllegalAction with the rule if refused)."""
        eid = self._pending_eid()
        path, metres, running = self.sys.plan_move(eid, to)
        self.sys.check_parts(eid, Part("move", running=running))
        return path, metres, running

    def allowance(self, unit: str) -> tuple[float, float]:
        """(walk, run) in metres for a unit this turn (R-5.6)."""
        return self.sys.move_allowance(self.world.entity(unit))

    def _pending_eid(self) -> int:
        if self.pending is None or self.pending.kind != "act":
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
        self.answers.append(Answer(req, action, trace, self.ctx.round, self.ctx.phase))
        if trace is not None:
            self._emit(Event("decision", self.ctx.round, self.ctx.phase, req.unit, ("R-10.2",), trace))
        try:
            self._submit(action)
        except IllegalAction:
            if self.pending is not None and self.pending.unit == req.unit and self.pending.kind == req.kind:
                fallback: Action = Declare(req.unit, "normal") if req.kind == "declare" else EndTurn(req.unit)
                self._submit(fallback)

    def run(self) -> Outcome:
        """Play until the end."""
        while self.step():
            pass
        assert self.outcome is not None
        return self.outcome

    def close(self) -> None:
        """Free the esper world."""
        self.world.close()

    def __enter__(self) -> Battle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ internals
    def _emit(self, event: Event) -> None:
        self.log.append(event)
        if self.on_event is not None:
            self.on_event(event)

    def _advance(self, action: Action | None) -> None:
        self._refusal = None
        try:
            self.pending = self._flow.send(action) if action is not None else next(self._flow)
        except StopIteration:
            self.pending = None
        self.knowledge.update(self.world, self.ctx.grid, self.ctx.round)  # the hook: every side looks again
        if self._refusal is not None:
            reason, self._refusal = self._refusal, None
            raise IllegalAction(reason)

    def _active(self) -> list[int]:
        return [e for e, _ in self.world.units() if not self.world.get(e, Health).out_of_action]

    def _round_flow(self) -> Generator[Request, Action, None]:
        spec = self.scenario.spec
        while True:
            self.ctx.round += 1
            self.ctx.phase = None
            self._emit(Event("round", self.ctx.round, None, None, ("R-5.1",), {}))
            # I. declaration
            for eid in self._active():
                ident = self.world.get(eid, Identity)
                while True:
                    action = yield Request("declare", ident.name, ident.side)
                    if not isinstance(action, Declare):
                        self._refuse(eid, action, "R-5.1: declare a speed first")
                        continue
                    try:
                        self.sys.declare(eid, action)
                        break
                    except IllegalAction as exc:
                        self._refuse(eid, action, str(exc))
            # II. initiative
            active = self._active()
            self.sys.initiative(active)
            # III. phases I-IV
            for phase in PHASES:
                self.ctx.phase = phase
                for eid in self.sys.phase_order(active, phase):
                    if self.world.get(eid, Health).out_of_action:
                        continue
                    if not self.sys.begin_turn(eid):
                        continue
                    ident = self.world.get(eid, Identity)
                    self._emit(Event("turn", self.ctx.round, phase, ident.name, ("R-5.3",),
                                     {"declared": self.world.get(eid, Declared).speed}))
                    accepted = 0  # refusals do not use up the turn: a person may try again
                    while accepted < MAX_ACTIONS_PER_TURN:
                        action = yield Request("act", ident.name, ident.side)
                        try:
                            if self.sys.apply(eid, action):
                                break
                            accepted += 1
                        except IllegalAction as exc:
                            self._refuse(eid, action, str(exc))
                    if self._check_end():
                        return
            # IV. bookkeeping
            self.ctx.phase = None
            self.sys.end_round()
            self.sys.refresh_cover()
            if self.hashes:
                self.round_hashes.append(self.state_hash())
            if self._check_end(round_over=spec.victory.max_rounds <= self.ctx.round):
                return

    def _refuse(self, eid: int, action: Action, reason: str) -> None:
        ident = self.world.get(eid, Identity)
        self._refusal = reason
        self._emit(Event("refused", self.ctx.round, self.ctx.phase, ident.name, (),
                         {"action": str(action), "reason": reason}))

    def _check_end(self, round_over: bool = False) -> bool:
        """End the battle when at most one side has anyone standing, or at the round limit (a draw).

        A side with nobody left can neither win nor draw: once every other side is down, the side still
        standing wins, with `victory.eliminate` or without it (without it, taking enemies out is not a way
        to win while more than one side stands; objectives come with their issue). The reason says what
        really happened."""
        standing: dict[str, int] = {s: 0 for s in self.sides}
        casualties: dict[str, int] = {s: 0 for s in self.sides}
        for eid, ident in self.world.units():
            if self.world.get(eid, Health).out_of_action:
                casualties[ident.side] += 1
            else:
                standing[ident.side] += 1
        alive = [s for s, n in standing.items() if n > 0]
        fallen = [s for s in self.sides if s not in alive]
        winner: str | None = None
        if len(alive) <= 1:
            winner = alive[0] if alive else None
            reason = f"nobody left standing: {', '.join(fallen)}" if alive else "nobody left standing on any side"
        elif round_over:
            reason = "round limit"
        else:
            return False
        self.outcome = Outcome(winner, self.ctx.round, self.seed, casualties)
        self._emit(Event("result", self.ctx.round, None, None, ("R-10.1",), {
            "winner": winner, "rounds": self.ctx.round, "casualties": casualties, "reason": reason,
        }))
        return True
