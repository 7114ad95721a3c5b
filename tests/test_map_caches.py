"""What the rules, the views and the AIs keep about a map lives on the map (`GridMap.kept`, `sight_table`):
once a battle and its scenario are gone, nothing holds the map alive, so a tournament worker or a long board
session that loads a fresh map per battle does not grow without bound."""

from __future__ import annotations

import copy
import gc
import pickle
import weakref

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario


def _play(ai: str, seed: int) -> weakref.ref[object]:
    sc = load_scenario(SCENARIOS_DIR / "killhouse_drill.yaml")
    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
        b.run()
    assert "sight_table" in vars(sc.grid)  # the battle did keep things on its map
    return weakref.ref(sc.grid)


def test_no_cache_keeps_a_finished_battles_map_alive() -> None:
    maps = [_play(ai, seed) for ai in ("utility", "search", "hold") for seed in (1, 2)]
    gc.collect()
    assert [m() for m in maps] == [None] * len(maps)


def test_maps_of_the_same_content_share_what_is_kept_and_a_few_are_kept() -> None:
    """A scenario loaded again (a tournament loads one per pair) finds what earlier battles on its map kept;
    at most MAPS_KEPT map contents are kept, the least recently used dropped first."""
    from skirmish.content.tiled import from_ascii
    from skirmish.rules import map_state

    a = load_scenario(SCENARIOS_DIR / "killhouse_drill.yaml").grid
    b = load_scenario(SCENARIOS_DIR / "killhouse_drill.yaml").grid
    assert a is not b and a.kept is b.kept and a.sight_table is b.sight_table
    others = [from_ascii(["." * (5 + i), "#" * (5 + i)], "prop", f"m{i}") for i in range(map_state.MAPS_KEPT)]
    for g in others:
        assert g.kept is not a.kept
    c = load_scenario(SCENARIOS_DIR / "killhouse_drill.yaml").grid  # pushed out by MAPS_KEPT newer maps
    assert c.kept is not a.kept and c.sight_table is not a.sight_table
    assert len(map_state._MAP_STATES) <= map_state.MAPS_KEPT


def test_a_map_pickles_and_copies_as_its_fields_and_finds_what_is_kept_again() -> None:
    """A played map holds what its battles kept (weak references to views among it: those do not pickle); pickled
    or deep-copied it carries its fields only, stays read-only, plays alike (the same content) and, in the same
    process, finds the same kept state and sight table on first use."""
    sc = load_scenario(SCENARIOS_DIR / "killhouse_drill.yaml")
    with Battle(sc, seed=3, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        b.run()
    grid = sc.grid
    grid.kept["a weak reference"] = weakref.ref(sc)  # what an AI's caches hold (scoring, search.model)
    assert "sight_table" in vars(grid) and "move_cost" in vars(grid)
    with pytest.raises(TypeError):
        pickle.dumps(dict(grid.__dict__))  # the whole of it would not pickle
    for other in (pickle.loads(pickle.dumps(grid)), copy.deepcopy(grid)):
        assert set(vars(other)) == {"name", "width", "height", "tiles", "layout", "cell_m"}
        assert other.content_key == grid.content_key and (other.move_cost == grid.move_cost).all()
        assert not other.layout.flags.writeable
        assert other.kept is grid.kept and other.sight_table is grid.sight_table  # the same content's state
    assert len(pickle.dumps(grid)) < 20_000  # the fields, not the kept caches
