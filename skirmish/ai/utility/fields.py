"""Per-cell fields of the utility AI's cell considerations that cost the most: from each cell a move may end
in, the best shot the unit would have (line of fire) and the share of the enemies it sees that stand in the
open there (flanking)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skirmish.ai.estimate import hit_probability
from skirmish.ai.utility.maps import COVER_VALUE
from skirmish.ecs.view import BattleView, UnitView


def fire_fields(view: BattleView, me: UnitView, ok: npt.NDArray[np.bool_], enemies: list[UnitView],
                dists: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(line of fire, flanking) over the cells in `ok`: the best prepared shot after a walk, its hit chance
    discounted by the target's cover, and the share of the enemies seen that stand in the open (R-6.6);
    `dists[k]` is the distance in metres from every cell to enemy k."""
    h, wd = ok.shape
    w = me.weapon
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
            hit, _, _ = hit_probability(view, me, e, mode="prepared", moved="walked", at=c)
            best = max(best, hit * (1 - COVER_VALUE[s.cover] * 0.7))
        fire[c[1], c[0]] = best
        flank[c[1], c[0]] = open_targets / seen if seen else 0.0
    return fire, flank
