"""Split bursts (R-6.3): the skill dice split as evenly as possible, the rounds divided, each extra target +2 TN,
one card per target; Harry's split burst through `skirmish run --json` with a stacked deck; the refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from skirmish.rules.actions import Shoot, parse_action
from skirmish.rules.fi.ranged_split import SplitError, even_dice, plan_split, section_for
from tests.conftest import battle_at, cli, make_card, write_deck

DATA = Path(__file__).parent / "data" / "ranged"
TRAITS = "{strength: III-2, dexterity: V-2, reflexes: III-3, vigor: III-2, acuity: III-2}"


def test_split_dice_sum_to_the_skill_and_differ_by_at_most_one() -> None:
    rng = random.Random(63)
    for _ in range(3000):
        dice = rng.randint(1, 12)
        n = rng.randint(1, dice)
        split = even_dice(dice, n)
        assert sum(split) == dice and len(split) == n and max(split) - min(split) <= 1 and min(split) >= 1
        assert list(split) == sorted(split, reverse=True)  # the extra dice go to the targets named first
    for burst in (3, 5, 10):
        for n in range(2, burst + 1):
            p = plan_split(burst, [f"t{i}" for i in range(n)], max(n, 5))
            assert sum(s.rounds for s in p.shares) + p.extra == burst and p.extra < n
            assert p.tn_up == 2 * (n - 1) and {s.rounds for s in p.shares} == {burst // n}


def test_harrys_numbers() -> None:
    p = plan_split(5, ["Kyr-1", "Kyr-2"], 5)
    assert [(s.dice, s.rounds, s.section) for s in p.shares] == [(3, 2, 3), (2, 2, 3)] and p.extra == 1
    assert plan_split(5, ["Kyr-1", "Kyr-2"], 5, (2, 3)).shares[1].dice == 3  # the extra die where Harry wants it
    assert [section_for(r) for r in (1, 2, 3, 4, 5, 7, 8, 10)] == [0, 3, 3, 3, 5, 5, 10, 10]
    with pytest.raises(SplitError, match=r"R-6\.3: the skill dice are split as evenly as possible: 5 dice over 2"):
        plan_split(5, ["a", "b"], 5, (4, 1))
    with pytest.raises(SplitError, match=r"R-6\.3: 3 targets need a skill die each; the pool has 2"):
        plan_split(5, ["a", "b", "c"], 2)
    with pytest.raises(SplitError, match=r"R-6\.3: a burst of 3 cannot give each of 4 targets a round"):
        plan_split(3, ["a", "b", "c", "d"], 5)


def test_the_order_text_round_trips() -> None:
    a = Shoot("Harry", "Kyr-1", burst=5, also=("Kyr-2",), split=(3, 2))
    assert str(a) == "shoot Harry target=Kyr-1 burst=5 also=Kyr-2 split=3,2"
    assert parse_action(str(a)) == a
    b = Shoot("Harry", "Kyr-1", burst=10, also=("Kyr-2", "Kyr-3"), split=(2, 2, 1))
    assert parse_action(str(b)) == b


def harry_cards() -> list:
    """The deck of tests/data/ranged/harry_split.yaml."""
    init = make_card(1, upper={("III", 3): 12, ("III", 2): 2})
    first = make_card(11, upper={("V", 3): 9}, lower={("III", 4): 18}, burst={3: 3, 5: 4, 10: 6},
                      hit_stack=("head", "chest", "vitals", "belly"), standard=3, prone=(False,) * 4, toggle=False,
                      unintended=(False,) * 10)
    second = make_card(12, upper={("V", 2): 4}, unintended=(False,) * 10)
    return [init, first, second, init]


def test_the_stacked_deck_file_is_the_one_the_test_writes(tmp_path: Path) -> None:
    fresh = write_deck(tmp_path / "deck.json", harry_cards())
    assert json.loads((DATA / "harry_split_deck.json").read_text()) == json.loads(fresh.read_text())


def test_harrys_split_burst_through_the_cli() -> None:
    """Harry's blast rifle, 5 rounds split 3,2 over two Kyr operatives: two cards, 3d12 then 2d12, TN 5 + 2;
    the first reads 9 and 2 rounds hit (its burst-3 section says 3: capped at the 2 fired), the second misses;
    the fifth round misses; the magazine loses 5 rounds in one attack action."""
    code, out, err = cli("run", str(DATA / "harry_split.yaml"), "--json")
    assert code == 0, err
    events = [json.loads(x) for x in out.splitlines()]
    attacks = [e for e in events if e["type"] == "attack"]
    assert [(a["target"], a["card"], a["column"], a["row"], a["tn"]) for a in attacks] == [
        ("Kyr-1", 11, "V", 3, 7), ("Kyr-2", 12, "V", 2, 7)]
    assert [(a["result"], a["hit"], a["rounds_hit"]) for a in attacks] == [(9, True, 2), (4, False, 0)]
    assert attacks[0]["bump_pool"] == 1  # the second round to hit adds a bump
    assert all(a["split"] == {"burst": 5, "targets": ["Kyr-1", "Kyr-2"], "dice": [3, 2], "rounds": [2, 2],
                              "extra": 1} for a in attacks)
    assert all({"value": 2, "reason": "split burst: 1 extra target (R-6.3)"} in a["tn_modifiers"] for a in attacks)
    assert attacks[-1]["ammo_left"] == 25 and all(a["burst"] == 5 for a in attacks)
    assert [e["type"] for e in events if e["actor"] == "Harry" and e["round"] == 1].count("attack") == 2
    code, text, _ = cli("run", str(DATA / "harry_split.yaml"))
    assert "split burst 5: Kyr-1 3 dice 2 rounds, Kyr-2 2 dice 2 rounds, 1 misses" in text


def _harry(tmp_path: Path) -> Any:  # a Battle at Harry's turn
    return battle_at(tmp_path, ["..........", "..........", ".........."],
                     f"[{{name: Me, at: [0, 1], weapons: [blast_rifle], skills: {{'shooting:rifle': 5}}, "
                     f"traits: {TRAITS}}}, {{name: Pal, at: [0, 2], traits: {TRAITS}}}]",
                     f"[{{name: A, at: [5, 1], traits: {TRAITS}}}, {{name: B, at: [6, 2], traits: {TRAITS}}}, "
                     f"{{name: C, at: [6, 0], traits: {TRAITS}}}]")


@pytest.mark.parametrize(("order", "message"), [
    ("shoot Me A burst=5 also=B split=4,1", "R-6.3: the skill dice are split as evenly as possible: 5 dice over 2 "
     "targets is 3,2 in some order, not 4,1"),
    ("shoot Me A also=B", "R-6.3: only a burst is split between targets; give burst="),
    ("shoot Me A burst=5 split=3,2", "R-6.3: split= divides a burst between targets; name the others with also="),
    ("shoot Me A burst=5 also=A", "R-6.3: each target of a split burst is named once (A, A)"),
    ("shoot Me A burst=3 also=B,C split=3,1,1", "5 dice over 3 targets is 2,2,1 in some order, not 3,1,1"),
    ("shoot Me A burst=5 also=B split=2,2", "R-6.3: the skill dice are split as evenly as possible"),
    ("shoot Me A burst=5 also=Nobody", "no unit called 'Nobody'"),
    ("shoot Me A burst=5 also=Pal", "Pal is on your side"),
    ("shoot Me A burst=5 also=B spends=damage", "R-6.4: a split burst spends each target's bump pool itself"),
    ("shoot Me A burst=5 mode=aimed also=B", "R-6.3: no aiming or called shots on automatic"),
])
def test_refusals_name_the_rule(tmp_path: Path, order: str, message: str) -> None:
    b = _harry(tmp_path)
    refused = b.check(parse_action(order))
    assert refused is not None and message in str(refused)
    b.close()


def test_three_way_split_is_accepted_and_fired(tmp_path: Path) -> None:
    b = _harry(tmp_path)
    order = parse_action("shoot Me A burst=5 also=B,C")
    assert b.check(order) is None
    b.submit(order)
    attacks = [e for e in b.log if e.type == "attack"]
    assert [(a.target, a.row, a.tn) for a in attacks] == [("A", 2, 9), ("B", 2, 9), ("C", 1, 9)]
    assert attacks[0].split["rounds"] == [1, 1, 1] and attacks[0].split["extra"] == 2
    b.close()
