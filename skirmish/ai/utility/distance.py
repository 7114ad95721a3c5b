"""Per-cell fields of the utility AI that read only the map and one cell, kept with the map (issue 12 item 6):
the distance in metres from a cell to every cell, and the bearing from it. Each is worked out once per map and
cell with the very expression the considerations used per decision, so a kept field is the same numbers bit
for bit; the fields are read-only."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skirmish.rules import geometry as geo

Field = npt.NDArray[np.float64]
CELLS_KEPT = 1 << 21  # cells of kept fields per kind and map (8 bytes each) before they start again


def _keep(grid: geo.GridMap, kind: str, cell: geo.Cell, field: Field) -> Field:
    kept: dict[geo.Cell, Field] = grid.kept.setdefault(kind, {})
    if len(kept) >= max(16, CELLS_KEPT // (grid.width * grid.height)):
        kept.clear()
    field.flags.writeable = False
    kept[cell] = field
    return field


def metres_from(grid: geo.GridMap, cell: geo.Cell) -> Field:
    """`np.hypot(xx - x, yy - y) * cell_m` over the map: the distance in metres from `cell`'s centre to every
    cell's centre."""
    key = (int(cell[0]), int(cell[1]))
    out = grid.kept.get("ai_metres", {}).get(key)
    if out is None:
        yy, xx = np.indices((grid.height, grid.width))
        out = _keep(grid, "ai_metres", key, np.hypot(xx - key[0], yy - key[1]) * grid.cell_m)
    return out


def bearing_from(grid: geo.GridMap, cell: geo.Cell) -> Field:
    """`np.arctan2(yy - y, xx - x)` over the map: the angle from `cell` to every cell."""
    key = (int(cell[0]), int(cell[1]))
    out = grid.kept.get("ai_bearing", {}).get(key)
    if out is None:
        yy, xx = np.indices((grid.height, grid.width))
        out = _keep(grid, "ai_bearing", key, np.arctan2(yy - key[1], xx - key[0]))
    return out
