"""Issue 15 item 1: every objective kind in a small battle with scripted orders (docs/FILES.md "Zones,
objectives, triggers and deployment"): when each is done or failed, points, `wins`/`loses`, the result naming
the objective that decided it, extraction, fog (a side never learns the others' progress), determinism, fw."""

from __future__ import annotations

from pathlib import Path

from tests.objectives_helpers import battle, events, knock_out, play, result, scenario, unit

RELAY = "zones:\n  relay: {rect: [3, 1, 4, 2]}\n  exit: {rect: [9, 0, 9, 3]}\n"


def states(b: object) -> list[tuple[str, str, int]]:
    return [(e["objective"], e["state"], e["round"]) for e in events(b, "objective")]  # type: ignore[arg-type]


def test_hold_for_rounds_wins_at_once(tmp_path: Path) -> None:
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_orders=["move B1 to=3,1"],
                             blue_obj="[{kind: hold, zone: relay, rounds: 2, wins: true, points: 5}]", extra=RELAY),
                    tmp_path))
    assert states(b) == [("Blue:hold", "done", 2)]
    r = result(b)
    assert (r["winner"], r["rounds"], r["objective"], r["points"]) == ("Blue", 2, "Blue:hold", {"Blue": 5, "Red": 0})
    assert r["reason"].startswith("objective Blue:hold done: held relay for 2 rounds")
    assert b.outcome is not None and b.outcome.summary() == "result: winner=Blue rounds=2 seed=3"  # C-1 unchanged


def test_an_enemy_in_the_zone_breaks_the_hold(tmp_path: Path) -> None:
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 6, 2)], blue_orders=["move B1 to=3,1"],
                             red_orders=["move R1 to=4,2"], rounds=3,
                             blue_obj="[{kind: hold, zone: relay, rounds: 1}]", extra=RELAY), tmp_path))
    assert states(b) == [("Blue:hold", "failed", 3)]  # never held alone; failed when the battle ended
    assert result(b)["winner"] is None and result(b)["points"] == {"Blue": 0, "Red": 0}


def test_hold_at_end_is_judged_when_the_battle_ends(tmp_path: Path) -> None:
    obj = "[{kind: hold, zone: relay, at_end: true, points: 2}]"
    held = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_orders=["move B1 to=3,1"],
                                blue_obj=obj, extra=RELAY, rounds=3), tmp_path))
    assert states(held) == [("Blue:hold", "done", 3)]
    assert result(held)["winner"] == "Blue" and result(held)["objective"] == "Blue:hold"
    away = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_obj=obj, extra=RELAY,
                                rounds=3), tmp_path))
    assert states(away) == [("Blue:hold", "failed", 3)]


def test_reach_all_needs_every_unit(tmp_path: Path) -> None:
    obj = "[{kind: reach, zone: relay, units: all, wins: true}]"
    one = play(battle(scenario(blue=[unit("B1", 1, 1), unit("B2", 1, 2)], red=[unit("R1", 8, 3)],
                               blue_orders=["move B1 to=3,1"], blue_obj=obj, extra=RELAY, rounds=2), tmp_path))
    assert states(one) == [("Blue:reach", "failed", 2)]
    both = play(battle(scenario(blue=[unit("B1", 1, 1), unit("B2", 1, 2)], red=[unit("R1", 8, 3)],
                                blue_orders=["move B1 to=3,1", "move B2 to=3,2"], blue_obj=obj, extra=RELAY), tmp_path))
    assert states(both) == [("Blue:reach", "done", 1)]
    assert result(both)["winner"] == "Blue" and result(both)["rounds"] == 1


def test_reach_fails_when_too_few_are_left(tmp_path: Path) -> None:
    b = battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_obj="[{kind: reach, zone: relay}]",
                        extra=RELAY), tmp_path)
    play(b, lambda b: knock_out(b, "B1"), when=(1, "R1"))
    assert states(b)[0] == ("Blue:reach", "failed", 1)


def test_extraction_takes_units_out_not_as_casualties(tmp_path: Path) -> None:
    b = play(battle(scenario(blue=[unit("B1", 7, 1)], red=[unit("R1", 0, 3)], blue_orders=["move B1 to=9,1"],
                             blue_obj="[{kind: extract, zone: exit, points: 4}]", extra=RELAY), tmp_path))
    assert states(b) == [("Blue:extract", "done", 1)]
    r = result(b)
    # Blue has nobody left on the board: the battle ends, and the points decide (not "nobody left standing")
    assert (r["winner"], r["rounds"], r["casualties"], r["extracted"]) == ("Blue", 1, {"Blue": 0, "Red": 0},
                                                                           {"Blue": 1, "Red": 0})
    assert r["objective"] == "Blue:extract" and "points Blue 4, Red 0" in r["reason"]
    assert b.view().unit("B1").out_of_action


def test_survive_done_after_its_rounds_and_failed_when_down(tmp_path: Path) -> None:
    text = scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_obj="[{kind: survive, rounds: 2}]",
                    red_obj="[{kind: survive, rounds: 9, name: outlast}]", extra=RELAY, rounds=3)
    b = play(battle(text, tmp_path))
    assert states(b) == [("Blue:survive", "done", 2), ("outlast", "done", 3)]  # at the end: still standing
    down = battle(text, tmp_path)
    play(down, lambda b: knock_out(b, "B1"), when=(1, "R1"))
    assert states(down)[0] == ("Blue:survive", "failed", 1)


