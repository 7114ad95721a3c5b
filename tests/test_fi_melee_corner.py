"""Future Imperfect melee meets fw's contact rule (session 8's "noticed and left"; docs/RULES-NOTES.md "Contact
across a wall corner"): neighbouring cells that do not see each other (a closed wall corner) are not within 1 m for
a blow, and an attack at an enemy the side does not see is refused naming the rule, not its real state."""

from __future__ import annotations

from pathlib import Path

from skirmish.rulesets.fi import MeleeAttack
from tests.conftest import battle_at

KNIFE = ("traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}, "
         "skills: {'fighting:knives': 3}, melee: [vibro_knife]")
CORNER = ["......",
          "..#...",
          ".#....",
          "......"]


def test_no_blow_across_a_closed_wall_corner(tmp_path: Path) -> None:
    eye = f"{{name: Eye, at: [5, 2], {KNIFE}}}"  # sees Them along row 2, so Blue's side sees it
    with battle_at(tmp_path, CORNER, f"[{{name: Me, at: [1, 1], {KNIFE}}}, {eye}]",
                   f"[{{name: Them, at: [2, 2], {KNIFE}}}]") as b:
        assert not b.observe("Blue").unit("Them").ghost
        refusal = b.check(MeleeAttack("Me", "Them"))
        assert refusal is not None and refusal.rule == "R-1.3" and "corner" in refusal.reason, refusal
        assert not any(isinstance(a, MeleeAttack) for a in b.legal_actions("Me").melee)


def test_an_open_corner_is_contact(tmp_path: Path) -> None:
    rows = ["......", "..#...", "......", "......"]  # one wall beside the diagonal: the corner is open
    with battle_at(tmp_path, rows, f"[{{name: Me, at: [1, 1], {KNIFE}}}]",
                   f"[{{name: Them, at: [2, 2], {KNIFE}}}]") as b:
        assert b.check(MeleeAttack("Me", "Them")) is None


def test_an_attack_at_an_unseen_enemy_names_sight_not_its_state(tmp_path: Path) -> None:
    from skirmish.ecs.components import Health, Status

    rows = ["......", "......", "######", "......"]
    with battle_at(tmp_path, rows, f"[{{name: Me, at: [1, 1], {KNIFE}}}]",
                   f"[{{name: Them, at: [1, 3], {KNIFE}}}]") as b:
        them = b.world.entity("Them")
        b.world.get(them, Status).known_to = frozenset()  # moved unseen: Blue no longer knows where it stands
        b.world.get(them, Health).unconscious = True  # and went down there
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        refusal = b.check(MeleeAttack("Me", "Them"))
        assert refusal is not None and refusal.rule == "R-6.1" and "out of action" not in str(refusal), refusal
