"""Second reading of moves into unseen enemies (docs/RULES-NOTES.md "Moving into an unseen enemy"): a route that
passes THROUGH an unseen enemy's cell, a leap onto one, a defence step into one."""

from __future__ import annotations

from pathlib import Path

from skirmish.ecs.components import Status, Turn
from skirmish.rules.actions import Move
from tests.conftest import battle_at

T = "traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
ROWS = ["..#...", "..#...", "......"]


def test_a_route_through_an_unseen_enemy_is_logged_as_the_ground_covered(tmp_path: Path) -> None:
    """Me runs for 5,1 round the wall; its route passes through 3,2, where Them stands unseen. The move stops at
    2,2, and the move event (which the board animates and the fog reads) names only the route covered and its
    metres (as fw_move does), not cells the mover never entered."""
    b = battle_at(tmp_path, ROWS, f"[{{name: Me, at: [1, 0], {T}}}]", f"[{{name: Them, at: [3, 2], {T}}}]")
    with b:
        b.world.get(b.world.entity("Them"), Status).known_to = frozenset({"Red"})
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        assert "Them" not in b.knowledge.seen["Blue"]
        n = len(b.log.events)
        b.submit(Move("Me", (5, 1)))
        new = b.log.events[n:]
        move = next(e for e in new if e.type == "move")
        bump = next(e for e in new if e.type == "bumped")
        assert bump.blocked == [3, 2] and b.view().unit("Me").cell == tuple(bump.at) == (2, 2)
        assert move.path[-1] == bump.at and [3, 2] not in move.path and [5, 1] not in move.path
        turn = b.world.peek(b.world.entity("Me"), Turn)
        assert move.metres == round(turn.moved_m, 2) == 6.0
        assert "to 2,2" in move.describe()
        assert new.index(move) < new.index(bump)


def test_a_fw_leap_onto_an_unseen_enemy_leaves_the_figure_facing_as_it_was(tmp_path: Path) -> None:
    """Ann leaps for 4,0, where Reb stands unseen: she stays put (fw_bumped at her own cell), and keeps a real
    facing; it was (0, 0), no direction at all, for the arcs, the sightings and the board's arrow."""
    from tests.test_fw_battle import battle, chars, fw_text

    unit = "{{name: {}, at: [{}, 0], characteristics: {}, skills: {{rifle: 50}}, weapons: [heavy_rifle]{}}}"
    text = fw_text(f"[{unit.format('Ann', 1, chars(14), ', jump_pack: true, tacpack: {generator: 2}')}]",
                   f"[{unit.format('Reb', 4, chars(10), '')}]", ["intent Ann jump=1"], ["intent Reb none"], rows=ROWS)
    with battle(tmp_path, text) as b:
        while not (b.pending.unit == "Ann" and b.pending.kind != "intent"):
            b.step()
        b.world.get(b.world.entity("Reb"), Status).known_to = frozenset({"Red"})
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        before = b.view().unit("Ann").facing
        assert before != (0, 0) and b.check(Move("Ann", (4, 0))) is None
        b.submit(Move("Ann", (4, 0)))
        leap = next(e for e in b.log if e.type == "fw_move")
        bump = next(e for e in b.log if e.type == "fw_bumped")
        assert leap.jump and leap.path == [[1, 0]] and bump.at == [1, 0] and bump.blocked == [4, 0]
        assert b.view().unit("Ann").facing == before
