"""The round as data (ARCHITECTURE §5): a table of steps with hooks, walked by one loop.

A ruleset describes its round as a `RoundTable`: what happens when a round begins, then its steps in order
(Future Imperfect: declaration, initiative, phases I–IV, bookkeeping, R-5.1). A step may do something when
it begins and ends, and may ask actors in turn: `order()` names them, `start_turn` may skip one, and
`answer` applies what it answers (raising `IllegalAction` to refuse, which asks the same actor again).
`walk` is the only loop: it yields a `Request` whenever an actor must decide and is sent the answer, as
boardgame.io walks its `phases` and `turn.order`. New rules arrive as rows and hooks, not as branches:
`Hooks` runs callbacks at round start and end, step start and end, turn start and end, and after every
accepted answer.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from skirmish.core.errors import IllegalAction
from skirmish.core.legal import LegalActions

HookPoint = Literal["round_start", "round_end", "step_start", "step_end", "turn_start", "turn_end", "action"]
HOOK_POINTS: tuple[HookPoint, ...] = ("round_start", "round_end", "step_start", "step_end", "turn_start",
                                      "turn_end", "action")


@dataclass(frozen=True)
class Request:
    """A decision the battle waits for: `kind` says which (Future Imperfect: "declare" or "act")."""

    kind: str
    unit: str
    side: str
    error: str | None = None
    ask: Callable[[], LegalActions] | None = field(default=None, repr=False, compare=False)  # set by the battle

    def legal(self) -> LegalActions:
        """What the unit may answer (Battle.legal_actions), worked out on the first call and kept: a controller
        that never asks costs the battle nothing. Good while this request is the one pending."""
        if self.ask is None:
            raise LookupError(f"the {self.kind} request for {self.unit} did not come from a battle")
        return self.ask()


@dataclass(frozen=True)
class Step:
    """One row of the round table.

    name        how the step is called in traces and tests ("declaration", "phase I", …)
    begin       runs when the step begins (before `order` is asked)
    order       the actors asked in this step, in order (entities); None: nobody is asked
    kind        the Request kind for those actors
    who         (name, side) of an actor, for its Request
    start_turn  False skips the actor (it cannot act now); runs before the turn_start hooks
    answer      applies one answer; True ends the actor's turn; IllegalAction refuses it (asked again)
    limit       accepted answers per turn at most (0: until `answer` ends the turn)
    may_end     the battle may end after each actor's turn in this step (the loop asks `ended`)
    end         runs when the step ends
    """

    name: str
    begin: Callable[[], None] | None = None
    order: Callable[[], Iterable[int]] | None = None
    kind: str = ""
    who: Callable[[int], tuple[str, str]] | None = None
    start_turn: Callable[[int], bool] | None = None
    answer: Callable[[int, Any], bool] | None = None
    limit: int = 0
    may_end: bool = False
    end: Callable[[], None] | None = None


@dataclass(frozen=True)
class RoundTable:
    """A ruleset's round: `begin_round` (the round number moves on, its event is written), then the steps."""

    begin_round: Callable[[], None]
    steps: Sequence[Step]

    def names(self) -> list[str]:
        """The steps' names in order."""
        return [s.name for s in self.steps]

    def insert(self, step: Step, *, after: str) -> RoundTable:
        """This table with `step` added after the step named `after` (ValueError naming the steps if none)."""
        names = self.names()
        if after not in names:
            raise ValueError(f"no step {after!r} in the round table (steps: {', '.join(names)})")
        i = names.index(after) + 1
        return RoundTable(self.begin_round, (*self.steps[:i], step, *self.steps[i:]))


@dataclass
class Hooks:
    """Callbacks at the points of the round (`HOOK_POINTS`), run in the order they were added.

    round_start/round_end get no argument; step_start/step_end get the Step (step_start runs after the
    step's `begin`, step_end after its `end`); turn_start/turn_end get (step, actor); action gets
    (step, actor, answer) after an accepted answer."""

    table: dict[str, list[Callable[..., None]]] = field(default_factory=lambda: {p: [] for p in HOOK_POINTS})

    def add(self, point: HookPoint, fn: Callable[..., None]) -> None:
        """Run `fn` at `point` from now on."""
        if point not in self.table:
            raise ValueError(f"no hook point {point!r} (points: {', '.join(HOOK_POINTS)})")
        self.table[point].append(fn)

    def copy(self) -> Hooks:
        """The same callbacks in a new table (a battle keeps its own, so adding to it touches no caller's)."""
        return Hooks({p: list(fns) for p, fns in self.table.items()})

    def fire(self, point: HookPoint, *args: Any) -> None:
        """Run the callbacks of `point`."""
        for fn in self.table[point]:
            fn(*args)


def _request(kind: str, unit: str, side: str, ask: Callable[[], LegalActions] | None) -> Request:
    """`Request(kind, unit, side, None, ask)` without the frozen dataclass's `__init__` (one per decision)."""
    r = object.__new__(Request)
    r.__dict__.update(kind=kind, unit=unit, side=side, error=None, ask=ask)
    return r


def walk(table: RoundTable, hooks: Hooks, *, ended: Callable[[bool], bool],
         refused: Callable[[int, Any, IllegalAction], None],
         ask: Callable[[str], Callable[[], LegalActions]] | None = None) -> Generator[Request, Any, None]:
    """Walk rounds until `ended` says the battle is over: after each actor's turn in a `may_end` step with
    ended(False), and after each round with ended(True). A refused answer is passed to `refused` (which
    writes it down) and the same actor is asked again; refusals never use up a turn's `limit`. `ask(unit)`,
    if given, makes each request's `ask` (what `Request.legal` calls)."""
    # The hook lists, read once: a callback added later goes into the same list (Hooks.add, objectives). A point
    # with none is not fired (most battles have none at a turn's points, asked several times a decision).
    turn_start, on_action, turn_end = hooks.table["turn_start"], hooks.table["action"], hooks.table["turn_end"]
    while True:
        table.begin_round()
        hooks.fire("round_start")
        for step in table.steps:
            if step.begin is not None:
                step.begin()  # first, so a step_start hook sees the step's own phase
            hooks.fire("step_start", step)
            if step.order is not None:
                if step.who is None or step.answer is None:
                    raise ValueError(f"step {step.name!r} asks actors but has no `who` or `answer`")
                for actor in step.order():
                    if step.start_turn is not None and not step.start_turn(actor):
                        continue
                    if turn_start:
                        hooks.fire("turn_start", step, actor)
                    name, side = step.who(actor)
                    accepted = 0
                    while not step.limit or accepted < step.limit:
                        answer = yield _request(step.kind, name, side, ask(name) if ask is not None else None)
                        try:
                            done = step.answer(actor, answer)
                        except IllegalAction as exc:
                            refused(actor, answer, exc)
                            continue
                        accepted += 1
                        if on_action:
                            hooks.fire("action", step, actor, answer)
                        if done:
                            break
                    if turn_end:
                        hooks.fire("turn_end", step, actor)
                    if step.may_end and ended(False):
                        return
            if step.end is not None:
                step.end()
            hooks.fire("step_end", step)
        hooks.fire("round_end")
        if ended(True):
            return
