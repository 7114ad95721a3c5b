"""A finished battle's utility AIs are freed when the last reference goes, not at the next full garbage collection
(speed session 9): nothing they keep refers back to them (the side maps' reach fields go through the kept
ReachCache, not the MapCache that holds the maps), so their caches never pile up in the oldest generation."""

from __future__ import annotations

import gc
import weakref

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario


def test_utility_ais_are_freed_without_a_collection() -> None:
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    ctrl = {s.name: make_ai("utility", sc.spec.ruleset) for s in sc.spec.sides}
    gone = [weakref.ref(c) for c in ctrl.values()]
    maps = [weakref.ref(c._maps) for c in ctrl.values()]  # type: ignore[attr-defined]
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        with Battle(sc, seed=3, controllers=ctrl) as b:
            for _ in range(60):  # some rounds: every side's maps built, reach fields asked
                if not b.step():
                    break
        assert all(r() is not None for r in gone)
        assert all(len(m()._maps) for m in maps)  # type: ignore[union-attr]
        del b, ctrl
        assert [r() for r in gone] == [None, None]  # freed by reference counting alone
        assert [m() for m in maps] == [None, None]
    finally:
        if was:
            gc.enable()
