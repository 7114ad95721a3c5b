"""The utility AI and mounts (R-6.1; issue 14 item 6): on foot beside a bike with far to go, it mounts; riding near
the enemy, it dismounts to fight. Each from a hand-built battle's side view, the trace giving the reasons."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from skirmish.ai.utility.personality import PERSONALITIES
from skirmish.ai.utility.reasoner import UtilityAI
from tests.test_fi_mounts import battle, unit

WIDE = ["." * 60] * 3 + ["." * 30 + "#" * 3 + "." * 27] * 3 + ["." * 60] * 3


def _decide(b: Any) -> tuple[Any, dict[str, Any]]:
    view, req = b.observe("Blue"), b.pending
    # normal weighed on merit: no misjudging noise and every move cell in full (its rung's handicaps, docs/AI.md)
    ctrl = UtilityAI(replace(PERSONALITIES["normal"], runners_up=40, noise=0.0, top_moves=8))
    action, trace = ctrl.decide_traced(view, req)
    assert req.legal().allows(action), action
    assert b.check(action) is None
    return action, trace


def _names(trace: dict[str, Any]) -> list[str]:
    return [o["option"] for o in [trace["chosen"], *trace["runners_up"]]]


def test_far_from_the_enemy_it_mounts_the_bike(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: Bike-1, kind: bike, at: [2, 4]}]", [unit("Me", 1, 4)], [unit("Foe", 58, 4)],
               rows=WIDE)
    assert b.observe("Blue").mounts[0].name == "Bike-1"
    action, trace = _decide(b)
    assert str(action) == "mount Me mount=Bike-1", _names(trace)[:6]
    reasons = {c["name"]: c["input"] for c in trace["chosen"]["considerations"]}
    assert reasons["ground the mount saves"] > 0.5 and "shots at -2 from the saddle" in reasons


def test_near_the_enemy_on_foot_it_does_not_mount(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: Bike-1, kind: bike, at: [2, 4]}]", [unit("Me", 1, 4)], [unit("Foe", 9, 4)],
               rows=WIDE)
    action, trace = _decide(b)
    assert not str(action).startswith("mount"), _names(trace)[:6]
    assert "mount Bike-1" not in _names(trace)  # the bike saves less than the action it costs: not weighed


def test_riding_near_the_enemy_it_dismounts_to_fight(tmp_path: Path) -> None:
    """The enemy 14 cells off behind the wall: nothing to shoot now, and the fight is near enough that the −2 of
    every later shot outweighs the bike's pace (moves and waits in the saddle read it)."""
    b = battle(tmp_path, "[{name: Bike-1, kind: bike, at: [20, 4]}]", [unit("Me", 20, 4, ", mounted: true")],
               [unit("Foe", 34, 4)], rows=WIDE)
    action, trace = _decide(b)
    assert str(action).startswith("dismount Me to="), _names(trace)[:6]
    reasons = {c["name"]: c["input"] for c in trace["chosen"]["considerations"]}
    assert reasons["enemy near enough to fight"] > 0.5
    walks = [o for o in trace["runners_up"] if o["option"].startswith(("walk", "run"))]
    assert walks and all(any(c["name"] == "still in the saddle near the fight" for c in o["considerations"])
                         for o in walks)


def test_riding_far_from_the_enemy_it_stays_in_the_saddle(tmp_path: Path) -> None:
    b = battle(tmp_path, "[{name: Bike-1, kind: bike, at: [2, 4]}]", [unit("Me", 2, 4, ", mounted: true")],
               [unit("Foe", 58, 4)], rows=WIDE)
    action, trace = _decide(b)
    assert not str(action).startswith("dismount"), _names(trace)[:6]
