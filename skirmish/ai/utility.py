"""A utility AI in the Infinite Axis style, with a trace of every decision.

Each option (declare a speed; move to a cell; shoot a target in a mode; throw; aim; reload; wait; split the
tacpack; end the turn) is scored by its considerations: a raw input in [0, 1] through a response curve,
multiplied after the compensation factor. The option the unit chose last time gets a momentum bonus, and
ending the turn is a constant fallback. Threat, cover and sight come from numpy maps built once per phase
(`TacticalMaps`); every reachable cell is scored at once, which also gives the board its heat map.

The AI reads a frozen BattleView and returns Actions; it never writes the world (ARCHITECTURE §2).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.ai.curves import Curve, combine
from skirmish.ai.estimate import ShotEstimate, estimate_shot, hit_probability, throw_chance
from skirmish.battle import Request
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import (
    Action,
    Aim,
    Declare,
    EndTurn,
    Move,
    Reload,
    SetTacpack,
    Shoot,
    Throw,
    Wait,
)
from skirmish.rules.checks import skill_pool, tn
from skirmish.rules.deck import SIDES
from skirmish.rules.dice import pool_pmf
from skirmish.rules.equipment import SCREEN_STOPS, Speed
from skirmish.rulesets.fi import Part, declared_speed, expected_hit_probability, fits
from skirmish.rulesets.fi import thrown as thr

COVER_VALUE = {"none": 0.0, "low": 0.6, "high": 0.9}
TOP_MOVES = 8  # move cells that get the exact shot-after-moving and route-exposure considerations
HARM = Curve("linear", m=0.9, b=0.1)  # what a shot is worth, the same scale for every option


def harm(est: ShotEstimate) -> float:
    """What an attack is worth in one number: expected wounds (CT at a sixth of a wound) over three, plus
    the chance it puts the target out of action, capped at 1. Shooting now, shooting after a move and
    aiming for a later shot are all scored on this scale, so they compare fairly."""
    return min(1.0, (est.wounds + est.ct / 6) / 3 + est.kill)


@dataclass(frozen=True)
class Personality:
    """How a unit weighs things; pure data (a difficulty level is a personality)."""

    name: str = "normal"
    aggression: float = 0.5  # closing in, taking riskier shots
    caution: float = 0.5  # valuing cover and low threat
    focus: float = 0.5  # concentrating fire on hurt targets, avoiding overkill
    momentum: float = 0.25  # bonus for repeating the last choice (no flip-flopping)
    fallback: float = 0.03  # the constant score of ending the turn
    runners_up: int = 3
    think_moves: bool = True  # consider moving at all
    use_exposure: bool = True  # score exposure along the route
    use_commitment: bool = True  # count damage already committed by allies
    use_grenades: bool = True

    @staticmethod
    def parse(raw: dict[str, Any]) -> Personality:
        """From data; raises ValueError naming the field."""
        known = set(Personality.__dataclass_fields__)
        unknown = set(raw) - known
        if unknown:
            raise ValueError(f"personality: unknown field {sorted(unknown)[0]!r}")
        return replace(Personality(), **raw)


PERSONALITIES: dict[str, Personality] = {
    "easy": Personality("easy", aggression=0.7, caution=0.2, focus=0.1, momentum=0.1, use_exposure=False,
                        use_commitment=False, use_grenades=False),
    "normal": Personality("normal"),
    "hard": Personality("hard", aggression=0.45, caution=0.65, focus=0.8, momentum=0.3),
    "aggressive": Personality("aggressive", aggression=0.85, caution=0.3, focus=0.6),
    "cautious": Personality("cautious", aggression=0.25, caution=0.85, focus=0.6),
}
DIFFICULTIES = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Consideration:
    """One axis: its name, its raw input in [0, 1], and the curve's output."""

    name: str
    input: float
    output: float

    def to_json(self) -> dict[str, Any]:
        """Trace form."""
        return {"name": self.name, "input": round(self.input, 3), "output": round(self.output, 3)}


@dataclass
class Option:
    """A candidate action with its considerations and score."""

    label: str
    action: Action
    key: tuple[Any, ...]
    considerations: list[Consideration] = field(default_factory=list)
    bonus: float = 1.0
    score: float = 0.0
    estimate: ShotEstimate | None = None  # a shot's estimate (for the fire it commits), not traced

    def add(self, name: str, raw: float, curve: Curve) -> Option:
        """Score a consideration."""
        self.considerations.append(Consideration(name, float(raw), float(curve(raw))))
        return self

    def finish(self, momentum_key: tuple[Any, ...] | None, momentum: float) -> Option:
        """Combine the outputs (compensation factor), then momentum."""
        base = float(combine([c.output for c in self.considerations])) if self.considerations else 0.0
        if momentum_key is not None and self.key == momentum_key:
            self.bonus = 1.0 + momentum
        self.score = base * self.bonus
        return self

    def to_json(self) -> dict[str, Any]:
        """Trace form."""
        out: dict[str, Any] = {"option": self.label, "action": str(self.action), "score": round(self.score, 4),
                               "considerations": [c.to_json() for c in self.considerations]}
        if self.bonus != 1.0:
            out["momentum"] = round(self.bonus, 3)
        return out


