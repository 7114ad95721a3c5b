"""Knowledge.observe keeps each side's last look and makes again only the units the snapshot changed while what
the side knows stands (speedhold10): the views it gives equal views made afresh, through whole battles."""

from __future__ import annotations

import gc

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.batch_gc import batch_gc
from skirmish.ecs.knowledge import Knowledge


def test_patched_side_views_equal_fresh_ones() -> None:
    patched = 0
    for name, seed, ai in (("depot_breach.yaml", 3, "hold"), ("fi/outriders.yaml", 6, "hold"),
                           ("crossroads_patrol.yaml", 4, "utility")):
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
            for _ in range(300):
                req = b.pending
                if req is None:
                    break
                last = b.knowledge._observed.get(req.side)
                view = b.observe(req.side)
                fresh = Knowledge(b.knowledge.sides, b.knowledge.armoury)
                fresh.seen, fresh.last = b.knowledge.seen, b.knowledge.last
                assert view.units == fresh.observe(b.view(), req.side).units
                now = b.knowledge._observed[req.side]
                patched += last is not None and last[1] is not now[1] and last[0] is not now[0] and \
                    any(a is b_ for a, b_ in zip(last[1], now[1], strict=True) if a is not None)
                b.step()
    assert patched > 100  # looks patched from the last one, not made afresh


def test_a_changed_sighting_is_seen_at_once() -> None:
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=1, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        side = b.sides[0]
        first = b.observe(side)
        assert b.observe(side).units == first.units  # nothing changed: the same look
        b.knowledge.last[side].clear()  # forgetting: the kept look must not stand
        for u in b.observe(side).units:
            assert u.side == side or u.name in b.knowledge.seen[side]


def test_batch_gc_puts_the_collector_back() -> None:
    before = gc.get_threshold()
    with batch_gc(1234):
        assert gc.get_threshold()[0] == 1234
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
