"""Issue 15, a second reading of objectives and triggers where they meet the rulesets, the AIs and the board:
an extracted figure has left (no bleeding, no First Aid brings it back), and more (each test says which)."""

from __future__ import annotations

from pathlib import Path

from tests.objectives_helpers import battle, events, play
from tests.test_objectives import FW_UNIT

FW_EXIT = """name: fw exit
ruleset: fw
seed: 5
map: {ascii: ['..........', '..........', '..........', '..........']}
victory: {max_rounds: 3}
zones: {exit: {rect: [9, 0, 9, 3]}}
sides:
  - name: Blue
    controller: scripted
    orders: %s
    objectives: [{kind: extract, zone: exit, points: 2}]
    units: [%s, %s]
  - name: Red
    controller: scripted
    units: [%s]
"""
MEDIC = FW_UNIT.replace("weapons: [heavy_rifle]", "skills: {first_aid: 90}, weapons: [heavy_rifle], medikit: true")



def test_an_extracted_figure_neither_bleeds_nor_is_aided_back(tmp_path: Path) -> None:
    """fw: a figure that left through the exit is not lying unconscious on the map: the bookkeeping does not
    bleed it (R-9.7), and a friend's First Aid may not stand it up again (it would act after leaving)."""
    orders = ["intent Ash none", "intent Bo none", "move Ash 9,1", "end Bo", "intent Bo aid target=Ash"]
    b = play(battle(FW_EXIT % (orders, FW_UNIT % ("Ash", 8, 1), MEDIC % ("Bo", 8, 2), FW_UNIT % ("Rook", 0, 3)),
                    tmp_path))
    assert [(e["objective"], e["round"]) for e in events(b, "objective")] == [("Blue:extract", 1)]
    assert [e for e in events(b, "fw_bleed") if e["actor"] == "Ash"] == []
    assert events(b, "fw_aid") == []
    refused = [e["reason"] for e in events(b, "refused") if e["actor"] == "Bo" and "aid" in e["action"]]
    assert refused == ["R-9.7: Ash has left the battle"]
    assert b.view().unit("Ash").out_of_action and events(b, "result")[-1]["casualties"] == {"Blue": 0, "Red": 0}
