"""skirmish.nav's routes (the pathfinding package's A* on one grid per map that resets only the nodes a search
touched): its routes equal the package's on a fresh grid (not just one as cheap) for every start, goal and set of
occupied cells, ties included, query after query on the same navigator."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pathfinding.core.diagonal_movement import DiagonalMovement
from pathfinding.core.grid import Grid
from pathfinding.finder.a_star import AStarFinder

from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.content.tiled import from_ascii
from skirmish.nav import Navigator
from skirmish.rules import geometry as geo

GLYPHS = "....,:#x=Df~"

maps = st.integers(2, 12).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=2, max_size=10)
)


def package_route(grid: geo.GridMap, start: geo.Cell, goal: geo.Cell, occupied: set[geo.Cell]) -> list[geo.Cell]:
    """The route the package finds on a fresh grid."""
    if start == goal:
        return [start]
    if not grid.passable(goal):
        return []
    matrix = [[c if c > 0 else 0 for c in row] for row in grid.move_cost.tolist()]
    pf = Grid(matrix=matrix)
    for x, y in occupied:
        if (x, y) not in (start, goal) and grid.inside((x, y)):
            pf.node(x, y).walkable = False
    path, _ = AStarFinder(diagonal_movement=DiagonalMovement.only_when_no_obstacle).find_path(
        pf.node(*start), pf.node(*goal), pf)
    return [(n.x, n.y) for n in path]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_routes_equal_the_package_routes(rows: list[str], data: st.DataObject) -> None:
    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    occupied = set(data.draw(st.lists(st.sampled_from(cells), max_size=6)))
    nav = Navigator(grid)
    for start in data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=3)):
        for goal in cells:
            assert nav.route(start, goal, occupied) == package_route(grid, start, goal, occupied), (rows, start, goal)


def test_routes_equal_the_package_routes_on_shipped_maps() -> None:
    import random

    rng = random.Random(5)
    grids = {id(sc.grid): sc.grid for sc in (load_scenario(p) for p in builtin_scenarios())}
    for grid in grids.values():
        nav = Navigator(grid)
        free = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.passable((x, y))]
        for _ in range(60):
            occupied = set(rng.sample(free, 8))
            start, goal = rng.choice(free), rng.choice(free)
            assert nav.route(start, goal, occupied) == package_route(grid, start, goal, occupied)


def test_one_navigator_per_map_shared_by_battles() -> None:
    """`Navigator.of` keeps one navigator with the map (shared by maps of the same content): every battle on
    the map routes with it, and after whole battles its routes still equal a fresh grid's."""
    import random

    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle

    sc = load_scenario(builtin_scenarios()[0])
    again = load_scenario(builtin_scenarios()[0])
    other = from_ascii(["....", ".#..", "...."], "prop", "map")
    nav = Navigator.of(sc.grid)
    assert Navigator.of(sc.grid) is nav and Navigator.of(again.grid) is nav and Navigator.of(other) is not nav
    for seed in (1, 2):
        with Battle(sc, seed=seed, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
            assert b.sys.ctx.nav is nav
            b.run()
    rng = random.Random(7)
    grid = sc.grid
    free = [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.passable((x, y))]
    for _ in range(40):
        occupied = set(rng.sample(free, 6))
        start, goal = rng.choice(free), rng.choice(free)
        assert nav.route(start, goal, occupied) == package_route(grid, start, goal, occupied)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_kept_routes_equal_the_package_routes(rows: list[str], data: st.DataObject) -> None:
    """A route is handed back again only when the cells its search looked at are occupied as they were: over
    a sequence of the same few start/goal questions with changing occupied cells, every answer (kept or
    searched) is the package's on a fresh grid, and some are kept ones."""
    grid = from_ascii(rows, "prop", "map")
    cells = [(x, y) for y in range(grid.height) for x in range(grid.width)]
    nav = Navigator(grid)
    searched = []
    search = nav._search

    def counted(*args: object) -> object:
        searched.append(args)
        return search(*args)  # type: ignore[arg-type]

    nav._search = counted  # type: ignore[method-assign]
    questions = data.draw(st.lists(st.tuples(st.sampled_from(cells), st.sampled_from(cells)), min_size=1,
                                   max_size=3))
    asked = 0
    for _ in range(12):
        occupied = set(data.draw(st.lists(st.sampled_from(cells), max_size=4)))
        for start, goal in questions:
            assert nav.route(start, goal, occupied) == package_route(grid, start, goal, occupied), (
                rows, start, goal, occupied)
            asked += start != goal
    assert len(searched) <= asked
    start, goal = questions[0]
    nav.route(start, goal, occupied)
    before = len(searched)
    assert nav.route(start, goal, occupied) == package_route(grid, start, goal, occupied)
    assert len(searched) == before  # the same question with the same cells occupied: handed back, not searched


def test_routes_are_kept_and_bounded(monkeypatch: object) -> None:
    """The same question with the same occupied cells is searched once; occupying a cell the search looked at
    asks again; the kept routes start again past ROUTES_KEPT."""
    import skirmish.nav as nav_mod

    grid = from_ascii(["......", ".##...", "......", "......"], "prop", "map")
    nav = Navigator(grid)
    calls: list[object] = []
    search = nav._search

    def counted(*args: object) -> object:
        calls.append(args)
        return search(*args)  # type: ignore[arg-type]

    nav._search = counted  # type: ignore[method-assign]
    route = nav.route((0, 0), (5, 3), {(5, 0)})
    assert nav.route((0, 0), (5, 3), {(5, 0)}) == route and len(calls) == 1
    on_route = route[2]
    assert nav.route((0, 0), (5, 3), {(5, 0), on_route}) == package_route(grid, (0, 0), (5, 3), {(5, 0), on_route})
    assert len(calls) == 2
    kept_before = dict(nav._kept)
    assert nav.route((0, 0), (5, 3), {(5, 0)}, keep=False) == route and len(calls) == 3  # searched afresh
    assert nav._kept == kept_before  # and not kept
    monkeypatch.setattr(nav_mod, "ROUTES_KEPT", 3)  # type: ignore[attr-defined]
    for goal in ((1, 0), (2, 0), (3, 0), (4, 0)):
        nav.route((0, 0), goal)
    assert nav._count <= 3 and sum(len(v) for v in nav._kept.values()) <= 3
