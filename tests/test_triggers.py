"""Issue 15 item 1: every trigger condition and effect in a small battle with scripted orders (docs/FILES.md
"Triggers"): round, enters/leaves (by side, once or every time), falls, casualties, objective; reinforce,
message, ai, door (every map reader sees the change), end; deployment by the AI rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.core.errors import IllegalAction
from skirmish.rules.actions import parse_action
from tests.objectives_helpers import battle, events, knock_out, play, result, scenario, unit

ZONES = ("zones:\n  relay: {rect: [3, 1, 4, 2]}\n  north: {rect: [7, 0, 9, 0]}\n  gate: {rect: [2, 0, 2, 3]}\n"
         "  west: {rect: [0, 0, 1, 3]}\n")


def fired(b: object) -> list[tuple[int, str, str]]:
    return [(e["round"], e["effect"], e["text"]) for e in events(b, "scenario_trigger")]  # type: ignore[arg-type]


def with_triggers(text: str) -> str:
    return ZONES + "triggers:\n" + text


def test_round_message_and_reinforcements(tmp_path: Path) -> None:
    extra = with_triggers(
        "  - name: wave\n    when: {round: 2}\n    then:\n"
        f"      - {{reinforce: {{side: Red, zone: north, units: [{unit('R2', 9, 0)}, {unit('R3', 9, 0)}]}}}}\n"
        "      - {message: the second wave}\n")
    b = play(battle(scenario(blue=[unit("B1", 0, 1)], red=[unit("R1", 9, 3)], extra=extra, rounds=3), tmp_path))
    # the round's triggers run first; the reinforcements they call arrive right after, before the declarations
    assert fired(b) == [(2, "message", "the second wave"), (2, "reinforce", "2 reinforcements for Red arrive at north")]
    arrive = next(e for e in events(b, "scenario_trigger") if e["effect"] == "reinforce")
    assert arrive["units"] == {"R2": [9, 0], "R3": [8, 0]}  # its own cell, then the nearest free one
    view = b.view()
    assert view.unit("R2").side == "Red" and view.unit("R3").cell == (8, 0)
    declared = {e.actor for e in b.log.events if e.type == "declare" and e.round == 2}
    assert {"R2", "R3"} <= declared  # they play from the round they arrive
    assert not [e for e in b.log.events if e.type == "declare" and e.round == 1 and e.actor in ("R2", "R3")]


def test_enters_by_side_once_and_every_time(tmp_path: Path) -> None:
    extra = with_triggers("  - when: {enters: relay, side: Blue}\n    then: [{message: blue in}]\n"
                          "  - when: {enters: relay, side: Red}\n    then: [{message: red in}]\n"
                          "  - when: {leaves: relay}\n    once: false\n    then: [{message: out}]\n"
                          "  - when: {enters: relay}\n    once: false\n    then: [{message: again}]\n")
    orders = ["move B1 to=3,1", "end B1", "move B1 to=1,1", "end B1", "move B1 to=3,2"]
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 9, 3)], blue_orders=orders, extra=extra),
                    tmp_path))
    assert [t for _, _, t in fired(b)] == ["blue in", "again", "out", "again"]
    rounds = [r for r, _, _ in fired(b)]
    assert rounds == sorted(rounds) and rounds[0] == 1


def test_falls_and_casualties(tmp_path: Path) -> None:
    extra = with_triggers("  - when: {falls: R1}\n    then: [{message: R1 down}]\n"
                          "  - when: {casualties: {side: Red, at_least: 2}}\n    then: [{end: {winner: Blue, "
                          "reason: Red broke}}]\n")
    b = battle(scenario(blue=[unit("B1", 0, 1)], red=[unit("R1", 9, 3), unit("R2", 9, 0), unit("R3", 8, 3)],
                        extra=extra), tmp_path)
    play(b, lambda b: knock_out(b, "R1"), when=(1, "B1"))
    assert fired(b) == [(1, "message", "R1 down")]
    two = battle(scenario(blue=[unit("B1", 0, 1)], red=[unit("R1", 9, 3), unit("R2", 9, 0), unit("R3", 8, 3)],
                          extra=extra), tmp_path)
    play(two, lambda b: (knock_out(b, "R1"), knock_out(b, "R2")), when=(2, "B1"))
    assert fired(two) == [(2, "message", "R1 down"), (2, "end", "Red broke")]
    r = result(two)
    assert (r["winner"], r["rounds"], r["reason"], r["casualties"]) == ("Blue", 2, "Red broke", {"Blue": 0, "Red": 2})


def test_objective_trigger_ends_in_a_draw(tmp_path: Path) -> None:
    extra = with_triggers("  - when: {objective: there}\n    then: [{end: {winner: draw, reason: truce}}]\n")
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 9, 3)], blue_orders=["move B1 to=3,1"],
                             blue_obj="[{kind: reach, zone: relay, name: there}]", extra=extra), tmp_path))
    assert fired(b) == [(1, "end", "truce")]
    r = result(b)
    assert (r["winner"], r["rounds"], r["reason"]) == (None, 1, "truce")


def test_door_closes_and_opens_for_every_map_reader(tmp_path: Path) -> None:
    extra = with_triggers("  - when: {round: 2}\n    then: [{door: {zone: gate, open: false}}]\n"
                          "  - when: {round: 3}\n    then: [{door: {zone: gate, open: true}}]\n")
    b = battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 9, 3)], extra=extra), tmp_path)
    first = b.view().grid
    while b.pending is not None and not (b.ctx.round == 2 and b.pending.kind == "act"):
        b.step()
    grid = b.view().grid
    assert grid is not first and all(not grid.passable((2, y)) and grid.blocks_sight[y, 2] for y in range(4))
    assert b.observe("Blue").grid is grid and b.ctx.nav.route((1, 1), (3, 1)) == []  # walled off
    assert fired(b) == [(2, "door", "gate closes")]
    if b.pending.unit == "B1":
        with pytest.raises(IllegalAction):
            b.submit(parse_action("move B1 to=3,1"))
    while b.pending is not None and b.ctx.round < 3:
        b.step()
    grid3 = b.view().grid
    assert all(grid3.passable((2, y)) and not grid3.blocks_sight[y, 2] for y in range(4))
    assert b.ctx.nav.route((1, 1), (3, 1)) != []
    assert grid3.tiles[grid3.layout[1, 2]].name == "door"


def test_ai_switch_is_in_that_sides_view_only(tmp_path: Path) -> None:
    extra = with_triggers("  - when: {round: 2}\n    then: [{ai: {side: Red, personality: aggressive, "
                          "orders: [hold relay, kill B1]}}]\n")
    b = battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 9, 3)], extra=extra), tmp_path)
    assert b.observe("Red").ai_orders == ()
    while b.pending is not None and b.ctx.round < 2:
        b.step()
    assert b.observe("Red").ai_orders == (("Red", "aggressive", ("hold relay", "kill B1")),)
    assert b.observe("Blue").ai_orders == ()
    assert fired(b) == [(2, "ai", "Red's AI: personality aggressive; orders hold relay, kill B1")]


def test_ai_deployment_keeps_inside_cells_and_fills_the_nearest(tmp_path: Path) -> None:
    text = scenario(blue=[unit("B1", 1, 1), unit("B2", 6, 1), unit("B3", 9, 3)], red=[unit("R1", 9, 0)], extra=ZONES)
    text = text.replace("  - name: Blue\n", "  - name: Blue\n    deployment: west\n")
    b = battle(text, tmp_path)
    cells = {u.name: u.cell for u in b.view().units}
    assert cells["B1"] == (1, 1)  # inside: kept
    assert cells["B2"] == (1, 0)  # nearest free cell of west to (6, 1): (1, 1) is taken; (1, 0) before (1, 2)
    assert cells["B3"] == (1, 3)
    assert cells["R1"] == (9, 0)


def test_a_side_with_reinforcements_due_is_not_out(tmp_path: Path) -> None:
    extra = with_triggers(f"  - when: {{round: 3}}\n    then: [{{reinforce: {{side: Red, zone: north, units: "
                          f"[{unit('R2', 9, 0)}]}}}}]\n")
    b = battle(scenario(blue=[unit("B1", 0, 1)], red=[unit("R1", 9, 3)], extra=extra, rounds=4), tmp_path)
    play(b, lambda b: knock_out(b, "R1"), when=(1, "B1"))
    assert fired(b) == [(3, "reinforce", "1 reinforcements for Red arrive at north")]
    r = result(b)
    assert (r["winner"], r["rounds"], r["reason"]) == (None, 4, "round limit")  # Red came back and stood
    gone = battle(scenario(blue=[unit("B1", 0, 1)], red=[unit("R1", 9, 3)], extra=ZONES, rounds=4), tmp_path)
    play(gone, lambda b: knock_out(b, "R1"), when=(1, "B1"))
    assert (result(gone)["winner"], result(gone)["rounds"]) == ("Blue", 1)


def test_the_training_scenario_plays_alike_twice() -> None:
    from skirmish.ai.controllers import make_controller
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

    sc = load_scenario(SCENARIOS_DIR / "training" / "hold_the_relay.yaml")
    logs = []
    for _ in range(2):
        b = Battle(sc, seed=1, controllers={s.name: make_controller(s.controller, s.orders, s.ai, "fi")  # type: ignore[misc]
                                            for s in sc.spec.sides})
        b.run()
        logs.append([e.to_line() for e in b.log.events])
    assert logs[0] == logs[1]
    types = {line.split('"type":"')[1].split('"')[0] for line in logs[0]}
    assert {"objective", "scenario_trigger", "result"} <= types
