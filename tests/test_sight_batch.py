"""Sight in exact integer arithmetic (skirmish.rules.sight_batch): a line's walk decides every step as exact
arithmetic does, so the batch's codes equal the rule as stated (`geometry.sight_reference`) on large random
maps too, in one pass or two.

The walk's float times along one axis (x: `t_mx`, the same for y) depend on that axis only: the start and end
coordinates. The first test checks them, on every position and offset of a 128-cell side and every kind of
end point, against the exact rational times, and checks the margins that make every `_EPS` test of the walk
decide as exact arithmetic does (so the same wherever the pair is, and the same both ways)."""

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
from skirmish.rules.sight_table import SightTable

SIDE = 128
EPS = 1e-9


def test_walk_times_are_the_exact_times_everywhere() -> None:
    worst = walk_time_error(SIDE)
    # Exact crossing times of the two axes are (A + 20k) / E and (B + 20m) / F with E, F <= 20 * SIDE: equal
    # (a corner) or at least 1 / (E F) apart; each float time is within `worst` of its exact one. (On a
    # 512-cell side, sight_batch.MAX_SIDE, `worst` is 7e-14 and the gap 9.5e-9: measured, too slow for a test.)
    gap = 1 / (20 * SIDE) ** 2
    assert worst < 1e-12
    assert gap - 2 * worst > EPS and 2 * worst < EPS


def walk_time_error(side: int) -> float:
    """The largest distance of a walk's float time (<= 2) from its exact time, over every start and end point
    of a side `side` cells long (python -c "from tests.test_sight_batch import *; print(walk_time_error(512))")."""
    x = np.arange(side, dtype=np.float64)[:, None]
    x2 = np.arange(side, dtype=np.float64)[None, :]
    xi = np.arange(side)[:, None]
    x2i = np.arange(side)[None, :]
    worst = 0.0
    for s in (-1, 0, 1):
        for e in (-1, 0, 1):
            p0 = x + 0.5 + s * geo.LEAN  # as SightTable.leans computes them
            q0 = x2 + 0.5 + e * geo.LEAN
            assert (np.floor(p0) == x).all() and (np.floor(q0) == x2).all()
            d = q0 - p0
            big_p, big_q = 20 * xi + 10 + 9 * s, 20 * x2i + 10 + 9 * e  # the points in twentieths, exactly
            assert ((d == 0) == (big_p == big_q)).all()
            moving = d != 0
            with np.errstate(divide="ignore"):
                t_d = np.abs(1 / d)
            t = np.where(d > 0, x + 1 - p0, p0 - x) * t_d
            big_e = np.abs(big_q - big_p)
            big_a = np.where(big_q > big_p, 20 * (xi + 1) - big_p, big_p - 20 * xi)
            # The end point is never on a cell side, so no crossing time is exactly 1 (the walk's `> 1 - EPS`).
            assert ((big_e - big_a) % 20 != 0)[moving].all()
            for k in range(side + 1):
                exact = (big_a + 20 * k) / np.where(moving, big_e, 1)
                near = moving & (exact <= 2)  # later times are compared with ones <= 1 at most: never close
                if near.any():
                    worst = max(worst, float(np.abs(t - exact)[near].max()))
                t = t + t_d
    return worst


def _random_map(seed: int, w: int, h: int, walls: float) -> list[str]:
    rng = random.Random(seed)
    glyphs = "#x=D:~,f"
    rows = []
    for _ in range(h):
        rows.append("".join(rng.choice(glyphs) if rng.random() < walls else "." for _ in range(w)))
    for _ in range(rng.randrange(4)):  # a room or two, for doorways and corners
        x0, y0 = rng.randrange(w), rng.randrange(h)
        x1, y1 = min(w - 1, x0 + rng.randrange(3, 12)), min(h - 1, y0 + rng.randrange(3, 12))
        for y in range(y0, y1 + 1):
            row = list(rows[y])
            for x in range(x0, x1 + 1):
                if y in (y0, y1) or x in (x0, x1):
                    row[x] = "#" if rng.random() < 0.85 else "."
            rows[y] = "".join(row)
    return rows


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), w=st.integers(2, SIDE), h=st.integers(2, SIDE),
       walls=st.sampled_from([0.05, 0.15, 0.3, 0.5]))
