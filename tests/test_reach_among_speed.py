"""`ReachCache.field_among`'s short way (issue 12, speed): the map's kept field found by a key made from the figures'
cells read in `within_reach`'s bytes, and its ring kept beside it, answers exactly `geo.reach_field` with those
figures blocked, shares the fields `ReachCache.field` works out, and starts again on another map."""

from __future__ import annotations

import random

import numpy as np

from skirmish.content.scenario import default_scenario_path, load_scenario
from skirmish.content.tiled import from_ascii
from skirmish.rules import geometry as geo
from skirmish.rules import reach


def blocked_by(grid: geo.GridMap, figures: set[geo.Cell]) -> np.ndarray:
    out = np.zeros((grid.height, grid.width), dtype=bool)
    for x, y in figures:
        out[y, x] = True
    return out


def test_field_among_is_the_search_with_the_figures_blocked_as_figures_move() -> None:
    grid = load_scenario(default_scenario_path()).grid
    rng = random.Random(5)
    open_ = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.move_cost[y, x] > 0]
    figures = set(rng.sample(open_, 12))
    cache = reach.ReachCache()
    for step in range(300):
        mover = rng.choice(sorted(figures))
        if step % 3:  # a figure steps (often near the one asking), else one far away jumps
            x, y = mover
            near = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                    if (x + dx, y + dy) in set(open_) and (x + dx, y + dy) not in figures]
            if near:
                figures = (figures - {mover}) | {rng.choice(near)}
        else:
            figures = (figures - {mover}) | {rng.choice([c for c in open_ if c not in figures])}
        start = rng.choice(sorted(figures))
        limit = rng.choice([3.0, 4.5, 6.0])
        got = cache.field_among(grid, start, limit, figures)
        want = geo.reach_field(grid, start, limit, blocked_by(grid, figures - {start}))
        assert np.array_equal(got, want), (step, start, limit)
        assert not got.flags.writeable


def test_field_among_shares_the_maps_fields_with_field() -> None:
    """The key made from the figures is the one `shared_field` makes from whole-map arrays: the same object."""
    grid = load_scenario(default_scenario_path()).grid
    figures = {(3, 3), (4, 3), (10, 6), (2, 5)}
    for start in sorted(figures):
        among = reach.ReachCache().field_among(grid, start, 5.0, figures)
        plain = reach.ReachCache().field(grid, start, 5.0, blocked_by(grid, figures - {start}))
        assert plain is among


def test_field_among_starts_again_on_another_map() -> None:
    a = from_ascii(["......", "..##..", "......"], "t", "map")
    b = from_ascii(["......", "......", "......"], "t", "map")
    cache = reach.ReachCache()
    fa = cache.field_among(a, (0, 1), 6.0, {(0, 1)})
    fb = cache.field_among(b, (0, 1), 6.0, {(0, 1)})
    assert np.array_equal(fa, geo.reach_field(a, (0, 1), 6.0))
    assert np.array_equal(fb, geo.reach_field(b, (0, 1), 6.0))
    assert not np.array_equal(fa, fb)
