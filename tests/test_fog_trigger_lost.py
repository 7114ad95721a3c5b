"""Fog of war in the board's log (skirmish.ui.fog.LogFog): a waiter's trigger set off out of its sight (R-5.7,
`trigger_lost`: it holds fire and keeps waiting) is nothing the mover's side saw — no contest, no shot — so the
line is not theirs to read. Nor is it the waiter's side's when none of it sees the mover: the line names the mover
and the cell it entered, which fog hides from them. When a friend of the waiter sees the mover, they read it."""

from __future__ import annotations

from pathlib import Path

from skirmish.battle import Battle
from skirmish.ui.fog import FogLayer, LogFog
from tests.test_rule_fixes import CORRIDOR, INIT, _battle, _unit

SIDES = {"Watch": "Alpha", "Eye": "Alpha", "Runner": "Beta"}


def _fogged(b: Battle) -> tuple[LogFog, int]:
    fog, layer = LogFog(0), FogLayer(b.scenario.grid)
    noted = 0
    while b.pending is not None:
        b.step()
        for i in range(noted, len(b.log.events)):
            fog.note(i, b.log.events[i], b.view(), b.knowledge.seen, layer)
        noted = len(b.log.events)
    [lost] = [i for i, e in enumerate(b.log.events) if e.type == "trigger_lost"]
    assert "out of sight" in b.log.events[lost].describe()
    assert b.log.events[lost].target == "Runner"
    return fog, lost


def test_a_trigger_lost_out_of_sight_is_hidden_from_both_sides_when_none_sees_the_mover(tmp_path: Path) -> None:
    waiter = _unit("Watch", (4, 0), "weapons: [blast_carbine], skills: {shooting:rifle: 3}")
    b = _battle(tmp_path, [INIT, INIT, INIT, INIT], f"[{waiter}]", f"[{_unit('Runner', (0, 2))}]",
                ["declare Watch normal", "wait Watch enemy_enters:1,2"], ["declare Runner normal", "move Runner 1,2"],
                rows=CORRIDOR, victory="{max_rounds: 1}")
    fog, lost = _fogged(b)
    assert lost in fog.hidden_for("Beta", b.log.events, SIDES)
    assert lost in fog.hidden_for("Alpha", b.log.events, SIDES)  # it would name an enemy Alpha cannot see
    assert lost not in fog.hidden_for(None, b.log.events, SIDES)  # the all-seeing log keeps it
    moved = next(i for i, e in enumerate(b.log.events) if e.type == "move")
    assert moved not in fog.hidden_for("Beta", b.log.events, SIDES)  # its own move stays
    b.close()


def test_the_waiters_side_reads_a_trigger_lost_when_a_friend_sees_the_mover(tmp_path: Path) -> None:
    waiter = _unit("Watch", (4, 0), "weapons: [blast_carbine], skills: {shooting:rifle: 3}")
    eye = _unit("Eye", (8, 2))
    b = _battle(tmp_path, [INIT] * 6, f"[{waiter}, {eye}]", f"[{_unit('Runner', (0, 2))}]",
                ["declare Watch normal", "declare Eye normal", "wait Watch enemy_enters:1,2"],
                ["declare Runner normal", "move Runner 1,2"], rows=CORRIDOR, victory="{max_rounds: 1}")
    fog, lost = _fogged(b)
    assert lost in fog.hidden_for("Beta", b.log.events, SIDES)
    assert lost not in fog.hidden_for("Alpha", b.log.events, SIDES)  # Eye sees the runner down the row
    b.close()
