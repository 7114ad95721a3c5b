"""The board's odds read what the asking side knows (issue 12/14 fog; session 8's "noticed and left"): an enemy's
CT and stun never show (docs/RULES-NOTES.md "Side views"), so a shot's "down %" is worked out on the side's
estimate (its CT full) and marked as such, and `Battle.odds` answers for the unit the action names."""

from __future__ import annotations

from pathlib import Path

from skirmish.ecs.components import Health
from skirmish.rules.actions import Shoot
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
ROWS = ["..........", "..........", ".........."]


def _unit(name: str, x: int, skill: int = 3) -> str:
    return (f"{{name: {name}, at: [{x}, 1], traits: {TRAITS}, skills: {{'shooting:pistol': {skill}}}, "
            f"weapons: [slug_pistol]}}")


def test_down_odds_do_not_read_the_targets_true_ct(tmp_path: Path) -> None:
    with battle_at(tmp_path, ROWS, f"[{_unit('Me', 0)}]", f"[{_unit('Them', 6)}]") as b:
        shot = Shoot("Me", "Them", mode="aimed")
        fresh = b.odds(shot)
        hp = b.world.get(b.world.entity("Them"), Health)
        hp.ct, hp.stunned = 1, True  # one point of CT left: any concussion would knock it out
        worn = b.odds(shot)
        assert worn.out_of_action == fresh.out_of_action  # the side cannot know the CT it has lost
        assert worn.ct == fresh.ct and not worn.ct_known
        assert "CT ?" in worn.label() and "down ≥" in worn.label()


def test_odds_answer_for_the_unit_the_action_names(tmp_path: Path) -> None:
    blue = f"[{_unit('Me', 0, skill=1)}, {_unit('Ace', 3, skill=5)}]"
    with battle_at(tmp_path, ROWS, blue, f"[{_unit('Them', 8)}]") as b:
        assert b.pending.unit == "Me"
        mine, aces = b.odds(Shoot("Me", "Them", mode="aimed")), b.odds(Shoot("Ace", "Them", mode="aimed"))
        assert aces.hit > mine.hit  # nearer and far better: not Me's odds again
        assert aces == b.sys.odds(b.world.entity("Ace"), Shoot("Ace", "Them", mode="aimed"), b.seed)
