"""Covering fire (R-6.12): `cover U X,Y burst=N` over the area round a cell; an enemy stepping in draws a shot read
at the fire volume (single 1, burst 3 -> 2, 5 -> 3, 10 -> 4) as trait and skill; it ends at the firer's next turn;
the refusals name the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.armoury import shipped
from skirmish.content.scenario import parse_scenario
from skirmish.rules.actions import CoverFire, parse_action
from skirmish.rules.fi import ranged_cover as rc
from tests.conftest import battle_at, make_card, write_deck

ARM = shipped()
TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
SLOW = "{strength: III-2, dexterity: III-2, reflexes: II-2, vigor: III-2, acuity: III-2}"


def test_volume_and_area() -> None:
    assert [rc.volume(b) for b in (0, 3, 5, 10)] == [1, 2, 3, 4]
    assert [rc.pool(b) for b in (0, 3, 5, 10)] == [("I", 1), ("II", 2), ("III", 3), ("IV", 4)]
    assert rc.area_m(ARM.weapons["needle_smg"]) == 2 and rc.area_m(ARM.weapons["blast_mmg"]) == 4
    assert rc.entered((6, 1), (8, 1), (7, 1), 2.0, 2.0) and not rc.entered((6, 1), (7, 1), (6, 1), 2.0, 2.0)
    assert not rc.entered((6, 1), (7, 2), (7, 3), 2.0, 2.0)


def _battle(tmp_path: Path, rounds: int = 2) -> Any:
    init = make_card(1, upper={("III", 3): 12, ("II", 2): 3})
    shot = make_card(22, upper={("II", 2): 6}, burst={3: 2, 5: 3, 10: 5}, hit_stack=("chest", "vitals", "belly",
                     "left_leg"), standard=0, prone=(False,) * 4, toggle=False, unintended=(False,) * 10)
    write_deck(tmp_path / "deck.json", [init, shot] + [init] * 10)
    text = f"""
name: cover
seed: 1
options: {{concussion_saves: false}}
map: {{ascii: ["................", "................", "................"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: {rounds}}}
sides:
  - name: Crew
    controller: scripted
    orders: ["declare Gunner normal", "cover Gunner 6,1 burst=3", "end Gunner"]
    units:
      - {{name: Gunner, at: [0, 1], weapons: [needle_smg], skills: {{'shooting:smg': 3}}, traits: {TRAITS}}}
  - name: Raiders
    controller: scripted
    orders: ["declare Runner normal", "move Runner 4,1", "end Runner", "declare Runner normal", "move Runner 8,1",
             "move Runner 6,1"]
    units:
      - {{name: Runner, at: [10, 1], traits: {SLOW}}}
"""
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]


def test_an_entrant_draws_one_covering_shot_at_the_volume(tmp_path: Path) -> None:
    with _battle(tmp_path) as b:
        b.run()
        cover = next(e for e in b.log if e.type == "cover")
        assert (cover.at, cover.burst, cover.volume, cover.radius_m) == ([6, 1], 3, 2, 2.0)
        shots = [e for e in b.log if e.type == "attack"]
        assert len(shots) == 1  # entering at 7,1; 6,1 and 5,1 are inside already; round 2's entry is not covered
        s = shots[0]
        assert (s.actor, s.target, s.covering, s.trigger, s.burst) == ("Gunner", "Runner", True, True, 3)
        assert (s.column, s.row, s.draw["card"], s.read) == ("II", 2, 22, 6) and "R-6.12" in s.rules
        assert s.distance_m == 14.0 and s.ammo_left == ARM.weapons["needle_smg"].magazine - 3
        moves = [e for e in b.log if e.type == "move" and e.actor == "Runner"]
        assert moves[0].path[-1] == [4, 1] and len(moves) >= 2  # round 2: Gunner's turn ended the covering


def _one(tmp_path: Path, weapons: str) -> Any:
    return battle_at(tmp_path, ["..........", "...#......", ".........."],
                     f"[{{name: Me, at: [0, 1], weapons: {weapons}, skills: {{'shooting:smg': 2}}, "
                     f"traits: {TRAITS}}}]", f"[{{name: A, at: [9, 0], traits: {TRAITS}}}]")


@pytest.mark.parametrize(("weapons", "order", "message"), [
    ("[needle_smg]", "cover Me 6,1", "R-6.12: no line of sight to 6,1 to cover it"),
    ("[needle_smg]", "cover Me 6,0 burst=4", "R-6.3: the needle SMG cannot fire a burst of 4"),
    ("[{weapon: needle_smg, ammo: 2}]", "cover Me 6,0 burst=3", "R-6.12: 2 round(s) left, 3 needed"),
    ("[frag_grenade]", "cover Me 6,0", "R-6.10: the fragmentation grenade is thrown at a cell"),
    ("[needle_smg]", "cover Me 60,0", "cell 60,0 is off the map"),
])
def test_refusals_name_the_rule(tmp_path: Path, weapons: str, order: str, message: str) -> None:
    b = _one(tmp_path, weapons)
    refused = b.check(parse_action(order))
    assert refused is not None and message in str(refused), refused
    b.close()


def test_the_order_text_round_trips(tmp_path: Path) -> None:
    a = CoverFire("Me", (6, 0), burst=3)
    assert str(a) == "cover Me at=6,0 burst=3" and parse_action("cover Me 6,0 burst=3") == a
    b = _one(tmp_path, "[needle_smg]")
    assert b.check(a) is None
    b.close()
