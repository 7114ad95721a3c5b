"""The ninth speed session's shortcuts in the utility AI (issue 12 item 6) answer as the plain statements do, on the
views real battles give: covering fire weighs only centres near an enemy and in sight (the rest are refused or worth
nothing), fire_fields at one cell or a few, and the curves over one cell's rows."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from skirmish.ai.curves import KINDS, Curve, over_rows
from skirmish.ai.utility import ranged_extra
from skirmish.ai.utility.fields import fire_fields
from tests.conftest import played
from tests.test_fields import plain_fire_fields


def _all_centres(s: Any, known: list[Any], reach_m: float) -> list[tuple[int, int]]:
    """The session start's centres: the whole square round each enemy known, each once, in the same order."""
    span = int(reach_m // s.view.grid.cell_m)
    return list(dict.fromkeys((e.cell[0] + dx, e.cell[1] + dy) for e in known
                              for dx in range(-span, span + 1) for dy in range(-span, span + 1)))


def _same_options(a: list[Any], b: list[Any]) -> bool:
    return [(o.label, o.action, o.considerations, o.attack_material) for o in a] == \
        [(o.label, o.action, o.considerations, o.attack_material) for o in b]


def test_covering_fire_weighs_the_same_areas_as_over_every_cell_round_the_enemies(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real_cover, real_centres = ranged_extra.cover_options, ranged_extra._centres
    compared, offered = 0, 0

    def both(s: Any, stay: Any) -> list[Any]:
        nonlocal compared, offered
        fast = real_cover(s, stay)
        monkeypatch.setattr(ranged_extra, "_centres", _all_centres)
        try:
            plain = real_cover(s, stay)
        finally:
            monkeypatch.setattr(ranged_extra, "_centres", real_centres)
        assert _same_options(fast, plain), s.me.name
        compared += 1
        offered += len(fast)
        return fast

    monkeypatch.setattr(ranged_extra, "cover_options", both)
    from dataclasses import replace

    from skirmish.ai.utility import PERSONALITIES, UtilityAI
    covers = replace(PERSONALITIES["normal"], use_cover_fire=True)  # on for normal since ladder10 (kept explicit)
    for name, seed in (("depot_breach.yaml", 1), ("depot_breach.yaml", 4), ("canal_crossing.yaml", 2)):
        for _ in played(name, seed, 400, ai=UtilityAI(covers)):
            pass
    assert compared >= 30 and offered >= 10


def test_fire_fields_at_one_cell_and_a_few_equal_the_plain_per_cell_fields() -> None:
    rng = np.random.default_rng(9)
    compared = 0
    for name, seed in (("depot_breach.yaml", 2), ("killhouse_drill.yaml", 3)):
        for step, b, req in played(name, seed, 200):
            if req.kind != "act" or step % 2:
                continue
            view = b.observe(req.side)
            me = view.unit(req.unit)
            grid = view.grid
            enemies = view.enemies(me)
            if not enemies:
                continue
            yy, xx = np.mgrid[0:grid.height, 0:grid.width]
            dists = np.stack([np.hypot(xx - e.cell[0], yy - e.cell[1]) * grid.cell_m for e in enemies])
            open_ys, open_xs = np.nonzero(grid.move_cost > 0)
            for n in (1, 1, 3, 9):
                ok = np.zeros((grid.height, grid.width), dtype=bool)
                if n == 1 and compared % 2 == 0:
                    ok[me.cell[1], me.cell[0]] = True
                else:
                    pick = rng.choice(len(open_ys), size=n, replace=False)
                    ok[open_ys[pick], open_xs[pick]] = True
                plain = plain_fire_fields(view, me, ok, enemies, dists)
                for given in (dists, dists[:, ok]):
                    fast = fire_fields(view, me, ok, enemies, given)
                    assert np.array_equal(fast[0], plain[0]) and np.array_equal(fast[1], plain[1]), (name, step, n)
                compared += 1
    assert compared >= 40


def test_curves_over_one_cells_rows_are_each_curve_at_one_number() -> None:
    rng = np.random.default_rng(10)
    xs = [0.0, -0.0, 1.0, 0.5, 1e-300, -2.0, 3.0, math.nan]
    for _ in range(400):
        p = int(rng.integers(1, 12))
        curves = [Curve(str(rng.choice(KINDS)), float(rng.uniform(-2, 2)), float(rng.uniform(0.1, 30)),
                        float(rng.uniform(-1, 1)), float(rng.uniform(-0.5, 1))) for _ in range(p)]
        rows = rng.uniform(-0.3, 1.3, (p, 1))
        for i in range(p):
            if rng.random() < 0.2:
                rows[i, 0] = xs[int(rng.integers(len(xs)))]
        got = over_rows(curves, rows)
        want = np.array([np.asarray(c(row)) for c, row in zip(curves, rows, strict=True)])
        assert got.shape == want.shape == (p, 1)
        assert np.array_equal(got, want, equal_nan=True)
        assert all(math.copysign(1.0, g) == math.copysign(1.0, w) for g, w in zip(got.ravel(), want.ravel(), strict=True))


def test_an_options_trace_rounds_as_round_does_whatever_was_rounded_before() -> None:
    import json

    from skirmish.ai.utility.scoring import Consideration, Option
    from skirmish.rules.actions import EndTurn

    rng = np.random.default_rng(11)
    values: list[Any] = [0.0, -0.0, 2, 2.0, True, 1.0, 1, False, 0.0004, -0.0004, 0.0005, 0.1235, math.nan, 1e-9,
                         -1.0, 0.5]
    values += rng.uniform(-1, 2, 40).round(4).tolist()
    for _ in range(3):  # again and again: the second time from what was kept
        for a in values:
            for b in values[::-1]:
                o = Option("x", EndTurn("u"), ("end",), [Consideration("c", a, b)])
                got = o.to_json()["considerations"][0]
                want = {"name": "c", "input": round(a, 3), "output": round(b, 3)}
                assert json.dumps(got) == json.dumps(want), (a, b)
                assert type(got["input"]) is type(want["input"]) and type(got["output"]) is type(want["output"])
