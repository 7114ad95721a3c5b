"""`geometry.reach_field` (Dijkstra on the padded map) gives exactly the field of the plain search it replaced,
for any map, start, limit and set of blocked cells."""

from __future__ import annotations

import heapq
import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.content.tiled import from_ascii
from skirmish.rules import geometry as geo

GLYPHS = "....,:#x=Df~"

maps = st.integers(1, 12).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=1, max_size=10)
)


def plain_reach_field(grid: geo.GridMap, start: geo.Cell, limit: float, blocked: np.ndarray | None) -> np.ndarray:
    """The search as first written: cells as (x, y), bounds checked at every step."""
    w, h = grid.width, grid.height
    cost = grid.move_cost
    dist = np.full((h, w), np.inf)
    dist[start[1], start[0]] = 0.0
    free = cost > 0
    if blocked is not None:
        free = free & ~blocked
    free_l, cost_l = free.tolist(), cost.tolist()
    best = {start: 0.0}
    heap = [(0.0, start[0], start[1])]
    while heap:
        d, x, y = heapq.heappop(heap)
        if d > best.get((x, y), math.inf):
            continue
        for dx, dy in geo.NEIGHBOURS_8:
            nx, ny = x + dx, y + dy
            if not (0 <= nx < w and 0 <= ny < h) or not free_l[ny][nx]:
                continue
            if dx and dy:
                if not free_l[y][nx] or not free_l[ny][x]:
                    continue
                nd = d + geo.SQRT2 * cost_l[ny][nx]
            else:
                nd = d + cost_l[ny][nx]
            if nd > limit + 1e-9 or nd >= best.get((nx, ny), math.inf):
                continue
            best[(nx, ny)] = nd
            heapq.heappush(heap, (nd, nx, ny))
    for (x, y), d in best.items():
        dist[y, x] = d
    return dist


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_reach_field_equals_the_plain_search(rows: list[str], data: st.DataObject) -> None:
    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    start = data.draw(st.sampled_from(cells))
    limit = data.draw(st.sampled_from([0.0, 1.0, 1.5, 2.9, 4.0, 7.5, math.inf]))
    blocked = None
    if data.draw(st.booleans()):
        blocked = np.zeros((grid.height, grid.width), dtype=bool)
        for x, y in data.draw(st.lists(st.sampled_from(cells), max_size=8)):
            blocked[y, x] = True
    fast = geo.reach_field(grid, start, limit, blocked)
    plain = plain_reach_field(grid, start, limit, blocked)
    assert np.array_equal(fast, plain), (rows, start, limit)
    assert fast.flags.writeable and fast.shape == (grid.height, grid.width)


def test_walk_fields_are_kept_per_map_and_equal_the_search() -> None:
    from skirmish.rules import reach

    grid = from_ascii(["..#..~", ".x..=.", "...#..", "D.~..."], "t", "map")
    same = from_ascii(["..#..~", ".x..=.", "...#..", "D.~..."], "t", "map")  # the same content: shared
    other = from_ascii(["..#..~", ".x..=.", "...#..", "D.~.#."], "t", "map")
    for y in range(grid.height):
        for x in range(grid.width):
            got = reach.walk_field(grid, (x, y))
            assert np.array_equal(got, geo.reach_field(grid, (x, y), math.inf)) and not got.flags.writeable
            assert reach.walk_field(grid, (x, y)) is got  # kept
            assert reach.walk_field(same, (x, y)) is got  # per map content
            assert reach.walk_field(other, (x, y)) is not got


def test_a_small_reach_cache_drops_old_fields_and_still_answers_the_search() -> None:
    from skirmish.rules.reach import ReachCache

    grid = from_ascii(["..#..~..", ".x..=...", "...#....", "D.~....."], "t", "map")
    cache = ReachCache(size=3)
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.passable((x, y))]
    blocked = np.zeros((grid.height, grid.width), dtype=bool)
    for i in range(60):
        start = cells[(i * 7) % len(cells)]
        blocked[:] = False
        other = cells[(i * 3) % len(cells)]
        blocked[other[1], other[0]] = True
        got = cache.field(grid, start, 3.5, blocked)
        want = geo.reach_field(grid, start, 3.5, blocked)
        assert np.array_equal(got, want), (i, start)
        assert len(cache._kept) <= 4


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_shared_fields_equal_the_search_whatever_was_asked_before(rows: list[str], data: st.DataObject) -> None:
    """`reach.shared_field` (kept per map by start, limit and the blocks the search could look at) equals the
    plain search for every question of a random sequence on one map, blocks near and far included."""
    from skirmish.rules.reach import shared_field

    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    starts = [c for c in cells if grid.passable(c)] or cells
    for _ in range(data.draw(st.integers(1, 8))):
        start = data.draw(st.sampled_from(starts))
        limit = data.draw(st.sampled_from([0.5, 1.0, 2.5, 4.0, math.inf]))
        blocked = np.zeros((grid.height, grid.width), dtype=bool)
        for x, y in data.draw(st.lists(st.sampled_from(cells), max_size=6)):
            blocked[y, x] = True
        got = shared_field(grid, start, limit, blocked)
        assert np.array_equal(got, plain_reach_field(grid, start, limit, blocked)), (rows, start, limit)
        assert not got.flags.writeable


