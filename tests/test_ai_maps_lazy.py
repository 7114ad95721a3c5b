"""The utility AI's maps worked out as decisions need them (issue 12 item 6) are the maps built whole: every
cell read, in any order and in any pieces, holds the numbers the eager build gives, bit for bit; the mask
worked out unit by unit is the union of every unit's reach; and a reach a decision proves to lie inside a
unit's own marks only cells of the whole mask."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import make_ai
from skirmish.ai.utility.maps import MapCache, SideMask, build_maps
from skirmish.ai.utility.reasoner import fresh
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.rules import geometry as geo
from skirmish.rules.deck import SIDES
from skirmish.rules.geometry import GridMap, Terrain
from tests.conftest import played

TILES = (Terrain("floor"), Terrain("wall", 0, True, "high", 6), Terrain("rubble", 2), Terrain("crate", 1, False,
                                                                                                "low", 3))
W, H = 14, 11


def _grid(cells: list[int]) -> GridMap:
    return GridMap("test", W, H, TILES, np.array(cells, dtype=np.int16).reshape(H, W))


def _eager_mask(cache: MapCache, view, me) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The mask as it was built before: every unit's run reach with every figure in the way, and its cell."""
    grid = view.grid
    mask = np.zeros((grid.height, grid.width), dtype=bool)
    blocked = np.zeros_like(mask)
    for x, y in view.occupied():
        blocked[y, x] = True
    for f in [me, *view.friends(me)]:
        reach = geo.reach_field(grid, f.cell, 2 * SIDES[f.trait("dexterity")[0]] / grid.cell_m, blocked)
        mask |= np.isfinite(reach)
        mask[f.cell[1], f.cell[0]] = True
    return mask


def test_lazy_maps_equal_the_maps_built_whole_in_real_battles() -> None:
    rng = np.random.default_rng(7)
    checked = 0
    # each scenario's battles from a first seed on until it has given 14 views (their length follows the normal
    # rung's draws, which differ per battle: docs/AI.md's ladder)
    battles = [(name, seed) for name, first in (("depot_breach.yaml", 5), ("canal_crossing.yaml", 1),
                                                ("killhouse_drill.yaml", 3)) for seed in range(first, first + 6)]
    per_scenario: dict[str, int] = {}
    for name, seed in battles:
        if per_scenario.get(name, 0) >= 14:
            continue
        cache = MapCache()
        for step, b, req in played(name, seed, 240):
            if step % 4 == 0 and per_scenario.get(name, 0) < 14:
                per_scenario[name] = per_scenario.get(name, 0) + 1
                view = fresh(b.observe(req.side))
                me = view.unit(req.unit)
                lazy = cache.maps_for(view, me)
                mask = _eager_mask(cache, view, me)
                whole = build_maps(view, me, lazy.key, mask)
                grid = view.grid
                # ask for random pieces, some outside the mask, in a random order
                for _ in range(3):
                    piece = rng.random((grid.height, grid.width)) < 0.3
                    lazy.need(piece)
                    ys, xs = np.nonzero(piece)
                    for got, want in ((lazy.seen_by, whole.seen_by), (lazy.cover, whole.cover),
                                      (lazy.threat, whole.threat)):
                        assert np.array_equal(got[ys, xs], want[ys, xs])
                one_by_one = build_maps(view, me, lazy.key, mask, lazy=True)  # cell by cell: _fill_cells
                ys, xs = np.nonzero(mask)
                for i in rng.permutation(len(ys))[:60].tolist():
                    one_by_one.need_at(ys[i:i + 1], xs[i:i + 1])
                    for got, want in ((one_by_one.seen_by, whole.seen_by), (one_by_one.cover, whole.cover),
                                      (one_by_one.threat, whole.threat)):
                        assert got[ys[i], xs[i]] == want[ys[i], xs[i]]
                assert np.array_equal(lazy.walk_m, whole.walk_m)
                assert np.array_equal(lazy.mask, mask)
                checked += 1
    assert checked == 42, per_scenario


units = st.lists(st.tuples(st.integers(0, W - 1), st.integers(0, H - 1), st.floats(1.0, 8.0)), min_size=1,
                 max_size=5, unique_by=lambda u: (u[0], u[1]))
