"""Launched grenades (R-6.10, R-6.9): `launch U X,Y` with a launcher: a shot's TN by range increment, a miss
scatters by the card's launched multiplier (not the thrown one), the burst as a thrown explosive's; refusals; the
card's breakdown read for the launcher after it fires (R-4.8, stacked decks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.core.events import Event
from skirmish.rules.actions import Launch, Shoot, parse_action
from tests.conftest import battle_at, make_card, write_deck

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"


def _battle(tmp_path: Path, read: int) -> Any:
    init = make_card(1, upper={("III", 3): 12, ("III", 2): 2})
    shot = make_card(20, upper={("III", 3): read}, clock=12, scatter_thrown=1, scatter_launched=2, toggle=False)
    filler = make_card(5, hit_stack=("chest", "vitals", "belly", "left_leg"), standard=0, lower={("III", 3): 11})
    write_deck(tmp_path / "deck.json", [init, shot] + [filler] * 8)
    text = f"""
name: launch
seed: 1
options: {{concussion_saves: false}}
map: {{ascii: ["................", "................", "................"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Crew
    controller: scripted
    orders: ["declare Gunner normal", "launch Gunner 8,1", "end Gunner"]
    units:
      - {{name: Gunner, at: [0, 1], weapons: [grenade_launcher], skills: {{'shooting:launcher': 3}}, traits: {TRAITS}}}
  - name: Raiders
    controller: idle
    units:
      - {{name: Near, at: [8, 1], traits: {TRAITS}}}
      - {{name: Far, at: [11, 1], traits: {TRAITS}}}
"""
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]


def test_a_miss_scatters_by_the_launched_multiplier(tmp_path: Path) -> None:
    """16 m at a 20 m increment: TN 5; III-3 reads 2, a miss by 3; clock 12 (on beyond the aimed cell), launched
    x2 = 6 m (the thrown multiplier on the card is 1): it lands 3 cells on, on Far, who takes the full burst."""
    with _battle(tmp_path, 2) as b:
        b.run()
        ev = next(e for e in b.log if e.type == "launch")
        assert (ev.tn, ev.result, ev.hit, ev.item) == (5, 2, False, "grenade_launcher")
        assert ev.scatter is not None and (ev.scatter["clock"], ev.scatter["multiplier"], ev.scatter["margin"]) == (
            12, 2, 3)
        assert ev.scatter["metres"] == 6 and ev.landed == [11, 1] and ev.left == 5
        assert "R-6.10" in ev.rules and "R-4.9" in ev.rules
        text = ev.describe()  # the log says launched, not thrown
        assert "fires the grenade launcher at" in text and "missed by 3: 12 o'clock, launched x2 = 6 m" in text
        far = next(e for e in b.log if e.type == "blast" and e.target == "Far")
        assert far.zone == "full" and far.distance_m == 0
    with _battle(tmp_path, 9) as b:
        b.run()
        ev = next(e for e in b.log if e.type == "launch")
        assert ev.hit and ev.scatter is None and ev.landed == [8, 1]


def _one(tmp_path: Path, weapons: str) -> Any:
    return battle_at(tmp_path, ["..........", "...#......", ".........."],
                     f"[{{name: Me, at: [0, 1], weapons: {weapons}, skills: {{'shooting:launcher': 2}}, "
                     f"traits: {TRAITS}}}]", f"[{{name: A, at: [6, 0], traits: {TRAITS}}}]")


@pytest.mark.parametrize(("weapons", "order", "message"), [
    ("[blast_pistol]", "launch Me 6,0", "R-6.10: the weapon in hand launches nothing"),
    ("[grenade_launcher]", "launch Me 3,1", "R-6.10: cell 3,1 is"),
    ("[grenade_launcher]", "launch Me 6,1", "R-6.10: no line of sight to 6,1"),
    ("[{weapon: grenade_launcher, ammo: 0}]", "launch Me 6,0", "R-6.12: the grenade launcher is empty; reload"),
    ("[grenade_launcher]", "launch Me 40,0", "cell 40,0 is off the map"),
])
def test_refusals_name_the_rule(tmp_path: Path, weapons: str, order: str, message: str) -> None:
    b = _one(tmp_path, weapons)
    refused = b.check(parse_action(order))
    assert refused is not None and message in str(refused), refused
    b.close()


def test_a_launcher_is_not_fired_at_a_unit(tmp_path: Path) -> None:
    b = _one(tmp_path, "[grenade_launcher]")
    refused = b.check(Shoot("Me", "A"))
    assert refused is not None and "R-6.10: the grenade launcher is launched at a cell (launch)" in str(refused)
    assert b.check(Launch("Me", (6, 0))) is None
    assert str(Launch("Me", (6, 0))) == "launch Me at=6,0" and parse_action("launch Me 6,0") == Launch("Me", (6, 0))
    b.close()


def _breaking(tmp_path: Path, letter: str | None) -> Any:
    """The launch at Near on target (III-3 reads 9), its card's breakdown `letter`; the gunner's orders go on to a
    second launch, a reload (two actions, R-6.12) and a third launch next turn."""
    init = make_card(1, upper={("III", 3): 12, ("III", 2): 2})
    shot = make_card(20, upper={("III", 3): 9}, clock=12, scatter_thrown=1, scatter_launched=2, toggle=False,
                     breakdown=letter)
    filler = make_card(5, hit_stack=("chest", "vitals", "belly", "left_leg"), standard=0, lower={("III", 3): 11})
    write_deck(tmp_path / "deck.json", [init, shot] + [filler] * 30)
    text = f"""
name: launch breakdown
seed: 1
options: {{concussion_saves: false}}
map: {{ascii: ["................", "................", "................"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Crew
    controller: scripted
    orders: ["declare Gunner slow"]
    units:
      - {{name: Gunner, at: [0, 1], weapons: [grenade_launcher], skills: {{'shooting:launcher': 3}}, traits: {TRAITS}}}
  - name: Raiders
    controller: idle
    units:
      - {{name: Near, at: [8, 1], traits: {TRAITS}}}
"""
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    b = Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]
    while b.pending is not None and not (b.pending.unit == "Gunner" and b.pending.kind == "act"):
        b.step()
    return b


@pytest.mark.parametrize("letter", ["R", "F", "E"])
def test_a_launch_breaks_the_launcher_down_on_the_cards_letter(tmp_path: Path, letter: str) -> None:
    """R-4.8 after the shot: the grenade launcher is reliability R, so a card reading R, F or E breaks it down once
    it has fired (the grenade still lands and bursts); it launches nothing more until a reload clears it."""
    with _breaking(tmp_path, letter) as b:
        b.submit(Launch("Gunner", (8, 1)))
        ev = next(e for e in b.log if e.type == "launch")
        assert ev.hit and ev.breakdown is True and "R-4.8" in ev.rules and ev.to_json()["breakdown"] is True
        assert "the grenade launcher breaks down (R-4.8" in ev.describe()
        assert Event.from_json(ev.to_json()) == ev  # C-3: it round-trips
        assert any(e.type == "blast" for e in b.log)  # the round was fired before it broke
        assert not b.legal_actions("Gunner").launches
        refused = b.check(Launch("Gunner", (8, 1)))
        assert refused is not None and "R-4.8: the grenade launcher has broken down" in str(refused)
        assert b.legal_actions("Gunner").reload


@pytest.mark.parametrize("letter", [None, "V"])
def test_no_breakdown_below_the_launchers_reliability(tmp_path: Path, letter: str | None) -> None:
    with _breaking(tmp_path, letter) as b:
        b.submit(Launch("Gunner", (8, 1)))
        ev = next(e for e in b.log if e.type == "launch")
        assert ev.breakdown is None and "breakdown" not in ev.to_json() and "R-4.8" not in ev.rules
        assert "breaks down" not in ev.describe()
