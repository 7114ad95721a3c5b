"""The utility AI's many-cell scoring worked out at the scored cells only (session 14, issue 12 item 6): `score_cells`
over many cells gives, at each of them, the score, inputs and outputs that cell scored alone gives (`_score_one`, the
inputs worked out cell by cell in plain floats), on the plans real battles make and on hand-built masks, stances and
intents over whole maps."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import skirmish.ai.utility.options as options
from skirmish.ai.curves import KINDS, Curve, over_rows
from skirmish.ai.utility.cell_scoring import _score_one, score_cells
from skirmish.ai.utility.options import Situation
from skirmish.ai.utility.personality import PERSONALITIES
from skirmish.ai.utility.reasoner import UtilityAI, fresh
from tests.conftest import played

MOVER = replace(PERSONALITIES["normal"], hesitate=0.0)  # weighs moves at every decision


def _bits(x: float) -> tuple[float, float]:
    return (x, math.copysign(1.0, x)) if not math.isnan(x) else (0.0, 2.0)


def _same_as_each_cell_alone(args: tuple[Any, ...], cells: int | None = None) -> int:
    """Check `score_cells(*args)` against `_score_one` at each scored cell (the first `cells` of them); the count."""
    view, me, p, maps, ok, reach, intent, approach, how = args
    total, parts = score_cells(*args)
    ys, xs = np.nonzero(ok)
    assert (total[~ok] == -1.0).all()  # every other cell unscored
    checked = 0
    for x, y in list(zip(xs.tolist(), ys.tolist(), strict=True))[:cells]:
        one_total, one = _score_one(view, me, p, maps, (x, y), reach, intent, approach, how)
        assert _bits(float(total[y, x])) == _bits(float(one_total[y, x])), (x, y)
        got, want = parts.at((x, y)), one.at((x, y))
        assert [c.name for c in got] == [c.name for c in want]
        for g, w in zip(got, want, strict=True):
            assert _bits(g.input) == _bits(w.input) and _bits(g.output) == _bits(w.output), ((x, y), g, w)
        for name, (raw, _) in parts.items():  # the raw maps hold the inputs at the scored cells
            assert _bits(float(raw[y, x])) == _bits(float(one[name][0][y, x])), ((x, y), name)
        checked += 1
    return checked


def test_many_cells_scored_at_once_equal_each_cell_scored_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every plan of real battles that weighs moves: each move's cell scores as it would alone."""
    calls: list[tuple[Any, ...]] = []

    def kept(*args: Any) -> Any:
        if int(args[4].sum()) > 1:
            calls.append(args)
        return score_cells(*args)

    monkeypatch.setattr(options, "score_cells", kept)
    checked = plans = 0
    for name, seed, personality in (("depot_breach.yaml", 3, MOVER), ("rubble_run.yaml", 2, MOVER),
                                    ("canal_crossing.yaml", 1, PERSONALITIES["hard"]),
                                    ("killhouse_drill.yaml", 6, PERSONALITIES["easy"])):
        ai = UtilityAI(personality)
        for _, _, _ in played(name, seed, 120, ai):
            for args in calls:  # (each plan checked at once: the maps it read are the battle's of the moment)
                checked += _same_as_each_cell_alone(args, 40)
                plans += 1
            calls.clear()
    assert plans >= 40 and checked >= 1000


def test_whole_maps_under_every_stance_and_intent_equal_each_cell_alone() -> None:
    """Hand-built: every passable cell of the map scored at once, under each stance and with the side falling back
    (regrouping), closing on the maps' walking distance, from the units' states in a real battle."""
    checked = states = 0
    ai = UtilityAI("normal")
    for step, b, req in played("depot_breach.yaml", 4, 90, ai):
        if req.kind != "act" or step % 9:
            continue
        view = b.observe(req.side)
        me = view.unit(req.unit)
        s = Situation(view, me, ai.p, ai._maps.maps_for(fresh(view), me), ai._maps, req.legal(), ai.committed)
        grid = view.grid
        ok = grid.move_cost > 0
        s.maps.need(ok)
        reach = np.where(ok, np.arange(ok.size, dtype=np.float64).reshape(ok.shape) % 7, 0.0)
        for how, intent in (("close", s.side), ("retreat", s.side), ("hold", replace(s.side, mode="fall back")),
                            ("close", replace(s.side, mode="press", late=True, push=0.8))):
            checked += _same_as_each_cell_alone((view, me, s.p, s.maps, ok, reach, intent, s.maps.walk_m, how), 150)
            states += 1
    assert states >= 12 and checked >= 1500


def test_over_rows_kept_groups_answer_as_each_curve_on_its_row() -> None:
    """`over_rows` keeps its groups per list of curves: asked again with the same list, with lists made afresh (whose
    curves may take the ids of freed ones) and with every kind, it still gives each curve on its row, bit for bit."""
    rng = np.random.default_rng(14)
    lists = []
    for _ in range(200):
        p, n = int(rng.integers(2, 10)), int(rng.integers(2, 120))
        curves = [Curve(str(rng.choice(KINDS)), float(rng.uniform(-2, 2)), float(rng.uniform(0.1, 30)),
                        float(rng.uniform(-1, 1)), float(rng.uniform(-0.5, 1))) for _ in range(p)]
        lists.append(curves if rng.random() < 0.5 else None)  # half the lists held, half freed after use
        for _ in range(3):  # the first answer works the groups out, the others read them kept
            rows = rng.uniform(-0.3, 1.3, (p, n))
            rows[rng.random((p, n)) < 0.05] = 0.0
            rows[rng.random((p, n)) < 0.02] = np.nan
            want = np.array([np.asarray(c(row)) for c, row in zip(curves, rows, strict=True)])
            assert np.array_equal(over_rows(curves, rows), want, equal_nan=True)
        del curves
    assert sum(x is not None for x in lists) > 50


def test_cover_centres_are_each_cell_once_in_the_order_first_met(monkeypatch: pytest.MonkeyPatch) -> None:
    """`cover_centres.centres` keeps each cell of the squares round the enemies once, where it first comes, near an
    enemy and in the unit's sight: as a plain loop over the squares keeps them."""
    from skirmish.ai.utility import cover_centres, ranged_extra
    from skirmish.rules import geometry as geo

    compared = 0

    def plain(s: Any, known: list[Any], reach_m: float) -> list[tuple[int, int]]:
        grid = s.view.grid
        span = int(reach_m // grid.cell_m)
        square = dict.fromkeys((e.cell[0] + dx, e.cell[1] + dy) for e in known
                               for dx in range(-span, span + 1) for dy in range(-span, span + 1))
        return [c for c in square if grid.inside(c)
                and any(geo.distance_m(c, e.cell, grid.cell_m) <= reach_m + 1e-9 for e in known)
                and grid.sight_table.sight(s.me.cell, c).visible]

    def both(s: Any, known: list[Any], reach_m: float) -> list[tuple[int, int]]:
        nonlocal compared
        got = cover_centres.centres(s, known, reach_m)
        assert got == plain(s, known, reach_m)
        again = [*known[::-1], *known]  # every square met twice (enemies close together share cells)
        assert cover_centres.centres(s, again, reach_m) == plain(s, again, reach_m)
        compared += 1
        return got

    monkeypatch.setattr(ranged_extra, "_centres", both)
    for name, seed in (("depot_breach.yaml", 1), ("canal_crossing.yaml", 2)):
        for _ in played(name, seed, 200, ai=UtilityAI("normal")):
            pass
    assert compared >= 20
