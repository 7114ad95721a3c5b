"""Moves under fog (session 8's "noticed and left"; docs/RULES-NOTES.md "Moving into an unseen enemy"): the cells a
unit may move to are worked out from what its side knows, so an unseen enemy's cell is not refused (which would
tell where it is); a move that runs into it stops at the cell before, where the enemy is discovered."""

from __future__ import annotations

from pathlib import Path

from skirmish.ecs.components import Status
from skirmish.rules.actions import Move
from tests.conftest import battle_at

T = "traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
ROWS = ["..#...", "..#...", "......"]


def _hidden(tmp_path: Path):  # type: ignore[no-untyped-def]
    b = battle_at(tmp_path, ROWS, f"[{{name: Me, at: [1, 0], {T}}}]", f"[{{name: Them, at: [4, 0], {T}}}]")
    b.world.get(b.world.entity("Them"), Status).known_to = frozenset({"Red"})  # moved unseen: Blue has lost it
    b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
    assert "Them" not in b.knowledge.seen["Blue"]
    return b


def test_an_unseen_enemys_cell_is_listed_like_any_other(tmp_path: Path) -> None:
    with _hidden(tmp_path) as b:
        cells = {m.to for m in b.legal_actions("Me").moves()}
        assert (4, 0) in cells and (5, 0) in cells
        assert b.check(Move("Me", (4, 0))) is None


def test_a_move_into_an_unseen_enemy_stops_where_it_is_found(tmp_path: Path) -> None:
    with _hidden(tmp_path) as b:
        b.submit(Move("Me", (4, 0)))
        bump = next(e for e in b.log if e.type == "bumped")
        assert (bump.actor, bump.target, bump.blocked) == ("Me", "Them", [4, 0])
        assert b.view().unit("Me").cell == tuple(bump.at) != (4, 0)
        assert b.view().unit("Them").cell == (4, 0)  # nobody shares a cell
        assert "Blue" in b.world.peek(b.world.entity("Them"), Status).known_to  # found: Blue knows where it is
        assert "runs into Them" in bump.describe()


def test_future_world_moves_stop_where_an_unseen_enemy_is_found(tmp_path: Path) -> None:
    from tests.test_fw_battle import battle, chars, fw_text

    unit = "{{name: {}, at: [{}, 0], characteristics: {}, skills: {{rifle: 50}}, weapons: [heavy_rifle]}}"
    text = fw_text(f"[{unit.format('Ann', 1, chars(14))}]", f"[{unit.format('Reb', 4, chars(10))}]",
                   ["intent Ann none"], ["intent Reb none"], rows=ROWS)
    with battle(tmp_path, text) as b:
        while not (b.pending.unit == "Ann" and b.pending.kind != "intent"):
            b.step()
        b.world.get(b.world.entity("Reb"), Status).known_to = frozenset({"Red"})  # Blue has lost it
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        assert {m.to for m in b.legal_actions("Ann").moves()} >= {(4, 0), (5, 0)}
        assert b.check(Move("Ann", (4, 0))) is None
        b.submit(Move("Ann", (4, 0)))
        bump = next(e for e in b.log if e.type == "fw_bumped")
        assert (bump.actor, bump.target, bump.blocked) == ("Ann", "Reb", [4, 0])
        assert b.view().unit("Ann").cell == tuple(bump.at) != (4, 0)
        assert "Blue" in b.world.peek(b.world.entity("Reb"), Status).known_to