def test_large_random_maps_equal_the_reference(seed: int, w: int, h: int, walls: float,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Sampled pairs on maps up to 128x128, near pairs (leans, cover) weighted in; the batch paths (`column`,
    `codes_from`, `codes_many`) code the same answers as the scalar one."""
    from skirmish.rules import sight_table

    monkeypatch.setattr(sight_table, "BATCH_MIN", 1)  # every question not answered yet goes to the batch
    grid = from_ascii(_random_map(seed, w, h, walls), "prop", "map")
    t = SightTable(grid)
    rng = random.Random(seed)
    cells = [(x, y) for y in range(h) for x in range(w)]
    pairs = []
    for _ in range(300):
        a = rng.choice(cells)
        if rng.random() < 0.5:
            b = rng.choice(cells)
        else:
            b = (min(w - 1, max(0, a[0] + rng.randrange(-6, 7))), min(h - 1, max(0, a[1] + rng.randrange(-6, 7))))
        pairs.append((a, b))
        assert t.sight(a, b) == geo.sight_reference(grid, a, b), (seed, w, h, walls, a, b)
    code = {c: int(s.visible) + 2 * int(s.lean) + 4 * geo.COVER_LEVEL[s.cover]
            for c, s in ((c, geo.sight_reference(grid, *c)) for c in pairs)}
    origins = tuple(dict.fromkeys(a for a, _ in pairs[:12]))
    targets = [b for _, b in pairs[:40]]
    xs, ys = np.array([b[0] for b in targets]), np.array([b[1] for b in targets])
    fresh = SightTable(grid)  # nothing kept yet: every pair worked out by the batch path
    many = fresh.codes_many(origins, xs, ys)
    for o, a in enumerate(origins):
        for i, b in enumerate(targets):
            want = code.get((a, b))
            if want is None:
                s = geo.sight_reference(grid, a, b)
                want = int(s.visible) + 2 * int(s.lean) + 4 * geo.COVER_LEVEL[s.cover]
            assert many[o, i] == want, (seed, a, b)
            assert fresh.sight(a, b) == t.sight(a, b)
    a, b = pairs[0]
    fresh = SightTable(grid)
    col = fresh.column(b, np.array([c[0] for c, _ in pairs]), np.array([c[1] for c, _ in pairs]))
    out = fresh.codes_from(a, np.array([c[0] for _, c in pairs]), np.array([c[1] for _, c in pairs]))
    for i, (c, d) in enumerate(pairs):
        for got, (frm, to) in ((col[i], (c, b)), (out[i], (a, d))):
            s = geo.sight_reference(grid, frm, to)
            assert got == int(s.visible) + 2 * int(s.lean) + 4 * geo.COVER_LEVEL[s.cover], (seed, frm, to)


def test_maps_too_large_for_the_batch_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_SIDE the table walks each pair (the exactness argument is made for maps up to it)."""
    from skirmish.rules import sight_table

    monkeypatch.setattr(sight_table, "BATCH_MIN", 1)
    grid = from_ascii(["." * 5 + "#" + "." * 5] * 3, "t", "map")
    t = SightTable(grid)
    assert t._batch is not None
    monkeypatch.setattr(sight_batch, "MAX_SIDE", 4)
    walked = SightTable(grid)
    assert walked._batch is None
    xs, ys = np.array([10, 5, 6, 0]), np.array([0, 1, 1, 2])
    for a in ((0, 0), (4, 1), (6, 2)):
        assert walked.codes_from(a, xs, ys).tolist() == t.codes_from(a, xs, ys).tolist()
        for b in zip(xs.tolist(), ys.tolist(), strict=True):
            assert walked.sight(a, b) == t.sight(a, b) == geo.sight_reference(grid, a, b)


GLYPHS = "....,:#x=Df~"
small_maps = st.integers(2, 12).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=2, max_size=10)
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(rows=small_maps)
def test_batch_codes_equal_the_reference_on_every_pair(rows: list[str]) -> None:
    """rules/sight_batch.py (exact integer times, all lines at once) codes every pair as the rule gives it."""
    grid = from_ascii(rows, "prop", "map")
    cells = np.array([(x, y) for y in range(grid.height) for x in range(grid.width)], dtype=np.int64)
    a = np.repeat(cells, len(cells), axis=0)
    b = np.tile(cells, (len(cells), 1))
    batch = Batch(grid.blocks_sight, grid.cover)
    one = batch.codes_one_pass(a[:, 0], a[:, 1], b[:, 0], b[:, 1])  # every line at once
    two = batch.codes_two_passes(a[:, 0], a[:, 1], b[:, 0], b[:, 1])  # centre lines, then the others left
    for n in range(len(a)):
        s = geo.sight_reference(grid, (int(a[n, 0]), int(a[n, 1])), (int(b[n, 0]), int(b[n, 1])))
        want = int(s.visible) + 2 * int(s.lean) + 4 * geo.COVER_LEVEL[s.cover]
        assert one[n] == two[n] == want, (rows, a[n], b[n])
    few = np.random.default_rng(len(a)).permutation(len(a))[:7]  # a handful of pairs in any order
    assert batch.codes(a[few, 0], a[few, 1], b[few, 0], b[few, 1]).tolist() == one[few].tolist()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(rows=small_maps)
