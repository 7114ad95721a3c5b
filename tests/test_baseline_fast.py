"""The hold/focus/spread baselines' cell choice (`baseline_cells._best_cell`, all enemies at once, and the answer
kept per unit) equals the per-enemy scan it replaced, cell for cell, on random maps, cells and enemies; and
`SightTable.codes_many` equals `codes_from` per origin."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.ai.baseline_cells import _COVER_BY_LEVEL, _best_cell
from skirmish.ai.controllers import BaselineAI
from skirmish.battle import Battle
from skirmish.content.scenario import default_scenario_path, load_scenario
from skirmish.content.tiled import from_ascii
from skirmish.rules import geometry as geo
from skirmish.rules.deck import SIDES
from skirmish.rules.sight_table import SightTable

GLYPHS = "....,:#x=Df~"

maps = st.integers(3, 12).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=3, max_size=10)
)


def _reference(grid: geo.GridMap, field_: npt.NDArray[np.float64], me: geo.Cell, reach: float,
               enemies: list[geo.Cell]) -> geo.Cell:
    """The scan as it was written before (one enemy at a time, `codes_from` per enemy)."""
    ys, xs = np.nonzero(np.isfinite(field_))
    nearest_now = min(geo.distance_cells(me, e) for e in enemies)
    table = SightTable(grid)
    hyp = geo.hypot_table(grid.width, grid.height)
    seen_by = np.zeros(len(xs), dtype=np.int64)
    covered = np.zeros(len(xs))
    shots = np.zeros(len(xs), dtype=bool)
    nearest = np.full(len(xs), math.inf)
    for e in enemies:
        code = table.codes_from(e, xs, ys)
        d = hyp[np.abs(ys - e[1]), np.abs(xs - e[0])]
        nearest = np.minimum(nearest, d)
        vis = (code & 1).astype(bool)
        seen_by += vis
        covered += np.where(vis, _COVER_BY_LEVEL[code >> 2], 0.0)
        shots |= vis & ~(code & 2).astype(bool) & (d * grid.cell_m <= reach)
    score = 0.0 - 2.0 * (seen_by - covered)
    score = score + np.where(shots, 1.5, 0.0)
    score = np.where(shots, score + 0.02 * (nearest_now - nearest), score - 0.6 * nearest)
    score = score - 0.01 * field_[ys, xs]
    here = (xs == me[0]) & (ys == me[1])
    score = np.where(here, score + 0.3, score)
    best = int(np.argmax(score))
    return int(xs[best]), int(ys[best])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_best_cell_equals_the_per_enemy_scan(rows: list[str], data: st.DataObject) -> None:
    grid = from_ascii(rows, "prop", "map")
    open_ = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.passable((x, y))]
    if len(open_) < 2:
        return
    me = data.draw(st.sampled_from(open_))
    enemies = data.draw(st.lists(st.sampled_from([(x, y) for y in range(grid.height) for x in range(grid.width)]),
                                 min_size=1, max_size=30))
    limit = data.draw(st.sampled_from([1.5, 3.0, 5.5, 40.0]))
    reach = data.draw(st.sampled_from([-math.inf, 4.0, 10.0, 200.0]))
    field_ = geo.reach_field(grid, me, limit)
    assert _best_cell(grid, field_, me, reach, tuple(enemies)) == _reference(grid, field_, me, reach, enemies)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_codes_many_equals_codes_from(rows: list[str], data: st.DataObject) -> None:
    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    origins = tuple(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=5)))  # repeats allowed
    picked = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=30))
    xs = np.array([c[0] for c in picked], dtype=np.intp)
    ys = np.array([c[1] for c in picked], dtype=np.intp)
    fresh, many = SightTable(grid), SightTable(grid)
    many.codes_from(origins[0], xs[:1], ys[:1])  # some pairs already coded
    got = many.codes_many(origins, xs, ys)
    for row, o in zip(got, origins, strict=True):
        assert row.tolist() == fresh.codes_from(o, xs, ys).tolist()
    assert many.codes_many(origins, xs, ys).tolist() == got.tolist()  # kept: asked again, the same



@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_columns_many_equals_column(rows: list[str], data: st.DataObject) -> None:
    """`SightTable.columns_many` (the utility AI's fire fields: every enemy's column in one look) equals `column`
    per target on a fresh table, with some pairs coded before either way (the blind pairs read back)."""
    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    targets = tuple(data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=8)))  # repeats allowed
    picked = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=40))
    xs = np.array([c[0] for c in picked], dtype=np.intp)
    ys = np.array([c[1] for c in picked], dtype=np.intp)
    fresh, many = SightTable(grid), SightTable(grid)
    many.column(targets[0], xs[:1], ys[:1])  # some pairs already coded
    everywhere_x = np.array([c[0] for c in cells], dtype=np.intp)
    everywhere_y = np.array([c[1] for c in cells], dtype=np.intp)
    many.codes_from(targets[-1], everywhere_x, everywhere_y)  # the pairs the other way: blind ones read back
    got = many.columns_many(targets, xs, ys)
    for row, t in zip(got, targets, strict=True):
        assert row.tolist() == fresh.column(t, xs, ys).tolist()
    assert many.columns_many(targets, xs, ys).tolist() == got.tolist()  # kept: asked again, the same
    assert [many.sight(c, t) for t in targets for c in picked] == [fresh.sight(c, t) for t in targets for c in picked]

def _fresh_choice(view, me):  # type: ignore[no-untyped-def]
    """The choice worked out with nothing kept: the plain reach search and the per-enemy scan."""
    grid = view.grid
    enemies = view.enemies(me)
    if not enemies:
        return None
    blocked = np.zeros((grid.height, grid.width), dtype=bool)
    for x, y in view.occupied(me.name):
        blocked[y, x] = True
    blocked[me.cell[1], me.cell[0]] = True
    field_ = geo.reach_field(grid, me.cell, SIDES[me.trait("dexterity")[0]] / grid.cell_m, blocked)
    reach = me.weapon.max_range_m if me.weapon else -math.inf
    return _reference(grid, field_, me.cell, reach, [e.cell for e in enemies])


def _hold_choices(monkeypatch, owner, name, on_choice) -> None:  # type: ignore[no-untyped-def]
    """Play the default scenario's hold battle of seed 3 (some figures move outside others' walks) with `owner.name`
    counted, calling `on_choice(view, me, calls)` after each cell choice (`calls`: how many times `owner.name` ran
    during it); every choice equals one worked out with nothing kept. The map's kept choices start empty."""
    sc = load_scenario(default_scenario_path())
    for kept in ("baseline_choices", "field_cells"):  # what earlier battles on this map kept (shared by content)
        sc.grid.kept.pop(kept, None)
    real, count = getattr(owner, name), [0]

    def counted(*args):  # type: ignore[no-untyped-def]
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(owner, name, counted)
    ai = BaselineAI()
    orig = ai._choose_cell

    def check(view, me, has_target):  # type: ignore[no-untyped-def]
        before = count[0]
        got = orig(view, me, has_target)
        on_choice(view, me, count[0] - before)
        assert got == _fresh_choice(view, me)
        return got

    ai._choose_cell = check  # type: ignore[method-assign]
    with Battle(sc, seed=3, controllers={s.name: ai for s in sc.spec.sides}) as b:
        b.run()


