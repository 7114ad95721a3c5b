"""The AI's shared estimate reads the firer's own "mounted −2" (R-6.1; docs/RULES-NOTES.md "Mounts"): a rider's shot
weighed from its side's view takes the −2 the battle gives it, and so do its throw's and launch's landing
distributions (the utility AI's plan and the search tier's material); a figure on foot is as it was."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from skirmish.ai.blast import plan_throws
from skirmish.ai.estimate import estimate_shot, hit_probability
from skirmish.ai.search.model import Weights
from skirmish.ai.search.throwing import launch_material, throw_material
from skirmish.ai.utility.ranged_extra import launch_spread
from skirmish.ecs.systems.fi import launched
from skirmish.rules.actions import Launch, Shoot, Throw
from tests.test_fi_mounts import T, battle, unit

BIKE = "[{name: Bike-1, kind: bike, at: [2, 2]}]"
APART = "[{name: Bike-1, kind: bike, at: [2, 4]}]"  # the figure on foot at 2,2 beside it
MOUNTED = "firer mounted (R-6.1)"


@pytest.mark.parametrize("rides", [True, False])
def test_a_riders_shot_is_estimated_with_its_minus_two(tmp_path: Path, rides: bool) -> None:
    b = battle(tmp_path, BIKE if rides else APART, [unit("Me", 2, 2, ", mounted: true" if rides else "")],
               [unit("Foe", 12, 2)])
    view = b.observe(b.pending.side)  # type: ignore[union-attr]
    me, foe = view.unit("Me"), view.unit("Foe")
    setup, _, _ = b.sys.shot_setup(b.world.entity("Me"), Shoot("Me", "Foe", mode="prepared"))
    battle_mod = sum(m.value for m in setup.result_mods)
    assert any(m.reason == MOUNTED for m in setup.result_mods) is rides
    est = estimate_shot(view, me, foe, mode="prepared")
    assert (est.tn, est.modifier) == (setup.tn, battle_mod)
    assert hit_probability(view, me, foe, mode="prepared")[1:] == (setup.tn, battle_mod)
    b.close()


def test_a_riders_throw_and_launch_are_weighed_with_the_minus_two(tmp_path: Path) -> None:
    """The same figure in the saddle and on foot, its foes bunched 16-18 m off: from the saddle (where the battle
    gives the throw and the launch −2) the utility AI's throw plan and launch spread and the search tier's
    material cover the aimed cell less often."""
    kit = ("{name: Me, at: [2, 2], traits: " + T + ", weapons: [grenade_launcher, {weapon: frag_grenade, ammo: 2}], "
           "skills: {'shooting:launcher': 3, 'throwing': 3}")
    seen = {}
    for rides in (True, False):
        b = battle(tmp_path, BIKE if rides else APART, [kit + (", mounted: true}" if rides else "}")],
                   [unit("Foe", 10, 2), unit("Foe2", 11, 2)])
        eid = b.world.entity("Me")
        view = b.observe(b.pending.side)  # type: ignore[union-attr]
        me = view.unit("Me")
        w = me.weapon
        assert w is not None and w.launched
        grenade = me.throwables[0][0]
        throw, launch = Throw("Me", (10, 2), item=grenade.id), Launch("Me", (10, 2))
        assert any(m.reason == MOUNTED for m in b.sys.throw_setup(eid, throw).result_mods) is rides
        assert any(m.reason == MOUNTED for m in launched.launch_setup(b.sys, eid, launch).result_mods) is rides
        present = {"Foe": 1.0, "Foe2": 1.0}
        seen[rides] = (float(plan_throws(view, me, grenade, [(10, 2)]).covers[0]),
                       launch_spread(SimpleNamespace(me=me, view=view))(16.0).covers(w.blast_m),  # type: ignore[arg-type]
                       throw_material(view, me, throw, Weights(), present)[0],
                       launch_material(view, me, launch, Weights(), present)[0])
        b.close()
    assert all(r < f for r, f in zip(seen[True], seen[False], strict=True)), seen
