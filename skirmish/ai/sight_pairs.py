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
from skirmish.rules.sight_table import SightTable


def seen_pairs(view: BattleView, frm: Sequence[geo.Cell], to: Sequence[geo.Cell]) -> list[list[bool]]:
    """Per cell of `frm`, per cell of `to`: `geometry.sight(view.grid, a, b).visible` (the map's codes, bit 0).
    The last few answers are kept by the map's table and the cells (a decision asks the same block twice: its
    targets' danger and the replies on its friends); the lists handed out are shared, so not to be changed."""
    table = view.grid.sight_table
    key = (id(table), tuple(frm), tuple(to))
    got = _kept.get(key)
    if got is not None and got[0] is table:
        return got[1]
    if not frm or not to:
        out: list[list[bool]] = [[False] * len(to) for _ in frm]
    else:
        xs = np.fromiter((c[0] for c in to), dtype=np.intp, count=len(to))
        ys = np.fromiter((c[1] for c in to), dtype=np.intp, count=len(to))
        out = ((table.codes_many(tuple(frm), xs, ys) & 1) != 0).tolist()  # [frm, to]
    if len(_kept) >= KEPT:
        _kept.clear()
    _kept[key] = (table, out)
    return out


KEPT = 8  # blocks of pairs kept (by the table itself, so a freed map's id reused is never matched)
_kept: dict[tuple[int, tuple[geo.Cell, ...], tuple[geo.Cell, ...]], tuple[SightTable, list[list[bool]]]] = {}