layouts = st.lists(st.sampled_from([0, 0, 0, 0, 1, 2, 3]), min_size=W * H, max_size=W * H)


@settings(max_examples=60, deadline=None)
@given(layouts, units, st.lists(st.tuples(st.integers(0, W - 1), st.integers(0, H - 1)), max_size=6),
       st.integers(0, 10_000))
def test_a_mask_worked_out_unit_by_unit_is_the_union_of_the_reaches(layout: list[int],
                                                                   us: list[tuple[int, int, float]],
                                                                   others: list[tuple[int, int]], seed: int) -> None:
    grid = _grid(layout)
    blocked = np.zeros((H, W), dtype=bool)
    for x, y in [*others, *((x, y) for x, y, _ in us)]:
        blocked[y, x] = True
    named = [(f"U{i}", (x, y), limit) for i, (x, y, limit) in enumerate(us)]
    want = np.zeros((H, W), dtype=bool)
    for _, cell, limit in named:
        want |= np.isfinite(geo.reach_field(grid, cell, limit, blocked))
        want[cell[1], cell[0]] = True
    rng = np.random.default_rng(seed)
    near = SideMask(grid, named, blocked, lambda cell, limit, b: geo.reach_field(grid, cell, limit, b))
    # a move's reach from the first unit, no longer and round as many figures or more, proves its cells
    name, cell, limit = named[0]
    more = blocked | (rng.random((H, W)) < 0.1)
    shorter = limit * float(rng.uniform(0.3, 1.0))
    field = geo.reach_field(grid, cell, shorter, more)
    assert near.within(name, cell, shorter, more, field)
    assert not (np.isfinite(field) & ~want).any()
    assert not near.within(name, cell, limit + 1.0, blocked, field)  # longer: not proved
    if len(named) > 1:
        freed = blocked.copy()
        freed[named[1][1][1], named[1][1][0]] = False
        assert not near.within(name, cell, limit, freed, field)  # a figure fewer in the way: not proved
    for _ in range(4):
        ys = rng.integers(0, H, 12)
        xs = rng.integers(0, W, 12)
        assert np.array_equal(near.at(ys, xs), want[ys, xs])
    assert np.array_equal(near.full(), want)


def test_kept_distance_and_bearing_fields_and_crossfire_on_cells_equal_the_whole_map_expressions() -> None:
    """distance.metres_from / bearing_from (kept per map and cell) are the per-decision expressions bit for bit,
    and squad.crossfire_rows and spacing_rows on some cells equal the whole map's fields on them."""
    from skirmish.ai.utility.distance import bearing_from, metres_from
    from skirmish.ai.utility.squad import crossfire, crossfire_rows, spacing, spacing_rows

    sc = load_scenario(SCENARIOS_DIR / "bench" / "battalion_sweep.yaml")  # 24 v 24: many friends at once
    rng = np.random.default_rng(3)
    checked = 0
    with Battle(sc, seed=4, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        for step in range(60):
            req = b.pending
            if req is None:
                break
            if step % 5 == 0:
                view = b.observe(req.side)
                me = view.unit(req.unit)
                grid = view.grid
                yy, xx = np.mgrid[0:grid.height, 0:grid.width]
                for u in view.units:
                    assert np.array_equal(metres_from(grid, u.cell), np.hypot(xx - u.cell[0], yy - u.cell[1]) * grid.cell_m)
                    assert np.array_equal(bearing_from(grid, u.cell), np.arctan2(yy - u.cell[1], xx - u.cell[0]))
                    assert not metres_from(grid, u.cell).flags.writeable
                shape = (grid.height, grid.width)
                whole = crossfire(view, me, shape)
                cells = rng.random(shape) < 0.4
                ys, xs = np.nonzero(cells)
                flat = ys * grid.width + xs
                part = crossfire_rows(view, me, flat)
                assert (whole is None) == (part is None)
                if whole is not None and part is not None:
                    assert np.array_equal(part, whole[ys, xs])
                    checked += 1
                assert np.array_equal(spacing_rows(view, me, 3.0, flat), spacing(view, me, shape, 3.0)[ys, xs])
            b.step()
    assert checked > 5
