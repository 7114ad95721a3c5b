"""Session 15's cuts in the utility AI's slowest decisions (issue 12 item 6: decision p95) answer exactly as the plain
statements did, on the views real battles give: a throw's candidate cells asked of the legal list on the disc within
reach of each enemy (not its square), and the landings' scatter rows built from arrays per spread, their rays'
walls read from one padded map, and the bursts' harm at the landing places read from arrays.
(The enemies' kept hit maps, worked out by a look-up per range step: tests/test_fields.py.)"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from skirmish.ai import blast
from skirmish.core.legal import LazyCells
from tests.conftest import played
from tests.test_ai_speed import landings_loop


def square_near_legal(legal: Any, seen: list[Any], reach: float) -> npt.NDArray[np.int64]:
    """`blast._near_legal` before session 15: every cell of the square round each enemy asked."""
    if not isinstance(legal, (frozenset, set, LazyCells)):
        return np.array(list(legal), dtype=np.int64).reshape(-1, 2)
    r = int(reach) + 1
    near = list({(x + dx, y + dy) for x, y in seen for dx in range(-r, r + 1) for dy in range(-r, r + 1)})
    ok = legal.among(near) if isinstance(legal, LazyCells) else [c in legal for c in near]
    return np.array([c for c, yes in zip(near, ok, strict=True) if yes], dtype=np.int64).reshape(-1, 2)


def plain_open_length(grid: Any, ox: Any, oy: Any, vx: Any, vy: Any, longest: float) -> Any:
    """`blast._open_length` before session 15: the map's edge, walls and impassable cells tested apart."""
    steps = np.arange(0.0, longest + blast.STEP, blast.STEP)
    px = ox[:, None, None] + vx[:, :, None] * steps[None, None, :]
    py = oy[:, None, None] + vy[:, :, None] * steps[None, None, :]
    cx, cy = np.floor(px).astype(np.int64), np.floor(py).astype(np.int64)
    inside = (cx >= 0) & (cx < grid.width) & (cy >= 0) & (cy < grid.height)
    cxc, cyc = np.clip(cx, 0, grid.width - 1), np.clip(cy, 0, grid.height - 1)
    blocked = ~inside | grid.blocks_sight[cyc, cxc] | (grid.move_cost[cyc, cxc] <= 0)
    blocked[:, :, 0] = False
    first = np.where(blocked.any(axis=2), blocked.argmax(axis=2), len(steps))
    out = steps[np.maximum(first - 1, 0)]
    return np.where(first >= len(steps), np.inf, out)


def plain_burst_harm(grid: Any, weapon: Any, landings: list[Any], people: list[Any]) -> tuple[Any, Any]:
    """`blast.burst_harm` before session 15: the landing cells as a list of cells."""
    harm_sum, kills = np.zeros(len(landings)), np.zeros(len(landings))
    if not landings or not people:
        return harm_sum, kills
    cells = np.array(landings)
    wkey = blast._weapon_key(weapon)
    for u in people:
        arm = blast.armoured(u)
        reach = (weapon.blast_m if arm else blast.thr.blast_reach_m(weapon)) / grid.cell_m
        d = np.hypot(cells[:, 0] - u.cell[0], cells[:, 1] - u.cell[1])
        for i in np.nonzero(d <= reach + 1e-9)[0].tolist():
            dist = float(d[i]) * grid.cell_m
            column = blast.thr.blast_column(weapon, dist, arm)
            s = blast.geo.sight(grid, landings[i], u.cell)
            if column is None or not s.visible or s.lean:
                continue
            h, k = blast._kept_harm(weapon, wkey, column, blast._target(u), s.cover, s.cover_av, dist)
            harm_sum[i] += h
            kills[i] += k
    return harm_sum, kills


@pytest.mark.parametrize("name,seed", [("depot_breach.yaml", 8), ("depot_breach.yaml", 5), ("depot_breach.yaml", 13)])
def test_throw_candidates_and_landings_equal_the_plain_statements(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                  seed: int) -> None:
    real_candidates, real_landings, real_burst = blast.candidate_cells, blast.landings, blast.burst_harm
    counts = {"candidates": 0, "cells": 0, "asked": 0, "square": 0, "landings": 0, "rows": 0, "bursts": 0}

    def burst_harm(grid: Any, weapon: Any, xs: Any, ys: Any, people: Any) -> Any:
        got = real_burst(grid, weapon, xs, ys, people)
        places = [(int(x), int(y)) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]
        for a, b in zip(got, plain_burst_harm(grid, weapon, places, people), strict=True):
            assert np.array_equal(a, b)
        counts["bursts"] += int((got[0] > 0).sum())
        return got

    def candidates(view: Any, me: Any, weapon: Any, legal: Any) -> list[Any]:
        got = real_candidates(view, me, weapon, legal)
        monkeypatch.setattr(blast, "_near_legal", square_near_legal)
        try:
            plain = real_candidates(view, me, weapon, legal)
        finally:
            monkeypatch.setattr(blast, "_near_legal", real_near_legal)
        assert got == plain
        counts["candidates"] += 1
        counts["cells"] += len(got)
        seen = [e.cell for e in view.enemies(me) if not e.ghost]
        reach = (weapon.blast_m + view.grid.cell_m / 2) / view.grid.cell_m
        counts["asked"] += len({(x + dx, y + dy) for x, y in seen for dx, dy in blast._disc(reach)})
        r = int(reach) + 1
        counts["square"] += len({(x + dx, y + dy) for x, y in seen for dx in range(-r, r + 1)
                                 for dy in range(-r, r + 1)})
        return got

    def landings(grid: Any, thrower: Any, cells: Any, spreads: Any) -> Any:
        got = real_landings(grid, thrower, cells, spreads)
        plain = landings_loop(grid, thrower, cells, spreads, plain_open_length)
        for a, b in zip(got, plain, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        counts["landings"] += 1
        counts["rows"] += len(got[0])
        return got

    real_near_legal = blast._near_legal
    monkeypatch.setattr(blast, "candidate_cells", candidates)
    monkeypatch.setattr(blast, "landings", landings)
    monkeypatch.setattr(blast, "burst_harm", burst_harm)
    import skirmish.ai.utility.attacks as attacks
    import skirmish.ai.utility.ranged_extra as ranged_extra
    monkeypatch.setattr(attacks, "candidate_cells", candidates)
    monkeypatch.setattr(ranged_extra, "candidate_cells", candidates)
    for _ in played(name, seed, 600):
        pass
    print(name, seed, counts)
    assert counts["candidates"] >= 5 and counts["cells"] >= 10 and counts["landings"] >= 3, counts
    assert counts["bursts"] >= 10, counts
    assert counts["asked"] < counts["square"]  # the shortcut was taken


def test_the_disc_holds_every_cell_candidate_cells_keeps() -> None:
    for reach in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.25, 4.0, 5.5):
        disc = set(blast._disc(reach))
        r = int(reach) + 1
        for dx in range(-r - 2, r + 3):
            for dy in range(-r - 2, r + 3):
                kept = float(np.hypot(np.int64(dx), np.int64(dy))) <= reach + 1e-9  # candidate_cells' test
                assert not kept or (dx, dy) in disc, (reach, dx, dy)
        assert all(float(np.hypot(dx, dy)) <= reach + 1e-6 for dx, dy in disc)
