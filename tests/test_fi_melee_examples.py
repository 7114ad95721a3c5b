"""The seed's melee worked examples (R-7.1–R-7.4, R-5.4) replayed through `skirmish run --json` (C-1, C-4): each a
scenario in tests/data/melee with a stacked deck (made here from deck A with the entries the example prints, and
kept beside it so the command can be run by hand) and scripted orders, asserting the seed's numbers.

Write the decks again after changing them: `PYTHONPATH=. python tests/test_fi_melee_examples.py`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skirmish.rules.deck import Card
from tests.conftest import cli, make_card, write_deck

DATA = Path(__file__).resolve().parent / "data" / "melee"
CHEST = dict(hit_stack=("head", "chest", "vitals", "belly"), standard=1, ablation=("P", "A", "D"), toggle=False)


def _init(**reads: int) -> Card:
    """An initiative card: each (Reflex column, training) reads the value given (R-5.1)."""
    upper = {(k.split("_")[0], int(k.split("_")[1])): v for k, v in reads.items()}
    return make_card(1, upper=upper)


def _filler(n: int) -> list[Card]:
    """Cards for concussion saves and anything after the example: every Vigor III-2 read holds (6)."""
    return [make_card(20 + i, upper={("III", 2): 6, ("IV", 2): 6}) for i in range(n)]


DECKS: dict[str, list[Card]] = {
    # Antares (Reflex IV-3: 10, phase I) punches: III-3 reads 9 vs TN 7, 8 effect, non-lethal: 3 CT
    "punch": [_init(IV_3=10, II_2=2), make_card(2, upper={("III", 3): 9}, lower={("III", 3): 8}, **CHEST),
              *_filler(3)],
    # the Marine (I) and the Ursoid (II) each miss: both TNs are 7
    "ursoid": [_init(IV_3=10, II_2=8), make_card(3, upper={("III", 2): 4}), make_card(4, upper={("III", 2): 4}),
               *_filler(2)],
    # R1: the constable jabs (5, miss), Hrulfgarr closes (8); R2: the constable 6 (miss at 9), Hrulfgarr 7 (hit
    # at 7, 5 effect: nothing); R3: the constable opens with 9
    "close": [_init(IV_3=10, II_2=8), make_card(5, upper={("III", 2): 5}), make_card(6, upper={("III", 3): 8}),
              _init(IV_3=10, II_2=8), make_card(7, upper={("III", 2): 6}),
              make_card(8, upper={("III", 3): 7}, lower={("III", 3): 5}, **CHEST),
              _init(IV_3=10, II_2=8), make_card(9, upper={("III", 2): 9}), *_filler(3)],
    # card 52: the knife hits at TN 6 with 6, 4d6 reads 9 in the chest, PN 4 against the vest's AV 3: P
    "knife": [_init(IV_3=10, II_2=2), make_card(52, upper={("III", 2): 6}, lower={("II", 4): 9}, **CHEST),
              *_filler(3)],
    # the bottle: III-3 reads 7 vs TN 5; Strength d8 at Brawling 3 reads 15
    "bottle": [_init(IV_3=10, II_2=2), make_card(10, upper={("III", 3): 7}, lower={("III", 3): 15}, **CHEST),
               *_filler(3)],
    # Sid (I) charges: III-3 reads 8, -2 = 6 vs TN 5 (12 m, 10 m increments: +1 -> 6): a hit for 0 bumps
    # (Kyr-1's concussion save), Kayla (I) charges: IV-3 reads 9, -2 = 7 vs TN 5
    "charge": [_init(IV_3=10, II_2=2), make_card(11, upper={("III", 3): 8}, lower={("III", 2): 3}, **CHEST),
               *_filler(1), make_card(12, upper={("IV", 3): 9}, lower={("II", 4): 4}, **CHEST), *_filler(4)],
}


def write_decks() -> None:
    """Write every example's deck beside its scenario (C-2 JSON in draw order)."""
    for name, cards in DECKS.items():
        write_deck(DATA / f"{name}.json", cards)


def _run(name: str) -> list[dict[str, Any]]:
    code, out, err = cli("run", str(DATA / f"{name}.yaml"), "--json")
    assert code == 0, err
    events = [json.loads(line) for line in out.strip().splitlines()]
    assert events[-1]["type"] == "result"
    return events


def _of(events: list[dict[str, Any]], etype: str, actor: str | None = None) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == etype and (actor is None or e["actor"] == actor)]


@pytest.mark.parametrize("name", sorted(DECKS))
def test_the_stacked_decks_on_disk_are_the_ones_made_here(name: str) -> None:
    assert json.loads((DATA / f"{name}.json").read_text()) == [c.to_json() for c in DECKS[name]]


def test_the_punch_at_tn_7() -> None:
    """Antares punches the canine (Brawling 2): TN 5 + 2 = 7 (R-7.1); fists are non-lethal (R-7.4)."""
    [blow] = _of(_run("punch"), "melee", "Antares")
    assert blow["tn"] == 7 and blow["tn_modifiers"][0]["value"] == 2 and "brawling" in blow["tn_modifiers"][0]["reason"]
    assert blow["card"] == 2 and blow["result"] == 9 and blow["hit"]
    assert blow["weapon"] == "fists" and blow["lethal"] is False and "R-7.4" in blow["rules"]
    assert blow["damage_dice"] == "3d8" and (blow["damage"], blow["wounds"], blow["ct"]) == (8, 0, 3)


