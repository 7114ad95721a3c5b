"""The search tier for Future*World (`search[:personality]` on an fw scenario; docs/AI.md "Future*World").

The fw utility AI proposes: its `WIDTH` best declarations (R-9.2, R-9.3, R-9.8), scored as it scores them. Each
is weighed again by a one-exchange expectimax over the rules' exact odds (`rulesets.fw.attack_odds`, through
`ai/fw/estimate.py`), in resolution order (R-9.2: highest DEX first, equal DEX simultaneous):

1. *the enemies that resolve before us* (higher DEX) fire at us behind the screen this declaration sets; each
   may put us down (the chance its damage reaches our HP), and then our own act never resolves;
2. *our attack*, a chance node over its damage distribution: the target is down with the chance the damage
   reaches its HP;
3. *the enemies that resolve with or after us* fire at us too, except our target when our attack has put it
   down first (only an enemy slower than us: one of equal DEX fires all the same).

The movement segment is weighed the same way: the utility AI's best cells (and staying), each with the
declaration the figure made, from where it would end (a moving target and a moving firer, R-9.4).

So the search prefers, other things equal, the target whose reply a hit saves (one slower than us), the
screen that keeps us standing long enough to fire, and not to spend energy on a shot that will not resolve.
It reads only the side's view it is handed and draws nothing at
random, so a battle stays deterministic for its seed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from skirmish.ai.fw import car
from skirmish.ai.fw import estimate as est
from skirmish.ai.fw.personality import PERSONALITIES, draw
from skirmish.ai.fw.reasoner import FwOption, FwUtilityAI
from skirmish.ai.fw.side import side_intent
from skirmish.battle import Request
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.actions import Action, Move
from skirmish.rules.geometry import Cell
from skirmish.rulesets.fw import INTENT, FwIntent, FwWeapon, tables

WIDTH = 6  # the utility AI's declarations weighed again (its choice and five runners-up)
RESOLVING = ("shoot", "burst", "melee", "throw", "launch", "aid", "react")  # acts that resolve at the figure's DEX


@dataclass(frozen=True)
class Exchange:
    """One declaration looked at one exchange ahead (HP-equivalents, as the utility AI's scale)."""

    acts_first: float  # the chance we are still up when our DEX comes (enemies faster than us have fired)
    attack: float  # the utility's worth of our act, times `acts_first`
    replies: float  # the HP-equivalent the enemies' replies take, in resolution order
    saved: float  # of which the replies our attack prevents (a slower target put down first)


def _worth_and_threat(o: FwOption) -> tuple[float, float, float]:
    """(worth output, threat output, every other output) of a utility option's considerations."""
    worth = threat = other = 0.0
    for name, _, out in o.considerations:
        if name.startswith("worth") or name == "hit chance":  # a declaration's act; a move's declared act
            worth += out
        elif name == "threat here":
            threat += out
        else:
            other += out
    return worth, threat, other


def _mount_weapon(me: UnitView, fi: FwIntent) -> FwWeapon | None:
    """The weapon a mount fire shoots (the engine's `mounts.weapon_of`): the mount's own or the one set on it, else
    the one the intent names."""
    c = car.car_of(me)
    m = next((m for m in c.mounts if m.id == fi.mount), None) if c is not None else None
    wid = (m.weapon if m is not None else None) or fi.weapon
    return tables().weapons.get(wid) if wid else None


class FwSearchAI:
    """The fw utility AI's best declarations weighed one exchange ahead (see the module's docstring)."""

    def __init__(self, personality: str = "normal", width: int = WIDTH) -> None:
        if personality not in PERSONALITIES:
            raise ValueError(f"unknown personality {personality!r} for the Future*World search AI; known: "
                             f"{', '.join(PERSONALITIES)}")
        self.proposer = FwUtilityAI(personality)
        self.p = self.proposer.p
        self.name = "search" if personality == "normal" else f"search:{personality}"
        self.width = width
        self.last_trace: dict[str, Any] | None = None

    def decide(self, view: BattleView, request: Request) -> Action:
        """Answer a request (the trace is kept in `last_trace`)."""
        return self.decide_traced(view, request)[0]

    def decide_traced(self, view: BattleView, request: Request) -> tuple[Action, dict[str, Any]]:
        """The utility AI's best answers (a declaration, or a move of the movement segment) weighed one exchange
        ahead; the trace names the chosen one and the runners-up with the search's considerations."""
        me = view.unit(request.unit)
        est.ext(me)  # a figure of another ruleset fails here, named
        intent = side_intent(view, me)
        self.proposer.urgency = 1.0 + (view.round / view.max_rounds if view.max_rounds else 0.0)
        if request.kind == INTENT:
            options = self.proposer.declarations(view, me, intent)
        else:
            options = self.proposer.moves(view, me, intent, request.legal().walk)
        if self.p.noise:
            for o in options:
                o.noise = 1.0 - self.p.noise * draw(f"{view.salt}|{view.round}|{me.name}|{o.label}")
        options.sort(key=lambda o: (-o.score, o.label))
        weighed = [(self.score(view, me, o), o) for o in options[: self.width]]
        weighed.sort(key=lambda so: (-so[0][0], so[1].label))
        (best_score, best_ex), best = weighed[0]
        if request.kind == INTENT:  # what the side declared, as the utility AI records it (its own commit too)
            self.proposer._commit(view, me, best.action)
            if isinstance(best.action, FwIntent):
                self.proposer.declared[(view.round, me.name)] = (best.action.weapon, best.action.dccm)
        trace = {"unit": me.name, "request": request.kind, "personality": self.name, "intent": intent.text,
                 "chosen": self._json(best, best_score, best_ex),
                 "runners_up": [self._json(o, s, ex) for (s, ex), o in weighed[1:1 + self.p.runners_up]]}
        action = car.answer(view, me, request, best.action, intent, trace)  # aboard a grav car
        self.last_trace = trace
        return action, trace

    # ------------------------------------------------------------------------------------------ the exchange
    def exchange(self, view: BattleView, me: UnitView, fi: FwIntent, worth: float, at: Cell | None = None, *,
                 moves: bool = False) -> Exchange:
        """Declaration `fi` one exchange ahead with the figure at `at` (default: where it stands; `moves`: it
        moved there this round), see the module's docstring; `worth` is the utility's output for its act."""
        x = est.ext(me)
        at = at or me.cell
        leaps = bool(fi.jump) or (moves and x.jump > 0)
        screen = (fi.screen, fi.points)
        target, down = self._attack(view, me, fi, at, moves)
        acts_first = 1.0
        replies: list[tuple[UnitView, float, float, int]] = []  # (enemy, HP-equivalent, P(we drop), its DEX)
        for t in est.threats(view, me, at):
            if t.weapon.weapon_class == "melee":  # a sword's threat by the melee rules, as estimate.incoming weighs it
                s = est.strike(view, t.enemy, t.weapon, me, screen=screen, target_moves=moves or leaps)
            else:
                s = est.shot(view, t.enemy, t.weapon, t.enemy.cell, me, at, burst=est.can_burst(t.enemy, t.weapon),
                             target_moves=moves or leaps, target_leaps=leaps, screen=screen)
            replies.append((t.enemy, t.share * s.value(x.hp, self.p.kill), t.share * s.down, est.ext(t.enemy).DEX))
        resolving = any(a in RESOLVING for a, _ in fi.acts())
        if resolving:
            for _, _, drop, dex in replies:
                if dex > x.DEX:  # it fires before our act resolves
                    acts_first *= 1.0 - drop
        total = saved = 0.0
        for enemy, value, _, dex in replies:
            if target is not None and enemy.name == target and dex < x.DEX:
                prevented = value * down * acts_first
                saved += prevented
                value -= prevented
            total += value
        return Exchange(acts_first, worth * acts_first if resolving else worth, total, saved)

    def _attack(self, view: BattleView, me: UnitView, fi: FwIntent, at: Cell, moves: bool) -> tuple[str | None, float]:
        """Our attack's target and the chance it goes down (its damage distribution reaching its HP, R-9.7)."""
        act, name = next(((a, t) for a, t in fi.acts() if a in ("shoot", "burst")), (None, None))
        target = view.find(name) if name else None
        mounted = fi.mount is not None  # a grav car's mount: the weapon it fires, at the mounted chance
        w = _mount_weapon(me, fi) if mounted else est.weapon(me)
        if act is None or target is None or w is None:
            return None, 0.0
        seen = not target.ghost and est.in_range(view, at, target.cell, w) and est.sees(view, at, target.cell).visible
        if moves and not seen:
            return None, 0.0  # out of sight from where it ends: the act is idle
        s = est.shot(view, me, w, at, target, target.cell, burst=act == "burst", firer_moves=moves or not seen,
                     mounted=mounted)
        return target.name, s.down

    def score(self, view: BattleView, me: UnitView, o: FwOption) -> tuple[float, Exchange]:
        """The option's score with its worth and threat weighed one exchange ahead (the other considerations,
        the sensors' sweep, cover, closing in, as the utility AI weighs them). A declaration is weighed where
        the figure stands; a move of the movement segment where it ends, with the declaration it made."""
        worth, _, other = _worth_and_threat(o)
        if isinstance(o.action, FwIntent):
            ex = self.exchange(view, me, o.action, worth)
        else:
            x = est.ext(me)
            declared = FwIntent(me.name, *(x.acts[0] if x.acts else ("none", None)), screen=x.screen,
                                points=x.screen_points, jump=x.jump)
            if len(x.acts) > 1:
                declared = replace(declared, then=x.acts[1][0], then_target=x.acts[1][1])
            moving = isinstance(o.action, Move)
            ex = self.exchange(view, me, declared, worth, o.action.to if isinstance(o.action, Move) else me.cell,
                               moves=moving)
        return (ex.attack - self.p.caution * ex.replies + other) * o.noise, ex

    def _json(self, o: FwOption, score: float, ex: Exchange) -> dict[str, Any]:
        out = o.to_json()
        utility = out["score"]  # (a consideration: the decision event's option has no key of its own for it)
        out["score"] = round(score, 4)
        out["considerations"] = [*out["considerations"],
                                 {"name": "search: utility score", "input": utility, "output": utility},
                                 {"name": "search: we act before the faster enemies drop us",
                                  "input": round(ex.acts_first, 3), "output": round(ex.attack, 3)},
                                 {"name": "search: replies in DEX order", "input": round(ex.replies, 3),
                                  "output": round(-self.p.caution * ex.replies, 3)},
                                 {"name": "search: replies our attack prevents", "input": round(ex.saved, 3),
                                  "output": 0.0}]
        return out


def make_fw_search(spec: str) -> FwSearchAI:
    """`search` or `search:<personality>` (ValueError naming the known personalities)."""
    _, _, name = spec.partition(":")
    return FwSearchAI(name or "normal")