# ---------------------------------------------------------------------------------------------- maps


@dataclass
class TacticalMaps:
    """Per phase and side: for every cell near the side's units, how many enemies see it, how well it is
    covered from them, and how much fire it draws (threat)."""

    key: tuple[Any, ...]
    seen_by: npt.NDArray[np.float64]
    cover: npt.NDArray[np.float64]  # mean cover value against the enemies that see the cell (1 if none)
    threat: npt.NDArray[np.float64]  # expected hits per enemy action on a man standing there, summed
    mask: npt.NDArray[np.bool_]
    walk_m: npt.NDArray[np.float64]  # walking distance to the nearest enemy in metres (inf: no way there)


def _enemy_hit_by_range(e: UnitView, view: BattleView, dist_m: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """A rough chance an enemy hits a standing man at each distance (its skill pool against the range TN)."""
    w = e.weapon
    if w is None:
        return np.zeros_like(dist_m)
    pool = skill_pool(e.trait("dexterity"), dict(e.skills), w.skill)
    mod = sum(m.value for m in pool.modifiers)
    base = tn("standard", view.scope)  # type: ignore[arg-type]
    steps = np.floor(dist_m / w.range_inc_m + 1e-9).astype(int)
    out = np.zeros_like(dist_m)
    for s in np.unique(steps):
        t = int(base + s)
        p = expected_hit_probability(pool_pmf(SIDES[pool.column], pool.row, t - mod), t, mod, pool.halve)
        out[steps == s] = p
    out[dist_m > w.max_range_m] = 0.0
    return out


def build_maps(view: BattleView, me: UnitView, key: tuple[Any, ...], mask: npt.NDArray[np.bool_],
               walk_from: dict[geo.Cell, npt.NDArray[np.float64]] | None = None) -> TacticalMaps:
    """Sight, cover and threat over the masked cells, against every enemy in action, and the walking
    distance to the nearest enemy over the whole map (`walk_from` caches a field per enemy cell)."""
    grid = view.grid
    h, w = grid.height, grid.width
    seen = np.zeros((h, w))
    cover_sum = np.zeros((h, w))
    threat = np.zeros((h, w))
    ys, xs = np.nonzero(mask)
    cells = list(zip(xs.tolist(), ys.tolist(), strict=True))
    for e in view.enemies(me):
        vis = np.zeros(len(cells), dtype=bool)
        cov = np.zeros(len(cells))
        for i, c in enumerate(cells):
            s = geo.sight(grid, e.cell, c)
            if s.visible:
                vis[i] = True
                cov[i] = COVER_VALUE[s.cover]
        dist = np.hypot(xs - e.cell[0], ys - e.cell[1]) * grid.cell_m
        p = _enemy_hit_by_range(e, view, dist)
        seen[ys[vis], xs[vis]] += 1
        cover_sum[ys[vis], xs[vis]] += cov[vis]
        threat[ys[vis], xs[vis]] += (p * (1 - cov))[vis]
    with np.errstate(invalid="ignore", divide="ignore"):
        cover = np.where(seen > 0, cover_sum / np.maximum(seen, 1), 1.0)
    cache = walk_from if walk_from is not None else {}
    walk = np.full((h, w), np.inf)
    for e in view.enemies(me):
        field_ = cache.get(e.cell)
        if field_ is None:
            field_ = cache[e.cell] = geo.reach_field(grid, e.cell, math.inf)
        walk = np.minimum(walk, field_)
    return TacticalMaps(key, seen, cover, threat, mask, walk * grid.cell_m)


# ---------------------------------------------------------------------------------------------- the AI


@dataclass
class _Turn:
    key: tuple[int, int | None, str]
    parts: list[Part] = field(default_factory=list)
    moved: str = "none"
    attacked: bool = False
    tacpack: bool = False


@dataclass
class _Cells:
    """Where an action may end: the reach (None if the unit may not move), and every candidate cell's
    considerations, scored at once."""

    reach: npt.NDArray[np.float64] | None
    walk: float
    can_walk: bool
    can_run: bool
    scores: npt.NDArray[np.float64]
    parts: dict[str, tuple[npt.NDArray[np.float64], Curve]]


class UtilityAI:
    """The utility AI; `personality` picks the weights and the difficulty."""

    def __init__(self, personality: Personality | str = "normal") -> None:
        self.p = PERSONALITIES[personality] if isinstance(personality, str) else personality
        self._turns: dict[str, _Turn] = {}
        self._last: dict[str, tuple[Any, ...]] = {}
        self._maps: dict[str, TacticalMaps] = {}
        self._walk_from: dict[geo.Cell, npt.NDArray[np.float64]] = {}  # walking-distance field per enemy cell
        self._walk_grid: geo.GridMap | None = None
        self.committed: dict[tuple[int, str], float] = {}  # (round, target) -> expected wounds already sent
        self.last_trace: dict[str, Any] | None = None
        self.heat: dict[str, npt.NDArray[np.float64]] = {}  # unit -> move scores (NaN where unreachable)
        self._heat_ranked: set[str] = set()  # units whose heat already carries the whole move scores

    # ------------------------------------------------------------------ entry points
    def decide(self, view: BattleView, request: Request) -> Action:
        """Answer a request (the trace is kept in `last_trace`)."""
        return self.decide_traced(view, request)[0]

    def decide_traced(self, view: BattleView, request: Request) -> tuple[Action, dict[str, Any]]:
        """The action and the decision's trace: the chosen option and the best runners-up, each with every
        consideration's input, curve output and the product (issue 4)."""
        me = view.unit(request.unit)
        if request.kind == "declare":
            options = self._declare_options(view, me)
        else:
            turn = self._turn(view, me)
            options = self._act_options(view, me, turn)
        for o in options:
            o.finish(self._last.get(me.name), self.p.momentum)
        options.sort(key=lambda o: -o.score)
        best = options[0]
        self._last[me.name] = best.key
        if request.kind == "act":
            self._remember(view, me, best)
            self._rank_heat(me.name, options)
        trace = {"unit": me.name, "request": request.kind, "personality": self.p.name,
                 "chosen": best.to_json(), "runners_up": [o.to_json() for o in options[1:1 + self.p.runners_up]]}
        self.last_trace = trace
        return best.action, trace

    def _rank_heat(self, unit: str, options: list[Option]) -> None:
        """Put the move options' whole scores into this decision's heat map, so its best cell is the move
        the AI chose (or would choose): cells that were not weighed in full keep their cell score, scaled
        below the lowest weighed move (issue 10)."""
        heat = self.heat.get(unit)
        moves = [o for o in options if o.key[0] == "move"]
        if heat is None or not moves or unit in self._heat_ranked:
            return
        self._heat_ranked.add(unit)
        weighed = np.zeros(heat.shape, dtype=bool)
        for o in moves:
            weighed[o.key[1][1], o.key[1][0]] = True
        others = np.isfinite(heat) & ~weighed
        low = min(o.score for o in moves)
        top = float(np.max(heat[others])) if others.any() else 0.0
        if top > 0:
            heat[others] *= 0.999 * low / top if top >= low else 1.0
        for o in reversed(moves):  # best last, so it wins a shared cell (a walk and a run to the same place)
            heat[o.key[1][1], o.key[1][0]] = o.score
        chosen = moves[0].key[1]
        heat[chosen[1], chosen[0]] = np.nextafter(max(moves[0].score, float(np.nanmax(heat))), np.inf)

    # ------------------------------------------------------------------ declaration
    def _declare_options(self, view: BattleView, me: UnitView) -> list[Option]:
        w = me.weapon
        maps = self._maps_for(view, me)
        targets = self._targets(view, me, me.cell)
        threat_here = float(maps.threat[me.cell[1], me.cell[0]])
        nearest = min((geo.distance_m(me.cell, e.cell, view.grid.cell_m) for e in view.enemies(me)), default=99.0)
        opts = []
        need_reload = w is not None and (me.jammed or me.rounds == 0) and (me.jammed or me.magazines > 0)
        two_action_reload = need_reload and not me.jammed and w is not None and w.reload_actions >= 2
        slow_weapon = w is not None and w.speed == Speed.SLOW
        can_shoot = bool(targets) and w is not None and not need_reload and me.can_fire
        for speed in ("normal", "fast", "slow", "dodge"):
            o = Option(f"declare {speed}", Declare(me.name, speed), ("declare", speed))
            if speed == "normal":
                o.add("has a shot", 1.0 if can_shoot and not slow_weapon else 0.4, Curve("linear", m=0.6, b=0.35))
                o.add("weapon usable at NORMAL", 0.0 if slow_weapon or two_action_reload else 1.0,
                      Curve("linear", m=0.8, b=0.2))
            elif speed == "fast":
                far = min(1.0, nearest / 60.0)
                o.add("distance to close", far if not can_shoot else 0.0, Curve("logistic", m=1.0, k=10, c=0.35))
                o.add("aggression", self.p.aggression, Curve("linear", m=0.6, b=0.4))
            elif speed == "slow":
                o.add("full reload or heavy weapon", 1.0 if two_action_reload or slow_weapon else 0.0,
                      Curve("linear", m=0.9, b=0.05))
            else:
                dodge = dict(me.skills).get("dodge", 0)
                hurt = min(1.0, me.wounds / 3)
                o.add("threat here", min(1.0, threat_here), Curve("logistic", m=1.0, k=12, c=0.5))
                o.add("dodge skill", min(1.0, dodge / 3), Curve("linear", m=0.8, b=0.1))
                o.add("hurt or no shot", max(hurt, 0.0 if can_shoot else 0.6), Curve("linear"))
                o.add("caution", self.p.caution, Curve("linear", m=0.7, b=0.1))
            opts.append(o)
        return opts

    # ------------------------------------------------------------------ actions
    def _turn(self, view: BattleView, me: UnitView) -> _Turn:
        key = (view.round, view.phase, me.name)
        t = self._turns.get(me.name)
        if t is None or t.key != key:
            t = _Turn(key)
            self._turns[me.name] = t
        return t

    def _legal(self, me: UnitView, turn: _Turn, part: Part) -> bool:
        return fits(me.declared, [*turn.parts, part])

    def _remember(self, view: BattleView, me: UnitView, best: Option) -> None:
        turn = self._turn(view, me)
        a = best.action
        w = me.weapon
        if isinstance(a, Move):
            turn.parts.append(Part("move", running=best.key[-1] == "run"))
            turn.moved = "ran" if best.key[-1] == "run" else "walked"
        elif isinstance(a, Shoot) and w is not None:
            turn.parts.append(Part("attack", int(w.speed), a.mode))
            turn.attacked = True
            est = best.estimate
            k = (view.round, a.target)
            self.committed[k] = self.committed.get(k, 0.0) + (est.wounds + est.ct / 6 if est else 0.0)
        elif isinstance(a, Throw):
            turn.parts.append(Part("attack", int(Speed.NORMAL), "prepared"))
            turn.attacked = True
        elif isinstance(a, Aim) and w is not None:
            turn.parts.append(Part("aim", int(w.speed)))
        elif isinstance(a, Reload):
            turn.parts.append(Part("reload", int(Speed.NORMAL)))
        elif isinstance(a, SetTacpack):
            turn.parts.append(Part("free"))
            turn.tacpack = True

    def _act_options(self, view: BattleView, me: UnitView, turn: _Turn) -> list[Option]:
        opts: list[Option] = [Option("end turn", EndTurn(me.name), ("end",)).add(
            "fallback", self.p.fallback, Curve("linear"))]
        w = me.weapon
        maps = self._maps_for(view, me)
        here_threat = float(1 - np.exp(-maps.threat[me.cell[1], me.cell[0]]))
        press = self._press(view, me)
        # Every option is scored where the unit ends its action: the same cell considerations for staying
        # and for each move, and the same shot considerations for shooting now and shooting after a move.
        plan = self._plan_cells(view, me, turn, maps, press)
        here = partial(self._here, plan=plan, cell=me.cell)
        dangers: dict[str, float] = {}  # each target's threat, worked out once for moves and shots alike

        def danger(t: UnitView) -> float:
            if t.name not in dangers:
                dangers[t.name] = self._danger(view, t, me)
            return dangers[t.name]

        if plan.reach is not None:
            opts += self._move_options(view, me, turn, maps, plan, danger)
        if not turn.tacpack and me.tacpack_generator and self._legal(me, turn, Part("free")):
            opts += self._tacpack_options(view, me, turn)
        if w is not None and (me.jammed or me.rounds < w.magazine) and (me.jammed or me.magazines > 0) \
                and self._legal(me, turn, Part("reload", int(Speed.NORMAL))):
            o = Option("reload", Reload(me.name), ("reload",))
            o.add("magazine spent", 1.0 if me.jammed else 1 - me.rounds / max(1, w.magazine),
                  Curve("polynomial", k=2.5))
            o.add("safe to do it", 1 - min(1.0, here_threat), Curve("linear", m=0.7, b=0.3))
            opts.append(o)
        if w is not None and me.can_fire and not turn.attacked:
            opts += [here(o) for o in self._shoot_options(view, me, turn, danger)]
        if self.p.use_grenades and me.throwables and not turn.attacked:
            opts += [here(o) for o in self._throw_options(view, me, turn)]
        if not turn.parts and me.waiting is None and me.declared != "dodge" and w is not None and me.can_fire:
            targets = self._targets(view, me, me.cell)
            o = Option("wait for an enemy", Wait(me.name), ("wait",))
            near = min((geo.distance_m(me.cell, e.cell, view.grid.cell_m) for e in view.enemies(me)), default=99.0)
            o.add("no target in view", 0.0 if targets else 1.0, Curve("linear"))
            o.add("enemy close enough to appear", 1 - min(1.0, near / (2 * w.range_inc_m + 1)),
                  Curve("logistic", k=8, c=0.3))
            o.add("no need to press", 1 - press, Curve("linear", m=0.6, b=0.2))
            opts.append(here(o))
        if w is not None and me.can_fire and not turn.attacked and self._legal(me, turn, Part("aim", int(w.speed))):
            for t in self._targets(view, me, me.cell)[:3]:
                now = max((harm(estimate_shot(view, me, t, mode=m, moved=turn.moved)) for m in ("prepared", "snap")
                           if self._legal(me, turn, Part("attack", int(w.speed), m))), default=0.0)
                steady = replace(me, ready_target=t.name, aim=min(2, me.aim + 1 if me.ready_target == t.name else 1))
                later = harm(estimate_shot(view, steady, t, mode="prepared"))
                o = Option(f"aim at {t.name}", Aim(me.name, t.name), ("aim", t.name))
                o.add("aimed shot's harm", later, HARM)
                o.add("beats two plain shots", min(1.0, later / (4 * now + 1e-6)), Curve("logistic", k=14, c=0.5))
                opts.append(here(o))
        return opts

    def _plan_cells(self, view: BattleView, me: UnitView, turn: _Turn, maps: TacticalMaps,
                    press: float) -> _Cells:
        """The cells this action may end in (here, and every reachable cell if a move is allowed), with
        the cell considerations scored over all of them at once."""
        grid = view.grid
        col, _ = me.trait("dexterity")
        walk = SIDES[col] / grid.cell_m
        run = walk if me.declared == "dodge" else 2 * walk
        declared = declared_speed(me.declared)
        can_walk = self._legal(me, turn, Part("move", running=False)) and declared != Speed.FAST
        can_run = self._legal(me, turn, Part("move", running=True))
        mask = np.zeros((grid.height, grid.width), dtype=bool)
        reach: npt.NDArray[np.float64] | None = None
        if self.p.think_moves and turn.moved == "none" and not turn.attacked and (can_walk or can_run) \
                and view.enemies(me):
            blocked = np.zeros_like(mask)
            for x, y in view.occupied(me.name):
                blocked[y, x] = True
            reach = geo.reach_field(grid, me.cell, run if can_run else walk, blocked)
            mask |= np.isfinite(reach)
        mask[me.cell[1], me.cell[0]] = True
        scores, parts = self._score_cells(view, me, maps, mask, reach if reach is not None else
                                          np.zeros(mask.shape), press)
        return _Cells(reach, walk, can_walk, can_run, scores, parts)

    def _here(self, o: Option, plan: _Cells, cell: geo.Cell) -> Option:
        """Staying put: the cell considerations a move to this cell would get, and no exposure on the way."""
        for name, (raw, curve) in plan.parts.items():
            o.add(name, float(raw[cell[1], cell[0]]), curve)
        if self.p.use_exposure:
            o.add("exposure on the way", 1.0, self._exposure_curve())
        return o

    def _exposure_curve(self) -> Curve:
        c = self.p.caution
        return Curve("linear", m=0.6 + 0.3 * c, b=0.4 - 0.3 * c)

    def _press(self, view: BattleView, me: UnitView) -> float:
        """How hard to push: aggression, the round limit coming (a draw is half a win), and being ahead."""
        def strength(units: list[UnitView]) -> float:
            return sum(max(0.0, 1 - u.wounds / 4) for u in units)

        ours, theirs = strength([me, *view.friends(me)]), strength(view.enemies(me))
        clock = view.round / view.max_rounds if view.max_rounds else 0.0
        ahead = (ours - theirs) / max(ours + theirs, 1e-6)
        return float(np.clip(self.p.aggression + 0.6 * clock ** 2 + 0.4 * ahead - 0.2, 0.0, 1.0))

    def _safety_curves(self) -> tuple[Curve, Curve]:
        c = self.p.caution
        return (Curve("linear", m=0.5 + 0.5 * c, b=0.5 - 0.5 * c), Curve("polynomial", m=1.0, k=1 + c))

    def _tacpack_options(self, view: BattleView, me: UnitView, turn: _Turn) -> list[Option]:
        classes: dict[str, int] = {}
        for e in view.enemies(me):
            if e.weapon is not None:
                classes[e.weapon.weapon_class] = classes.get(e.weapon.weapon_class, 0) + 1
        total = max(1, sum(classes.values()))
        # Keep power for this turn's shot unless it is already fired (R-6.13: shots and screen share the generator).
        reserve = me.weapon.power if me.weapon is not None and me.weapon.energy and not turn.attacked else 0
        points = max(0, me.tacpack_generator - me.shot_points - reserve)
        out = []
        for screen, stops in SCREEN_STOPS.items():
            if screen == me.screen_type and points == me.screen_points:
                continue
            share = sum(n for c, n in classes.items() if c in stops) / total
            o = Option(f"{screen} screen {points}", SetTacpack(me.name, screen, points), ("tacpack", screen))
            o.add("enemy weapons it stops", share, Curve("linear", m=0.9, b=0.05))
            current = sum(n for c, n in classes.items() if c in SCREEN_STOPS.get(me.screen_type, frozenset())) / total
            o.add("better than the current screen", max(0.0, share - current), Curve("logistic", k=12, c=0.15))
            out.append(o)
        return out

    def _shoot_options(self, view: BattleView, me: UnitView, turn: _Turn,
                       danger: Callable[[UnitView], float]) -> list[Option]:
        w = me.weapon
        assert w is not None
        out = []
        targets = self._targets(view, me, me.cell)
        for t in targets:
            for mode in ("aimed", "prepared", "snap"):
                bursts = [0] + [b for b in w.bursts if me.can_fire_burst(b) and mode != "aimed"]
                if not self._legal(me, turn, Part("attack", int(w.speed), mode)):
                    continue
                for burst in bursts:
                    est = estimate_shot(view, me, t, mode=mode, burst=burst, moved=turn.moved)
                    if est.hit <= 0:
                        continue
                    label = f"shoot {t.name} {mode}" + (f" burst {burst}" if burst else "")
                    o = Option(label, Shoot(me.name, t.name, mode=mode, burst=burst), ("shoot", t.name),
                               estimate=est)
                    self._shot_considerations(o, est, danger(t), view, me, t, burst)
                    out.append(o)
        return out

    def _throw_options(self, view: BattleView, me: UnitView, turn: _Turn) -> list[Option]:
        weapon, _ = me.throwables[0]
        if not self._legal(me, turn, Part("attack", int(weapon.speed), "prepared")):
            return []
        grid = view.grid
        limit = thr.max_throw_m(me.trait("strength")[0])
        enemies = view.enemies(me)
        out = []
        for e in enemies:
            aim = e.cell
            dist = geo.distance_m(me.cell, aim, grid.cell_m)
            if e.ghost or dist > limit or not geo.sight(grid, me.cell, aim).visible:
                continue
            p = throw_chance(me, weapon, dist, view.scope)
            inside = sum(1 for o in enemies if thr.in_blast(grid, weapon, aim, o.cell, armoured=True) is not None)
            friends = [me, *view.friends(me)]
            danger = weapon.blast_m + 2 * grid.cell_m
            near_friend = min((geo.distance_m(f.cell, aim, grid.cell_m) for f in friends), default=99.0)
            cover_t = view.sight(me, e).cover
            o = Option(f"throw {weapon.id} at {e.name}", Throw(me.name, aim, weapon.id), ("throw", e.name))
            o.add("burst covers the cell", p, Curve("logistic", k=10, c=0.35))
            o.add("enemies in the radius", min(1.0, inside / 3), Curve("polynomial", m=0.8, k=0.7, b=0.2))
            o.add("target behind cover", COVER_VALUE[cover_t], Curve("linear", m=0.5, b=0.5))
            o.add("friends clear", min(1.0, near_friend / (2 * danger)), Curve("logistic", k=20, c=0.5))
            out.append(o)
        return out

    def _move_options(self, view: BattleView, me: UnitView, turn: _Turn, maps: TacticalMaps,
                      plan: _Cells, danger: Callable[[UnitView], float]) -> list[Option]:
        grid = view.grid
        reach = plan.reach
        assert reach is not None
        ok = np.isfinite(reach)
        ok[me.cell[1], me.cell[0]] = False
        if not ok.any():
            return []
        scores = plan.scores
        heat = np.full(ok.shape, np.nan)
        heat[ok] = scores[ok]
        self.heat[me.name] = heat
        self._heat_ranked.discard(me.name)
        declared = declared_speed(me.declared)
        ys, xs = np.nonzero(ok)
        order = np.argsort(-scores[ys, xs], kind="stable")[:TOP_MOVES]
        out = []
        for i in order.tolist():
            cell = (int(xs[i]), int(ys[i]))
            running = bool(reach[cell[1], cell[0]] > plan.walk + 1e-9) or declared == Speed.FAST
            if (running and not plan.can_run) or (not running and not plan.can_walk):
                continue
            o = Option(f"{'run' if running else 'walk'} to {cell[0]},{cell[1]}", Move(me.name, cell),
                       ("move", cell, "run" if running else "walk"))
            for name, (raw, curve) in plan.parts.items():
                o.add(name, float(raw[cell[1], cell[0]]), curve)
            if self.p.use_exposure:
                o.add("exposure on the way", 1 - min(1.0, self._route_threat(grid, maps, me.cell, cell)),
                      self._exposure_curve())
            est, target, burst = self._shot_after(view, me, turn, cell, running)
            self._shot_considerations(o, est, danger(target) if target is not None else 0.0, view, me,
                                      target, burst)
            out.append(o)
        return out

    def _shot_considerations(self, o: Option, est: ShotEstimate, threat: float, view: BattleView, me: UnitView,
                             target: UnitView | None, burst: int) -> Option:
        """What a shot is worth: the same considerations whether it is fired now or after a move."""
        o.add("hit chance", est.hit, Curve("linear", m=0.3, b=0.7))
        o.add("expected harm", harm(est), HARM)
        o.add("kill chance", est.kill, Curve("linear", m=0.2 + 0.4 * self.p.focus, b=0.8 - 0.4 * self.p.focus))
        o.add("target threat", threat, Curve("linear", m=0.3, b=0.7))
        if self.p.use_commitment:
            sent = self.committed.get((view.round, target.name), 0.0) if target is not None else 0.0
            left = max(0.0, 4 - target.wounds) if target is not None else 4.0
            o.add("not overkill", max(0.0, 1 - sent / max(left, 0.5)), Curve("linear", m=0.8, b=0.2))
        if me.weapon is not None and me.weapon.bursts:  # emptying the magazine costs a reload later
            o.add("rounds left after", max(0, me.rounds - burst) / max(1, me.weapon.magazine),
                  Curve("linear", m=0.4, b=0.6))
        return o

    def _shot_after(self, view: BattleView, me: UnitView, turn: _Turn, cell: geo.Cell,
                    running: bool) -> tuple[ShotEstimate, UnitView | None, int]:
        """The best attack still allowed this turn after moving to `cell` (R-5.4 engage: moving loses
        readiness, so a snap at weapon speed unless the declaration allows the slower prepared shot)."""
        w = me.weapon
        none = ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)
        if w is None or not me.can_fire:
            return none, None, 0
        moved = replace(me, cell=cell, ready_target=None, aim=0)
        for mode in ("prepared", "snap"):
            if not fits(me.declared, [*turn.parts, Part("move", running=running), Part("attack", int(w.speed), mode)]):
                continue
            burst = min((b for b in w.bursts if me.can_fire_burst(b)), default=0)
            best: tuple[ShotEstimate, UnitView | None, int] = (none, None, burst)
            for t in self._targets(view, me, cell):
                est = estimate_shot(view, moved, t, mode=mode, burst=burst, moved="ran" if running else "walked")
                if harm(est) > harm(best[0]):
                    best = (est, t, burst)
            return best  # the first mode that fits is the better one
        return none, None, 0

    def _score_cells(self, view: BattleView, me: UnitView, maps: TacticalMaps, ok: npt.NDArray[np.bool_],
                     reach: npt.NDArray[np.float64], press: float) -> tuple[
            npt.NDArray[np.float64], dict[str, tuple[npt.NDArray[np.float64], Curve]]]:
        """Every reachable cell at once: cover, threat, range band, flanking, line of fire, closing in."""
        grid = view.grid
        w = me.weapon
        enemies = view.enemies(me)
        h, wd = grid.height, grid.width
        yy, xx = np.mgrid[0:h, 0:wd]
        dists = np.stack([np.hypot(xx - e.cell[0], yy - e.cell[1]) * grid.cell_m for e in enemies]) if enemies \
            else np.full((1, h, wd), np.inf)
        nearest = dists.min(axis=0)
        ideal = 1.5 * (w.range_inc_m if w is not None else 10.0)
        band = np.clip(1 - np.abs(nearest - ideal) / (ideal * 2), 0, 1)
        fire = np.zeros((h, wd))
        flank = np.zeros((h, wd))
        ys, xs = np.nonzero(ok)
        for i in range(len(ys)):
            c = (int(xs[i]), int(ys[i]))
            best, open_targets, seen = 0.0, 0, 0
            for k, e in enumerate(enemies):
                s = view.sight(me, e, c)
                if not s.visible or w is None or dists[k, c[1], c[0]] > w.max_range_m:
                    continue
                seen += 1
                if s.cover == "none":
                    open_targets += 1
                p, _, _ = hit_probability(view, me, e, mode="prepared", moved="walked", at=c)
                best = max(best, p * (1 - COVER_VALUE[s.cover] * 0.7))
            fire[c[1], c[0]] = best
            flank[c[1], c[0]] = open_targets / seen if seen else 0.0
        walk_m = maps.walk_m  # walking distance to the nearest enemy, round walls and water
        now = float(walk_m[me.cell[1], me.cell[0]])
        closing = np.clip(0.5 + (now - np.where(np.isfinite(walk_m), walk_m, now)) / 40.0, 0, 1) \
            if math.isfinite(now) else np.full((h, wd), 0.5)
        cover_curve, threat_curve = self._safety_curves()
        parts: dict[str, tuple[npt.NDArray[np.float64], Curve]] = {
            "cover from enemies that see it": (maps.cover, cover_curve),
            "low threat": (np.exp(-maps.threat), threat_curve),
            "line of fire": (fire, Curve("logistic", m=0.6, k=8, c=0.2, b=0.4)),
            "range band": (band, Curve("normal", m=0.4, k=0.35, c=1.0, b=0.6)),
            "flanking": (flank, Curve("linear", m=0.3, b=0.7)),
            "closing in": (closing, Curve("linear", m=0.2 + 0.7 * press, b=0.6 - 0.45 * press)),
        }
        outs = [curve(raw) for raw, curve in parts.values()]
        total = np.asarray(combine(outs), dtype=np.float64)
        total = np.where(ok, total - 0.002 * reach, -1.0)  # shorter moves break ties
        return total, parts

    def _route_threat(self, grid: geo.GridMap, maps: TacticalMaps, frm: geo.Cell, to: geo.Cell) -> float:
        cells = geo.cells_on_segment(grid, geo.centre(frm), geo.centre(to))
        vals = [float(maps.threat[y, x]) for x, y in cells if grid.inside((x, y)) and maps.mask[y, x]]
        return float(1 - np.exp(-np.mean(vals))) if vals else 0.0

    # ------------------------------------------------------------------ helpers
    def _targets(self, view: BattleView, me: UnitView, cell: geo.Cell) -> list[UnitView]:
        w = me.weapon
        out = []
        for e in view.enemies(me):
            s = view.sight(me, e, cell)
            if s.visible and not (e.ghost and cell == me.cell) and w is not None and \
                    geo.distance_m(cell, e.cell, view.grid.cell_m) <= w.max_range_m:  # a ghost: only after a move
                out.append(e)
        return out

    def _danger(self, view: BattleView, t: UnitView, me: UnitView) -> float:
        """How dangerous an enemy is to our side: its best hit chance on any of us."""
        best = 0.0
        for f in [me, *view.friends(me)]:
            if t.weapon is None:
                break
            p, _, _ = hit_probability(view, t, f)
            best = max(best, p)
        return best

    def _maps_for(self, view: BattleView, me: UnitView) -> TacticalMaps:
        """The side's maps for this phase (rebuilt when anyone has moved)."""
        key = (view.round, view.phase, tuple((u.name, u.cell, u.out_of_action) for u in view.units))
        m = self._maps.get(me.side)
        if m is not None and m.key == key:
            return m
        grid = view.grid
        mask = np.zeros((grid.height, grid.width), dtype=bool)
        blocked = np.zeros_like(mask)
        for x, y in view.occupied():
            blocked[y, x] = True
        for f in [me, *view.friends(me)]:
            col, _ = f.trait("dexterity")
            reach = geo.reach_field(grid, f.cell, 2 * SIDES[col] / grid.cell_m, blocked)
            mask |= np.isfinite(reach)
            mask[f.cell[1], f.cell[0]] = True
        if len(self._walk_from) > 512 or self._walk_grid is not grid:
            self._walk_from.clear()
            self._walk_grid = grid
        m = build_maps(view, me, key, mask, self._walk_from)
        self._maps[me.side] = m
        return m


def make_utility(spec: str) -> UtilityAI:
    """`utility` or `utility:<personality>` (easy, normal, hard, aggressive, cautious)."""
    _, _, name = spec.partition(":")
    name = name or "normal"
    if name not in PERSONALITIES:
        raise ValueError(f"unknown AI personality {name!r}; known: {', '.join(PERSONALITIES)}")
    return UtilityAI(name)