def test_the_kept_choice_is_dropped_when_the_field_or_an_enemy_changes(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A hold battle's choices (kept per map by cell, reach, enemies and the unit's walk, which stands while the
    figures its search looked at stay) equal choices worked out with nothing kept at every decision that asks;
    some were answered from what was kept, some of those after a figure elsewhere on the map had moved."""
    import skirmish.ai.controllers as ctl

    n = {"asked": 0, "hits": 0, "far_moved": 0}
    scored: dict[tuple[object, ...], frozenset[geo.Cell]] = {}  # the figures' cells when a unit's choice was scored

    def on_choice(view, me, scorings):  # type: ignore[no-untyped-def]
        n["asked"] += 1
        key, figures = (me.name, me.cell, tuple(e.cell for e in view.enemies(me))), frozenset(view.occupied(me.name))
        if not scorings:  # answered from the memo: no scoring
            n["hits"] += 1
            n["far_moved"] += key in scored and scored[key] != figures
        else:
            scored[key] = figures

    _hold_choices(monkeypatch, ctl, "_best_cell", on_choice)
    assert n["asked"] > 20 and 5 < n["hits"] < n["asked"]
    assert n["far_moved"] > 0  # a figure moved out of the unit's walk: the choice stood, as worked out afresh


def test_a_units_choice_asked_again_on_the_same_figures_is_its_last(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A unit asked for its cell on what its last choice was asked on (the same cell, walk, range, weighed enemies
    and figures) gets that answer without its walk looked up (`BaselineAI._asked`), and every answer of a hold battle
    equals one worked out with nothing kept; other figures' moves (a new figures set) ask the walk again."""
    from skirmish.rules.reach import ReachCache

    n = {"asked": 0, "unchecked": 0, "rechecked": 0}
    last_figures: dict[str, frozenset[geo.Cell]] = {}

    def on_choice(view, me, walks):  # type: ignore[no-untyped-def]
        figures = frozenset(view.occupied(me.name))
        if view.enemies(me):
            n["asked"] += 1
            if not walks:
                n["unchecked"] += 1
                assert last_figures[me.name] == figures  # the last choice's figures: nothing moved
            elif last_figures.get(me.name) not in (None, figures):
                n["rechecked"] += 1
            last_figures[me.name] = figures

    _hold_choices(monkeypatch, ReachCache, "field_among", on_choice)
    assert n["asked"] > 20 and 5 < n["unchecked"] < n["asked"] and n["rechecked"] > 0


