"""The utility AI's considerations: an option's axes (a raw input in [0, 1] through a response curve),
how they combine into its score, and the considerations shared by many options — what a shot is worth (how good a
cell is to end an action in, every reachable cell scored at once, is cell_scoring.py's; `CellParts` keeps them).

Considerations are pure functions of the view, the unit and the option (STYLE 9).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from skirmish.ai.curves import Curve, combine, combine_rows, over_rows
from skirmish.ai.estimate import ShotEstimate, hit_probability
from skirmish.ai.utility.personality import Personality, draw
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
    _raws: npt.NDArray[np.float64] | None = None  # the inputs at the scored cells (a row per part), when given (`rows`)

    def score(self, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp], shape: tuple[int, int]) -> npt.NDArray[np.float64]:
        """The cells (xs, ys) scored: each part's input there through its curve (a row per part, in the parts' order;
        `curves.over_rows`), kept with the inputs, and their product after the compensation factor
        (`curves.combine_rows`) per cell."""
        self._index = np.full(shape, -1, dtype=np.intp)
        self._index[ys, xs] = np.arange(len(ys))
        if self._raws is None:
            self._raws = np.array([raw[ys, xs] for raw, _ in self.values()], dtype=np.float64).reshape(len(self), len(ys))
        self._outs = over_rows([curve for _, curve in self.values()], self._raws)
        return combine_rows(self._outs)

    @staticmethod
    def rows(ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp], shape: tuple[int, int],
             rows: list[tuple[str, npt.NDArray[np.float64], Curve]]) -> CellParts:
        """The parts of the cells (xs, ys), each given as its inputs there in that order (`score_cells`): each part's
        raw input a map holding them at those cells (NaN elsewhere: no other cell is worked out), its curve, and the
        inputs kept for `score`."""
        raws = np.array([v for _, v, _ in rows], dtype=np.float64).reshape(len(rows), len(ys))
        block = np.full((len(rows), *shape), np.nan)
        block[:, ys, xs] = raws
        out = CellParts({name: (block[i], curve) for i, (name, _, curve) in enumerate(rows)})
        out._raws = raws
        return out

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
        raws = self._raws
        if j < 0 or raws is None:
            o = Option("", None, ())  # type: ignore[arg-type]
            for name, (raw, curve) in self.items():
                o.add(name, float(raw[y, x]), curve)
            return o.considerations
        return [_new(Consideration, t) for t in zip(self, raws[:, j].tolist(), self._outs[:, j].tolist(), strict=True)]


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


def danger(view: BattleView, t: UnitView, me: UnitView, sees: Sequence[bool] | None = None) -> float:
    """How dangerous an enemy is to our side: its best hit chance on any of us. `sees`, per one of us (`me`, then
    `view.friends(me)`): whether `t`'s cell has a line of sight to theirs at all (`sight_pairs`); where it has
    not, the chance is 0 (R-6.6) and is not asked."""
    best = 0.0
    for i, f in enumerate([me, *view.friends(me)]):
        if t.weapon is None:
            break
        if sees is None or sees[i]:
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
