"""Which of many pairs of cells have a line of sight at all, from one look at the map's sight codes.

An AI that weighs every enemy against every one of us (the search model's replies, a target's danger) asks the
sight of each pair; where a pair has no line of sight (R-6.6) the shot along it is no shot (`estimate_shot`:
NO_SHOT, `hit_probability`: 0), whatever else the two units are. `SightTable.codes_many` answers a whole block
of pairs in one numpy look (each pair worked out once per map, as `geometry.sight` does), so the loops skip
those pairs instead of asking each one's shot.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from skirmish.ecs.view import BattleView
from skirmish.rules import geometry as geo


def seen_pairs(view: BattleView, frm: Sequence[geo.Cell], to: Sequence[geo.Cell]) -> list[list[bool]]:
    """Per cell of `frm`, per cell of `to`: `geometry.sight(view.grid, a, b).visible` (the map's codes, bit 0)."""
    if not frm or not to:
        return [[False] * len(to) for _ in frm]
    xs = np.fromiter((c[0] for c in to), dtype=np.intp, count=len(to))
    ys = np.fromiter((c[1] for c in to), dtype=np.intp, count=len(to))
    codes = view.grid.sight_table.codes_many(tuple(frm), xs, ys)  # [frm, to]
    return ((codes & 1) != 0).tolist()
