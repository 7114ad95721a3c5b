"""The hold/focus/spread baselines' cell choice (`BaselineAI._choose_cell`): every reachable cell scored against
all enemies at once from the map's sight codes (tests/test_baseline_fast.py holds it equal to a per-enemy scan)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.rules import geometry as geo

COVER_VALUE = {"none": 0.0, "low": 0.6, "high": 0.9}  # how much cover from a shooter is worth


def _best_cell(grid: geo.GridMap, field_: npt.NDArray[np.float64], here_cell: geo.Cell, reach: float,
               enemy_cells: tuple[geo.Cell, ...]) -> geo.Cell:
    """`BaselineAI._choose_cell`'s scoring, all enemies at once (an enemy per row): the same float operations
    in the same order as a loop over the enemies (the cover sums are added row by row, in the enemies' order;
    a cover value or a shot is looked up by the sight code at once)."""
    ys, xs, moved, here = _field_cells(grid, field_, here_cell)
    nearest_now = min(geo.distance_cells(here_cell, c) for c in enemy_cells)
    e = np.array(enemy_cells, dtype=np.intp)
    code = grid.sight_table.codes_many(enemy_cells, xs, ys)  # [enemy, cell]
    d = geo.hypot_table(grid.width, grid.height)[np.abs(ys - e[:, 1:]), np.abs(xs - e[:, :1])]  # geo.distance_cells
    nearest = d.min(axis=0)
    seen_by = _SEEN_BY_CODE[code].sum(axis=0, dtype=np.int64)
    covered = np.zeros(len(xs))
    for row in _COVER_BY_CODE[code]:  # row by row, in the enemies' order, as a cell-by-cell scan adds them
        covered += row
    shots = (_OPEN_SHOT_BY_CODE[code] & (d * grid.cell_m <= reach)).any(axis=0)
    score = 0.0 - 2.0 * (seen_by - covered)
    score = score + np.where(shots, 1.5, 0.0)
    score = np.where(shots, score + 0.02 * (nearest_now - nearest), score - 0.6 * nearest)  # close in unseen
    score = score - 0.01 * moved  # prefer shorter moves
    if here is not None:
        score[here] = score[here] + 0.3  # moving costs a shot penalty: stay unless clearly better
    best = int(np.argmax(score))
    return int(xs[best]), int(ys[best])


FIELD_CELLS_KEPT = 4096  # reach fields whose cells the baselines keep per map


def _field_cells(grid: geo.GridMap, field_: npt.NDArray[np.float64], here: geo.Cell) -> tuple[
        npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64], int | None]:
    """The reachable cells of a (read-only) reach field in row order (ys, xs), their costs, and the index of
    `here` among them (None if it is not one); kept with the map by the field object."""
    kept: dict[int, tuple[object, geo.Cell, tuple[Any, Any, Any, int | None]]] = grid.kept.setdefault(
        "field_cells", {})
    k = kept.get(id(field_))
    if k is not None and k[0] is field_ and k[1] == here:
        return k[2]
    ys, xs = np.nonzero(np.isfinite(field_))
    at = np.flatnonzero((xs == here[0]) & (ys == here[1]))
    cells = (ys, xs, field_[ys, xs], int(at[0]) if len(at) else None)
    if len(kept) >= FIELD_CELLS_KEPT:
        kept.clear()
    kept[id(field_)] = (field_, here, cells)
    return cells


_COVER_BY_LEVEL = np.array([COVER_VALUE["none"], COVER_VALUE["low"], COVER_VALUE["high"]])
# By sight code (SightTable.column: visible + 2 × lean + 4 × cover level): seen, the cover value if seen, and
# whether a shot would go straight (seen, not round a corner).
_SEEN_BY_CODE = np.array([c & 1 for c in range(16)], dtype=np.int64)
_COVER_BY_CODE = np.array([_COVER_BY_LEVEL[c >> 2] if c & 1 and c >> 2 < 3 else 0.0 for c in range(16)])
_OPEN_SHOT_BY_CODE = np.array([bool(c & 1) and not c & 2 for c in range(16)])
