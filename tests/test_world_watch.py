"""`World.watch`: per-entity counts of hand-outs of some component types only (what `Knowledge.update` reads to
know whether a unit may have changed for it)."""

from __future__ import annotations

from skirmish.ecs.components import Declared, Health, Identity, Position, Status
from skirmish.ecs.world import World


def _unit(w: World, name: str) -> int:
    return w.spawn(Identity(name, "a", 0, 0), Position(0, 0), Health(2, 5), Status(), Declared())


def test_watch_counts_only_its_types_and_spawns() -> None:
    with World() as w:
        a = _unit(w, "a")
        counts = w.watch(frozenset({Health, Status, Identity}))
        assert w.watch(frozenset({Health, Status, Identity})) is counts  # one mapping for the same types
        other = w.watch(frozenset({Declared}))
        assert counts[a] == 0
        w.get(a, Declared)
        w.peek(a, Health)
        w.get(a, Identity)  # never changes: never counted
        assert counts[a] == 0 and other[a] == 1
        w.get(a, Health)
        w.get(a, Status)
        assert counts[a] == 2 and other[a] == 1 and w.handouts(a) == 3
        b = _unit(w, "b")  # spawned after: counted from 0
        assert counts[b] == 0
        w.query(Status)
        assert counts[a] == 3 and counts[b] == 1 and other[b] == 0


def test_kept_tally_equals_a_fresh_count_at_every_step() -> None:
    """`Battle._tally` (kept while no Health is handed out) equals counting afresh, through a whole battle in
    which units fall."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

    sc = load_scenario(SCENARIOS_DIR / "killhouse_drill.yaml")
    with Battle(sc, seed=2, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        fallen = 0
        while b.step():
            assert b._tally() == b._count()
            fallen = max(fallen, sum(b._tally()[1].values()))
        assert b._tally() == b._count()
    assert fallen >= 1

