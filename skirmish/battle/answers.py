"""The battle's answers and outcome (the facade's plain types, skirmish.battle): what controllers are (`Controller`)
and how they are asked (`consult`), an answer as records keep it (`Answer`), a request's legal actions worked out
once (`Legal`), and how a battle ended (`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from skirmish.core.flow import Request
from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView
from skirmish.rules.actions import Action

if TYPE_CHECKING:
    from skirmish.battle import Battle


class Legal:
    """`Battle.legal_actions` for one pending request, worked out on the first call and kept (Request.legal);
    once the request is answered it lets go of the battle and says "none", as legal_actions does then."""

    __slots__ = ("_battle", "_unit", "_value")

    def __init__(self, battle: Battle, unit: str) -> None:
        self._battle: Battle | None = battle
        self._unit = unit
        self._value: LegalActions | None = None

    def __call__(self) -> LegalActions:
        if self._value is None:
            self._value = LegalActions(self._unit, "none") if self._battle is None else \
                self._battle.legal_actions(self._unit)
        return self._value

    def close(self) -> None:
        """The request is answered: what was legal then is no longer."""
        self._battle, self._value = None, None


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


def given(req: Request, action: Action, trace: dict[str, Any] | None, round_no: int, phase: int | None) -> Answer:
    """`Answer(req, action, trace, round_no, phase)` without the frozen dataclass's `__init__` (six
    `object.__setattr__`, for every answer a battle takes), as `skirmish.core.flow._request` makes requests: the
    same fields in the same order, so an equal answer (tests/test_battle_speed11.py)."""
    a = object.__new__(Answer)
    a.__dict__.update(request=req, action=action, trace=trace, round=round_no, phase=phase, direct=False)
    return a


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
    bounty: dict[str, int] | None = None  # each side's unspent story chips as bounty points, else None

    def summary(self) -> str:
        """The C-1 summary line."""
        return f"result: winner={self.winner or 'draw'} rounds={self.rounds} seed={self.seed}"

    def bounty_line(self) -> str | None:
        """`bounty: Blue=3 Red=1` (R-8.5, a battle with story chips), printed before the C-1 line; else None."""
        if self.bounty is None:
            return None
        return "bounty: " + " ".join(f"{side}={points}" for side, points in self.bounty.items())
