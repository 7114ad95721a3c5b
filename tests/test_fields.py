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
from tests.conftest import played


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
        for step, b, req in played(name, seed, 300):
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
                at_cells = fire_fields(view, me, ok, enemies, dists[:, ok])  # distances given at the cells only
                assert np.array_equal(at_cells[0], plain[0]) and np.array_equal(at_cells[1], plain[1])
                compared += 1
    assert compared >= 20


def test_kept_per_hit_outcomes_equal_working_them_out() -> None:
    """estimate._per_hit keeps outcomes by what they read; each equals per_hit_now at every distance asked."""
    from skirmish.ai import estimate

    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    compared = 0
    with Battle(sc, seed=5, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        for step in range(120):
            if b.pending is None:
                break
            if step % 4 == 0:
                view = b.view()
                for me in view.units:
                    if me.weapon is None:
                        continue
                    for t in view.enemies(me):
                        for cover, av, concealed in (("none", 0, False), ("low", 4, False), ("high", 6, True)):
                            for dist in (1.0, 9.5, 10.0, 10.5, 21.0, 33.3):
                                got = estimate._per_hit(me.weapon, t, cover, av, concealed, dist)
                                assert got == estimate.per_hit_now(me.weapon, t, cover, av, concealed, dist)
                                compared += 1
            b.step()
    assert compared > 200


def test_kept_curve_outputs_equal_working_them_out() -> None:
    """Curve.__call__ keeps single-number outputs; each equals _one, sign of zero included."""
    import math
    import random

    from skirmish.ai.curves import KINDS, Curve

    rng = random.Random(7)
    xs = [0.0, -0.0, 1.0, 0.5, 1e-300, -1e-300, 2.0, -3.0] + [rng.uniform(-0.2, 1.2) for _ in range(60)]
    for kind in KINDS:
        for _ in range(8):
            c = Curve(kind, rng.uniform(-2, 2), rng.uniform(0.1, 9), rng.uniform(-1, 1), rng.uniform(-0.5, 1))
            for x in xs + xs:  # the second time from what was kept
                got, want = c(x), c._one(float(x))
                assert got == want and math.copysign(1.0, got) == math.copysign(1.0, want), (c, x)


def plain_hit_by_range(e: UnitView, view: BattleView, dist_m: np.ndarray) -> np.ndarray:  # type: ignore[type-arg]
    """`maps._enemy_hit_by_range` before session 15: one pass over the cells per range step."""
    from skirmish.ai.estimate import pool_hit_chance
    from skirmish.rules.checks import skill_pool, tn

    w = e.weapon
    if w is None:
        return np.zeros_like(dist_m)
    pool = skill_pool(e.trait("dexterity"), dict(e.skills), w.skill)
    mod = sum(m.value for m in pool.modifiers)
    base = tn("standard", view.scope)  # type: ignore[arg-type]
    steps = np.floor(dist_m / w.range_inc_m + 1e-9).astype(int)
    out = np.zeros_like(dist_m)
    for s in np.unique(steps):
        out[steps == s] = pool_hit_chance(pool.column, pool.row, int(base + s), mod, pool.halve)
    out[dist_m > w.max_range_m] = 0.0
    return out


def test_kept_enemy_hit_maps_equal_the_chance_at_each_distance() -> None:
    """maps._hit_map (kept per enemy cell and profile) read at any cells equals the chance at each distance worked
    out step by step (`plain_hit_by_range`), and so does _enemy_hit_by_range on those cells alone."""
    from skirmish.ai.utility import maps

    sc = load_scenario(SCENARIOS_DIR / "canal_crossing.yaml")
    checked = 0
    with Battle(sc, seed=2, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        for step in range(150):
            if b.pending is None:
                break
            if step % 10 == 0:
                view = b.view()
                grid = view.grid
                ys, xs = np.nonzero(grid.move_cost > 0)
                for e in view.units:
                    dist = np.hypot(xs - e.cell[0], ys - e.cell[1]) * grid.cell_m
                    want = plain_hit_by_range(e, view, dist)
                    assert np.array_equal(maps._enemy_hit_by_range(e, view, dist), want)
                    assert np.array_equal(maps._hit_map(e, view)[ys, xs], want)
                    assert np.array_equal(maps._hit_map(e, view)[ys, xs], want)  # kept
                    checked += 1
            b.step()
    assert checked > 20
