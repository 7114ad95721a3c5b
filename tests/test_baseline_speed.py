"""The hold/focus/spread baselines weigh a cell against the enemies nearest the unit (`enemies_that_matter`,
docs/AI.md "Scripted baselines"): six of them at most, so a decision's cost does not grow with the battle (issue 12
item 6); and a shared reach field is keyed on the blocks within a straight-line bound (`reach.within_reach`), with no
search to find which cells it reads. Speed itself is measured with `skirmish bench --ai hold --scaling`, not here."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import COUNTED_ENEMIES, BaselineAI, enemies_that_matter
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.content.tiled import from_ascii
from skirmish.rules import geometry as geo
from skirmish.rules.deck import SIDES
from skirmish.rules.reach import ring, shared_field, within_reach
from tests.test_baseline_fast import _reference


def test_the_six_nearest_enemies_are_weighed_in_the_views_order() -> None:
    here = (10, 10)
    cells = ((30, 10), (11, 10), (10, 25), (12, 12), (0, 0), (10, 14), (19, 10), (10, 1))
    got = enemies_that_matter(here, cells)
    assert COUNTED_ENEMIES == 6 and len(got) == 6
    far = sorted(cells, key=lambda c: geo.distance_cells(here, c))[6:]
    assert set(far) == {(30, 10), (10, 25)} and not set(far) & set(got)
    assert got == tuple(c for c in cells if c not in far)  # the view's order kept
    assert enemies_that_matter(here, cells[:6]) == cells[:6]  # six or fewer: all of them, as they were
    # Equal distances: the ones listed first in the view are weighed (three at 2.8 cells, then three of four at 3).
    ring = ((13, 10), (7, 10), (10, 13), (10, 7), (12, 12), (8, 8), (8, 12))
    assert enemies_that_matter(here, ring) == ring[:3] + ring[4:]


def test_a_battalion_units_cell_is_weighed_against_its_six_nearest_enemies() -> None:
    """In the 24 v 24 bench battle every cell choice equals the per-enemy scan over the six enemies nearest the
    unit, and at least one of them would differ against all 24 (the rule changes the answer somewhere)."""
    sc = load_scenario(SCENARIOS_DIR / "bench" / "battalion_sweep.yaml")
    ai = BaselineAI()
    asked = differs = 0
    orig = ai._choose_cell

    def check(view, me, has_target):  # type: ignore[no-untyped-def]
        nonlocal asked, differs
        got = orig(view, me, has_target)
        grid = view.grid
        blocked = np.zeros((grid.height, grid.width), dtype=bool)
        for x, y in view.occupied(me.name):
            blocked[y, x] = True
        blocked[me.cell[1], me.cell[0]] = True
        field_ = geo.reach_field(grid, me.cell, SIDES[me.trait("dexterity")[0]] / grid.cell_m, blocked)
        reach = me.weapon.max_range_m if me.weapon else -math.inf
        enemies = [e.cell for e in view.enemies(me)]
        assert len(enemies) > COUNTED_ENEMIES
        assert got == _reference(grid, field_, me.cell, reach, list(enemies_that_matter(me.cell, tuple(enemies))))
        differs += got != _reference(grid, field_, me.cell, reach, enemies)
        asked += 1
        return got

    ai._choose_cell = check  # type: ignore[method-assign]
    with Battle(sc, seed=1, controllers={s.name: ai for s in sc.spec.sides}) as b:
        while b.pending is not None and asked < 40:
            b.step()
    assert asked == 40 and differs > 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(2, 14).flatmap(
    lambda w: st.lists(st.text("....,:#x=Df~", min_size=w, max_size=w), min_size=2, max_size=12)), data=st.data())
def test_a_reach_search_reads_no_cell_beyond_within_reach(rows: list[str], data: st.DataObject) -> None:
    """`reach.within_reach` (the cells whose blocks key a shared reach field) holds every cell the search reaches
    and their ring, whatever the ground costs; so the shared field is the search's answer (equal, cell for cell)."""
    grid = from_ascii(rows, "speed", "map")
    start = (data.draw(st.integers(0, grid.width - 1)), data.draw(st.integers(0, grid.height - 1)))
    limit = data.draw(st.sampled_from([1.0, 2.5, 4.0, 7.3]))
    near = within_reach(grid, start, limit)
    assert (ring(np.isfinite(geo.reach_field(grid, start, limit))) <= near).all()
    blocked = np.zeros((grid.height, grid.width), dtype=bool)
    for cell in data.draw(st.lists(st.tuples(st.integers(0, grid.width - 1), st.integers(0, grid.height - 1)),
                                   max_size=5)):
        blocked[cell[1], cell[0]] = True
    got = shared_field(grid, start, limit, blocked)
    assert np.array_equal(got, geo.reach_field(grid, start, limit, blocked))


def test_the_band_search_refuses_a_step_cheaper_than_one() -> None:
    """The reach search settles cells in bands one cost wide, which needs every step to cost at least 1: a map
    with a move cost between 0 and 1 is refused by name, not searched wrongly."""
    import pytest

    tiles = (geo.Terrain("ground"), geo.Terrain("road", move_cost=0.5))  # type: ignore[arg-type]
    grid = geo.GridMap("cheap", 3, 2, tiles, np.array([[0, 1, 0], [0, 0, 0]], dtype=np.int16))
    with pytest.raises(ValueError, match="move cost between 0 and 1"):
        geo.reach_field(grid, (0, 0), 3.0)


def test_within_reach_covers_the_search_on_every_shipped_map() -> None:
    """review8b: the generated maps above are at most 14 x 12 cells, where a limit of 7.3 takes in nearly the whole
    map; on every shipped scenario's map (up to 60 x 40, rubble and water) and the limits the engine asks (a walk
    and a run of 3-12 cells), every cell the search reaches and its ring are within the bound, and the bound
    leaves cells out (so the key is a real subset)."""
    import random

    rng = random.Random(8)
    paths = sorted(SCENARIOS_DIR.rglob("*.yaml"))
    assert len(paths) >= 10
    smaller = 0
    for path in paths:
        grid = load_scenario(path).grid
        for _ in range(12):
            start = (rng.randrange(grid.width), rng.randrange(grid.height))
            for limit in (3.0, 4.0, 5.0, 6.0, 8.0, 12.0):
                near = within_reach(grid, start, limit)
                assert (ring(np.isfinite(geo.reach_field(grid, start, limit))) <= near).all(), (path, start, limit)
                smaller += int(not near.all())
    assert smaller > 0
