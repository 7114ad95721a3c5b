"""Called shots (R-6.1): the eight boxes, torso, hands, feet, the eye and the heart with their penalties, the
box each strikes; firing mounted (-2, the scenario's `mounted: true`); the board offers what the engine accepts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from skirmish.content.armoury import shipped
from skirmish.rules.actions import Shoot, parse_action
from skirmish.rules.deck import Deck
from skirmish.rules.fi.ranged import (
    CALLED_SHOTS,
    ShotSetup,
    TargetState,
    called_box,
    called_penalty,
    resolve_shot,
)
from skirmish.rules.randomizer import CardDraw
from tests.conftest import battle_at, make_card

ARM = shipped()
TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"


@pytest.mark.parametrize(("called", "penalty"), [
    ("chest", -2), ("torso", -2), ("left_leg", -4), ("right_arm", -4), ("head", -6), ("left_hand", -6),
    ("right_foot", -6), ("eye", -10), ("heart", -10)])
def test_called_shot_penalties(called: str, penalty: int) -> None:
    m = called_penalty(called)
    assert m.value == penalty and called.replace("_", " ") in m.reason


def test_the_box_a_called_shot_strikes() -> None:
    stack = ("head", "left_arm", "belly", "left_leg")
    assert [called_box(c, stack, 3) for c in ("eye", "heart", "left_hand", "right_foot")] == [
        "head", "vitals", "left_arm", "right_leg"]
    assert called_box("torso", stack, 3) == "belly"  # the stack's torso box nearest the standard
    assert called_box("torso", ("chest", "vitals", "belly", "left_leg"), 1) == "vitals"  # the standard itself
    assert called_box("torso", ("head", "left_arm", "right_arm", "left_leg"), 0) == "chest"


def _shot(called: str) -> Any:
    card = make_card(40, upper={("III", 3): 12}, lower={("III", 3): 10, ("III", 4): 14, ("III", 5): 17},
                     hit_stack=("head", "chest", "belly", "left_leg"), standard=3, toggle=False)
    deck = Deck([card], random.Random(0), shuffle=False)
    setup = ShotSetup(weapon=ARM.weapons["blast_carbine"], column="III", row=3, halve=False, tn=5, tn_mods=(),
                      result_mods=(), distance_m=8.0, called=called, spends=())
    return resolve_shot(CardDraw(deck.draw(), deck), setup, TargetState(6, {}))


def test_an_eye_hit_is_a_head_hit_and_the_heart_a_vitals_hit() -> None:
    eye, heart, hand = _shot("eye"), _shot("heart"), _shot("right_hand")
    assert (eye.hits[0].location, eye.hits[0].row, eye.damage) == ("head", 5, 17)  # 3d8 +2 rows
    assert (heart.hits[0].location, heart.hits[0].row, heart.damage) == ("vitals", 4, 14)  # +1 row
    assert (hand.hits[0].location, hand.hits[0].row, hand.damage) == ("right_arm", 3, 10)


def _battle(tmp_path: Path, mounted: bool) -> Any:
    me = (f"[{{name: Me, at: [0, 1], weapons: [blast_carbine], skills: {{'shooting:rifle': 3}}, "
          f"traits: {TRAITS}{', mounted: true' if mounted else ''}}}]")
    return battle_at(tmp_path, ["..........", "..........", ".........."], me,
                     f"[{{name: A, at: [5, 1], traits: {TRAITS}}}]")


def test_mounted_firer_takes_minus_two(tmp_path: Path) -> None:
    for mounted in (True, False):
        b = _battle(tmp_path, mounted)
        b.submit(parse_action("shoot Me A mode=prepared called=heart"))
        attack = next(e for e in b.log if e.type == "attack")
        mods = {m["reason"]: m["value"] for m in attack.modifiers}
        assert mods.get("firer mounted (R-6.1)") == (-2 if mounted else None)
        assert mods["called shot (heart)"] == -10 and attack.called == "heart"
        b.close()


def test_every_called_shot_the_board_offers_is_accepted(tmp_path: Path) -> None:
    from skirmish.ui.battle.menus import CALLED

    assert (None, *CALLED_SHOTS) == CALLED
    b = _battle(tmp_path, False)
    for called in CALLED_SHOTS:
        assert b.check(Shoot("Me", "A", mode="prepared", called=called)) is None, called
    refused = b.check(Shoot("Me", "A", called="nose"))
    assert refused is not None and str(refused).startswith("R-6.1: unknown called location 'nose'")
    assert "left_hand" in str(refused) and "heart" in str(refused)
    refused = b.check(Shoot("Me", "A", burst=3, called="eye"))
    assert refused is not None and "R-6.3: no aiming or called shots on automatic" in str(refused)
    b.close()