def test_shared_fields_are_bounded_and_live_with_the_map() -> None:
    from skirmish.rules import reach

    grid = from_ascii(["." * 8] * 6, "prop", "map")
    old = reach.SHARED_CELLS_KEPT
    reach.SHARED_CELLS_KEPT = 16 * grid.width * grid.height  # at most 16 fields kept
    try:
        blocked = np.zeros((grid.height, grid.width), dtype=bool)
        for x in range(8):
            for y in range(6):
                reach.shared_field(grid, (x, y), 2.0, blocked)
                assert len(grid.kept["reach_fields"]) <= 16 and len(grid.kept["reach_near"]) <= 16
        again = reach.shared_field(grid, (7, 5), 2.0, blocked)
        assert reach.shared_field(grid, (7, 5), 2.0, blocked) is again  # kept
        assert np.array_equal(again, plain_reach_field(grid, (7, 5), 2.0, blocked))
    finally:
        reach.SHARED_CELLS_KEPT = old


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_fields_among_figures_equal_the_search_over_question_sequences(rows: list[str], data: st.DataObject) -> None:
    """`ReachCache.field_among` (kept while the figures among the cells the search looked at are the same) equals
    the plain search with the figures' cells blocked, for every question of a random sequence on one map: figures
    moving near and far, on the start cell or not, repeated questions, and a small cache dropping old fields."""
    from skirmish.rules.reach import ReachCache

    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    starts = [c for c in cells if grid.passable(c)] or cells
    cache = ReachCache(size=data.draw(st.sampled_from([2, 512])))
    for _ in range(data.draw(st.integers(1, 12))):
        start = data.draw(st.sampled_from(starts[:3]))  # few starts: the kept answers are asked again
        limit = data.draw(st.sampled_from([1.0, 2.5, math.inf]))
        figures = set(data.draw(st.lists(st.sampled_from(cells), max_size=5))) - {start}
        blocked = np.zeros((grid.height, grid.width), dtype=bool)
        for x, y in figures:
            blocked[y, x] = True
        got = cache.field_among(grid, start, limit, figures)
        assert np.array_equal(got, plain_reach_field(grid, start, limit, blocked)), (rows, start, limit, figures)
        assert len(cache._among) <= cache.size + 1


def test_the_reach_search_module_uses_geometrys_constants_and_imports_alone() -> None:
    import subprocess
    import sys

    from skirmish.rules import reach_search

    assert reach_search.SQRT2 == geo.SQRT2 and reach_search._EPS == geo._EPS
    assert geo.reach_field is reach_search.reach_field
    done = subprocess.run([sys.executable, "-c", "import skirmish.rules.reach_search as r; r.reach_field"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_searches_with_figures_shut_their_cells_only_for_their_own_length(rows: list[str], data: st.DataObject) -> None:
    """A search with figures shuts their cells in the open-ground list kept with the map and opens them again:
    any sequence of searches, with and without figures, gives the plain search's fields, and the kept list is
    the map's open ground after each."""
    from skirmish.rules import reach_search

    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    for _ in range(4):
        start = data.draw(st.sampled_from(cells))
        blocked = np.zeros((grid.height, grid.width), dtype=bool)
        for x, y in data.draw(st.lists(st.sampled_from(cells), max_size=6)):
            blocked[y, x] = True
        asked = blocked if blocked.any() else None
        assert np.array_equal(geo.reach_field(grid, start, 4.0, asked), plain_reach_field(grid, start, 4.0, asked))
        if "padded_open" in grid.kept:
            assert grid.kept["padded_open"] == reach_search._padded_steps(grid)[0]