def test_protect_loses_at_once_and_kill_wins(tmp_path: Path) -> None:
    text = scenario(blue=[unit("B1", 1, 1), unit("Medic", 1, 2)], red=[unit("R1", 8, 3)], extra=RELAY,
                    blue_obj="[{kind: protect, unit: Medic, loses: true}]", red_obj="[{kind: kill, unit: Medic}]")
    b = battle(text, tmp_path)
    play(b, lambda b: knock_out(b, "Medic"), when=(2, "R1"))
    assert states(b) == [("Blue:protect", "failed", 2)]  # the loss ends it before Red:kill is looked at
    r = result(b)
    assert (r["winner"], r["rounds"], r["objective"]) == ("Red", 2, "Blue:protect")
    safe = play(battle(text, tmp_path))
    assert states(safe) == [("Blue:protect", "done", 4), ("Red:kill", "failed", 4)]
    assert result(safe)["winner"] == "Blue"


def test_kill_and_eliminate(tmp_path: Path) -> None:
    text = scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3), unit("R2", 8, 0)], extra=RELAY,
                    blue_obj="[{kind: kill, unit: R2, points: 2}, {kind: eliminate, points: 3}]")
    b = battle(text, tmp_path)
    play(b, lambda b: knock_out(b, "R2"), when=(1, "B1"))
    assert states(b)[0] == ("Blue:kill", "done", 1)
    both = battle(text, tmp_path)
    play(both, lambda b: (knock_out(b, "R1"), knock_out(b, "R2")), when=(2, "B1"))
    assert states(both) == [("Blue:kill", "done", 2), ("Blue:eliminate", "done", 2)]
    r = result(both)
    assert (r["winner"], r["points"], r["objective"]) == ("Blue", {"Blue": 5, "Red": 0}, "Blue:eliminate")


def test_a_side_sees_only_its_own_progress(tmp_path: Path) -> None:
    """Fog: Red's view of Blue's hold says neither how long Blue has held it nor anything an open state would
    not; Blue's own view does. Done and failed are announced in the log, so every side knows them."""
    b = battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_orders=["move B1 to=3,1"],
                        blue_obj="[{kind: hold, zone: relay, rounds: 3}]", extra=RELAY), tmp_path)
    while b.pending is not None and b.ctx.round < 3:
        b.step()
    mine = b.observe("Blue").objectives[0]
    theirs = b.observe("Red").objectives[0]
    assert (mine.name, mine.state, mine.progress) == ("Blue:hold", "open", 2)
    assert (theirs.name, theirs.state, theirs.progress) == ("Blue:hold", "open", None)
    assert b.view().objectives[0].progress == 2
    assert dict(b.observe("Red").zones)["relay"] == ((3, 1), (4, 1), (3, 2), (4, 2))
    seen_by_red = {u.name for u in b.observe("Red").units}
    assert b.observe("Red").objectives == tuple(o for o in b.observe("Red").objectives if o.progress is None)
    assert "B1" in {u.name for u in b.view().units} and seen_by_red <= {u.name for u in b.view().units}


def test_same_scenario_and_seed_same_events(tmp_path: Path) -> None:
    text = scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], blue_orders=["move B1 to=3,1"], extra=RELAY,
                    blue_obj="[{kind: hold, zone: relay, rounds: 2}]", red_obj="[{kind: survive, rounds: 2}]")
    one = [e.to_line() for e in play(battle(text, tmp_path)).log.events]
    two = [e.to_line() for e in play(battle(text, tmp_path)).log.events]
    assert one == two and any('"type":"objective"' in line for line in one)


FW = """name: fw relay
ruleset: fw
seed: 5
map: {ascii: ['..........', '..........', '..........', '..........']}
victory: {max_rounds: 3}
zones: {relay: {rect: [3, 1, 4, 2]}, north: {rect: [8, 0, 9, 0]}}
triggers:
  - when: {round: 2}
    then: [{reinforce: {side: Red, zone: north, units: [%s]}}]
sides:
  - name: Blue
    controller: scripted
    orders: ["intent Ash none", "move Ash 3,1"]
    objectives: [{kind: hold, zone: relay, rounds: 2, points: 2}]
    units: [%s]
  - name: Red
    controller: scripted
    units: [%s]
"""
FW_UNIT = ("{name: %s, at: [%d, %d], characteristics: {STR: 12, CON: 12, SIZ: 11, INT: 12, POW: 13, DEX: 15}, "
           "skills: {rifle: 60}, weapons: [heavy_rifle]}")


def test_future_world_holds_and_takes_reinforcements(tmp_path: Path) -> None:
    text = FW % (FW_UNIT % ("Reb", 8, 0), FW_UNIT % ("Ash", 1, 1), FW_UNIT % ("Rook", 9, 3))
    b = play(battle(text, tmp_path))
    assert [(e["effect"], e.get("units")) for e in events(b, "scenario_trigger")] == [("reinforce", {"Reb": [8, 0]})]
    assert b.view().unit("Reb").cell == (8, 0)
    assert states(b) == [("Blue:hold", "done", 2)]
    assert result(b)["winner"] == "Blue" and result(b)["objective"] == "Blue:hold"


def test_protecting_a_reinforcement_before_it_arrives(tmp_path: Path) -> None:
    extra = RELAY + ("  north: {rect: [8, 0, 9, 0]}\ntriggers:\n  - when: {round: 2}\n    then: [{reinforce: {side: Blue, "
                     f"zone: north, units: [{unit('Medic', 9, 0)}]}}}}]\n")
    b = play(battle(scenario(blue=[unit("B1", 1, 1)], red=[unit("R1", 8, 3)], extra=extra, rounds=3,
                             blue_obj="[{kind: protect, unit: Medic}]", red_obj="[{kind: kill, unit: Medic}]"),
                    tmp_path))
    assert states(b) == [("Blue:protect", "done", 3), ("Red:kill", "failed", 3)]
    assert b.view().unit("Medic").cell == (9, 0)
