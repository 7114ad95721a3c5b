"""The utility AI's cell considerations: how good a cell is to end an action in, every cell a decision may end in
scored at once with numpy (`score_cells`), or the unit's own cell alone in plain floats (`_score_one`, the same
numbers). Split from scoring.py, which keeps the considerations' records (`CellParts`, `Option`) and the shots'.

Considerations are pure functions of the view, the unit and the option (STYLE 9).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.ai.curves import CLIP, Curve
from skirmish.ai.utility.distance import metres_from
from skirmish.ai.utility.fields import fire_at, fire_rows
from skirmish.ai.utility.intent import Intent
from skirmish.ai.utility.maps import TacticalMaps
from skirmish.ai.utility.personality import Personality
from skirmish.ai.utility.scoring import GOING_SPAN, CellParts
from skirmish.ai.utility.squad import crossfire_at, crossfire_rows, regroup, spacing_rows
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo

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
    shape = (grid.height, grid.width)
    ys, xs = np.nonzero(ok)  # the cells scored: every per-cell input is read only there
    if len(ys) == 1:  # the unit's own cell only (most decisions): the same numbers in plain floats
        return _score_one(view, me, p, maps, (int(xs[0]), int(ys[0])), reach, intent, approach, stance)
    # Each input a row over the cells scored, in their reading order (`flat`: their places in a map's flat
    # array): the arithmetic each cell's input had in the maps, element by element, without the maps round them.
    flat = ys * grid.width + xs
    dists = np.array([metres_from(grid, e.cell).take(flat) for e in enemies]) if enemies \
        else np.full((1, len(ys)), np.inf)  # metres from each cell scored to each enemy
    seen = [k for k, e in enumerate(enemies) if not e.ghost]
    # The range band counts the enemies in sight: a last known place is where to go, not to stand off from.
    if seen:
        ideal = 1.5 * (w.range_inc_m if w is not None else 10.0)
        near = dists[seen[0]] if len(seen) == 1 else np.minimum.reduce(dists[seen], axis=0)  # (dists[seen].min(axis=0))
        band = CLIP(1 - np.abs(near - ideal) / (ideal * 2), 0, 1)
    else:
        band = np.ones(len(ys))
    fire, flank = fire_rows(view, me, ys, xs, enemies, dists)
    now, span = _closing_span(me, intent, approach, stance, bool(seen))
    if math.isfinite(now):
        there = approach.take(flat)
        closing = CLIP(0.5 + (now - np.where(np.isfinite(there), there, now)) / span, 0, 1)
    else:
        closing = np.full(len(ys), 0.5)
    close_curve, cover_curve, threat_curve = _cell_curves(p, intent, stance, bool(seen))
    rows: list[tuple[str, npt.NDArray[np.float64], Curve]] = [
        ("cover from enemies that see it", maps.cover.take(flat), cover_curve),
        ("low threat", np.exp(-maps.threat.take(flat)), threat_curve),
        ("line of fire", fire, _FIRE if seen else _FIRE_GHOST),
        ("range band", band, _BAND),
        ("flanking", flank, _FLANK),
        ("closing in", closing, close_curve),
    ]
    if p.use_squad:  # the squad's cell considerations (a personality without them, e.g. easy, plays each unit alone)
        rows.append(("spacing against blasts", spacing_rows(view, me, p.spacing_m, flat), _SPACING))
        cross = crossfire_rows(view, me, flat)
        if cross is not None and stance != "retreat":
            rows.append(("crossfire with friends", cross, _CROSSFIRE))
        if intent.mode == "fall back":
            together = regroup(view, me, shape)
            if together is not None:
                rows.append(("regroup", together.take(flat), _REGROUP))
    parts = CellParts.rows(ys, xs, shape, rows)
    total = np.full(shape, -1.0)  # each cell: combine([curve(raw[cell]) for raw, curve in parts]), element by element
    total[ys, xs] = parts.score(ys, xs, shape) - 0.002 * reach.take(flat)  # shorter moves break ties
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
    """The curves of closing in, of cover and of low threat, by the unit's stance and the side's intent (made once
    per personality object and what they read: a curve is a value, and it keeps its outputs by number)."""
    key = (id(p), stance, seen, intent.mode, intent.late, intent.push)
    got = _CURVES.get(key)
    if got is None or got[0] is not p:
        if len(_CURVES) >= CURVES_KEPT:
            _CURVES.clear()
        got = _CURVES[key] = (p, _make_cell_curves(p, intent, stance, seen))
    return got[1]


CURVES_KEPT = 1024
_CURVES: dict[tuple[Any, ...], tuple[Personality, tuple[Curve, Curve, Curve]]] = {}


def _make_cell_curves(p: Personality, intent: Intent, stance: str, seen: bool) -> tuple[Curve, Curve, Curve]:
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
