"""Where covering fire is worth weighing (R-6.12; `ranged_extra.cover_options`): the centres of the areas round the
enemies known, without asking the battle about cells it would refuse or that cover nothing (issue 12 item 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from skirmish.ecs.view import UnitView
from skirmish.rules import geometry as geo

if TYPE_CHECKING:
    from skirmish.ai.utility.options import Situation


def centres(s: Situation, known: list[UnitView], reach_m: float) -> list[geo.Cell]:
    """The cells whose area may be worth covering, in the order weighed: round each enemy known (in its order),
    the square of cells up to `reach_m` away, each once; only those within `reach_m` of an enemy (`_area_worth`
    finds nothing else in the area or beside it), on the map and in the unit's sight (the grid's sight table,
    one batch: `cell_ok` refuses the rest, R-6.12). `cell_ok` still answers for each cell kept."""
    grid, here, cell_m = s.view.grid, s.me.cell, s.view.grid.cell_m
    span = int(reach_m // cell_m)
    side = np.arange(-span, span + 1)
    ex = np.array([int(e.cell[0]) for e in known], dtype=np.intp)
    ey = np.array([int(e.cell[1]) for e in known], dtype=np.intp)
    xs = (ex[:, None, None] + side[None, :, None] + 0 * side[None, None, :]).ravel()  # enemy, dx, dy: the loop order
    ys = (ey[:, None, None] + 0 * side[None, :, None] + side[None, None, :]).ravel()
    on = (xs >= 0) & (xs < grid.width) & (ys >= 0) & (ys < grid.height)
    xs, ys = xs[on], ys[on]
    _, first = np.unique(ys * grid.width + xs, return_index=True)
    first.sort()  # each cell once, where it first comes
    xs, ys = xs[first], ys[first]
    hyp = geo.hypot_table(grid.width, grid.height)  # geo.distance_m's floats
    near = (hyp[np.abs(ys[None, :] - ey[:, None]), np.abs(xs[None, :] - ex[:, None])] * cell_m
            <= reach_m + 1e-9).any(axis=0)
    xs, ys = xs[near], ys[near]
    if not len(xs):
        return []
    seen = grid.sight_table.codes_from((int(here[0]), int(here[1])), xs, ys) & 1
    return [(x, y) for x, y, v in zip(xs.tolist(), ys.tolist(), seen.tolist(), strict=True) if v]
