"""Speed session 10 (speedeng10b), the battle's own work per answer, each shortcut held equal to the plain statement
on real battles:

- a legal list lists covering fire's bursts (R-6.12) from the shots' firer checks (R-6.3, R-5.3-R-5.5): the same
  bursts as covering.firer_check asked itself;
- `Knowledge.update` keeps a side's `seen` object while it sees the same enemies (R-6.1): a side's view patched
  from its last one is the view made afresh.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.ecs.systems.fi import covering, legality, ranged_legal

PATHS = ["depot_breach.yaml", "fi/gunslingers.yaml", "fi/boarding_action.yaml", "crossroads_patrol.yaml"]


def _battle(path: str, seed: int, ai: str = "utility") -> Battle:
    sc = load_scenario(SCENARIOS_DIR / path)
    return Battle(sc, seed=seed, controllers={s.name: make_ai(ai, sc.spec.ruleset) for s in sc.spec.sides})


def _act_requests(b: Battle, answers: int) -> Iterator[int]:
    """Play `b`, yielding the entity of each pending act request (before it is answered)."""
    for _ in range(answers):
        req = b.pending
        if req is None:
            return
        if req.kind == "act":
            yield b.world.entity(req.unit)
        if not b.step():
            return


def _everything(legal: object) -> dict[str, object]:
    """Every field of a legal list, the lazy parts read (cell_ok aside: a function)."""
    return {k: (tuple(v) if k in ("screens", "melee", "offhand") else v)
            for k, v in vars(legal).items() if k != "cell_ok"}


@pytest.mark.parametrize("path", PATHS)
def test_covers_from_the_shots_firer_checks_are_covering_fires_own(path: str) -> None:
    lists = covers = 0
    with _battle(path, 3) as b:
        for eid in _act_requests(b, 250):
            legal = legality.turn_actions(b.sys, eid)
            me = b.pending.unit  # type: ignore[union-attr]
            asked = ranged_legal.listed(b.sys, eid, me, list(legal.shots))  # covering.firer_check asked itself
            assert asked.get("covers", ()) == legal.covers
            assert all(covering.firer_check(b.sys, eid, burst) for burst in legal.covers)
            lists += 1
            covers += bool(legal.covers)
    assert lists > 20 and covers > 5  # real lists, with covering fire among them


@pytest.mark.parametrize("ai", ["hold", "utility"])
def test_a_side_view_patched_from_the_last_is_the_view_made_afresh(ai: str) -> None:
    kept = 0
    with _battle("depot_breach.yaml", 5, ai) as b:
        k = b.knowledge
        for _ in range(300):
            req = b.pending
            if req is None:
                break
            before = k.seen[req.side]
            view = b.observe(req.side)
            k._observed.clear()
            k._enemy_views.clear()
            assert b.observe(req.side).units == view.units
            b.step()
            kept += k.seen[req.side] is before
            assert k.seen[req.side] is before or k.seen[req.side] != before  # the same enemies: the same object
    assert kept > 50
