"""The utility AI's per-cell fields, worked out with kept sight and one hit chance per range band, equal the
plain per-cell statement of them (the code they replaced) exactly, on the views real battles give."""

from __future__ import annotations

import numpy as np

from skirmish.ai.controllers import make_ai
from skirmish.ai.estimate import hit_probability
from skirmish.ai.utility.fields import fire_fields
from skirmish.ai.utility.maps import COVER_VALUE
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.ecs.view import BattleView, UnitView


def plain_fire_fields(view: BattleView, me: UnitView, ok: np.ndarray, enemies: list[UnitView],
                      dists: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every cell asked in full: view.sight and hit_probability at that cell."""
    h, wd = ok.shape
    w = me.weapon
    fire, flank = np.zeros((h, wd)), np.zeros((h, wd))
    ys, xs = np.nonzero(ok)
    for i in range(len(ys)):
        c = (int(xs[i]), int(ys[i]))
        best, open_targets, seen = 0.0, 0, 0
        for k, e in enumerate(enemies):
            s = view.sight(me, e, c)
            if not s.visible or w is None or dists[k, c[1], c[0]] > w.max_range_m:
                continue
            seen += 1
            if s.cover == "none":
                open_targets += 1
            hit, _, _ = hit_probability(view, me, e, mode="prepared", moved="walked", at=c)
            best = max(best, hit * (1 - COVER_VALUE[s.cover] * 0.7))
        fire[c[1], c[0]] = best
        flank[c[1], c[0]] = open_targets / seen if seen else 0.0
    return fire, flank


def test_fire_fields_equal_the_plain_per_cell_fields() -> None:
    compared = 0
    for name, seed in (("depot_breach.yaml", 3), ("canal_crossing.yaml", 1), ("killhouse_drill.yaml", 2)):
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=seed, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            for step in range(300):
                req = b.pending
                if req is None:
                    break
                if req.kind == "act" and step % 3 == 0:
                    view = b.observe(req.side)
                    me = view.unit(req.unit)
                    grid = view.grid
                    enemies = view.enemies(me)
                    ok = grid.move_cost > 0
                    yy, xx = np.mgrid[0:grid.height, 0:grid.width]
                    dists = np.stack([np.hypot(xx - e.cell[0], yy - e.cell[1]) * grid.cell_m for e in enemies]) \
                        if enemies else np.full((1, grid.height, grid.width), np.inf)
                    fast = fire_fields(view, me, ok, enemies, dists)
                    plain = plain_fire_fields(view, me, ok, enemies, dists)
                    assert np.array_equal(fast[0], plain[0]) and np.array_equal(fast[1], plain[1]), (name, step)
                    compared += 1
                b.step()
    assert compared >= 20
