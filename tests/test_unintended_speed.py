"""R-6.11's candidates worked out once per shot (`on_line`, speed session 8) equal the rule as stated: each
figure measured by `off_line_m`, kept if within the line's width and the weapon's range with a clear line from
the firer, nearest first (ties in the order given), at most ten; on random maps, figures and weapons."""

from __future__ import annotations

import random

import numpy as np

from skirmish.content.armoury import shipped
from skirmish.rules import geometry as geo
from skirmish.rules.fi.unintended import MAX_CANDIDATES, Figure, candidates, line_width_m, off_line_m, on_line
from skirmish.rules.geometry import GridMap, Terrain

ARM = shipped()


def _reference(grid: GridMap, firer: geo.Cell, target: geo.Cell, figures: list[Figure], weapon: object) -> list[str]:
    """The candidates as R-6.11 states them, one figure at a time through `off_line_m`."""
    width = line_width_m(weapon)  # type: ignore[arg-type]
    near = []
    for i, f in enumerate(figures):
        if f.cell in (firer, target):
            continue
        where = off_line_m(firer, target, f.cell, grid.cell_m)
        if where is None:
            continue
        along, off = where
        if off > width + 1e-9 or along > weapon.max_range_m + 1e-9:  # type: ignore[attr-defined]
            continue
        if not geo.clear_line(grid, geo.centre(firer), geo.centre(f.cell), (firer, f.cell)):
            continue
        near.append((geo.distance_m(firer, f.cell, grid.cell_m), i, f.name))
    near.sort(key=lambda t: (t[0], t[1]))
    return [n for _, _, n in near[:MAX_CANDIDATES]]


def _map(rng: random.Random, w: int, h: int, cell_m: float) -> GridMap:
    layout = (np.array([[rng.random() < 0.12 for _ in range(w)] for _ in range(h)])).astype(np.int16)
    return GridMap("r", w, h, (Terrain("floor"), Terrain("wall", 0, True, "high", 6)), layout, cell_m=cell_m)


def test_on_line_equals_the_rule_as_stated_on_random_battles() -> None:
    rng = random.Random(12)
    weapons = [ARM.weapons[k] for k in ("blast_rifle", "blast_mmg", "laser_pistol", "assault_rifle")]
    listed = 0
    for trial in range(300):
        grid = _map(rng, rng.randint(6, 30), rng.randint(6, 30), rng.choice((1.0, 2.0)))
        cells = [(rng.randrange(grid.width), rng.randrange(grid.height)) for _ in range(rng.randint(2, 40))]
        firer, target = cells[0], cells[1] if trial % 17 else cells[0]  # now and then a line of no length
        figures = [Figure(f"u{i}", c) for i, c in enumerate(cells[2:])]
        weapon = rng.choice(weapons)
        want = _reference(grid, firer, target, figures, weapon)
        assert [f.name for f in candidates(grid, firer, target, figures, weapon)] == want
        assert [figures[i].name for i in on_line(grid, firer, target, [f.cell for f in figures], weapon)] == want
        listed += len(want)
    assert listed > 100  # the lines did list figures, near and far, in and out of the width
