"""The utility AI's map caches give exactly what working it out afresh gives (the golden logs depend on every
bit): a kept reach field while units move about, and a viewshed filled in piece by piece."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.reach import ReachCache
from skirmish.ai.utility.maps import COVER_VALUE, MapCache, Viewshed
from skirmish.rules import geometry as geo
from skirmish.rules.geometry import GridMap, Terrain

TILES = (Terrain("floor"), Terrain("wall", 0, True, "high", 6), Terrain("rubble", 2), Terrain("crate", 1, False,
                                                                                                "low", 3))
W, H = 14, 11


def _grid(cells: list[int]) -> GridMap:
    return GridMap("test", W, H, TILES, np.array(cells, dtype=np.int16).reshape(H, W))


layouts = st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3]), min_size=W * H, max_size=W * H)
cells = st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))


@settings(max_examples=60, deadline=None)
@given(layouts, cells, st.floats(1.0, 9.0), st.lists(st.lists(cells, max_size=6), min_size=1, max_size=8))
def test_a_kept_reach_field_is_the_field_worked_out_again(layout: list[int], start: tuple[int, int], limit: float,
                                                           moments: list[list[tuple[int, int]]]) -> None:
    """Units stand in other cells at each moment; the cache answers from a kept field when nothing near the
    reach changed, and every answer is bit for bit geo.reach_field's (the start cell blocked or not)."""
    grid = _grid(layout)
    cache = MapCache()
    for i, others in enumerate(moments):
        blocked = np.zeros((H, W), dtype=bool)
        for x, y in others:
            blocked[y, x] = True
        blocked[start[1], start[0]] = bool(i % 2)  # the maps block the unit's own cell, a move does not
        got = cache.reach_field(grid, start, limit, blocked)
        want = geo.reach_field(grid, start, limit, blocked)
        assert np.array_equal(got, want), (i, others)
        assert not got.flags.writeable


def test_the_cache_keeps_a_field_when_a_far_unit_moves_and_not_when_a_near_one_does() -> None:
    grid = _grid([0] * (W * H))
    cache = ReachCache()
    blocked = np.zeros((H, W), dtype=bool)
    blocked[10, 13] = True
    first = cache.field(grid, (1, 1), 2.0, blocked)
    far = blocked.copy()
    far[10, 13], far[9, 12] = False, True
    assert cache.field(grid, (1, 1), 2.0, far) is first
    near = far.copy()
    near[2, 2] = True  # inside the reach
    again = cache.field(grid, (1, 1), 2.0, near)
    assert again is not first and np.isinf(again[2, 2]) and np.isfinite(first[2, 2])


@settings(max_examples=40, deadline=None)
@given(layouts, cells, st.lists(st.lists(st.booleans(), min_size=W * H, max_size=W * H), min_size=1, max_size=3))
def test_a_viewshed_filled_in_pieces_is_sight_cell_by_cell(layout: list[int], frm: tuple[int, int],
                                                           masks: list[list[bool]]) -> None:
    grid = _grid(layout)
    shed = Viewshed.empty(grid)
    for m in masks:
        mask = np.array(m, dtype=bool).reshape(H, W)
        shed.over(grid, frm, mask)
        ys, xs = np.nonzero(mask)
        seen, cover = shed.at(ys, xs)
        for i, (x, y) in enumerate(zip(xs.tolist(), ys.tolist(), strict=True)):
            s = geo.sight(grid, frm, (x, y))
            assert bool(seen[i]) == s.visible
            assert cover[i] == (COVER_VALUE[s.cover] if s.visible else 0.0)
