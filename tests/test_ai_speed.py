"""The utility AI's kept shortcuts (issue 12 item 6) answer as the plain functions do: the kept timing check,
a curve at one number, and the options' considerations."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np

from skirmish.ai.curves import KINDS, Curve
from skirmish.ai.estimate import fits_kept
from skirmish.ai.utility.scoring import Option
from skirmish.rules.actions import EndTurn
from skirmish.rulesets.fi import DECLARATIONS, Part, fits


def test_the_kept_timing_check_is_the_rules_check() -> None:
    parts = [Part("move"), Part("move", running=True), Part("attack", 1, "prepared"), Part("attack", 2, "snap"),
             Part("attack", 1, "aimed"), Part("aim", 1), Part("aim", 2), Part("reload", 2), Part("free")]
    checked = 0
    for declared in (*DECLARATIONS, None):
        for n in range(4):
            for combo in itertools.product(parts, repeat=n):
                for _ in range(2):  # the second time from what was kept
                    assert fits_kept(declared, combo) == fits(declared, list(combo)), (declared, combo)
                checked += 1
    assert checked > 1000


def test_a_curve_at_one_number_is_the_curve_on_an_array_and_an_option_scores_as_the_curve_does() -> None:
    rng = random.Random(5)
    xs = [0.0, -0.0, 1.0, 0.5, 1e-300, -1e-300, 2.0, -3.0, math.nan] + [rng.uniform(-0.2, 1.2) for _ in range(60)]
    for kind in KINDS:
        for _ in range(8):
            c = Curve(kind, rng.uniform(-2, 2), rng.uniform(0.1, 9), rng.uniform(-1, 1), rng.uniform(-0.5, 1))
            for x in xs + xs:
                got, want = c.at(x), float(c(np.array([x]))[0])
                assert (math.isnan(got) and math.isnan(want)) or (
                    got == want and math.copysign(1.0, got) == math.copysign(1.0, want)), (c, x)
                for raw in (x, np.float64(x), np.array(x)):
                    o = Option("x", EndTurn("u"), ("end",)).add("x", raw, c)  # type: ignore[arg-type]
                    out = o.considerations[0].output
                    assert (math.isnan(out) and math.isnan(want)) or out == want


def test_a_replaced_unit_view_is_dataclasses_replace() -> None:
    import dataclasses

    from skirmish.ai.controllers import make_ai
    from skirmish.ai.estimate import replaced
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=1, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        for _ in range(30):
            b.step()
        for u in b.view().units:
            for changes in ({"cell": (3, 4), "ready_target": None, "aim": 0}, {"ready_target": "X", "aim": 2}):
                got, want = replaced(u, **changes), dataclasses.replace(u, **changes)
                assert got == want and list(vars(got)) == list(vars(want))


def landings_loop(grid, thrower, cells, spreads, open_length=None):  # type: ignore[no-untyped-def]
    """blast.landings as it was written first: one small array per (aim, outcome); where the rays stop read by
    `open_length` (default blast._open_length; tests/test_ai_tail15.py passes the plain statement of it)."""
    from skirmish.ai import blast

    open_length = open_length or blast._open_length

    n = len(cells)
    aims = np.array(cells, dtype=np.float64) + 0.5
    here = np.array(thrower, dtype=np.float64) + 0.5
    dist_cells = np.hypot(aims[:, 0] - here[0], aims[:, 1] - here[1])
    to = aims - here
    norm = np.hypot(to[:, 0], to[:, 1])
    ux = np.where(norm > 1e-9, to[:, 0] / np.maximum(norm, 1e-9), 0.0)
    uy = np.where(norm > 1e-9, to[:, 1] / np.maximum(norm, 1e-9), -1.0)
    ang = np.radians(30 * (np.arange(1, 13) % 12))
    vx = ux[:, None] * np.cos(ang)[None, :] - uy[:, None] * np.sin(ang)[None, :]
    vy = ux[:, None] * np.sin(ang)[None, :] + uy[:, None] * np.cos(ang)[None, :]
    rows_aim, rows_x, rows_y = [np.arange(n)], [aims[:, 0]], [aims[:, 1]]
    rows_p = [np.array([s.on for s in spreads])]
    for from_thrower in (False, True):
        ox = np.full(n, here[0]) if from_thrower else aims[:, 0]
        oy = np.full(n, here[1]) if from_thrower else aims[:, 1]
        longest = max((m for s in spreads for m, p in (s.cf if from_thrower else s.near) if p >= blast.MIN_P),
                      default=0.0)
        if longest <= 0:
            continue
        stop = open_length(grid, ox, oy, vx, vy, min(longest / grid.cell_m, float(dist_cells.max())))
        for i, s in enumerate(spreads):
            for metres, p in (s.cf if from_thrower else s.near):
                if p < blast.MIN_P:
                    continue
                length = np.minimum(min(metres / grid.cell_m, dist_cells[i]), stop[i])
                rows_aim.append(np.full(12, i))
                rows_x.append(ox[i] + vx[i] * length)
                rows_y.append(oy[i] + vy[i] * length)
                rows_p.append(p * blast.CLOCK_P)
    lx = np.clip(np.floor(np.concatenate(rows_x)), 0, grid.width - 1).astype(np.int64)
    ly = np.clip(np.floor(np.concatenate(rows_y)), 0, grid.height - 1).astype(np.int64)
    return np.concatenate(rows_aim).astype(np.int64), lx, ly, np.concatenate(rows_p)


def test_landings_worked_out_whole_equal_the_loop_over_aims_and_outcomes() -> None:
    from skirmish.ai import blast
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
    from skirmish.rules import geometry as geo

    rng = random.Random(11)
    checked = 0
    for name in ("depot_breach.yaml", "rubble_run.yaml", "killhouse_drill.yaml"):
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=1, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            view = b.view()
            grid = view.grid
            for me in view.units:
                for weapon, _ in me.throwables:
                    cells = [(rng.randrange(grid.width), rng.randrange(grid.height)) for _ in range(40)]
                    spreads = [blast.throw_spread(me, weapon, geo.distance_m(me.cell, c, grid.cell_m), view.scope)
                               for c in cells]
                    got = blast.landings(grid, me.cell, cells, spreads)
                    want = landings_loop(grid, me.cell, cells, spreads)
                    for g, w in zip(got, want, strict=True):
                        assert g.dtype == w.dtype and np.array_equal(g, w)
                    checked += 1
    assert checked >= 3


def test_kept_hit_chances_equal_working_them_out() -> None:
    """estimate.hit_probability keeps its numbers by the weapon, the range increments and area row shift of the
    distance and everything else the rules' numbers read; asked again anywhere (other cells, units, modes),
    a kept answer equals the one worked out with nothing kept."""
    from skirmish.ai import estimate
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

    rng = random.Random(9)
    checked = hits = 0
    estimate._hits_kept.clear()
    for name in ("depot_breach.yaml", "canal_crossing.yaml", "rubble_run.yaml"):
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=2, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            for step in range(120):
                if b.pending is None:
                    break
                if step % 6 == 0:
                    view = b.observe(b.pending.side)
                    grid = view.grid
                    for me in view.units:
                        for t in view.units:
                            if t.side == me.side:
                                continue
                            for _ in range(3):
                                at = (rng.randrange(grid.width), rng.randrange(grid.height))
                                kw = {"mode": rng.choice(["prepared", "snap", "aimed"]), "burst": rng.choice([0, 3]),
                                      "moved": rng.choice(["none", "walked", "ran"]), "at": at}
                                got = estimate.hit_probability(view, me, t, **kw)  # type: ignore[arg-type]
                                kept = dict(estimate._hits_kept)  # what was kept so far, from other questions
                                estimate._hits_kept.clear()
                                want = estimate.hit_probability(view, me, t, **kw)  # type: ignore[arg-type]
                                estimate._hits_kept.clear()
                                estimate._hits_kept.update(kept)
                                assert got == want, (me.name, t.name, kw)
                                checked += 1
                                hits += len(kept) > 0 and got[0] > 0
                b.step()
    assert checked > 500 and hits > 100