def test_the_sword_against_the_ursoid_has_no_defense_shift() -> None:
    """Sword DB 1 + size 6 against fists DB 0 + size 7: relative DB 0, so both TNs are 5 + the Fighting level."""
    events = _run("ursoid")
    [marine] = _of(events, "melee", "Marine")
    [ursoid] = _of(events, "melee", "Ursoid")
    assert marine["tn"] == 7 and ursoid["tn"] == 7
    for blow in (marine, ursoid):
        assert [m["value"] for m in blow["tn_modifiers"]] == [2]
        assert not any("Defense" in m["reason"] for m in blow["tn_modifiers"])


def test_close_at_tn_8_7_9() -> None:
    """The constable at 8 (miss); Hrulfgarr closes at 8; then Hrulfgarr attacks at 7 and the constable at 9, with
    no Strength; the constable opens again at 9 (R-7.1, R-7.2)."""
    events = _run("close")
    constable = _of(events, "melee", "Constable")
    [close, open_] = _of(events, "maneuver")
    [hrulf] = _of(events, "melee", "Hrulfgarr")
    assert (constable[0]["round"], constable[0]["tn"], constable[0]["result"], constable[0]["hit"]) == (1, 8, 5, False)
    assert (close["actor"], close["maneuver"], close["tn"], close["result"], close["success"]) == \
        ("Hrulfgarr", "close", 8, 8, True)
    assert [m["value"] for m in close["tn_modifiers"]] == [2, 1]  # 5 + 2, plus 1 for the truncheon's DB
    assert (hrulf["round"], hrulf["tn"], hrulf["hit"]) == (2, 7, True)
    assert (constable[1]["round"], constable[1]["tn"]) == (2, 9)
    assert any("penalty" in m["reason"] for m in constable[1]["tn_modifiers"])
    assert "R-7.2" in constable[1]["rules"] and "R-7.2" in hrulf["rules"]
    assert any("no Strength" in s for s in constable[1]["strength"])
    assert (open_["actor"], open_["maneuver"], open_["tn"], open_["success"]) == ("Constable", "open", 9, True)


def test_the_knife_2_3_to_2_4_for_1_wound_3_ct() -> None:
    """Strength III-2: column 3 >= the knife's PN 3 (PN 4: the vest's AV 3 is beaten, P), 3 + 2 >= 2 + 3 (one row
    down: 4d6); card 52 reads 9: 1 wound 3 CT on a size-6 Mertun (R-7.3, R-6.7, R-6.8)."""
    [blow] = _of(_run("knife"), "melee", "Hrulfgarr")
    assert blow["card"] == 52 and blow["tn"] == 6 and blow["hit"] and blow["lethal"] is True
    assert blow["damage_dice"] == "4d6" and "R-7.3" in blow["rules"]
    assert any("one row down" in s for s in blow["strength"]) and any("PN + 1" in s for s in blow["strength"])
    [layer] = blow["ablation"]
    assert (layer["pn"], layer["av"], layer["result"]) == (4, 3, "P")
    assert (blow["location"], blow["damage"], blow["wounds"], blow["ct"]) == ("chest", 9, 1, 3)


def test_the_bottle_15_is_6_ct_and_1_wound() -> None:
    """Strength d8 and Brawling 3: 15 effect; 2 wounds 3 CT if deadly, but a bottle is non-lethal: every full 6 is
    3 CT, every full 12 a wound (R-7.4)."""
    from skirmish.rules.fi.damage import split_damage

    assert split_damage(15, 6) == (2, 3)
    [blow] = _of(_run("bottle"), "melee", "Hrulfgarr")
    assert blow["weapon"] == "bottle" and blow["lethal"] is False and blow["damage_dice"] == "3d8"
    assert (blow["damage"], blow["wounds"], blow["ct"]) == (15, 1, 6)


def test_the_charge() -> None:
    """Sid's charge: the run and the shot at once, FAST with a fast pistol, -2 (R-5.4); Kayla's charge with her
    knife, -2, the blow from the cell she ran to."""
    events = _run("charge")
    [sid_move, kayla_move] = _of(events, "move")
    assert sid_move["actor"] == "Sid" and sid_move["path"][-1] == [4, 0] and "R-5.4" in sid_move["rules"]
    [shot] = _of(events, "attack", "Sid")
    assert "R-5.4" in shot["rules"] and -2 in [m["value"] for m in shot["modifiers"]]
    assert (shot["tn"], shot["result"], shot["hit"]) == (6, 6, True)
    assert kayla_move["path"][-1] == [7, 2]
    [blow] = _of(events, "melee", "Kayla")
    assert blow["charge"] is True and "R-5.4" in blow["rules"]
    assert any(m["value"] == -2 and "charge" in m["reason"] for m in blow["modifiers"])
    assert (blow["tn"], blow["result"], blow["hit"]) == (5, 7, True)
    turns = {e["actor"]: e["declared"] for e in _of(events, "turn")}
    assert turns["Sid"] == "fast" and turns["Kayla"] == "fast"


if __name__ == "__main__":
    write_decks()
