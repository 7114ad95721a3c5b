"""The utility AI's reasoner: it gathers the options, scores them, adds momentum, picks the best and
keeps a trace of the decision (the chosen option and the runners-up with every consideration). In its turn
the options that attack and the best that do not are ranked again on the material scale (`material.py`, a
personality's `material`), so the chosen option may carry a lower utility score than a runner-up: its
`material: value` consideration says why.

The AI reads a frozen BattleView and returns Actions; it never writes the world (ARCHITECTURE §2). What the
unit may do comes from the battle (`Request.legal()`), and what it has done this turn from the view; the AI
itself remembers only its habits: the last choice of each unit (momentum), the fire its side has sent at
each target this round (no overkill), the places its side has seen empty while searching, its maps, and the
heat map it shows the board. Each decision starts from the side's intent (`intent.side_intent`), which goes
into the trace.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from skirmish.ai.utility.hand_choice import choose_hand
from skirmish.ai.utility.intent import Goal, GoalFields, SearchMemory, ai_personality, side_intent
from skirmish.ai.utility.maps import MapCache
from skirmish.ai.utility.material import material_pick, weights
from skirmish.ai.utility.options import Situation, act_options, declare_options, slow_first
from skirmish.ai.utility.personality import PERSONALITIES, Personality
from skirmish.ai.utility.scoring import Option
from skirmish.battle import Request
from skirmish.ecs.view import BattleView
from skirmish.rules.actions import Action, Shoot

if TYPE_CHECKING:
    from skirmish.ai.search import SearchAI


class UtilityAI:
    """The utility AI; `personality` picks the weights and the difficulty."""

    def __init__(self, personality: Personality | str = "normal") -> None:
        self.p = PERSONALITIES[personality] if isinstance(personality, str) else personality
        self._last: dict[str, tuple[int, tuple[Any, ...]]] = {}  # unit -> (round, its last choice's key)
        self._maps = MapCache()
        self.committed: dict[tuple[int, str], float] = {}  # (round, target) -> expected wounds already sent
        self.goals: list[Goal] = []  # intent inputs: where the side should make for (objectives, a later issue)
        self._goal_fields = GoalFields()
        self._search = SearchMemory()  # the cells each side has seen empty while searching
        self.last_trace: dict[str, Any] | None = None
        self._heat: dict[str, npt.NDArray[np.float64]] = {}  # unit -> move scores (NaN where unreachable): `heat`
        self._heat_ranked: set[str] = set()  # units whose heat already carries (or will carry) the whole move scores
        self._heat_pending: dict[str, tuple[npt.NDArray[np.float64], list[tuple[Any, float]]]] = {}  # `_rank_heat`

    def decide(self, view: BattleView, request: Request) -> Action:
        """Answer a request (the trace is kept in `last_trace`)."""
        return self.decide_traced(view, request)[0]

    def decide_traced(self, view: BattleView, request: Request) -> tuple[Action, dict[str, Any]]:
        """The action and the decision's trace: the chosen option and the best runners-up, each with every
        consideration's input, curve output and the product (issue 4)."""
        me = view.unit(request.unit)
        switched = ai_personality(view, me.side) if view.ai_orders else None  # a scenario trigger's (issue 15)
        if switched is not None and switched != self.p.name:
            self.p = PERSONALITIES[switched]
        maps = self._maps.maps_for(fresh(view), me)
        intent = side_intent(view, me, self.p.aggression, self.goals, self._search)
        if request.kind == "declare":
            options = declare_options(view, me, self.p, maps, request.legal(), intent)
        else:
            options, heat = act_options(Situation(view, me, self.p, maps, self._maps, request.legal(), self.committed,
                                                  intent, self._goal_fields))
            if heat is not None:
                self._heat[me.name] = heat
                self._heat_ranked.discard(me.name)
                self._heat_pending.pop(me.name, None)  # (ranking the heat it replaces is moot: nobody sees it)
        last = self._last.get(me.name)
        habit = last[1] if last is not None and last[0] == view.round else None  # momentum within a round only
        for o in options:
            o.finish(habit, self.p.momentum).blunt(self.p.noise, f"{view.salt}|{view.round}|{me.name}")
        options.sort(key=lambda o: -o.score)
        if request.kind == "act" and self.p.material:  # attack or not, on the material scale (issue 12)
            options = material_pick(view, me, options, request.legal(), weights(self.p.scale_reply,
                                                                                self.p.scale_utility))
        elif request.kind == "declare" and self.p.declare_slow:  # every action, the aimed shot, acting late
            options = slow_first(options)
        if request.kind == "declare":  # card hands: keep, forgo, rush (hand_choice.py)
            options = choose_hand(view, me, maps, request.legal(), options)
        best = options[0]
        self._last[me.name] = (view.round, best.key)
        if request.kind == "act":
            self._commit(view, best)
            self._rank_heat(me.name, options)
        trace = {"unit": me.name, "request": request.kind, "personality": self.p.name, "intent": intent.text,
                 "chosen": best.to_json(), "runners_up": [o.to_json() for o in options[1:1 + self.p.runners_up]]}
        self.last_trace = trace
        return best.action, trace

    def forget_choice(self, unit: str) -> None:
        """Drop the unit's last choice (its momentum): another AI that proposes through this one took a
        different action, so the option chosen here was not the one carried out."""
        self._last.pop(unit, None)

    def _commit(self, view: BattleView, best: Option) -> None:
        """Count a shot (or blow) against its target this round, so allies do not overkill it (fire allocated for the
        side): its expected wounds, and its kill chance as the wounds the target has left (a shot likely to
        put it down commits all of them)."""
        a = best.action
        if isinstance(a, Shoot) or (best.key[:1] in (("melee",), ("charge",)) and best.estimate is not None):
            est = best.estimate
            target = str(getattr(a, "target", ""))  # a shot's, a blow's or a charge's (a melee option's, issue 14)
            k = (view.round, target)
            t = view.find(target)
            left = max(0.5, 4.0 - t.wounds) if t is not None else 4.0
            sent = min(left, est.wounds + est.ct / 6 + est.kill * left) if est else 0.0
            self.committed[k] = self.committed.get(k, 0.0) + sent

    @property
    def heat(self) -> dict[str, npt.NDArray[np.float64]]:
        """Each unit's heat map of its last decision that weighed moves: the move scores (NaN where unreachable),
        ranked (`_rank_heat`) when first looked at: only the board and tests look, so a battle does not pay for it."""
        for heat, moves in self._heat_pending.values():
            _ranked(heat, moves)
        self._heat_pending.clear()
        return self._heat

    def _rank_heat(self, unit: str, options: list[Option]) -> None:
        """Put the move options' whole scores into this decision's heat map, so its best cell is the move
        the AI chose (or would choose): cells that were not weighed in full keep their cell score, scaled
        below the lowest weighed move (issue 10). Done when the heat is looked at (`heat`), from the moves' cells
        and scores kept now."""
        heat = self._heat.get(unit)
        moves = [(o.key[1], o.score) for o in options if o.key[0] == "move"]
        if heat is None or not moves or unit in self._heat_ranked:
            return
        self._heat_ranked.add(unit)
        self._heat_pending[unit] = (heat, moves)


