"""The utility AI's considerations: an option's axes (a raw input in [0, 1] through a response curve),
how they combine into its score, and the considerations shared by many options — what a shot is worth,
and how good a cell is to end an action in (every reachable cell scored at once with numpy).

Considerations are pure functions of the view, the unit and the option (STYLE 9).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from skirmish.ai.curves import CLIP, Curve, combine, combine_rows, over_rows
from skirmish.ai.estimate import ShotEstimate, hit_probability
from skirmish.ai.utility.distance import metres_from
from skirmish.ai.utility.fields import fire_at, fire_fields
from skirmish.ai.utility.intent import Intent
from skirmish.ai.utility.maps import TacticalMaps
from skirmish.ai.utility.personality import Personality, draw
from skirmish.ai.utility.squad import crossfire, crossfire_at, regroup, spacing
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action

_SCALARS = frozenset({float, int, bool, np.float64})  # raw inputs a curve answers as one number (Curve.at)
GOING_SPAN = 20.0  # metres of progress that take "closing in" from 0.5 to 1 while the side goes in (press, advance,
# search with no enemy in sight, or late); 40 m otherwise. At 40 m a pressing unit's run gained so little on it that
# cover, threat and spacing decided, and it wandered between covered cells without closing (issue 12)
HARM = Curve("linear", m=0.9, b=0.1)  # what a shot is worth, the same scale for every option


class CellParts(dict[str, tuple[npt.NDArray[np.float64], Curve]]):
    """The cell considerations: name -> (raw input per cell, curve); and, once `score_cells` has scored them
    (`scored`), each scored cell's inputs and curve outputs kept, so an option ending in a scored cell reads its
    considerations (`at`) instead of putting each input through its curve again."""

    _one: tuple[geo.Cell, list[float], list[float]] | None = None  # `one`'s cell, inputs and outputs

    def score(self, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp], shape: tuple[int, int]) -> npt.NDArray[np.float64]:
        """The cells (xs, ys) scored: each part's input there through its curve (a row per part, in the parts' order;
        `curves.over_rows`), kept with the inputs, and their product after the compensation factor
        (`curves.combine_rows`) per cell."""
        self._index = np.full(shape, -1, dtype=np.intp)
        self._index[ys, xs] = np.arange(len(ys))
        self._raws = np.array([raw[ys, xs] for raw, _ in self.values()], dtype=np.float64).reshape(len(self), len(ys))
        self._outs = over_rows([curve for _, curve in self.values()], self._raws)
        return combine_rows(self._outs)

    @staticmethod
    def one(cell: geo.Cell, shape: tuple[int, int], rows: list[tuple[str, float, Curve]], outs: list[float]) -> CellParts:
        """The parts of one scored cell (`_score_one`): each part's raw input a map holding it at `cell` (NaN
        elsewhere: no other cell is worked out), its curve, and the inputs and outputs kept for `at`."""
        x, y = cell
        block = np.full((len(rows), *shape), np.nan)
        block[:, y, x] = [v for _, v, _ in rows]
        out = CellParts({name: (block[i], curve) for i, (name, _, curve) in enumerate(rows)})
        out._one = (cell, [v for _, v, _ in rows], outs)
        return out

    def at(self, cell: geo.Cell) -> list[Consideration]:
        """The cell considerations of `cell` in the parts' order: `Option.add(name, float(raw[cell]), curve)` for
        each part; for a scored cell the kept numbers (the curves' outputs over the scored cells, element by
        element, are `Curve.at`'s, bit for bit: tests/test_ai_speed.py)."""
        x, y = cell
        one = self._one
        if one is not None and one[0] == cell:
            return [_new(Consideration, t) for t in zip(self, one[1], one[2], strict=True)]
        j = int(self._index[y, x]) if hasattr(self, "_index") else -1
        if j < 0:
            o = Option("", None, ())  # type: ignore[arg-type]
            for name, (raw, curve) in self.items():
                o.add(name, float(raw[y, x]), curve)
            return o.considerations
        return [_new(Consideration, t) for t in zip(self, self._raws[:, j].tolist(), self._outs[:, j].tolist(), strict=True)]


def harm(est: ShotEstimate) -> float:
    """What an attack is worth in one number: expected wounds (CT at a sixth of a wound) over three, plus
    the chance it puts the target out of action, capped at 1. Shooting now, shooting after a move and
    aiming for a later shot are all scored on this scale, so they compare fairly."""
    return min(1.0, (est.wounds + est.ct / 6) / 3 + est.kill)


class Consideration(NamedTuple):
    """One axis: its name, its raw input in [0, 1], and the curve's output (a named tuple: an option adds
    dozens of them per decision, and a tuple is the cheapest immutable record)."""

    name: str
    input: float
    output: float

    def to_json(self) -> dict[str, Any]:
        """Trace form."""
        return {"name": self.name, "input": round(self.input, 3), "output": round(self.output, 3)}


_new = tuple.__new__  # Consideration(name, input, output) without the named tuple's Python-level __new__


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
    noise: float = 1.0  # a blunt personality's misjudgement of this option (Personality.noise), traced
    # On the material scale (material.material_pick), what the exchange model does not read of the action: its
    # attack when the model cannot weigh it (covering fire, a split burst, a double tap, a launch: ranged_extra.py),
    # and the material its stray rounds are expected to take from friends on the line of fire.
    attack_material: float | None = None
    friend_material: float = 0.0
    shares: tuple[tuple[UnitView, ShotEstimate], ...] = ()  # a split burst's or a double tap's: per target, per action

    def add(self, name: str, raw: float, curve: Curve) -> Option:
        """Score a consideration."""
        x = float(raw)
        self.considerations.append(_new(Consideration, (name, x, curve.at(x) if type(raw) in _SCALARS
                                                        else float(curve(raw)))))
        return self

    def finish(self, momentum_key: tuple[Any, ...] | None, momentum: float) -> Option:
        """Combine the outputs (compensation factor), then momentum."""
        base = float(combine([c.output for c in self.considerations])) if self.considerations else 0.0
        if momentum_key is not None and self.key == momentum_key:
            self.bonus = 1.0 + momentum
        self.score = base * self.bonus
        return self

    def blunt(self, noise: float, key: str) -> Option:
        """Misjudge the score by up to `noise` either way, drawn from `key` (the round and unit) and the option, so
        the same battle and seed give the same choice: no random source is read."""
        if noise > 0:
            u = draw(f"{key}|{self.label}")
            self.noise = 1.0 + noise * (2 * u - 1)
            self.score *= self.noise
        return self

    def to_json(self) -> dict[str, Any]:
        """Trace form (each consideration's `Consideration.to_json`, written out here: a decision traces dozens)."""
        r3 = _ROUNDED.get
        out: dict[str, Any] = {"option": self.label, "action": str(self.action), "score": round(self.score, 4),
                               "considerations": [{"name": n, "input": (r3(i) if type(i) is float else None) or _round3(i),
                                                   "output": (r3(v) if type(v) is float else None) or _round3(v)}
                                                  for n, i, v in self.considerations]}
        if self.bonus != 1.0:
            out["momentum"] = round(self.bonus, 3)
        if self.noise != 1.0:
            out["noise"] = round(self.noise, 3)
        return out


_ROUNDED: dict[float, float] = {}  # round(x, 3) by x, for the traces (the same inputs and outputs recur: cell parts)
ROUNDED_KEPT = 1 << 14


def _round3(x: float) -> float:
    """round(x, 3), kept for a float x whose rounding is not 0 (a 0.0 or -0.0 answer is worked out each time: a
    kept 0.0 would answer -0.0 too, and falls through `_ROUNDED.get(x) or`; an int or a bool rounds to itself and
    is never looked up, as 2 would find 2.0)."""
    r = round(x, 3)
    if r and type(x) is float:
        if len(_ROUNDED) >= ROUNDED_KEPT:
            _ROUNDED.clear()
        _ROUNDED[x] = r
    return r


_HIT = Curve("linear", m=0.3, b=0.7)  # the shot considerations' fixed curves (made once)
_THREAT = Curve("linear", m=0.3, b=0.7)
_OVERKILL = Curve("linear", m=0.8, b=0.2)
_ROUNDS = Curve("linear", m=0.4, b=0.6)


def shot_considerations(o: Option, est: ShotEstimate, threat: float, p: Personality,
                        committed: Mapping[tuple[int, str], float], view: BattleView, me: UnitView,
                        target: UnitView | None, burst: int) -> Option:
    """What a shot is worth: the same considerations whether it is fired now or after a move."""
    o.add("hit chance", est.hit, _HIT)
    o.add("expected harm", harm(est), HARM)
    o.add("kill chance", est.kill, p.kill_curve())
    o.add("target threat", threat, _THREAT)
    if p.use_commitment:
        sent = committed.get((view.round, target.name), 0.0) if target is not None else 0.0
        left = max(0.0, 4 - target.wounds) if target is not None else 4.0
        o.add("not overkill", max(0.0, 1 - sent / max(left, 0.5)), _OVERKILL)
    if me.weapon is not None and me.weapon.bursts:  # emptying the magazine costs a reload later
        o.add("rounds left after", max(0, me.rounds - burst) / max(1, me.weapon.magazine), _ROUNDS)
    return o


_FIRE = Curve("logistic", m=0.6, k=8, c=0.2, b=0.4)  # the cell considerations' fixed curves (made once, so
_FIRE_GHOST = Curve("logistic", m=0.25, k=8, c=0.2, b=0.75)  # the outputs they keep, Curve.at, last)
_BAND = Curve("normal", m=0.4, k=0.35, c=1.0, b=0.6)
_FLANK = Curve("linear", m=0.3, b=0.7)
_SPACING = Curve("logistic", m=0.35, k=30, c=0.5, b=0.65)
_CROSSFIRE = Curve("linear", m=0.25, b=0.75)
_REGROUP = Curve("linear", m=0.3, b=0.7)


def score_cells(view: BattleView, me: UnitView, p: Personality, maps: TacticalMaps, ok: npt.NDArray[np.bool_],
                reach: npt.NDArray[np.float64], intent: Intent, approach: npt.NDArray[np.float64],
                stance: str) -> tuple[npt.NDArray[np.float64], CellParts]:
    """Every cell in `ok` at once: cover, threat, range band, flanking, line of fire, closing in (on
    `approach`, the walking distance in metres to what the side's intent makes for; away from it when the
    unit's `stance` is "retreat", indifferent when "hold", squad.stance), and the squad's cell considerations
    (spacing against blasts, crossfire, regrouping)."""
    grid = view.grid
    w = me.weapon
    enemies = view.enemies(me)
    h, wd = grid.height, grid.width
    shape = (h, wd)
    ys, xs = np.nonzero(ok)  # the cells scored: every per-cell input is read only there
    if len(ys) == 1:  # the unit's own cell only (most decisions): the same numbers in plain floats
        return _score_one(view, me, p, maps, (int(xs[0]), int(ys[0])), reach, intent, approach, stance)
    dists = np.stack([metres_from(grid, e.cell)[ys, xs] for e in enemies]) if enemies \
        else np.full((1, len(ys)), np.inf)  # metres from each cell scored to each enemy
    seen = [k for k, e in enumerate(enemies) if not e.ghost]
    ideal = 1.5 * (w.range_inc_m if w is not None else 10.0)
    # The range band counts the enemies in sight: a last known place is where to go, not to stand off from.
    band = np.ones(shape)
    if seen:
        band[ys, xs] = CLIP(1 - np.abs(dists[seen].min(axis=0) - ideal) / (ideal * 2), 0, 1)
    fire, flank = fire_fields(view, me, ok, enemies, dists)
    now, span = _closing_span(me, intent, approach, stance, bool(seen))
    closing = CLIP(0.5 + (now - np.where(np.isfinite(approach), approach, now)) / span, 0, 1) \
        if math.isfinite(now) else np.full(shape, 0.5)
    close_curve, cover_curve, threat_curve = _cell_curves(p, intent, stance, bool(seen))
    retreat = stance == "retreat"
    squad = p.use_squad
    parts = CellParts({
        "cover from enemies that see it": (maps.cover, cover_curve),
        "low threat": (np.exp(-maps.threat), threat_curve),
        "line of fire": (fire, _FIRE if seen else _FIRE_GHOST),
        "range band": (band, _BAND),
        "flanking": (flank, _FLANK),
        "closing in": (closing, close_curve),
    })
    if squad:  # the squad's cell considerations (a personality without them, e.g. easy, plays each unit alone)
        parts["spacing against blasts"] = (spacing(view, me, shape, p.spacing_m, (ys, xs)), _SPACING)
    cross = crossfire(view, me, shape, (ys, xs)) if squad else None
    if cross is not None and not retreat:
        parts["crossfire with friends"] = (cross, _CROSSFIRE)
    if intent.mode == "fall back" and squad:
        near = regroup(view, me, shape)
        if near is not None:
            parts["regroup"] = (near, _REGROUP)
    total = np.full(shape, -1.0)  # each cell: combine([curve(raw[cell]) for raw, curve in parts]), element by element
    total[ys, xs] = parts.score(ys, xs, shape) - 0.002 * reach[ys, xs]  # shorter moves break ties
    return total, parts


def _closing_span(me: UnitView, intent: Intent, approach: npt.NDArray[np.float64], stance: str,
                  seen: bool) -> tuple[float, float]:
    """(the walking distance from the unit's cell to what the side makes for, the metres that take closing in from
    0.5 to 1)."""
    retreat = stance == "retreat"
    going = intent.mode in ("press", "advance", "search") and (intent.late or not seen)
    now = float(approach[me.cell[1], me.cell[0]])
    return now, GOING_SPAN if going and not retreat and stance != "hold" else 40.0


def _cell_curves(p: Personality, intent: Intent, stance: str, seen: bool) -> tuple[Curve, Curve, Curve]:
    """The curves of closing in, of cover and of low threat, by the unit's stance and the side's intent."""
    push = intent.push
    retreat = stance == "retreat"
    if retreat:
        close_curve = Curve("linear", m=-0.6, b=0.8)
    elif stance == "hold":
        close_curve = Curve("linear", m=0.0, b=0.6)
    elif intent.mode in ("press", "advance", "search") and (intent.late or not seen):  # going to find the enemy,
        # or the clock runs out: progress decides (0.55 staying, 1 for 20 m closer); else shots and cover do
        close_curve = Curve("linear", m=0.5 + 0.4 * push, b=0.5 - 0.4 * push)
    else:
        close_curve = Curve("linear", m=0.2 + 0.7 * push, b=0.6 - 0.45 * push)
    cover_curve, threat_curve = _safety_curves(p)
    if retreat:
        threat_curve = Curve("polynomial", m=1.0, k=2.5)
    elif intent.mode in ("press", "advance", "search") and (intent.late or not seen):  # going in: some risk
        keep = 1 - 0.5 * push
        cover_curve = Curve("linear", m=cover_curve.m * keep, b=1 - cover_curve.m * keep)
        threat_curve = Curve("polynomial", m=keep, k=threat_curve.k, b=1 - keep)
    return close_curve, cover_curve, threat_curve


def _safety_curves(p: Personality) -> tuple[Curve, Curve]:
    """`p.safety_curves()`, made once per personality object (kept with it: a curve is a value, and it keeps its
    outputs by number)."""
    got = _SAFETY.get(id(p))
    if got is None or got[0] is not p:
        if len(_SAFETY) >= 64:
            _SAFETY.clear()
        got = _SAFETY[id(p)] = (p, p.safety_curves())
    return got[1]


_SAFETY: dict[int, tuple[Personality, tuple[Curve, Curve]]] = {}


def _clip01(v: float) -> float:
    """CLIP(v, 0, 1) on one float (min/max as np.clip does; tests/test_ai_speed.py)."""
    return min(max(v, 0.0), 1.0)


def _score_one(view: BattleView, me: UnitView, p: Personality, maps: TacticalMaps, cell: geo.Cell,
               reach: npt.NDArray[np.float64], intent: Intent, approach: npt.NDArray[np.float64],
               stance: str) -> tuple[npt.NDArray[np.float64], CellParts]:
    """`score_cells` on one cell, input by input in plain floats: the same operations on the same numbers as the
    arrays' element there (the exponential numpy's own), the product of the compensated outputs in the parts'
    order (tests/test_ai_speed10.py holds it equal to the arrays')."""
    grid = view.grid
    x, y = cell
    w = me.weapon
    enemies = view.enemies(me)
    seen = [k for k, e in enumerate(enemies) if not e.ghost]
    near = [float(metres_from(grid, e.cell)[y, x]) for e in enemies]
    band = 1.0
    if seen:
        ideal = 1.5 * (w.range_inc_m if w is not None else 10.0)
        band = _clip01(1 - abs(min(near[k] for k in seen) - ideal) / (ideal * 2))
    fire, flank = fire_at(view, me, cell, enemies, near)
    now, span = _closing_span(me, intent, approach, stance, bool(seen))
    if math.isfinite(now):
        there = float(approach[y, x])
        closing = _clip01(0.5 + (now - (there if math.isfinite(there) else now)) / span)
    else:
        closing = 0.5
    close_curve, cover_curve, threat_curve = _cell_curves(p, intent, stance, bool(seen))
    rows: list[tuple[str, float, Curve]] = [
        ("cover from enemies that see it", float(maps.cover[y, x]), cover_curve),
        ("low threat", float(np.exp(-maps.threat[y, x])), threat_curve),
        ("line of fire", fire, _FIRE if seen else _FIRE_GHOST),
        ("range band", band, _BAND),
        ("flanking", flank, _FLANK),
        ("closing in", closing, close_curve),
    ]
    squad = p.use_squad
    if squad:
        friends = view.friends(me)
        gap = _clip01(min(float(metres_from(grid, f.cell)[y, x]) for f in friends) / (2 * p.spacing_m)) \
            if friends else 1.0
        rows.append(("spacing against blasts", gap, _SPACING))
        cross = crossfire_at(view, me, cell)
        if cross is not None and stance != "retreat":
            rows.append(("crossfire with friends", cross, _CROSSFIRE))
        if intent.mode == "fall back":
            together = regroup(view, me, (grid.height, grid.width))
            if together is not None:
                rows.append(("regroup", float(together[y, x]), _REGROUP))
    outs = [curve.at(v) for _, v, curve in rows]
    n = len(outs)
    mod = 1.0 - 1.0 / n
    score = outs[0] + (1.0 - outs[0]) * mod * outs[0] if n > 1 else outs[0]
    for o in outs[1:]:
        score *= o + (1.0 - o) * mod * o
    total = np.full((grid.height, grid.width), -1.0)
    total[y, x] = score - 0.002 * float(reach[y, x])
    return total, CellParts.one(cell, (grid.height, grid.width), rows, outs)


def danger(view: BattleView, t: UnitView, me: UnitView) -> float:
    """How dangerous an enemy is to our side: its best hit chance on any of us."""
    best = 0.0
    for f in [me, *view.friends(me)]:
        if t.weapon is None:
            break
        best = max(best, _hit_on(view, t, f))
    return best


HITS_ON_KEPT = 8192  # (enemy, friend) hit chances `danger` keeps per map before it starts again


def _hit_on(view: BattleView, t: UnitView, f: UnitView) -> float:
    """`hit_probability(view, t, f)[0]`, kept with the map by the two unit views themselves (held weakly, as the
    search model's replies are): a view is frozen and a side's views reuse a unit's view while nothing of it
    changes, and the chance reads nothing else but the map, the scope and whether the round has begun (a dodge
    counts from round 1). Every decision asks it for each target against each friend."""
    kept: dict[tuple[int, int, str, bool], tuple[weakref.ref[UnitView], weakref.ref[UnitView], float]] = \
        view.grid.kept.setdefault("ai_hits_on", {})
    key = (id(t), id(f), view.scope, view.round > 0)
    got = kept.get(key)
    if got is not None and got[0]() is t and got[1]() is f:
        return got[2]
    hit = hit_probability(view, t, f)[0]
    if len(kept) >= HITS_ON_KEPT:
        kept.clear()
    kept[key] = (weakref.ref(t), weakref.ref(f), hit)
    return hit


def targets(view: BattleView, me: UnitView, cell: geo.Cell) -> list[UnitView]:
    """Enemies the unit would see and reach with its weapon from `cell`. From the unit's own cell the answer is
    kept by the view and unit view themselves (frozen; held with it, the view weakly): a decision asks it several
    times."""
    here = cell == me.cell
    if here:
        got = _TARGETS.get((id(view), id(me)))
        if got is not None and got[0]() is view and got[1] is me:
            return list(got[2])
    w = me.weapon
    out = []
    for e in view.enemies(me):
        s = view.sight(me, e, cell)
        if s.visible and not (e.ghost and here) and w is not None and \
                geo.distance_m(cell, e.cell, view.grid.cell_m) <= w.max_range_m:  # a ghost: only after a move
            out.append(e)
    if here:
        if len(_TARGETS) >= 64:
            _TARGETS.clear()
        _TARGETS[(id(view), id(me))] = (weakref.ref(view), me, out)
        return list(out)
    return out


_TARGETS: dict[tuple[int, int], tuple[weakref.ref[BattleView], UnitView, list[UnitView]]] = {}  # `targets` from the
# unit's cell; the view held weakly (it holds its map, which nothing kept may keep alive: tests/test_map_caches.py)
