"""The shipped training scenarios (issue 15 "How it is shown"): scenarios/training/*.yaml load with their zones,
objectives and triggers, play the same events twice with a seed under their own AIs, and end with one of their
own objectives deciding; the hostage extraction's triggers walk the team to the engineer and out, and the
breach's deployment and doors work as its description says."""

from __future__ import annotations

import json
from typing import Any

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, Scenario, load_scenario
from skirmish.content.zones import objective_names

TRAINING = SCENARIOS_DIR / "training"
# a short seeded battle of each (its own AIs), for the twice-alike and deciding checks
SHORT = {"hostage_extraction.yaml": 12, "breach.yaml": 3, "hold_the_relay.yaml": 8}


def _load(name: str) -> Scenario:
    return load_scenario(TRAINING / name)


def _play(sc: Scenario, seed: int) -> tuple[Battle, list[dict[str, Any]]]:
    ctrl = {s.name: make_controller(s.controller, s.orders, s.ai, sc.spec.ruleset) for s in sc.spec.sides}
    with Battle(sc, seed=seed, controllers=ctrl) as b:
        b.run()
    return b, [json.loads(e.to_line()) for e in b.log.events]


def _of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def test_every_training_scenario_is_tested() -> None:
    assert sorted(p.name for p in TRAINING.glob("*.yaml")) == sorted(SHORT)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_training_scenario_loads_with_zones_objectives_and_triggers(name: str) -> None:
    sc = _load(name)
    spec = sc.spec
    assert spec.description and len(spec.description) > 200  # a trainer reads what it is for
    assert sc.zones and spec.triggers
    assert all(s.objectives for s in spec.sides)
    for zone in sc.zones.values():
        assert all(sc.grid.inside(c) for c in zone)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_training_scenario_plays_alike_twice_and_an_objective_decides(name: str) -> None:
    sc = _load(name)
    seed = SHORT[name]
    _, first = _play(sc, seed)
    _, second = _play(sc, seed)
    assert first == second
    result = _of(first, "result")[-1]
    names = {n for _, n, _ in objective_names(sc.spec)}
    assert result["objective"] in names
    assert result["winner"] in {s.name for s in sc.spec.sides}
    decided = [e for e in _of(first, "objective") if e["objective"] == result["objective"]]
    assert decided and decided[-1]["state"] == "done" and decided[-1]["side"] == result["winner"]


# the battles in which the team gets her out: seeds 24, 46, 72 of 1-120 with ship11's normal (extras, hesitation on the
# battle's salt; ladder9c's normal: 7 of 40); the first of these, then the rest of 1-120 in turn should the AI change
EXTRACTIONS = (24, 46, 72, *range(1, 121))


def _extraction(sc: Scenario) -> tuple[Battle, list[dict[str, Any]]]:
    """The first battle of EXTRACTIONS the team wins by getting the engineer out: the story is checked on it."""
    for seed in EXTRACTIONS:
        b, events = _play(sc, seed)
        if _of(events, "result")[-1].get("objective") == "engineer out":
            return b, events
    pytest.fail("the team gets the engineer out in no battle of seeds 1-120: the story no longer plays")


def test_hostage_extraction_team_blows_the_door_reaches_the_engineer_and_gets_her_out() -> None:
    sc = _load("hostage_extraction.yaml")
    door = sorted(sc.zones["door"])
    assert all(not sc.grid.passable(c) for c in door)  # barred until the breach
    b, events = _extraction(sc)
    fired = [e["trigger"] for e in _of(events, "scenario_trigger")]
    order = [t for i, t in enumerate(fired) if t not in fired[:i]]
    assert order[0] == "go in" and "breach" in order
    assert order.index("engineer reached") > order.index("breach")
    opened = next(e for e in _of(events, "scenario_trigger") if e["effect"] == "door")
    assert sorted(map(tuple, opened["cells"])) == door
    assert all(b.ctx.grid.passable(c) for c in door)
    result = _of(events, "result")[-1]
    assert (result["winner"], result["objective"]) == ("Team", "engineer out")
    assert result["extracted"] == {"Team": 1, "Guards": 0}
    # the team's orders went protect -> reach exit, and the engineer walked out through the west edge
    orders = [e["text"] for e in _of(events, "scenario_trigger") if e["effect"] == "ai" and "Team" in e["text"]]
    assert orders == ["Team's AI: orders reach breach", "Team's AI: orders protect Engineer",
                      "Team's AI: orders reach exit"]
    last = [e for e in events if e["type"] == "move" and e.get("actor") == "Engineer"][-1]
    assert tuple(last["path"][-1]) in sc.zones["exit"]


def test_breach_assault_deploys_in_staging_and_the_doors_open_on_their_triggers() -> None:
    sc = _load("breach.yaml")
    assault = next(s for s in sc.spec.sides if s.name == "Assault")
    assert assault.deployment == "staging"
    staging = set(sc.zones["staging"])
    assert all((u.at[0], u.at[1]) in staging for u in assault.units)
    front, side = sorted(sc.zones["front door"]), sorted(sc.zones["side door"])
    assert not any(sc.grid.passable(c) for c in front + side)
    _, events = _play(sc, 1)  # a battle that lasts past round 4 (seed 3 ends before round 5 since ladder9c)
    doors = {e["text"]: (e["round"], sorted(map(tuple, e["cells"])))
             for e in _of(events, "scenario_trigger") if e["effect"] == "door"}
    assert doors["side door opens"] == (4, side)  # on the clock (round 4 since retune10; it was 5)
    round_, cells = doors["front door opens"]  # when the section reached the charge point
    assert cells == front and round_ < 4  # the side door is the second way in, and comes late
    charge = set(sc.zones["charge"])
    entered = [e for e in events if e["type"] == "move" and e["round"] <= round_ and tuple(e["path"][-1]) in charge]
    assert entered and {e["actor"] for e in entered} <= {u.name for u in assault.units}
    arrived = next(e for e in _of(events, "scenario_trigger") if e["effect"] == "reinforce" and "units" in e)
    assert set(arrived["units"]) == {"Reserve-1", "Reserve-2"}


def test_breach_deployment_step_for_a_person() -> None:
    """On the board the assault places its own men: a `deploy` request per unit, only on staging's free cells."""
    from skirmish.ai.controllers import ScriptedController
    from skirmish.core.errors import IllegalAction
    from skirmish.rules.actions import EndTurn, Move

    sc = _load("breach.yaml")
    names = [u.name for u in sc.spec.sides[0].units]
    b = Battle(sc, seed=1, controllers={"Defenders": ScriptedController([])}, deploy=("Assault",))
    assert b.pending is not None and (b.pending.kind, b.pending.unit) == ("deploy", names[0])
    assert b.legal_actions(names[0]).walk <= set(sc.zones["staging"])
    with pytest.raises(IllegalAction, match="not a free cell of staging"):
        b.submit(Move(names[0], (10, 8)))  # the charge point is not in staging
    b.submit(Move(names[0], (0, 4)))
    for n in names:
        b.submit(EndTurn(n))
    assert b.pending is not None and b.pending.kind == "declare"
    assert b.view().unit(names[0]).cell == (0, 4)
    b.close()
