"""Routes on the grid: A* over 8 directions, diagonals only where no corner is cut (R-5.6), as the `pathfinding`
package's `AStarFinder` finds them, step for step and tie for tie (tests/test_nav.py holds every route equal to
the package's on a fresh grid). The search is the package's, written over a padded list of cells with per-query
dicts instead of node objects: nothing is reset between queries, and the map's lists are built once
(`Navigator.of`: kept with the map, shared by every battle on it)."""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable

import numpy as np

from skirmish.rules.geometry import Cell, GridMap

SQRT2 = math.sqrt(2)  # as the pathfinding package writes it (pathfinding.core.util.SQRT2)


class Navigator:
    """A* routes over one map (the package's search, see the module's docstring)."""

    def __init__(self, grid: GridMap) -> None:
        # Nothing here refers to `grid` itself: the navigator is shared by every map of the same content.
        self._w, self._h = w, h = grid.width, grid.height
        self._pw = pw = w + 2  # padded width: a ring of shut cells round the map, so no step needs a bounds check
        weight = [0.0] * (pw * (h + 2))
        for y, row in enumerate(np.where(grid.move_cost > 0, grid.move_cost, 0).astype(float).tolist()):
            for x, c in enumerate(row):
                weight[(y + 1) * pw + x + 1] = float(c)
        self._weight = weight  # the package's node weight (0: not walkable)
        self._open = [c > 0 for c in weight]  # the package's `walkable`
        walkable = [c for c in weight if c > 0]
        self._min_weight = min(walkable) if walkable else math.inf  # the package's grid.min_weight

    @classmethod
    def of(cls, grid: GridMap) -> Navigator:
        """The map's navigator, made on first use and kept with the map (`GridMap.kept`, shared by maps of the
        same content): every battle on the map shares it (a route leaves it as it found it, so no battle sees
        another's)."""
        nav = grid.kept.get("navigator")
        if not isinstance(nav, cls):
            nav = grid.kept["navigator"] = cls(grid)
        return nav

    def route(self, start: Cell, goal: Cell, occupied: Iterable[Cell] = ()) -> list[Cell]:
        """Cheapest route from start to goal (both included), or [] if none; occupied cells are avoided."""
        if start == goal:
            return [start]
        w, h, pw = self._w, self._h, self._pw
        if not (0 <= goal[0] < w and 0 <= goal[1] < h and self._weight[(goal[1] + 1) * pw + goal[0] + 1] > 0):
            return []  # GridMap.passable: off the map or impassable
        blocked = [(y + 1) * pw + x + 1 for x, y in occupied if (x, y) not in (start, goal) and 0 <= x < w and 0 <= y < h]
        free = self._open
        shut = [i for i in blocked if free[i]]
        for i in shut:
            free[i] = False
        try:
            path = self._search((start[1] + 1) * pw + start[0] + 1, (goal[1] + 1) * pw + goal[0] + 1, goal)
        finally:
            for i in shut:
                free[i] = True
        return [(i % pw - 1, i // pw - 1) for i in path]

    def _search(self, s: int, t: int, goal: Cell) -> list[int]:
        """The pathfinding package's `AStarFinder(diagonal_movement=only_when_no_obstacle)` on a fresh
        `Grid(matrix=move costs)`, step for step: the same open list (f, then the order pushed), the same
        neighbour order (N, E, S, W, then NW, NE, SE, SW where both sides are open), the same float costs
        (the parent's g plus 1 or √2 times the cell's weight) and octile heuristic times the map's least
        weight, kept from a node's first opening; so the same route, ties included (tests/test_nav.py)."""
        pw, free, weight, min_weight = self._pw, self._open, self._weight, self._min_weight
        gx, gy = goal
        f_ = SQRT2 - 1
        g: dict[int, float] = {s: 0.0}
        f: dict[int, float] = {s: 0.0}
        h: dict[int, float] = {}
        parent: dict[int, int] = {}
        closed: set[int] = set()
        heap: list[tuple[float, int, int]] = [(0.0, 0, s)]
        pushed = 0
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            fv, _, node = pop(heap)
            if fv > f[node]:
                continue  # opened again since with a lower f
            closed.add(node)
            if node == t:
                path = [node]
                while node in parent:
                    node = parent[node]
                    path.append(node)
                path.reverse()
                return path
            north, east, south, west = node - pw, node + 1, node + pw, node - 1
            n_ok, e_ok, s_ok, w_ok = free[north], free[east], free[south], free[west]
            steps = []
            if n_ok:
                steps.append((north, 1.0))
            if e_ok:
                steps.append((east, 1.0))
            if s_ok:
                steps.append((south, 1.0))
            if w_ok:
                steps.append((west, 1.0))
            if n_ok and w_ok and free[north - 1]:
                steps.append((north - 1, SQRT2))
            if n_ok and e_ok and free[north + 1]:
                steps.append((north + 1, SQRT2))
            if s_ok and e_ok and free[south + 1]:
                steps.append((south + 1, SQRT2))
            if s_ok and w_ok and free[south - 1]:
                steps.append((south - 1, SQRT2))
            gn = g[node]
            for j, length in steps:
                if j in closed:
                    continue
                ng = gn + length * weight[j]
                if j not in g or ng < g[j]:
                    g[j] = ng
                    hj = h.get(j, 0.0)
                    if not hj:  # the package's `node.h or heuristic`: worked out while it is 0
                        dx, dy = abs(j % pw - 1 - gx), abs(j // pw - 1 - gy)
                        hj = h[j] = (f_ * dx + dy if dx < dy else f_ * dy + dx) * min_weight
                    f[j] = ng + hj
                    parent[j] = node
                    pushed += 1
                    push(heap, (f[j], pushed, j))
        return []
