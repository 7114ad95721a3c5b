"""Second reader of R-5.7 (issue 14, revrules): waits where they meet fog, ties and mixed contests."""

from __future__ import annotations

from pathlib import Path

from skirmish.rules.actions import Wait
from tests.conftest import make_card
from tests.test_fi_waiting import GUN, INIT, MISS, _battle, _types, _unit

HIT = make_card(7, upper={("III", 3): 20}, lower={(c, r): 60 for c in ("I", "II", "III", "IV", "V", "VI")
                                                  for r in range(1, 8)})
WALLED = ("...#....", "...#....", "...#....")


def test_a_wait_names_no_enemy_the_unit_cannot_see(tmp_path: Path) -> None:
    """Fog (R-5.7 with the side views): `acts:`/`preempt:` an enemy behind a wall is neither listed nor accepted,
    so the legal list does not tell which unseen enemies are still in action."""
    b = _battle(tmp_path, [INIT] * 4, f"[{_unit('Watch', (0, 1), GUN)}, {_unit('Bo', (0, 2))}]",
                f"[{_unit('Kyr', (6, 1), GUN)}]", ["declare Watch normal", "declare Bo normal"],
                ["declare Kyr normal"], rows=WALLED)
    while not (b.pending.kind == "act" and b.pending.unit == "Watch"):
        b.step()
    words = {w.trigger for w in b.legal_actions("Watch").waits}
    assert "acts:Bo" in words and not {"acts:Kyr", "preempt:Kyr"} & words
    for bad in ("acts:Kyr", "preempt:Kyr"):
        refusal = b.check(Wait("Watch", bad))
        assert refusal is not None and refusal.rule == "R-5.7" and "sight" in refusal.reason, bad
    b.close()


def test_an_outright_winner_lands_its_hit_before_the_turn_even_beside_a_tie(tmp_path: Path) -> None:
    """Two wait `acts:Kyr`: W1 wins its contest outright, W2 ties. W1's killing hit lands before Kyr's turn, so Kyr
    never acts (only the tie is simultaneous with Kyr)."""
    win, lose = make_card(5, upper={("III", 2): 8}), make_card(6, upper={("III", 2): 3})
    same = make_card(8, upper={("III", 2): 5})
    b = _battle(tmp_path, [INIT, win, lose, same, same, HIT, MISS, MISS, INIT],
                f"[{_unit('W1', (0, 0), GUN)}, {_unit('W2', (0, 2), GUN)}]", f"[{_unit('Kyr', (5, 1), GUN)}]",
                ["declare W1 normal", "declare W2 normal", "wait W1 acts:Kyr", "wait W2 acts:Kyr",
                 "shoot W1 Kyr", "shoot W2 Kyr"], ["declare Kyr normal", "shoot Kyr W1"])
    b.run()
    trigs = [(e.actor, e.waiter_first, e.simultaneous) for e in b.log if e.type == "trigger"]
    assert trigs == [("W1", True, False), ("W2", True, True)]
    assert [e.actor for e in b.log if e.type == "attack"] == ["W1"]
    assert b.view().unit("Kyr").out_of_action
    b.close()


def test_a_tied_turn_trigger_lands_after_the_whole_turn_not_after_its_move(tmp_path: Path) -> None:
    """`acts:Kyr` tied: Watch's killing hit is held while Kyr takes its turn — a step and a shot — so both shots are
    fired (a move inside the turn does not land the turn's held damage early)."""
    same = make_card(5, upper={("III", 2): 5})
    b = _battle(tmp_path, [INIT, same, same, HIT, HIT, INIT], f"[{_unit('Watch', (0, 0), GUN)}]",
                f"[{_unit('Kyr', (5, 2), GUN)}]", ["declare Watch normal", "wait Watch acts:Kyr", "shoot Watch Kyr"],
                ["declare Kyr slow", "move Kyr 5,1", "shoot Kyr Watch"])
    b.run()
    assert next(e for e in b.log if e.type == "trigger").simultaneous
    types = _types(b)
    assert [e.actor for e in b.log if e.type == "attack"] == ["Watch", "Kyr"]
    assert min(i for i, t in enumerate(types) if t == "out_of_action") > max(
        i for i, t in enumerate(types) if t == "attack")
    b.close()


def test_a_battle_won_by_held_damage_ends_before_anyone_else_is_asked(tmp_path: Path) -> None:
    """`acts:Kyr` tied: the held hit lands after Kyr's turn and takes out Beta's last unit; the battle ends there,
    Bo (a later phase) is not asked for a turn in a battle already decided."""
    same = make_card(5, upper={("III", 2): 5})
    b = _battle(tmp_path, [INIT, same, same, HIT, MISS, INIT, INIT],
                f"[{_unit('Watch', (0, 0), GUN)}, {_unit('Bo', (0, 2), GUN)}]", f"[{_unit('Kyr', (5, 2), GUN)}]",
                ["declare Watch normal", "declare Bo slow", "wait Watch acts:Kyr", "shoot Watch Kyr", "end Bo"],
                ["declare Kyr normal", "shoot Kyr Watch"])
    b.run()
    assert next(e for e in b.log if e.type == "trigger").simultaneous
    types = _types(b)
    assert types[types.index("out_of_action"):] == ["out_of_action", "result"], types
    assert "Bo" not in [e.actor for e in b.log if e.type == "turn"]
    assert b.outcome is not None and b.outcome.winner == "Alpha"
    b.close()
