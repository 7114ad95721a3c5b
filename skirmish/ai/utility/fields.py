"""Per-cell fields of the utility AI's cell considerations that cost the most: from each cell a move may end
in, the best shot the unit would have (line of fire) and the share of the enemies it sees that stand in the
open there (flanking)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from skirmish.ai.estimate import hit_probability
from skirmish.ai.utility.maps import COVER_VALUE
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.sight_table import table as sight_table
from skirmish.rulesets.fi import ae_shift


def fire_fields(view: BattleView, me: UnitView, ok: npt.NDArray[np.bool_], enemies: list[UnitView],
                dists: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(line of fire, flanking) over the cells in `ok`: the best prepared shot after a walk, its hit chance
    discounted by the target's cover, and the share of the enemies seen that stand in the open (R-6.6);
    `dists[k]` is the distance in metres from every cell to enemy k.

    The sight from each cell is `view.sight(me, e, cell)` (R-6.1's concealment worked in as `unit_sight` does),
    and the hit chance `hit_probability(..., at=cell)`. That reads the cell only through the sight (whether the
    target is concealed) and the distance, and the distance only through the range increments it spans (R-6.1)
    and an area weapon's row shift (R-6.9): so it is asked once per enemy, concealment, increments and shift
    (tests/test_fields.py holds the result equal to asking at every cell)."""
    h, wd = ok.shape
    w = me.weapon
    fire = np.zeros((h, wd))
    flank = np.zeros((h, wd))
    if w is None:
        return fire, flank
    seen_from = sight_table(view.grid)
    cell_m = view.grid.cell_m
    reach, inc = w.max_range_m, w.range_inc_m
    ys, xs = np.nonzero(ok)
    foes = [(k, e, e.cell, e.firing, me.side in e.known_to, dists[k][ys, xs].tolist()) for k, e in enumerate(enemies)]
    hits: dict[tuple[int, bool, int, int], float] = {}
    fire_l = [[0.0] * wd for _ in range(h)]
    flank_l = [[0.0] * wd for _ in range(h)]
    for i, (x, y) in enumerate(zip(xs.tolist(), ys.tolist(), strict=True)):
        c = (x, y)
        best, open_targets, seen = 0.0, 0, 0
        for k, e, at, firing, known, dist_k in foes:
            s = seen_from.sight(c, at)
            if not s.visible or dist_k[i] > reach:
                continue
            concealed = False
            if s.lean and not firing:  # geo.unit_sight: seen only round a corner while not firing
                if not known:
                    continue
                concealed = True
            seen += 1
            if s.cover == "none":
                open_targets += 1
            dist = geo.distance_m(c, at, cell_m)
            key = (k, concealed, math.floor(dist / inc + 1e-9), ae_shift(w, dist))  # as shot_numbers reads it
            hit = hits.get(key)
            if hit is None:
                hit = hits[key] = hit_probability(view, me, e, mode="prepared", moved="walked", at=c)[0]
            best = max(best, hit * (1 - COVER_VALUE[s.cover] * 0.7))
        fire_l[y][x] = best
        flank_l[y][x] = open_targets / seen if seen else 0.0
    return np.array(fire_l, dtype=np.float64), np.array(flank_l, dtype=np.float64)
