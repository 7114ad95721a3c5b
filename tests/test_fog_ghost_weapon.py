"""A ghost shows what the side saw when it last saw the unit (session 8's "noticed and left"): the ranged weapon in
hand then, not the one the enemy has taken up since, out of sight."""

from __future__ import annotations

from pathlib import Path

from skirmish.ecs.components import Loadout, Position, Status
from tests.conftest import battle_at

GUN = ("traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}, "
       "skills: {'shooting:pistol': 3, 'shooting:rifle': 3}")
ROWS = [".......", ".......", "######.", "......."]


def test_a_ghost_holds_the_weapon_it_was_seen_with(tmp_path: Path) -> None:
    with battle_at(tmp_path, ROWS, f"[{{name: Me, at: [0, 0], {GUN}, weapons: [slug_pistol]}}]",
                   f"[{{name: Them, at: [6, 1], {GUN}, weapons: [slug_pistol, assault_rifle]}}]") as b:
        assert b.observe("Blue").unit("Them").weapon.id == "slug_pistol"  # seen now, pistol in hand
        them = b.world.entity("Them")
        pos = b.world.get(them, Position)
        pos.x, pos.y = 0, 3  # behind the wall, unseen, its position no longer known
        b.world.get(them, Status).known_to = frozenset()
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        b.world.get(them, Loadout).active = 1  # takes up the rifle out of sight
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        ghost = b.observe("Blue").unit("Them")
        assert ghost.ghost and ghost.cell == (6, 1)
        assert b.view().unit("Them").weapon.id == "assault_rifle"
        assert ghost.weapon is not None and ghost.weapon.id == "slug_pistol"
        b.world.get(them, Loadout).active = 0
        pos.x, pos.y = 6, 1  # back in sight: seen afresh
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        b.world.get(them, Loadout).active = 1
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        assert b.observe("Blue").unit("Them").weapon.id == "assault_rifle"  # seen now: what is in hand now
