"""Routes on the grid: A* over 8 directions, diagonals only where no corner is cut (R-5.6).

The search is the one the `pathfinding` package (1.0.x, `AStarFinder` with `only_when_no_obstacle`) makes,
step for step, so the same route comes out of every tie: the octile heuristic times the map's least move
cost, a step costing 1 or √2 times the move cost of the cell entered, neighbours tried north, east, south,
west, then north-west, north-east, south-east, south-west, and the open list a heap ordered by (f, the order
nodes were pushed in). What it does not do is keep a node object per cell and reset every one of them twice
per route: its state lives in dictionaries made for the one search, so a route costs what it looks at.
tests/test_nav.py holds its routes equal to the package's.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable

from skirmish.rules.geometry import Cell, GridMap

SQRT2 = math.sqrt(2)
_OCTILE = SQRT2 - 1


class Navigator:
    """A* routes over one map."""

    def __init__(self, grid: GridMap) -> None:
        self.grid = grid
        w, h = grid.width, grid.height
        self.w, self.h = w, h
        cost = grid.move_cost.tolist()
        self._weight = [float(cost[y][x]) if cost[y][x] > 0 else 0.0 for y in range(h) for x in range(w)]
        self._open_ground = [c > 0 for c in self._weight]
        walkable = [c for c in self._weight if c > 0]
        self._min_weight = min(walkable) if walkable else math.inf

    def route(self, start: Cell, goal: Cell, occupied: Iterable[Cell] = ()) -> list[Cell]:
        """Cheapest route from start to goal (both included), or [] if none; occupied cells are avoided."""
        if start == goal:
            return [start]
        if not self.grid.passable(goal):
            return []
        w, h = self.w, self.h
        free = self._open_ground
        shut = {c[1] * w + c[0] for c in occupied if c not in (start, goal) and self.grid.inside(c)}
        weight = self._weight
        min_w = self._min_weight
        s = start[1] * w + start[0]
        e = goal[1] * w + goal[0]
        gx, gy = goal
        g: dict[int, float] = {s: 0.0}
        f: dict[int, float] = {s: 0.0}
        hh: dict[int, float] = {}
        parent: dict[int, int] = {}
        closed: set[int] = set()
        heap: list[tuple[float, int, int]] = [(0.0, 0, s)]
        pushed = 0

        def walkable(x: int, y: int) -> bool:
            return 0 <= x < w and 0 <= y < h and free[y * w + x] and (y * w + x) not in shut

        while heap:
            nf, _, n = heapq.heappop(heap)
            if nf > f[n]:
                continue  # a stale entry: the node was pushed again with a lower f
            closed.add(n)
            if n == e:
                path = [n]
                while n in parent:
                    n = parent[n]
                    path.append(n)
                path.reverse()
                return [(i % w, i // w) for i in path]
            x, y = n % w, n // w
            north = walkable(x, y - 1)
            east = walkable(x + 1, y)
            south = walkable(x, y + 1)
            west = walkable(x - 1, y)
            steps: list[tuple[int, int, bool]] = []
            if north:
                steps.append((x, y - 1, False))
            if east:
                steps.append((x + 1, y, False))
            if south:
                steps.append((x, y + 1, False))
            if west:
                steps.append((x - 1, y, False))
            if north and west and walkable(x - 1, y - 1):
                steps.append((x - 1, y - 1, True))
            if north and east and walkable(x + 1, y - 1):
                steps.append((x + 1, y - 1, True))
            if south and east and walkable(x + 1, y + 1):
                steps.append((x + 1, y + 1, True))
            if south and west and walkable(x - 1, y + 1):
                steps.append((x - 1, y + 1, True))
            gn = g[n]
            for mx, my, diagonal in steps:
                m = my * w + mx
                if m in closed:
                    continue
                ng = gn + (SQRT2 if diagonal else 1) * weight[m]
                old = g.get(m)
                if old is None or ng < old:
                    g[m] = ng
                    hm = hh.get(m, 0.0)
                    if not hm:
                        dx, dy = abs(mx - gx), abs(my - gy)
                        hm = hh[m] = (_OCTILE * dx + dy if dx < dy else _OCTILE * dy + dx) * min_w
                    f[m] = ng + hm
                    parent[m] = n
                    pushed += 1
                    heapq.heappush(heap, (f[m], pushed, m))
        return []
