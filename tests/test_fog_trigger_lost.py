"""Fog of war in the board's log (skirmish.ui.fog.LogFog): a waiter's trigger set off out of its sight (R-5.7,
`trigger_lost`: it holds fire and keeps waiting) is nothing the mover's side saw — no contest, no shot — so the
line is not theirs to read; it named the waiter, its trigger cell and that it still waits. The waiter's side reads
it."""

from __future__ import annotations

from pathlib import Path

from skirmish.ui.fog import FogLayer, LogFog
from tests.test_rule_fixes import CORRIDOR, INIT, _battle, _unit


def test_a_trigger_lost_out_of_sight_is_hidden_from_the_movers_side(tmp_path: Path) -> None:
    waiter = _unit("Watch", (4, 0), "weapons: [blast_carbine], skills: {shooting:rifle: 3}")
    b = _battle(tmp_path, [INIT, INIT, INIT, INIT], f"[{waiter}]", f"[{_unit('Runner', (0, 2))}]",
                ["declare Watch normal", "wait Watch enemy_enters:1,2"], ["declare Runner normal", "move Runner 1,2"],
                rows=CORRIDOR, victory="{max_rounds: 1}")
    fog, layer = LogFog(0), FogLayer(b.scenario.grid)
    noted = 0
    while b.pending is not None:
        b.step()
        for i in range(noted, len(b.log.events)):
            fog.note(i, b.log.events[i], b.view(), b.knowledge.seen, layer)
        noted = len(b.log.events)
    [lost] = [i for i, e in enumerate(b.log.events) if e.type == "trigger_lost"]
    assert "out of sight" in b.log.events[lost].describe()
    sides_of = {"Watch": "Alpha", "Runner": "Beta"}
    assert lost in fog.hidden_for("Beta", b.log.events, sides_of)
    assert lost not in fog.hidden_for("Alpha", b.log.events, sides_of)
    moved = next(i for i, e in enumerate(b.log.events) if e.type == "move")
    assert moved not in fog.hidden_for("Beta", b.log.events, sides_of)  # its own move stays
    b.close()
