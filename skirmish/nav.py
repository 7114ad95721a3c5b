"""Routes on the grid with the `pathfinding` package (the product's route library): A* over 8 directions,
diagonals only where no corner is cut (R-5.6). The package's grid is built once per map content
(`Navigator.of`: kept with the map, shared by every battle on a map of the same content); between queries only
the occupied cells change, and only the nodes a search touched are reset (the package would reset every node
of the map twice per route). Nothing here refers to the map object itself, so maps are still freed.

Routes are kept (`ROUTES_KEPT` per map content): the package's search reads the walkability of the cells round
the nodes it expands and of nothing else (its order is its own heap's, made afresh per search), so a route found
with some cells occupied is the route again for any occupied cells that shut the same cells of that ring. A
route is kept with the ring its search looked at and the occupied cells in it, and handed back when the same
start and goal are asked with exactly those ring cells occupied. Battles on one map (a bench, a tournament)
start from the same cells and ask many of the same routes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from pathfinding.core.diagonal_movement import DiagonalMovement
from pathfinding.core.grid import Grid
from pathfinding.core.node import GridNode
from pathfinding.finder.a_star import AStarFinder

from skirmish.rules.geometry import Cell, GridMap


class _TouchedGrid(Grid):
    """A pathfinding grid that remembers the nodes a search handed out and resets only those."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.touched: list[GridNode] = []
        self.expanded: list[tuple[int, int]] = []  # nodes whose neighbours were asked (their ring was read)

    def neighbors(self, node: GridNode, *args: Any, **kwargs: Any) -> list[GridNode]:
        found: list[GridNode] = super().neighbors(node, *args, **kwargs)
        self.touched.extend(found)
        self.expanded.append((node.x, node.y))
        return found

    def cleanup(self) -> None:
        for node in self.touched:
            node.cleanup()
        self.touched.clear()
        self.expanded.clear()


ROUTES_KEPT = 4096  # routes kept per map content (with the cells their search looked at); then they start again
_RING = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


class Navigator:
    """A* routes over one map content, reusing the pathfinding grid between queries."""

    def __init__(self, grid: GridMap) -> None:
        self._w, self._h = grid.width, grid.height
        matrix = np.where(grid.move_cost > 0, grid.move_cost, 0).astype(float)
        self._open = (matrix > 0).tolist()  # GridMap.passable, without holding the map
        self._pf = _TouchedGrid(matrix=matrix.tolist())
        self._finder = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle)
        # (start, goal) -> [(the nodes the search expanded, the occupied cells in their rings, the route)]
        self._kept: dict[tuple[Cell, Cell], list[tuple[frozenset[Cell], frozenset[Cell], list[Cell]]]] = {}
        self._count = 0

    @classmethod
    def of(cls, grid: GridMap) -> Navigator:
        """The map's navigator, made on first use and kept with the map (`GridMap.kept`, shared by maps of the
        same content): every battle on the map shares it (a route leaves the package's grid as it found it, so
        no battle sees another's)."""
        nav = grid.kept.get("navigator")
        if not isinstance(nav, cls):
            nav = grid.kept["navigator"] = cls(grid)
        return nav

    def _inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self._w and 0 <= cell[1] < self._h

    def route(self, start: Cell, goal: Cell, occupied: Iterable[Cell] = (), keep: bool = True) -> list[Cell]:
        """Cheapest route from start to goal (both included), or [] if none; occupied cells are avoided. With
        `keep` False the route is searched afresh and not kept (the same answer; `skirmish bench` times it)."""
        if start == goal:
            return [start]
        if not (self._inside(goal) and self._open[goal[1]][goal[0]]):
            return []
        blocked = [c for c in occupied if c not in (start, goal) and self._inside(c)]
        if not keep:
            return list(self._search(start, goal, blocked)[2])
        kept = self._kept.get((start, goal))
        if kept is not None:
            for expanded, shut, path in kept:
                if _looked_at(blocked, expanded) == shut:
                    return list(path)
        found = self._search(start, goal, blocked)
        if self._count >= ROUTES_KEPT:
            self._kept.clear()
            self._count = 0
        self._count += 1
        self._kept.setdefault((start, goal), []).append(found)
        return list(found[2])

    def _search(self, start: Cell, goal: Cell, blocked: list[Cell]) -> tuple[frozenset[Cell], frozenset[Cell],
                                                                              list[Cell]]:
        """The package's route, with the nodes its search expanded (it looked at their rings) and the blocked
        cells it looked at."""
        pf = self._pf
        for x, y in blocked:
            pf.node(x, y).walkable = False
        first = pf.node(*start)
        try:
            pf.touched.append(first)  # the start is opened without being anyone's neighbour
            path, _ = self._finder.find_path(first, pf.node(*goal), pf)
            expanded = frozenset(pf.expanded)
        finally:
            pf.cleanup()  # leave every node fresh for the next query (the finder skips its own reset)
            pf.dirty = False
            for x, y in blocked:
                pf.node(x, y).walkable = bool(self._open[y][x])
        return expanded, _looked_at(blocked, expanded), [(n.x, n.y) for n in path]


def _looked_at(cells: list[Cell], expanded: frozenset[Cell]) -> frozenset[Cell]:
    """The cells the search that expanded `expanded` looked at: those next to an expanded node (its ring)."""
    return frozenset(c for c in cells if any((c[0] + dx, c[1] + dy) in expanded for dx, dy in _RING))
