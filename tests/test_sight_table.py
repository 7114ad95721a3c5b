"""The kept, walked-once sight (skirmish.rules.sight_table, behind `geometry.sight`) equals the rule as stated
(`geometry.sight_reference`) exactly: over random maps, every pair of cells, and over the shipped maps."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.content.tiled import from_ascii
from skirmish.rules import geometry as geo
from skirmish.rules.geometry import Cell
from skirmish.rules.sight_table import SightTable, table

GLYPHS = "....,:#x=Df~"  # floor-heavy, with walls, low cover, doors, fences, water, rubble

maps = st.integers(2, 12).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=2, max_size=10)
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps)
def test_table_equals_reference_on_every_pair(rows: list[str]) -> None:
    grid = from_ascii(rows, "prop", "map")
    t = SightTable(grid)
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    for a in cells:
        for b in cells:
            want = geo.sight_reference(grid, a, b)
            assert t.sight(a, b) == want, (rows, a, b)
            assert t.sight(a, b) == want  # kept: asked again, the same


def test_table_equals_reference_on_shipped_maps() -> None:
    """A sample of pairs on every shipped map (the maps the golden logs play on)."""
    rng = random.Random(12)
    grids = {id(sc.grid): sc.grid for sc in (load_scenario(p) for p in builtin_scenarios())}
    checked = 0
    for grid in grids.values():
        cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
        for _ in range(3000):
            a, b = rng.choice(cells), rng.choice(cells)
            assert geo.sight(grid, a, b) == geo.sight_reference(grid, a, b), (grid.name, a, b)
            checked += 1
    assert checked >= 3000


def test_table_is_per_map_content_and_shares_answers() -> None:
    grid = from_ascii(["..#..", ".....", "..x.."], "t", "map")
    same = from_ascii(["..#..", ".....", "..x.."], "t", "another name")  # the same content: one table
    other = from_ascii(["..#..", "....#", "..x.."], "t", "map")
    assert table(grid) is table(grid) and table(grid) is table(same) and table(grid) is not table(other)
    s = geo.sight(grid, (0, 0), (4, 2))
    assert geo.sight(grid, (0, 0), (4, 2)) is s  # kept
    assert geo.sight(grid, (0, 1), (0, 1)) is geo.sight(grid, (1, 1), (1, 1))  # equal answers: one object


def test_a_table_that_starts_again_answers_the_same() -> None:
    """Rows and columns dropped when the table is full are worked out again, to the same answers."""
    import numpy as np

    grid = from_ascii(["..#...", ".x..=.", "...#..", "D.~..."], "t", "map")
    t = SightTable(grid)
    t.rows_kept = 2
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    xs = np.array([c[0] for c in cells])
    ys = np.array([c[1] for c in cells])
    for _ in range(2):
        for b in cells:
            codes = t.column(b, xs, ys)
            for i, a in enumerate(cells):
                want = geo.sight_reference(grid, a, b)
                assert t.sight(a, b) == want
                assert codes[i] == int(want.visible) + 2 * int(want.lean) + 4 * geo.COVER_LEVEL[want.cover]
    assert len(t.rows) <= 2 and len(t.cols) <= 8


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_codes_from_a_cell_equal_the_reference(rows: list[str], data: st.DataObject) -> None:
    """`codes_from` (what the baseline AIs score cells with) codes the sight from one cell to each cell asked,
    asked in any order and again, exactly as the rule gives it."""
    import numpy as np

    grid = from_ascii(rows, "prop", "map")
    t = SightTable(grid)
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    frm = data.draw(st.sampled_from(cells))
    for _ in range(2):
        asked = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells)))
        codes = t.codes_from(frm, np.array([c[0] for c in asked]), np.array([c[1] for c in asked]))
        for c, code in zip(asked, codes.tolist(), strict=True):
            want = geo.sight_reference(grid, frm, c)
            assert code == int(want.visible) + 2 * int(want.lean) + 4 * geo.COVER_LEVEL[want.cover], (rows, frm, c)


def test_off_map_cells_are_answered_by_the_rule_not_another_cells_row() -> None:
    """The table holds map cells only; a cell off the map (a board probe, a future caller) gets the rule's
    answer, not the row entry its index would wrap onto."""
    grid = from_ascii(["..#.", "....", ".x.."], "t", "map")
    for frm, to in (((0, 0), (-1, 1)), ((0, 0), (4, 0)), ((5, 1), (1, 1)), ((1, 1), (2, 3))):
        assert geo.sight(grid, frm, to) == geo.sight_reference(grid, frm, to), (frm, to)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps)
def test_rows_are_numbers_the_collector_does_not_walk(rows: list[str]) -> None:
    """Rows hold each answer's number in `sights` (0: not worked out), in arrays whose entries the garbage
    collector does not walk (no referents but their type; a list of answers refers to each); there are at most
    two answers per cell and three more, which the rows' item size holds."""
    import gc

    grid = from_ascii(rows, "prop", "map")
    t = SightTable(grid)
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    for a in cells:
        for b in cells:
            t.sight(a, b)
    assert t.rows and all(all(isinstance(x, type) for x in gc.get_referents(r)) for r in t.rows.values())
    assert all(len(r) == len(cells) and min(r) >= 1 for r in t.rows.values())  # every pair asked: numbered
    assert len(t.sights) - 1 <= 2 * len(cells) + 3 < 1 << (8 * t.rows[cells[0]].itemsize)
    assert len(set(map(id, t.sights[1:]))) == len(t.sights) - 1  # one object per answer
    assert t.sights[1] is geo.NO_SIGHT and not any(s.visible is False for s in t.sights[2:])


def test_pairs_coded_not_in_sight_are_not_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pair coded as not in sight (codes from its origin, codes to its target, or either the other way) is
    answered NO_SIGHT with no walk; pairs coded in sight are walked for their cover, to the rule's answer."""
    import numpy as np

    from skirmish.rules import sight_table

    monkeypatch.setattr(sight_table, "BATCH_MIN", 1)
    grid = from_ascii(["....#.....", "..#.#..x..", "....#.....", "##.##..=..", "......#..."], "t", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    xs, ys = np.array([c[0] for c in cells]), np.array([c[1] for c in cells])
    walked: list[tuple[Cell, Cell]] = []

    def counted(table: SightTable) -> SightTable:
        work_out = table._work_out
        monkeypatch.setattr(table, "_work_out", lambda a, b: walked.append((a, b)) or work_out(a, b))
        return table

    o = (1, 1)
    for coded, way in (("from", "same"), ("from", "back"), ("to", "same"), ("to", "back")):
        t = counted(SightTable(grid))
        if coded == "from":
            t.codes_from(o, xs, ys)  # codes from o to every cell
            pairs = [(o, c) for c in cells]
        else:
            t.column(o, xs, ys)  # codes to o from every cell
            pairs = [(c, o) for c in cells]
        if way == "back":
            pairs = [(b, a) for a, b in pairs]
        walked.clear()
        for a, b in pairs:
            assert t.sight(a, b) == geo.sight_reference(grid, a, b), (coded, way, a, b)
        blind = [(a, b) for a, b in pairs if not geo.sight_reference(grid, a, b).visible]
        assert blind and not set(blind) & set(walked), (coded, way)
        assert len(walked) == len(pairs) - len(blind)  # the pairs in sight, once each
