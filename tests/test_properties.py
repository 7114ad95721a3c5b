"""Properties that must hold for any input (hypothesis): geometry, routes, damage, checks, actions, decks."""

from __future__ import annotations

import itertools
import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.content.tiled import from_ascii
from skirmish.nav import Navigator
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Aim, Declare, EndTurn, Move, Reload, SetTacpack, Shoot, Wait, parse_action
from skirmish.rules.checks import bumps
from skirmish.rules.deck import Deck, builtin
from skirmish.rules.dice import pool_pmf, prob_at_least
from skirmish.rules.fi.damage import DEAD_AT, after_damage, split_damage

GLYPHS = "...,:#x=Df~"  # floor-heavy, with walls, low cover, doors, fences, water, rubble

maps = st.integers(4, 9).flatmap(
    lambda w: st.lists(st.text(GLYPHS, min_size=w, max_size=w), min_size=3, max_size=8)
)


def _map(rows: list[str]) -> tuple[geo.GridMap, list[geo.Cell]]:
    """The map and the cells a combatant may stand on."""
    grid = from_ascii(rows, "prop", "map")
    return grid, [(x, y) for y in range(grid.height) for x in range(grid.width) if grid.passable((x, y))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=maps, data=st.data())
def test_route_cost_equals_reach_field(rows: list[str], data: st.DataObject) -> None:
    """The pathfinding route to any cell costs exactly what the reach field says, and takes legal steps."""
    grid, free = _map(rows)
    if len(free) < 2:
        return
    start = data.draw(st.sampled_from(free))
    field = geo.reach_field(grid, start, math.inf)
    nav = Navigator(grid)
    for goal in free:
        path = nav.route(start, goal)
        if not math.isfinite(field[goal[1], goal[0]]):
            assert path == []
            continue
        assert path[0] == start and path[-1] == goal
        assert all(geo.can_step(grid, a, b) for a, b in itertools.pairwise(path))
        assert math.isclose(geo.path_cost(grid, path), field[goal[1], goal[0]], abs_tol=1e-6)


@settings(max_examples=60, deadline=None)
@given(rows=maps, data=st.data())
def test_sight_is_symmetric(rows: list[str], data: st.DataObject) -> None:
    """If A can see B (leaning or not), B can see A."""
    grid, free = _map(rows)
    if len(free) < 2:
        return
    a = data.draw(st.sampled_from(free))
    b = data.draw(st.sampled_from(free))
    assert geo.sight(grid, a, b).visible == geo.sight(grid, b, a).visible


@settings(max_examples=60, deadline=None)
@given(rows=maps, data=st.data())
def test_concealment_never_grants_sight(rows: list[str], data: st.DataObject) -> None:
    """unit_sight only ever removes what plain sight shows, and concealment implies high cover."""
    grid, free = _map(rows)
    if len(free) < 2:
        return
    a, b = data.draw(st.sampled_from(free)), data.draw(st.sampled_from(free))
    plain = geo.sight(grid, a, b)
    for firing in (False, True):
        for known in (False, True):
            s = geo.unit_sight(grid, a, b, firing, known)
            assert not s.visible or plain.visible
            assert not s.concealed or (s.cover == "high" and known and not firing)


@given(damage=st.integers(0, 200), size=st.integers(1, 30))
def test_split_damage_conserves(damage: int, size: int) -> None:
    wounds, ct = split_damage(damage, size)
    assert wounds * size + ct == damage and 0 <= ct < size


@given(hits=st.lists(st.tuples(st.integers(0, 8), st.integers(0, 30), st.integers(0, 3)), max_size=12),
       ct_max=st.integers(8, 24))
def test_damage_keeps_tracks_in_bounds(hits: list[tuple[int, int, int]], ct_max: int) -> None:
    """Wounds never pass death and only grow; CT never leaves its track and only falls."""
    wounds, ct = 0, ct_max
    for add_w, add_ct, head in hits:
        cond = after_damage(wounds, ct, add_w, add_ct, head)
        assert 0 <= cond.wounds <= DEAD_AT and 0 <= cond.ct <= ct_max
        assert cond.wounds >= wounds and cond.ct <= ct
        if cond.wounds >= DEAD_AT:
            assert cond.dead
        wounds, ct = cond.wounds, cond.ct


@given(total=st.integers(-10, 60), target=st.integers(1, 40))
def test_bumps_are_monotone(total: int, target: int) -> None:
    assert bumps(total, target) <= bumps(total + 1, target)
    assert bumps(total, target) >= 0


@settings(max_examples=30, deadline=None)
@given(sides=st.sampled_from([4, 6, 8, 10, 12]), count=st.integers(1, 5), want=st.integers(2, 30))
def test_pool_pmf_is_a_distribution(sides: int, count: int, want: int) -> None:
    pmf = pool_pmf(sides, count, want)
    assert math.isclose(sum(p for _, p in pmf), 1.0, abs_tol=1e-7)  # chains are cut below 1e-9 each
    probs = [prob_at_least(pmf, t) for t in range(1, 40)]
    assert all(a >= b - 1e-12 for a, b in itertools.pairwise(probs))


names = st.text("abcXYZ-_ 12", min_size=1, max_size=10)
cells = st.tuples(st.integers(0, 99), st.integers(0, 99))
actions = st.one_of(
    st.builds(Declare, names, st.sampled_from(["fast", "normal", "slow", "dodge"]), st.none() | st.integers(1, 4)),
    st.builds(Move, names, cells),
    st.builds(Shoot, names, names, mode=st.sampled_from(["snap", "prepared", "aimed"]),
              burst=st.sampled_from([0, 3, 5, 10]),
              called=st.none() | st.sampled_from(["head", "chest", "left_leg"])),
    st.builds(Aim, names, names),
    st.builds(Reload, names),
    st.builds(Wait, names),
    st.builds(SetTacpack, names, st.sampled_from(["kinetic", "diffusion", "magnetic"]), st.integers(0, 10)),
    st.builds(EndTurn, names),
)


@given(action=actions)
def test_action_text_round_trips(action: object) -> None:
    assert parse_action(str(action)) == action


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), draws=st.integers(0, 200))
def test_deck_conserves_its_54_cards(seed: int, draws: int) -> None:
    """Drawing, discarding and reshuffling never lose or copy a card."""
    deck = Deck(builtin("A"), random.Random(seed))
    for _ in range(draws):
        deck.draw()
        deck.settle()
        numbers = sorted(c.number for c in [*deck.draw_pile, *deck.discard_pile])
        assert numbers == list(range(1, 55))
