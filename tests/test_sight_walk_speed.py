"""rules/sight_batch.py's two ways of testing a batch's lines (`Batch.lines`): every crossing at once (fewer than
ONE_WALK_MAX lines) or the NEAR crossings at each end first and the middle of the lines still clear after. Both
must code every pair as the rule gives it (`geometry.sight_reference`), on small maps pair by pair and on large
random maps with rooms, doorways and cover, whichever way a batch of any size goes."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.content.tiled import from_ascii
from skirmish.rules import geometry as geo
from skirmish.rules import sight_batch
from skirmish.rules.sight_batch import Batch

GLYPHS = "....,:#x=Df~"
small_maps = st.integers(2, 12).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=2, max_size=10)
)


def _code(grid: geo.GridMap, a: tuple[int, int], b: tuple[int, int]) -> int:
    s = geo.sight_reference(grid, a, b)
    return int(s.visible) + 2 * int(s.lean) + 4 * geo.COVER_LEVEL[s.cover]


def _both_ways(batch: Batch, monkeypatch: pytest.MonkeyPatch, fx: np.ndarray, fy: np.ndarray, tx: np.ndarray,
               ty: np.ndarray) -> tuple[list[int], list[int], list[int], list[int]]:
    """The codes with every batch's lines tested on every crossing at once, and with the ends first (NEAR), each
    in one pass and in two."""
    out = []
    for walk_max in (10**9, 0):
        monkeypatch.setattr(sight_batch, "ONE_WALK_MAX", walk_max)
        out.append(batch.codes_one_pass(fx, fy, tx, ty).tolist())
        out.append(batch.codes_two_passes(fx, fy, tx, ty).tolist())
    return out[0], out[1], out[2], out[3]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(rows=small_maps)
def test_every_crossing_at_once_codes_every_pair_as_the_rule(rows: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    grid = from_ascii(rows, "prop", "map")
    cells = np.array([(x, y) for y in range(grid.height) for x in range(grid.width)], dtype=np.int64)
    a = np.repeat(cells, len(cells), axis=0)
    b = np.tile(cells, (len(cells), 1))
    got = _both_ways(Batch(grid.blocks_sight, grid.cover), monkeypatch, a[:, 0], a[:, 1], b[:, 0], b[:, 1])
    for n in range(len(a)):
        want = _code(grid, (int(a[n, 0]), int(a[n, 1])), (int(b[n, 0]), int(b[n, 1])))
        assert [g[n] for g in got] == [want] * 4, (rows, a[n], b[n])


def _room_map(seed: int, w: int, h: int) -> list[str]:
    """Open ground with scattered cover and walls, and rooms with a doorway: long lines, corners and leans."""
    rng = random.Random(seed)
    grid = [[rng.choice("#x=:,") if rng.random() < 0.08 else "." for _ in range(w)] for _ in range(h)]
    for _ in range(4):
        x0, y0 = rng.randrange(w - 4), rng.randrange(h - 4)
        x1, y1 = min(w - 1, x0 + rng.randrange(3, 10)), min(h - 1, y0 + rng.randrange(3, 8))
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                if y in (y0, y1) or x in (x0, x1):
                    grid[y][x] = "#"
        grid[y0][rng.randrange(x0 + 1, x1)] = "D"
    return ["".join(r) for r in grid]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_large_maps_both_ways_and_every_batch_size(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 60 x 40 map (Battalion sweep's size): pairs from a few origins to cells round a unit, as the baselines
    ask them, in batches on both sides of ONE_WALK_MAX and ONE_PASS_MAX; every code is the rule's."""
    w, h = 60, 40
    grid = from_ascii(_room_map(seed, w, h), "prop", "map")
    batch = Batch(grid.blocks_sight, grid.cover)
    rng = random.Random(seed)
    pairs = []
    for _ in range(6):
        ox, oy = rng.randrange(w), rng.randrange(h)
        cx, cy = rng.randrange(w), rng.randrange(h)
        for _ in range(120):
            pairs.append((ox, oy, min(w - 1, max(0, cx + rng.randrange(-7, 8))),
                          min(h - 1, max(0, cy + rng.randrange(-7, 8)))))
    p = np.array(pairs, dtype=np.int64)
    want = [_code(grid, (a, b), (c, d)) for a, b, c, d in pairs]
    for size in (7, 60, 300, len(p)):
        for start in range(0, len(p), size):
            part = p[start:start + size]
            got = _both_ways(batch, monkeypatch, part[:, 0], part[:, 1], part[:, 2], part[:, 3])
            assert list(got) == [want[start:start + size]] * 4, (seed, size, start)
    monkeypatch.undo()
    assert batch.codes(p[:, 0], p[:, 1], p[:, 2], p[:, 3]).tolist() == want  # as the table asks it
