"""Two weapons (R-6.12): a unit with `two_weapons: true` holds its first two fired weapons one in each hand: -2 to
every attack, the off hand (`hand=off`) -4 more, a two-handed weapon in one hand -2 more; both hands share one
attack action up to their rates of fire; the refusals name the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skirmish.ecs.components import Loadout, Turn
from skirmish.rules.actions import Shoot, parse_action
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"


def _battle(tmp_path: Path, weapons: str, two: bool = True) -> Any:
    me = (f"[{{name: Me, at: [0, 1], weapons: {weapons}, skills: {{'shooting:pistol': 3}}, traits: {TRAITS}"
          f"{', two_weapons: true' if two else ''}}}]")
    return battle_at(tmp_path, ["..........", "..........", ".........."], me,
                     f"[{{name: A, at: [4, 1], traits: {TRAITS}, wounds: 0}}]")


def _mods(event: Any) -> dict[str, int]:
    return {m["reason"]: m["value"] for m in event.modifiers}


def test_each_hand_fires_with_its_penalty_in_one_action(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    eid = b.world.entity("Me")
    b.submit(parse_action("shoot Me A mode=prepared"))
    b.submit(parse_action("shoot Me A mode=prepared hand=off"))
    main, off = [e for e in b.log if e.type == "attack"]
    assert (main.weapon, off.weapon) == ("blast_pistol", "slug_pistol")
    assert _mods(main)["two weapons (R-6.12)"] == -2 and "off hand (R-6.12)" not in _mods(main)
    assert _mods(off)["two weapons (R-6.12)"] == -2 and _mods(off)["off hand (R-6.12)"] == -4
    load = b.world.peek(eid, Loadout)
    assert [w.rounds for w in load.weapons] == [11, 7] and load.active == 0  # the main hand's weapon again
    parts = b.world.peek(eid, Turn).parts
    assert len(parts) == 1 and parts[0].shots == 2 and parts[0].rof == 4  # one attack action for both hands
    b.close()


def test_a_two_handed_weapon_in_one_hand(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_carbine, blast_pistol]")
    b.submit(parse_action("shoot Me A mode=prepared"))
    shot = next(e for e in b.log if e.type == "attack")
    assert _mods(shot)["the two-handed blast carbine in one hand (R-6.12)"] == -2
    assert _mods(shot)["two weapons (R-6.12)"] == -2
    b.close()


def test_refusals_name_the_rule(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]", two=False)
    refused = b.check(Shoot("Me", "A", hand="off"))
    assert refused is not None and str(refused).startswith("R-6.12: Me does not hold a weapon in each hand")
    assert b.check(Shoot("Me", "A")) is None
    b.submit(parse_action("shoot Me A mode=prepared"))
    assert "two weapons (R-6.12)" not in _mods(next(e for e in b.log if e.type == "attack"))
    b.close()
    b = _battle(tmp_path, "[blast_pistol]")
    refused = b.check(Shoot("Me", "A", hand="off"))
    assert refused is not None and "does not hold a weapon in each hand" in str(refused)
    refused = b.check(Shoot("Me", "A", hand="left"))
    assert refused is not None and str(refused) == "R-6.12: hand is main or off, not 'left'"
    b.close()


def test_the_off_hand_double_taps_too(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_carbine, slug_pistol]")
    b.submit(parse_action("shoot Me A mode=prepared hand=off double_tap=yes"))
    shots = [e for e in b.log if e.type == "attack"]
    assert [(s.weapon, s.double_tap) for s in shots] == [("slug_pistol", 1), ("slug_pistol", 2)]
    assert _mods(shots[0])["off hand (R-6.12)"] == -4
    assert str(parse_action("shoot Me A hand=off")) == "shoot Me target=A hand=off"
    b.close()
