"""Double tap (R-6.12): two shots off one card, the second a row up and a box up or down by the toggle; −2
ready / −4 not, a pistol one less, LR one less again, −2 more without the specialisation; reliability one grade
lower; the refusals name the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.armoury import shipped
from skirmish.content.scenario import parse_scenario
from skirmish.rules.actions import Shoot, parse_action
from skirmish.rules.fi.ranged_tap import second_read, second_shift, tap_modifiers, tap_reliability
from tests.conftest import battle_at, make_card, write_deck

ARM = shipped()
TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"


def test_tap_numbers() -> None:
    pistol, laser, carbine = ARM.weapons["blast_pistol"], ARM.weapons["laser_pistol"], ARM.weapons["blast_carbine"]
    assert [m.value for m in tap_modifiers(pistol, True, True)] == [-1]
    assert [m.value for m in tap_modifiers(pistol, False, True)] == [-3]
    assert [m.value for m in tap_modifiers(laser, True, True)] == []  # pistol and low recoil: 2 - 1 - 1
    assert [m.value for m in tap_modifiers(laser, False, False)] == [-2, -2]
    assert [m.value for m in tap_modifiers(carbine, True, True)] == [-2]
    assert second_read("III", 3) == ("III", 2) and second_read("III", 1) == ("II", 1) and second_read("I", 1) == ("I", 1)
    assert second_shift(True) == -1 and second_shift(False) == 1
    assert [tap_reliability(r) for r in "VRFE"] == ["V", "V", "R", "F"]
    assert pistol.double_tap and laser.low_recoil and not carbine.double_tap


def _battle(tmp_path: Path, order: str, skills: str = "{'shooting:pistol': 3}") -> Any:
    init = make_card(1, upper={("III", 3): 12})
    tap = make_card(30, upper={("III", 3): 9, ("III", 2): 8}, lower={("II", 4): 14, ("II", 5): 18},
                    hit_stack=("chest", "vitals", "belly", "left_leg"), standard=2, prone=(False,) * 4, toggle=True,
                    breakdown="V", unintended=(False,) * 10)
    write_deck(tmp_path / "deck.json", [init, tap, init, init])
    text = f"""
name: tap
seed: 1
options: {{concussion_saves: false}}
map: {{ascii: ["..........", "..........", ".........."]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Kayla
    controller: scripted
    orders: ["declare Kayla normal", {order!r}, "end Kayla"]
    units:
      - {{name: Kayla, at: [0, 1], weapons: [blast_pistol], skills: {skills}, traits: {TRAITS}}}
  - name: Agents
    controller: idle
    units:
      - {{name: Agent, at: [4, 1], traits: {TRAITS}}}
"""
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]


def test_kaylas_double_tap_off_one_card(tmp_path: Path) -> None:
    """Card 30: III-3 reads 9 and III-2 reads 8, both -1 (ready pistol) -2 (no specialisation): 6 and 5 against
    TN 5, two hits; the first in the belly (the standard), the second one box up (toggle YES): vitals, a row more;
    the card's V breaks the blast pistol (R, one grade lower for a double tap)."""
    with _battle(tmp_path, "shoot Kayla Agent mode=prepared double_tap=yes") as b:
        b.run()
        shots = [e for e in b.log if e.type == "attack"]
        assert [(s.double_tap, s.draw["card"], s.column, s.row, s.read, s.result, s.hit) for s in shots] == [
            (1, 30, "III", 3, 9, 6, True), (2, 30, "III", 2, 8, 5, True)]
        assert [(s.location, s.damage) for s in shots] == [("belly", 14), ("vitals", 18)]
        assert shots[0].breakdown and "R-6.12" in shots[0].rules and shots[-1].ammo_left == 10
        reasons = [m["reason"] for m in shots[0].modifiers]
        assert "double tap, ready (pistol -1) (R-6.12)" in reasons
        assert "double tap without the specialisation: an associated skill (R-6.12)" in reasons
        assert sum(1 for e in b.log if e.type == "turn" and e.actor == "Kayla") == 1


def test_the_specialisation_takes_off_the_associated_penalty(tmp_path: Path) -> None:
    with _battle(tmp_path, "shoot Kayla Agent mode=prepared double_tap=yes",
                 "{'shooting:pistol': 3, double_tap: 2}") as b:
        b.run()
        shots = [e for e in b.log if e.type == "attack"]
        assert [s.result for s in shots] == [8, 7]


@pytest.mark.parametrize(("weapon", "order", "message"), [
    ("blast_carbine", "shoot Me A double_tap=yes", "R-6.12: the blast carbine cannot be double tapped"),
    ("needle_smg", "shoot Me A burst=3 double_tap=yes", "R-6.12: a double tap is two single shots, not a burst"),
    ("{weapon: blast_pistol, ammo: 1}", "shoot Me A double_tap=yes", "R-6.12: 1 round(s) left, 2 needed"),
])
def test_refusals_name_the_rule(tmp_path: Path, weapon: str, order: str, message: str) -> None:
    b = battle_at(tmp_path, ["..........", "..........", ".........."],
                  f"[{{name: Me, at: [0, 1], weapons: [{weapon}], traits: {TRAITS}}}]",
                  f"[{{name: A, at: [5, 1], traits: {TRAITS}}}]")
    refused = b.check(parse_action(order))
    assert refused is not None and message in str(refused), refused
    assert b.check(Shoot("Me", "A")) is None or weapon.startswith("{")
    b.close()


def test_the_order_text_round_trips() -> None:
    a = Shoot("Kayla", "Agent", double_tap=True)
    assert str(a) == "shoot Kayla target=Agent double_tap=yes" and parse_action(str(a)) == a


@pytest.mark.parametrize("declare", ["normal", "slow"])
def test_a_tap_after_one_shot_of_rate_2_is_a_new_action(tmp_path: Path, declare: str) -> None:
    """R-6.3/R-6.12: a double tap spends two shots of the rate of fire; after one shot of the blast pistol (rate 2)
    both cannot join that action: a new attack action (refused at NORMAL, where two make it SLOW), never 3 shots
    in one; legality lists the tap exactly when it is accepted."""
    from skirmish.ecs.components import Turn

    b = battle_at(tmp_path, ["..........", "..........", ".........."],
                  f"[{{name: Me, at: [0, 1], weapons: [blast_pistol], traits: {TRAITS}}}]",
                  f"[{{name: A, at: [5, 1], traits: {TRAITS}}}]", declare=declare)
    b.submit(Shoot("Me", "A", mode="prepared"))
    tap = Shoot("Me", "A", mode="prepared", double_tap=True)
    refused = b.check(tap)
    assert (tap in b.legal_actions("Me").ranged) == (refused is None)
    if declare == "normal":
        assert refused is not None and "R-5.3" in str(refused), refused
    else:
        assert refused is None, refused
        b.submit(tap)
        parts = b.sys.w.peek(b.sys.w.entity("Me"), Turn).parts
        assert [(p.kind, p.shots, p.rof) for p in parts] == [("attack", 1, 2), ("attack", 2, 2)]
    b.close()
