"""Session 14's shortcuts in the search model's replies and the utility AI's threat (issue 12 item 6: the cost per
unit-action as the battle grows) answer exactly as the plain statements do, on the views real battles give: an
enemy with no line of sight to a cell or a friend adds what its full reply would (`Replies.against`, `Replies.of`),
a shot kept per state of our unit is the shot asked again, the ghosts' presence read from the map's codes, and a
target's danger asked only on the friends it can see. Equal with ==: the totals must be the same floats."""

from __future__ import annotations

from typing import Any

import pytest

from skirmish.ai.search import model
from skirmish.ai.utility import options, scoring
from tests.conftest import played


def plain_against(r: model.Replies, moved: Any, spared: dict[str, float], pins: frozenset[str]) -> tuple[float, float]:
    """`Replies.against` as it read before session 14: every enemy's shot asked."""
    total, survive = 0.0, 1.0
    for e in r.enemies:
        weight, n = spared.get(e.name, 1.0) * r.present[e.name], r.turns.get(e.name, 1.0)
        if weight <= 0 or n <= 0:
            continue
        est = model._reply_shot(r.view, e, moved)
        if est.hit <= 0 and r.closing > 0:
            est = r._closing(e, moved)
        base = r.base[e.name]
        if e.name in pins or e.name in r.pinned:
            est = model.scaled(est, model.pinned_hit(e, est))
            base *= model.pin_ratio(r.view, e, r.view.friends(r.me)) if e.name not in r.pinned else 1.0
        if e.melee is not None and e.melee.carried:
            est = model._melee_reply(r.view, e, moved, est)
        on_me = model.material(est, moved)
        total += n * weight * max(base, on_me)
        if on_me >= base:
            survive *= (1 - weight * est.kill) ** n
    return total, survive


def plain_presence(view: Any, me: Any, w: model.Weights) -> dict[str, float]:
    ours = [me, *view.friends(me)]
    return {e.name: 1.0 if not e.ghost else 0.0 if any(view.sight(f, e).visible for f in ours) else w.ghost
            for e in view.enemies(me)}


def plain_base(view: Any, me: Any, r: model.Replies) -> dict[str, float]:
    friends = view.friends(me)
    return {e.name: max((model._reply_material(view, e, f) for f in friends), default=0.0) for e in r.enemies}


def plain_danger(view: Any, t: Any, me: Any) -> float:
    best = 0.0
    for f in [me, *view.friends(me)]:
        if t.weapon is None:
            break
        best = max(best, scoring._hit_on(view, t, f))
    return best


@pytest.mark.parametrize("name,seed,skips", [("depot_breach.yaml", 3, True), ("fi/killhouse_hands.yaml", 2, False),
                                             ("canal_crossing.yaml", 5, True)])
def test_replies_presence_and_danger_equal_the_plain_statements(monkeypatch: pytest.MonkeyPatch, name: str,
                                                                 seed: int, skips: bool) -> None:
    """(killhouse_hands: blows, which need no line of sight, so no shortcut: the full path throughout.)"""
    real_against, real_of, real_danger = model.Replies.against, model.Replies.of, options.Situation.danger
    counts = {"against": 0, "skipped": 0, "kept": 0, "ghosts": 0, "danger": 0, "unseen": 0}

    def against(self: model.Replies, moved: Any, spared: dict[str, float], pins: frozenset[str] = frozenset()
                ) -> tuple[float, float]:
        kept_before = self._shots.get(model._state(moved))
        got = real_against(self, moved, spared, pins)
        assert got == plain_against(self, moved, spared, pins)
        counts["against"] += 1
        counts["skipped"] += self._sees[moved.cell].count(False)
        counts["kept"] += kept_before is not None
        return got

    def of(view: Any, me: Any, w: model.Weights | None = None) -> model.Replies:
        r = real_of(view, me, w)
        assert r.present == plain_presence(view, me, w or model.Weights())
        assert r.base == plain_base(view, me, r)
        counts["ghosts"] += sum(e.ghost for e in view.enemies(me))
        return r

    def danger(self: options.Situation, t: Any) -> float:
        got = real_danger(self, t)
        assert got == plain_danger(self.view, t, self.me)
        counts["danger"] += 1
        counts["unseen"] += self.kept["sees"][(t.name, t.cell)].count(False)
        return got

    monkeypatch.setattr(model.Replies, "against", against)
    monkeypatch.setattr(model.Replies, "of", staticmethod(of))
    monkeypatch.setattr(options.Situation, "danger", danger)
    for _ in played(name, seed, 250):
        pass
    assert counts["against"] >= 30 and counts["kept"] >= 10 and counts["danger"] >= 30, counts
    print(name, counts)
    if skips:  # the shortcuts were taken
        assert counts["skipped"] >= 10 and counts["unseen"] >= 10, counts


def test_replies_with_closing_order_and_covering_fire_equal_the_plain_statement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search tier's weights (a walk nearer, the turn order, covering fire's pins): the full path where the
    shortcut does not hold."""
    from skirmish.ai.search.controller import SearchAI

    real_against = model.Replies.against
    seen = {"against": 0, "closing": 0}

    def against(self: model.Replies, moved: Any, spared: dict[str, float], pins: frozenset[str] = frozenset()
                ) -> tuple[float, float]:
        got = real_against(self, moved, spared, pins)
        assert got == plain_against(self, moved, spared, pins)
        seen["against"] += 1
        seen["closing"] += self.closing > 0
        return got

    monkeypatch.setattr(model.Replies, "against", against)
    for _ in played("depot_breach.yaml", 2, 120, ai=SearchAI()):
        pass
    assert seen["against"] >= 20, seen
