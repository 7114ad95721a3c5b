"""The utility AI's map caches give exactly what working it out afresh gives (the golden logs depend on every
bit): a kept reach field while units move about, and the sight, cover and threat maps against the plain per-cell statement."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.reach import ReachCache
from skirmish.ai.utility.maps import COVER_VALUE, MapCache
from skirmish.content.sight_bakes import bakes_off
from skirmish.rules import geometry as geo
from skirmish.rules.geometry import GridMap, Terrain
from tests.conftest import played

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


def test_maps_equal_sight_and_hit_chance_cell_by_cell_in_real_battles() -> None:
    """Seen, cover and threat on every cell of the mask are the plain per-cell statement: for each enemy in the
    view's order, `geo.sight` from its cell and its hit chance at the distance (`_enemy_hit_by_range`)."""
    from skirmish.ai.utility.maps import _enemy_hit_by_range
    from skirmish.ai.utility.reasoner import fresh

    checked = 0
    cache = MapCache()
    with bakes_off():  # the battle's sight worked out (the maps' batch codes against geo.sight's walks), not baked
        for step, b, req in played("canal_crossing.yaml", 3, 160):
            if step % 4 == 0:
                view = fresh(b.observe(req.side))
                me = view.unit(req.unit)
                maps = cache.maps_for(view, me)
                mask = maps.mask
                maps.need(mask)
                grid = view.grid
                for y, x in zip(*np.nonzero(mask), strict=True):
                    seen = cover_sum = threat = 0.0
                    for e in view.enemies(me):
                        s = geo.sight(grid, e.cell, (int(x), int(y)))
                        if not s.visible:
                            continue
                        d = np.hypot(np.array([x - e.cell[0]]), np.array([y - e.cell[1]])) * grid.cell_m  # as _hit_map
                        p = float(_enemy_hit_by_range(e, view, d)[0])
                        seen += 1
                        cover_sum += COVER_VALUE[s.cover]
                        threat += p * (1 - COVER_VALUE[s.cover])
                    assert maps.seen_by[y, x] == seen
                    assert maps.cover[y, x] == (cover_sum / seen if seen else 1.0)
                    assert maps.threat[y, x] == threat
                checked += 1
    assert checked > 10
