"""Issue 15 item 1: the AIs read the objectives from their side's view and play them: in a seeded battle a side
told to hold a zone away from the enemy takes it (Future Imperfect's utility AI and Future*World's), where the
same side without the objective never goes there; a trigger's orders and personality reach the AI."""

from __future__ import annotations

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.ai.utility.intent import ai_personality, objective_goals, side_intent
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario

ROWS = ["................", "................", "................", "................", "................",
        "................", "............####", "............#...", "............#...", "............#..."]
RELAY = {(x, y) for x in range(1, 4) for y in range(7, 10)}
UNIT = {"fi": "traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}, "
              "weapons: [blast_carbine]",
        "fw": "characteristics: {STR: 12, CON: 12, SIZ: 11, INT: 12, POW: 13, DEX: 15}, skills: {rifle: 60}, "
              "weapons: [heavy_rifle]"}


def text(ruleset: str, objectives: str, extra: str = "") -> str:
    u = UNIT[ruleset]
    return f"""name: hold test
ruleset: {ruleset}
seed: 7
map: {{ascii: {ROWS!r}}}
victory: {{max_rounds: 6}}
zones: {{relay: {{rect: [1, 7, 3, 9]}}}}
{extra}sides:
  - name: Blue
    controller: ai
    ai: utility
    objectives: {objectives}
    units: [{{name: B1, at: [1, 1], {u}}}, {{name: B2, at: [2, 1], {u}}}]
  - name: Red
    controller: idle
    units: [{{name: R1, at: [14, 8], {u}}}]
"""


def played(ruleset: str, objectives: str, extra: str = "") -> tuple[Battle, list[set[tuple[int, int]]]]:
    sc = parse_scenario(text(ruleset, objectives, extra), "t.yaml")
    b = Battle(sc, controllers={s.name: make_controller(s.controller, s.orders, s.ai, ruleset)  # type: ignore[misc]
                                for s in sc.spec.sides})
    cells: list[set[tuple[int, int]]] = []
    b.hooks.add("round_end", lambda: cells.append({u.cell for u in b.view().units if u.side == "Blue"}))
    b.run()
    return b, cells


@pytest.mark.parametrize("ruleset", ["fi", "fw"])
def test_the_ai_takes_the_zone_it_is_told_to_hold(ruleset: str) -> None:
    _, free = played(ruleset, "[]")
    assert free and not any(c & RELAY for c in free)  # on its own it goes elsewhere
    b, told = played(ruleset, "[{kind: hold, zone: relay, rounds: 2}]")
    done = [e.to_json() for e in b.log.events if e.type == "objective"]
    assert [(e["objective"], e["state"]) for e in done] == [("Blue:hold", "done")]
    r = done[0]["round"]
    assert r <= 4 and told[r - 1] & RELAY and told[r - 2] & RELAY  # in the zone at the end of both rounds held
    decisions = [e.to_json() for e in b.log.events if e.type == "decision" and e.round == 1]
    assert any("hold relay" in (d.get("intent") or "") for d in decisions)  # named in the trace


def test_goals_come_from_the_view_and_orders_replace_them() -> None:
    extra = "triggers:\n  - when: {round: 1}\n    then: [{ai: {side: Blue, personality: cautious, orders: [kill R1]}}]\n"
    sc = parse_scenario(text("fi", "[{kind: hold, zone: relay}]", extra), "t.yaml")
    b = Battle(sc, controllers={s.name: make_controller(s.controller, s.orders, s.ai, "fi")  # type: ignore[misc]
                                for s in sc.spec.sides})
    view = b.observe("Blue")
    assert ai_personality(view, "Blue") == "cautious" and ai_personality(view, "Red") is None
    goals = objective_goals(view, "Blue")
    seen = view.find("R1")
    # the orders replace the hold; the kill goal is R1's cell as far as Blue's view holds it (fog stays fog)
    assert [g.why for g in goals] == ([] if seen is None else ["kill R1"])
    plain = parse_scenario(text("fi", "[{kind: hold, zone: relay}]"), "t.yaml")
    pb = Battle(plain, controllers={})
    pv = pb.observe("Blue")
    assert [(g.why, g.cell, g.pull) for g in objective_goals(pv, "Blue")] == [("hold relay", (2, 8), True)]
    intent = side_intent(pv, pv.unit("B1"), 0.5)
    assert intent.goals[0].why == "hold relay" and "towards hold relay at 2,8" in intent.text