def test_sight_is_symmetric_in_visibility(rows: list[str]) -> None:
    """The rule as stated: a cell sees another exactly when the other sees it back (cover and leaning may
    differ), which `SightTable.blind_back` relies on."""
    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            assert geo.sight_reference(grid, a, b).visible == geo.sight_reference(grid, b, a).visible, (rows, a, b)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), batch_min=st.sampled_from([1, 5, 10**9]))
def test_mixed_questions_both_ways_equal_the_reference(seed: int, batch_min: int,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Questions both ways (`sight`, `column`, `codes_from`, `codes_many`, in any order, batched or not) are
    answered as the rule gives them, the answers kept one way serving the other (`blind_back`)."""
    from skirmish.rules import sight_table

    monkeypatch.setattr(sight_table, "BATCH_MIN", batch_min)
    rng = random.Random(seed)
    grid = from_ascii(_random_map(seed, rng.randrange(3, 16), rng.randrange(3, 14), 0.3), "prop", "map")
    t = SightTable(grid)
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]

    def code(a: tuple[int, int], b: tuple[int, int]) -> int:
        s = geo.sight_reference(grid, a, b)
        return int(s.visible) + 2 * int(s.lean) + 4 * geo.COVER_LEVEL[s.cover]

    for _ in range(12):
        some = rng.sample(cells, rng.randrange(1, min(len(cells), 30)))
        xs, ys = np.array([c[0] for c in some]), np.array([c[1] for c in some])
        a = rng.choice(cells)
        kind = rng.randrange(4)
        if kind == 0:
            assert t.sight(a, some[0]) == geo.sight_reference(grid, a, some[0])
            assert t.sight(some[0], a) == geo.sight_reference(grid, some[0], a)
        elif kind == 1:
            assert t.column(a, xs, ys).tolist() == [code(c, a) for c in some]
        elif kind == 2:
            assert t.codes_from(a, xs, ys).tolist() == [code(a, c) for c in some]
        else:
            origins = tuple(dict.fromkeys(rng.sample(cells, 3)))
            assert t.codes_many(origins, xs, ys).tolist() == [[code(o, c) for c in some] for o in origins]