def _ranked(heat: npt.NDArray[np.float64], moves: list[tuple[Any, float]]) -> None:
    """`UtilityAI._rank_heat`'s work on the heat map, in place: `moves` are (cell, score), best first."""
    weighed = np.zeros(heat.shape, dtype=bool)
    for cell, _ in moves:
        weighed[cell[1], cell[0]] = True
    others = np.isfinite(heat) & ~weighed
    low = min(score for _, score in moves)
    top = float(np.max(heat[others])) if others.any() else 0.0
    if top > 0:
        heat[others] *= 0.999 * low / top if top >= low else 1.0
    for cell, score in reversed(moves):  # best last, so it wins a shared cell (a walk and a run to the same place)
        heat[cell[1], cell[0]] = score
    chosen = moves[0][0]
    heat[chosen[1], chosen[0]] = np.nextafter(max(moves[0][1], float(np.nanmax(heat))), np.inf)


STALE_ROUNDS = 2  # a ghost last seen this many rounds ago or more no longer counts for threat and cover


def fresh(view: BattleView) -> BattleView:
    """The view the threat and cover maps read: ghosts last seen STALE_ROUNDS rounds ago or more left out (the
    enemy has likely gone; the intent still searches their last known places). Without it a side that presses
    would not step into the sight of a place an enemy left long ago (issue 12)."""
    units = tuple(u for u in view.units if not (u.ghost and view.round - (u.last_seen or 0) >= STALE_ROUNDS))
    return view if len(units) == len(view.units) else replace(view, units=units)


def make_utility(spec: str) -> UtilityAI | SearchAI:
    """`utility` or `utility:<personality>` (easy, normal, hard, aggressive, cautious). A personality that looks
    ahead (`Personality.look_ahead`, hard) has its best options weighed again one exchange ahead by the search
    tier's model (`skirmish.ai.search`), with itself as the utility AI that proposes them."""
    _, _, name = spec.partition(":")
    name = name or "normal"
    if name not in PERSONALITIES:
        raise ValueError(f"unknown AI personality {name!r}; known: {', '.join(PERSONALITIES)}")
    width = PERSONALITIES[name].look_ahead
    if width:
        from skirmish.ai.search import SearchAI  # the search tier builds on this package: imported when used

        ai = SearchAI(name, width=width)
        ai.name = name  # traced as the personality, like any utility AI's decision
        return ai
    return UtilityAI(name)