def _plain_grenade(ai: BaselineAI, view, me):  # type: ignore[no-untyped-def]
    """`BaselineAI._grenade` as it was written before the aims were listed first (the timing rule asked first)."""
    from skirmish.ai.controllers import throw_value
    from skirmish.rules.actions import Throw
    from skirmish.rulesets.fi import Part
    from skirmish.rulesets.fi import thrown as thr

    if not me.throwables:
        return None
    weapon, _ = me.throwables[0]
    if not ai._fits(me, Part("attack", int(weapon.speed), "prepared")):
        return None
    grid = view.grid
    limit = thr.max_throw_m(me.trait("strength")[0])
    enemies = view.enemies(me)
    danger = weapon.blast_m + 2 * grid.cell_m
    best = None
    for e in enemies:
        aim = e.cell
        dist = geo.distance_m(me.cell, aim, grid.cell_m)
        if e.ghost or dist > limit or dist <= danger or not geo.sight(grid, me.cell, aim).visible:
            continue
        value = throw_value(view, me, weapon, e, dist, danger)  # (each aim's worth, as the controller weighs it)
        if value is not None and value >= 0.5 and (best is None or value > best[0]):
            best = (value, aim)
    return None if best is None else Throw(me.name, best[1], weapon.id)


def test_grenade_lists_the_aims_first_and_answers_as_before() -> None:
    """`BaselineAI._grenade` (the enemies it could aim at listed first; none: no throw, the timing rule not asked)
    answers as the plain version at every call of hold battles where grenades are carried and thrown."""
    from skirmish.content.scenario import SCENARIOS_DIR
    from skirmish.ecs.view import replace_unit

    calls = throws = moved_throws = 0
    for name, seed in (("rubble_run.yaml", 1), ("rubble_run.yaml", 2), ("depot_breach.yaml", 1)):
        sc = load_scenario(SCENARIOS_DIR / name)
        ai = BaselineAI()
        real = ai._grenade

        def check(view, me, ai=ai, real=real):  # type: ignore[no-untyped-def]
            nonlocal calls, throws, moved_throws
            got = real(view, me)
            assert got == _plain_grenade(ai, view, me)
            calls += me.throwables != ()
            throws += got is not None
            if me.throwables:  # and from cells near and far from the enemies (the throw's and the scatter's limits)
                for e in view.enemies(me)[:2]:
                    for dx, dy in ((2, 0), (0, -3), (4, 1), (-6, 2), (9, 0)):
                        cell = (e.cell[0] + dx, e.cell[1] + dy)
                        if view.grid.inside(cell):
                            there = replace_unit(me, {"cell": cell})
                            answer = real(view, there)
                            assert answer == _plain_grenade(ai, view, there)
                            moved_throws += answer is not None
            return got

        ai._grenade = check  # type: ignore[method-assign]
        with Battle(sc, seed=seed, controllers={s.name: ai for s in sc.spec.sides}) as b:
            b.run()
    assert calls > 100 and throws > 0 and moved_throws > 3
