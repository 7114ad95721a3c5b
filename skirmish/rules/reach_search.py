"""The reach search (`geometry.reach_field`, re-exported there): movement cost from a cell to every cell within a
limit, by Dijkstra over the map padded with a ring of shut cells, each cell's steps past the walls listed once
per map."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:  # geometry imports this module (its reach_field): nothing of it is needed at run time
    from skirmish.rules.geometry import Cell, GridMap

SQRT2 = math.sqrt(2.0)  # geometry's SQRT2 and _EPS (tests/test_reach_field.py holds them the same)
_EPS = 1e-9


def reach_field(
    grid: GridMap, start: Cell, limit: float, blocked: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.float64]:
    """Movement cost (cells) from `start` to every cell within `limit`; inf elsewhere (Dijkstra).

    A step costs its length (1 or √2) times the move cost of the cell entered, added to the cost so far; a
    diagonal step cuts no corner past a wall or a figure (as nav). Cells are numbered on the map padded with
    a ring of shut cells, and each open cell's steps past the walls (the cell entered, its cost, the two cells
    beside a diagonal) are listed once per map (`_padded_steps`), so a search only reads them and, with
    figures on the map, checks the figures' cells. Any exact Dijkstra gives these values bit for bit (each is
    the least of the float sums along the routes there, and a float sum never falls as a step is added), so
    the order ties are taken in does not matter. Only the cells settled are written into the field (no list
    the size of the map is turned into an array), and the figures are shut in a list kept with the map."""
    w, h = grid.width, grid.height
    pw = w + 2
    _, plain, steps = _padded_steps(grid)
    s = (start[1] + 1) * pw + start[0] + 1
    best = [math.inf] * len(plain)
    best[s] = 0.0
    reached: list[int] = []  # every cell settled (once each): the field is written from these alone
    bound = limit + _EPS
    shut = None if blocked is None else np.flatnonzero(blocked)
    if (shut is None or not len(shut)) and limit == math.inf:  # a whole-map walk: no bound, and most cells reached
        _settle(plain, best, s, math.inf, reached, None)
        return np.array(best).reshape(h + 2, pw)[1:-1, 1:-1].copy()
    if shut is None or not len(shut):
        _settle(plain, best, s, bound, reached, None)
    else:
        # `open_` is the map's open ground, kept with the map for these searches: the figures' cells are shut
        # for this one and opened again after it (the steps listed are past the walls already).
        open_ = _open_cells(grid)
        no = (shut // w * pw + shut % w + pw + 1).tolist()
        was = [open_[i] for i in no]
        for i in no:
            open_[i] = False
        try:
            _settle(steps, best, s, bound, reached, open_)
        finally:
            for i, v in zip(reversed(no), reversed(was), strict=True):  # (a cell named twice gets its own back)
                open_[i] = v
    out = np.full(w * h, math.inf)
    at = np.array(reached, dtype=np.intp)
    # padded (x + 1, y + 1) -> y * w + x; each cell settled once, at its cost
    out[at - pw - 1 - 2 * (at // pw - 1)] = [best[j] for j in reached]
    return out.reshape(h, w)


def _settle(steps: list[Any], best: list[float], s: int, bound: float, reached: list[int],
            open_: list[bool] | None) -> None:
    """Dijkstra from padded cell `s` over `steps` (the plain steps, or with `open_` the steps with the cells a
    figure must not stand on), writing each cell's cost into `best` up to `bound` and listing the cells settled
    in `reached` (the order does not matter).

    The cells wait in bands one cell of cost wide (a cell of cost d in band int(d)), not in a heap: every step
    costs at least 1 (its length, at least 1, times a move cost, a whole number of at least 1: `Tile.move_cost`),
    so no cell of a band can lower another of the same band, and when a band is reached every cell in it is
    settled at its least cost (each is the least of its settled neighbours' costs plus the step, the same float
    sums as any exact Dijkstra). A cell waits once for each time it was lowered; only the first look at it
    counts."""
    bands: list[list[int]] = [[s]]
    done = [False] * len(best)
    add = reached.append
    for wait in bands:  # (the list grows as it is walked: a band is added when a cell is first put in it)
        for i in wait:
            if done[i]:
                continue
            done[i] = True
            add(i)
            d = best[i]
            if open_ is None:
                for j, c in steps[i]:
                    nd = d + c
                    if nd < best[j] and nd <= bound:
                        best[j] = nd
                        k = int(nd)
                        while k >= len(bands):
                            bands.append([])
                        bands[k].append(j)
                continue
            for j, c, a, b in steps[i]:
                if open_[j] and open_[a] and open_[b]:
                    nd = d + c
                    if nd < best[j] and nd <= bound:
                        best[j] = nd
                        k = int(nd)
                        while k >= len(bands):
                            bands.append([])
                        bands[k].append(j)


def _open_cells(grid: GridMap) -> list[bool]:
    """The padded map's open ground (`_padded_steps`' first list), a copy kept with the map that a search with
    figures shuts their cells in for its length (and opens again)."""
    kept: list[bool] | None = grid.kept.get("padded_open")
    if kept is None:
        kept = grid.kept["padded_open"] = list(_padded_steps(grid)[0])
    return kept


_Steps = tuple[list[bool], list[tuple[tuple[int, float], ...]], list[tuple[tuple[int, float, int, int], ...]]]


def _padded_steps(grid: GridMap) -> _Steps:
    """Per cell of the padded map: open ground (move cost > 0); the steps out of it that no wall stops, as
    (cell entered, cost); and the same with the cells a figure must not stand on for the step, (cell entered,
    cost, side, side) (a straight step names the cell entered as both sides). Kept on the map."""
    kept: _Steps | None = grid.kept.get("padded_steps")
    if kept is None:
        kept = grid.kept["padded_steps"] = _work_out_padded_steps(grid)
    return kept


def _work_out_padded_steps(grid: GridMap) -> _Steps:
    pw = grid.width + 2
    free = [False] * (pw * (grid.height + 2))
    cost_at = [0.0] * len(free)
    cost = grid.move_cost.tolist()
    if any(0 < c < 1 for row in cost for c in row):  # `_settle`'s bands are one step of the least cost wide
        raise ValueError("a move cost between 0 and 1: the reach search needs every step to cost at least 1 "
                         "(Tile.move_cost is a whole number, 0 for impassable)")
    for y in range(grid.height):
        for x in range(grid.width):
            i = (y + 1) * pw + x + 1
            free[i] = cost[y][x] > 0
            cost_at[i] = cost[y][x]
    steps: list[tuple[tuple[int, float, int, int], ...]] = [()] * len(free)
    for y in range(grid.height):  # every cell of the map, open or not (a search may start on a shut one)
        row = (y + 1) * pw + 1
        for i in range(row, row + grid.width):
            steps[i] = _steps_out(free, cost_at, i, pw)
    plain = [tuple((j, c) for j, c, _, _ in s) for s in steps]
    return free, plain, steps


def _steps_out(free: list[bool], cost_at: list[float], i: int, pw: int) -> tuple[tuple[int, float, int, int], ...]:
    """The steps out of padded cell `i` that no wall stops (`_padded_steps`)."""
    out = []
    for o in (1, -1, pw, -pw):  # the order the search looks (any order gives the same field)
        j = i + o
        if free[j]:
            out.append((j, cost_at[j], j, j))
    for ox, oy in ((1, pw), (1, -pw), (-1, pw), (-1, -pw)):
        j = i + ox + oy
        if free[j] and free[i + ox] and free[i + oy]:
            out.append((j, SQRT2 * cost_at[j], i + ox, i + oy))
    return tuple(out)
