"""`SearchAI`: the utility AI's best options, weighed again by looking one exchange ahead (issue 12 item 5).

The utility AI proposes (its chosen option and runners-up, from what the battle lists as legal, plus every
legal shot); the search tier weighs each with `model.exchange` (our attack over the rules' odds, the enemy's
best replies at the positions that result, our next shot) and adds a share of the utility score, which keeps
the utility AI's sense of position and breaks ties when nothing is in reach. It reads only the side's view it
is handed and draws nothing at random, so a battle stays deterministic for its seed (R-10.1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.ai.estimate import estimate_shot
from skirmish.ai.search.model import Exchange, Replies, Weights, exchange, material
from skirmish.ai.search.plan import Plan
from skirmish.ai.utility import PERSONALITIES, UtilityAI
from skirmish.ai.utility.material import shots_this_turn
from skirmish.battle import Request
from skirmish.core.legal import LazyCells, LegalActions
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, ActionParseError, CoverFire, EndTurn, Shoot, Throw, parse_action

WIDTH = 6  # the utility AI's options weighed (its choice and five runners-up), besides every legal shot
RUNNERS_UP = 3  # runners-up a decision's trace keeps (as the utility AI's)
# The search tier's weights (hard and `search`): the turn order (R-5.1; the side that wins a phase's tie taken to
# act first next round too), enemies out of sight walking into it at half weight, our next shot at the best
# enemy still standing, a move's attacks as often as the turn still allows them, a shot with the turn of fire
# the timing lets follow it in any modes (`volley`, R-5.4/R-5.5) and the rounds it sends past its target on whoever
# stands on the line (`strays`, R-6.11), and split bursts, double taps and covering fire with its pin priced as the
# rules read them (`extras`, `cover`: `ai/search/extras.py`, R-6.3/R-6.12) (docs/results/ladder.txt).
DEFAULT = Weights(order=True, tie=1.0, closing=0.5, standing=True, move_volley=True, mixed=True, strays=True,
                  extras=True, cover=True)


@dataclass
class Candidate:
    """One option the search weighs: the action, the utility AI's trace of it (its score and considerations)
    and, once weighed, its exchange and score."""

    action: Action
    trace: dict[str, Any]
    utility: float
    exchange: Exchange | None = None
    score: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """Trace form: the utility AI's considerations, then the exchange's parts (inputs in units of
        material, outputs as they add up), and the search score."""
        ex = self.exchange
        out = dict(self.trace)
        out["score"] = round(self.score, 4)
        extra: list[dict[str, Any]] = []
        if ex is not None:
            extra = [{"name": "search: our attack", "input": round(ex.attack, 3), "output": round(ex.attack, 3)},
                     {"name": "search: enemy replies", "input": round(ex.reply, 3), "output": round(-ex.reply, 3)},
                     {"name": "search: our next shot", "input": round(ex.follow, 3), "output": round(ex.follow, 3)},
                     {"name": "search: utility score", "input": round(self.utility, 3),
                      "output": round(self.utility, 3)}]
            if ex.plan:
                extra.append({"name": "search: rest of the round", "input": round(ex.plan, 3),
                              "output": round(ex.plan, 3)})
        out["considerations"] = [*self.trace.get("considerations", []), *extra]
        out.pop("momentum", None)
        return out


class SearchAI:
    """Looks one exchange ahead over the utility AI's best options (`search`, or `search:<personality>` for the
    utility AI that proposes)."""

    def __init__(self, personality: str = "normal", weights: Weights | None = None, width: int = WIDTH) -> None:
        if personality not in PERSONALITIES:
            raise ValueError(f"unknown AI personality {personality!r}; known: {', '.join(PERSONALITIES)}")
        self.name = "search" if personality == "normal" else f"search:{personality}"
        # The proposer ranks by its considerations alone (`Personality.material` off): the search weighs its
        # proposals on the material scale itself, with the next shot and the declarations (issue 12's ladder:
        # proposing through the utility AI's own material pick, hard beat normal only 58%).
        self.proposer = UtilityAI(replace(PERSONALITIES[personality], runners_up=width - 1, material=False))
        self.w = weights or DEFAULT
        self.last_trace: dict[str, Any] | None = None

    @property
    def heat(self) -> dict[str, npt.NDArray[np.float64]]:
        """The proposer's move scores per unit (the board's heat map, key M)."""
        return self.proposer.heat

    def decide(self, view: BattleView, request: Request) -> Action:
        """Answer a request (the trace is kept in `last_trace`)."""
        return self.decide_traced(view, request)[0]

    def decide_traced(self, view: BattleView, request: Request) -> tuple[Action, dict[str, Any]]:
        """The action and its trace: the proposals weighed by their exchanges, best first."""
        action, trace = self.proposer.decide_traced(view, request)
        me = view.unit(request.unit)
        if request.kind not in ("act", "declare") or not view.enemies(me):  # nothing to look ahead at
            return self._keep(action, trace)
        legal = request.legal()
        cands = self.candidates(view, me, trace, legal) if request.kind == "act" else self.proposed(trace, legal)
        if not cands:  # nothing the battle allows among the proposals (never seen): the utility AI's answer
            return self._keep(action, trace)
        replies = Replies.of(view, me, self.w)
        plan = Plan.of(view, me, replies.present) if self.w.plan and request.kind == "act" else None
        for c in cands:
            n = shots_this_turn(me, c.action) if isinstance(c.action, Shoot) else 1  # the turn's allowance
            c.exchange = exchange(view, me, c.action, replies, self.w, legal.walk, repeats=n, plan=plan)
            c.score = c.exchange.value(self.w) + self.w.utility * c.utility
        best = max(cands, key=lambda c: c.score)  # the first of equals: the utility AI's order
        self._recommit(view, me, action, best.action)
        ranked = [best, *sorted((c for c in cands if c is not best), key=lambda c: -c.score)]
        trace = {"unit": me.name, "request": request.kind, "personality": self.name, "intent": trace.get("intent"),
                 "chosen": best.to_json(), "runners_up": [c.to_json() for c in ranked[1:1 + RUNNERS_UP]]}
        self.last_trace = trace
        return best.action, trace

    def _keep(self, action: Action, trace: dict[str, Any]) -> tuple[Action, dict[str, Any]]:
        """The utility AI's answer as it stands, traced under this AI's name with the usual runners-up."""
        trace = {**trace, "personality": self.name, "runners_up": trace["runners_up"][:RUNNERS_UP]}
        self.last_trace = trace
        return action, trace

    def candidates(self, view: BattleView, me: UnitView, trace: dict[str, Any], legal: LegalActions) -> list[Candidate]:
        """The utility AI's chosen option and runners-up, and every legal shot at an enemy in sight and the
        throws worth weighing it did not list (scored at its lowest listed score), each once and each one the
        battle allows."""
        out = self.proposed(trace, legal)
        seen = {c.action for c in out}
        floor = min((c.utility for c in out), default=0.0)
        for shot in legal.shots:
            t = view.find(shot.target)
            if t is None or t.ghost:
                continue  # the view does not show it there: never shoot at a ghost (docs/AI.md, fog of war)
            if shot not in seen:
                seen.add(shot)
                out.append(Candidate(shot, {"option": _label(shot), "action": str(shot), "score": floor,
                                            "considerations": []}, floor))
        if self.w.more:  # every split burst and double tap listed, and covering fire over each enemy in sight
            for extra in [*legal.ranged, *covers(view, me, legal)]:
                if extra not in seen:
                    seen.add(extra)
                    out.append(Candidate(extra, {"option": str(extra), "action": str(extra), "score": floor,
                                                 "considerations": []}, floor))
        for throw in throws(view, me, legal):
            if throw not in seen:
                seen.add(throw)
                out.append(Candidate(throw, {"option": f"throw {throw.item} at {throw.at[0]},{throw.at[1]}",
                                             "action": str(throw), "score": floor, "considerations": []}, floor))
        end = EndTurn(me.name)
        if end not in seen:
            out.append(Candidate(end, {"option": "end turn", "action": str(end), "score": 0.0, "considerations": []},
                                 0.0))
        return out

    @staticmethod
    def proposed(trace: dict[str, Any], legal: LegalActions) -> list[Candidate]:
        """The utility AI's chosen option and runners-up (read back from their text form), each once and each
        one the battle allows."""
        out: list[Candidate] = []
        seen: set[Action] = set()
        for o in [trace["chosen"], *trace["runners_up"]]:
            a = _parsed(str(o["action"]))
            if a is None:
                continue
            if a not in seen and legal.allows(a):
                seen.add(a)
                out.append(Candidate(a, o, float(o["score"])))
        return out

    def _recommit(self, view: BattleView, me: UnitView, proposed: Action, chosen: Action) -> None:
        """Keep the proposer's count of the fire sent at each target this round (no overkill) true to the shot
        actually chosen, and its momentum off the proposal not taken."""
        if proposed == chosen:
            return
        self.proposer.forget_choice(me.name)  # no momentum toward the proposal it did not carry out
        committed = self.proposer.committed
        for a, sign in ((proposed, -1.0), (chosen, 1.0)):
            if isinstance(a, Shoot):
                t = view.find(a.target)
                if t is None:
                    continue
                est = estimate_shot(view, me, t, mode=a.mode, burst=a.burst, moved=me.moved)
                k = (view.round, a.target)
                committed[k] = max(0.0, committed.get(k, 0.0) + sign * (est.wounds + est.ct / 6))


PARSED_KEPT = 4096  # action texts `_parsed` keeps before it starts again


def _parsed(text: str) -> Action | None:
    """`parse_action(text)`, None where it raises ActionParseError; kept by the text (an action is a frozen value,
    and the proposer traces the same few actions decision after decision)."""
    if text in _PARSED:
        return _PARSED[text]
    try:
        a: Action | None = parse_action(text)
    except ActionParseError:
        a = None
    if len(_PARSED) >= PARSED_KEPT:
        _PARSED.clear()
    _PARSED[text] = a
    return a


_PARSED: dict[str, Action | None] = {}


def throws(view: BattleView, me: UnitView, legal: LegalActions) -> list[Throw]:
    """Throws worth weighing (R-6.10): each explosive the battle lets the unit throw, at each enemy in sight
    and at the cell between two of them, where no friend (nor the thrower) stands within the blast radius and
    two cells of scatter."""
    if me.attacked:
        return []
    grid = view.grid
    seen = [e for e in view.enemies(me) if not e.ghost]
    aims = {e.cell for e in seen}
    for i, a in enumerate(seen):
        for b in seen[i + 1:]:
            aims.add(((a.cell[0] + b.cell[0]) // 2, (a.cell[1] + b.cell[1]) // 2))
    ours = [me, *view.friends(me)]
    out = []
    for item, cells in legal.throws:
        weapon = next((wp for wp, n in me.throwables if wp.id == item and n > 0), None)
        if weapon is None:
            continue
        danger = weapon.blast_m + 2 * grid.cell_m
        asked = sorted(aims)  # (the legal list's cells asked about these alone: LazyCells.among)
        listed = cells.among(asked) if isinstance(cells, LazyCells) else [a in cells for a in asked]
        for at in (a for a, yes in zip(asked, listed, strict=True) if yes):
            if all(geo.distance_m(f.cell, at, grid.cell_m) > danger for f in ours):
                out.append(Throw(me.name, at, item))
    return out


def covers(view: BattleView, me: UnitView, legal: LegalActions) -> list[CoverFire]:
    """Covering fire (R-6.12) over each enemy in sight, in each volume the battle allows that leaves the rounds
    for the shot it covers with (as the utility AI keeps them, `ranged_extra.cover_options`)."""
    if not legal.covers or legal.cell_ok is None or me.weapon is None:
        return []
    out = []
    for e in view.enemies(me):
        if e.ghost or e.out_of_action or not view.sight(me, e).visible or not legal.cell_ok("cover", e.cell):
            continue
        out += [CoverFire(me.name, e.cell, burst=b) for b in legal.covers if me.rounds >= 2 * max(1, b)]
    return out


def _label(shot: Shoot) -> str:
    """The utility AI's label for a shot."""
    return f"shoot {shot.target} {shot.mode}" + (f" burst {shot.burst}" if shot.burst else "")


def make_search(spec: str) -> SearchAI:
    """`search` or `search:<personality>` (the utility AI that proposes: easy, normal, hard, ...)."""
    _, _, name = spec.partition(":")
    return SearchAI(name or "normal")


__all__ = ["Candidate", "SearchAI", "make_search", "material"]
