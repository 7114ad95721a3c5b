"""`acts:NAME` waits (R-5.7) re-check sight when NAME's turn comes (issue 14 item 1): a wait declared while the enemy
was in view does not fire on it once it is out of the waiter's sight, and tells nothing of its turn (fog); in sight,
the same wait fires. Stacked decks and scripted orders through whole battles."""

from __future__ import annotations

from pathlib import Path

from skirmish.battle import Battle
from tests.conftest import make_card
from tests.test_fi_waiting import GUN, MISS, _battle, _unit

# Kyr (Reflexes IV-2) goes before Watch (III-2) in a phase; every initiative reads 9
INIT = make_card(1, upper={("III", 2): 9, ("IV", 2): 9})
QUICK = "{strength: III-2, dexterity: III-2, reflexes: IV-2, vigor: III-2, acuity: II-2}"
ROWS = ("....#...", "....#...", "........")  # a wall at x=4 in the top two rows


def _kyr(at: tuple[int, int]) -> str:
    return f"{{name: Kyr, at: [{at[0]}, {at[1]}], traits: {QUICK}, {GUN}}}"


def _run(tmp_path: Path, later_to: str) -> Battle:
    """Round 1: Kyr waits `later`; Watch waits `acts:Kyr` (Kyr in view at 6,2); Kyr's later turn moves to
    `later_to`. Round 2: Kyr's turn comes first (both FAST, Kyr quicker)."""
    b = _battle(tmp_path, [INIT, INIT, MISS, MISS, MISS, MISS, INIT, INIT, MISS, MISS, MISS, MISS, INIT, INIT],
                f"[{_unit('Watch', (0, 2), GUN)}]", f"[{_kyr((6, 2))}]",
                ["declare Watch normal", "wait Watch acts:Kyr", "end Watch", "end Watch"],
                ["declare Kyr normal", "wait Kyr later", f"move Kyr {later_to}", "declare Kyr fast", "end Kyr"],
                rows=ROWS, rounds=2)
    return b


def test_an_acts_wait_does_not_fire_on_an_enemy_gone_out_of_sight(tmp_path: Path) -> None:
    b = _run(tmp_path, "6,0")  # behind the wall from Watch at 0,2
    b.run()
    assert "trigger" not in [e.type for e in b.log]  # no contest, no event naming the unseen turn
    turns = [(e.round, e.actor) for e in b.log if e.type == "turn"]
    assert turns[-2:] == [(2, "Kyr"), (2, "Watch")]  # Kyr's turn unanswered; Watch kept waiting until its own turn
    b.close()


def test_the_same_wait_fires_when_the_enemy_is_still_in_sight(tmp_path: Path) -> None:
    b = _run(tmp_path, "7,2")  # still in view
    b.run()
    trig = [e for e in b.log if e.type == "trigger"]
    assert len(trig) == 1 and trig[0].trigger == "acts:Kyr" and trig[0].round == 2 and trig[0].target == "Kyr"
    b.close()
