"""Issue 12 item 6, cost per unit-action as the battle grows (helper scale6): what is kept or bounded per action
answers exactly what working it out afresh answers."""

from __future__ import annotations

from conftest import played

from skirmish.ai.estimate import replaced
from skirmish.ai.utility import material
from skirmish.rules.actions import Shoot
from skirmish.rulesets.fi import Part, add_part, fits


def _shots_as_written(me, shot) -> int:  # type: ignore[no-untyped-def]
    """`material.shots_this_turn` as first written (unkept)."""
    w = me.weapon
    if w is None:
        return 1
    part = Part("attack", int(w.speed), shot.mode, weapon=w.id, rof=max(1, w.rof))
    rounds = me.rounds // max(1, shot.burst)
    if w.energy:
        rounds = min(rounds, me.power_left // max(1, w.shot_power(shot.burst)))
    parts, n = list(me.turn_parts), 0
    while n < min(material.MAX_REPEATS, rounds):
        parts = add_part(parts, part)
        if not fits(me.declared, parts):
            break
        n += 1
    return max(1, n)


def test_kept_shots_this_turn_equal_the_count_as_written() -> None:
    """Over every unit of real battles (declarations, turns part spent, rounds and power as they come), for each
    mode and burst and each declaration, the kept count is the loop's."""
    asked = 0
    for name in ("depot_breach.yaml", "canal_crossing.yaml"):
        for _, b, req in played(name, 3, 120):
            if req.kind == "declare":
                continue
            me = b.view().unit(req.unit)
            if me.weapon is None:
                continue
            for declared in (me.declared, "slow", "normal", "fast", "dodge"):
                u = replaced(me, declared=declared)
                for mode in ("prepared", "snap", "aimed"):
                    for burst in (0, *me.weapon.bursts):
                        shot = Shoot(me.name, "x", mode=mode, burst=burst)
                        assert material.shots_this_turn(u, shot) == _shots_as_written(u, shot), (u, shot)
                        asked += 1
    assert asked > 500


def test_kept_nearest_enemy_walks_equal_the_fields_worked_out_afresh() -> None:
    """`maps.nearest_walk_m` kept by the enemies' cells (as a MapCache keeps it across its side's decisions) is
    the least of the enemies' walking fields worked out afresh, at every decision of a battle, and read-only."""
    import numpy as np

    from skirmish.ai.utility.maps import nearest_walk_m
    from skirmish.rules import geometry as geo

    walk_from: dict = {}  # type: ignore[type-arg]
    nearest: dict = {}  # type: ignore[type-arg]
    hits = 0
    for _, b, req in played("depot_breach.yaml", 2, 150):
        view = b.observe(req.side)
        me = view.unit(req.unit)
        before = len(nearest)
        kept = nearest_walk_m(view, me, walk_from, nearest)
        hits += len(nearest) == before and bool(nearest)
        fresh = np.full((view.grid.height, view.grid.width), np.inf)
        for e in view.enemies(me):
            fresh = np.minimum(fresh, geo.reach_field(view.grid, e.cell, np.inf))
        assert np.array_equal(kept, fresh * view.grid.cell_m)
        assert not kept.flags.writeable
    assert hits > 10  # the kept answer was handed back, not only made


def test_a_views_kept_enemy_and_friend_lists_equal_the_units_it_holds() -> None:
    """`BattleView.enemies` and `friends` are kept in the view with its units: equal to the lists made afresh at
    every decision, handed out as copies (changing one changes nothing kept), and a view made by copying another's
    fields with other units (as Knowledge.observe makes a side's) answers from its own units."""
    import dataclasses

    asked = 0
    for _, b, req in played("depot_breach.yaml", 4, 80):
        view = b.observe(req.side)
        for me in view.units:
            for _ in range(2):
                assert view.enemies(me) == [u for u in view.units if u.side != me.side and not u.out_of_action]
                assert view.friends(me) == [u for u in view.units
                                            if u.side == me.side and u.name != me.name and not u.out_of_action]
            view.enemies(me).clear()
            assert view.enemies(me) == [u for u in view.units if u.side != me.side and not u.out_of_action]
            asked += 1
        me = view.units[0]
        view.enemies(me)
        fewer = object.__new__(type(view))
        fewer.__dict__.update(view.__dict__)
        fewer.__dict__.update(units=tuple(u for u in view.units if u.side == me.side))
        assert fewer.enemies(me) == [] and dataclasses.replace(view, units=()).friends(me) == []
    assert asked > 100


def test_kept_dangers_equal_the_best_hit_chance_worked_out_afresh() -> None:
    """`scoring.danger` reads each (enemy, friend) hit chance kept by the two views: at every decision of a battle
    every enemy's danger is the best `hit_probability` on the unit and its friends, asked afresh."""
    from skirmish.ai.estimate import hit_probability
    from skirmish.ai.utility.scoring import danger

    asked = 0
    for _, b, req in played("depot_breach.yaml", 5, 120):
        view = b.observe(req.side)
        me = view.unit(req.unit)
        for t in view.enemies(me):
            fresh = max((hit_probability(view, t, f)[0] for f in [me, *view.friends(me)]), default=0.0) \
                if t.weapon is not None else 0.0
            assert danger(view, t, me) == fresh
            asked += 1
    assert asked > 200


def test_kept_shot_estimates_equal_the_estimates_worked_out_afresh() -> None:
    """`estimate_shot` keeps its answers by everything it reads: asked again (from the kept answers) it is equal to
    the estimate worked out with nothing kept, for every pair of units, mode, burst and movement of real battles
    (moved units included, as the AIs weigh them)."""
    from skirmish.ai import estimate

    def afresh(*args, **kw):  # type: ignore[no-untyped-def]
        kept = (dict(estimate._shots_kept), dict(estimate._hits_kept), dict(estimate._per_hit_kept))
        for d in (estimate._shots_kept, estimate._hits_kept, estimate._per_hit_kept):
            d.clear()
        try:
            return estimate.estimate_shot(*args, **kw)
        finally:
            for d, old in zip((estimate._shots_kept, estimate._hits_kept, estimate._per_hit_kept), kept, strict=True):
                d.clear()
                d.update(old)

    asked = hits = 0
    for step, b, req in played("depot_breach.yaml", 6, 90):
        if step % 3:
            continue
        view = b.observe(req.side)
        me = view.unit(req.unit)
        elsewhere = [replaced(me, cell=f.cell, aim=0) for f in view.friends(me)[:1]]  # as if moved there
        for t in view.enemies(me):
            for shooter in (me, replaced(me, aim=1, ready_target=t.name), *elsewhere):
                for mode, burst, moved in (("prepared", 0, "none"), ("snap", 3, "walked"), ("aimed", 0, "ran")):
                    kw = {"mode": mode, "burst": burst, "moved": moved}
                    first = estimate.estimate_shot(view, shooter, t, **kw)
                    again = estimate.estimate_shot(view, shooter, t, **kw)
                    assert first == again == afresh(view, shooter, t, **kw)
                    hits += again is first
                    asked += 1
    assert asked > 200 and hits > 0
