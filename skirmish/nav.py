"""Routes on the grid with the `pathfinding` package: 8 directions, diagonals only where no corner is cut
(R-5.6). The grid is built once per map and only the occupied cells change between queries."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from pathfinding.core.diagonal_movement import DiagonalMovement
from pathfinding.core.grid import Grid
from pathfinding.finder.a_star import AStarFinder

from skirmish.rules.geometry import Cell, GridMap


class Navigator:
    """A* routes over one map, reusing the pathfinding grid between queries."""

    def __init__(self, grid: GridMap) -> None:
        self.grid = grid
        self._matrix = np.where(grid.move_cost > 0, grid.move_cost, 0).astype(float)
        self._pf = Grid(matrix=self._matrix.tolist())
        self._finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle)

    def route(self, start: Cell, goal: Cell, occupied: Iterable[Cell] = ()) -> list[Cell]:
        """Cheapest route from start to goal (both included), or [] if none; occupied cells are avoided."""
        if start == goal:
            return [start]
        if not self.grid.passable(goal):
            return []
        blocked = [c for c in occupied if c not in (start, goal) and self.grid.inside(c)]
        for x, y in blocked:
            self._pf.node(x, y).walkable = False
        try:
            self._pf.cleanup()
            path, _ = self._finder.find_path(self._pf.node(*start), self._pf.node(*goal), self._pf)
        finally:
            for x, y in blocked:
                self._pf.node(x, y).walkable = True
        return [(n.x, n.y) for n in path]
