"""Covering fire suppresses (R-6.12, docs/RULES-NOTES.md "Covering fire suppresses"): an enemy inside the covered
area, in the coverer's sight, is pinned — its shots take PINNED_SHOT (the modifier and the attack event's `pinned`
name the coverer), and a step out of the area draws the covering shot as a step into it does. Stacked decks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.rules.fi import ranged_cover as rc
from tests.conftest import make_card, write_deck

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
SLOW = "{strength: III-2, dexterity: III-2, reflexes: II-2, vigor: III-2, acuity: III-2}"
MISS = dict(burst={3: 1, 5: 1, 10: 1}, hit_stack=("chest", "vitals", "belly", "left_leg"), standard=0,
            prone=(False,) * 4, toggle=False, unintended=(False,) * 10)


def _battle(tmp_path: Path, runner: list[str], cover_at: str = "6,1", rows: int = 3) -> Any:
    init = make_card(1, upper={("III", 3): 12, ("II", 2): 3})
    shot = make_card(22, upper={("III", 2): 4, ("II", 2): 1}, **MISS)  # every read misses: nobody is hurt
    write_deck(tmp_path / "deck.json", [init, shot, shot, shot] + [init] * 10)
    lines = ", ".join(['"................"'] * rows)
    text = f"""
name: pinned
seed: 1
options: {{concussion_saves: false, unintended_targets: false}}
map: {{ascii: [{lines}]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Crew
    controller: scripted
    orders: ["declare Gunner normal", "cover Gunner {cover_at} burst=3", "end Gunner"]
    units:
      - {{name: Gunner, at: [0, 1], weapons: [needle_smg], skills: {{'shooting:smg': 3}}, traits: {TRAITS}}}
  - name: Raiders
    controller: scripted
    orders: {runner}
    units:
      - {{name: Runner, at: [6, 1], weapons: [needle_smg], skills: {{'shooting:smg': 2}}, traits: {SLOW}}}
"""
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]


def test_the_numbers_are_a_table() -> None:
    assert rc.PINNING == {"shot": -2, "leaving_draws": 1} and rc.PINNED_SHOT == -2 and rc.LEAVING_DRAWS
    assert rc.left((6, 1), (7, 1), (8, 1), 2.0, 2.0) and not rc.left((6, 1), (8, 1), (9, 1), 2.0, 2.0)
    assert rc.draws_fire((6, 1), (8, 1), (7, 1), 2.0, 2.0) == "entering"
    assert rc.draws_fire((6, 1), (7, 1), (8, 1), 2.0, 2.0) == "leaving"
    assert rc.draws_fire((6, 1), (6, 1), (7, 1), 2.0, 2.0) is None


def test_a_pinned_figure_shoots_at_minus_two_and_the_log_says_why(tmp_path: Path) -> None:
    with _battle(tmp_path, ["declare Runner normal", "shoot Runner Gunner mode=snap", "end Runner"]) as b:
        b.run()
        cover = next(e for e in b.log if e.type == "cover")
        assert cover.pinned == ["Runner"] and "pins Runner" in cover.describe()
        shot = next(e for e in b.log if e.type == "attack" and e.actor == "Runner")
        assert shot.pinned == ["Gunner"] and "R-6.12" in shot.rules
        pins = [m for m in shot.modifiers if "covering fire" in m["reason"]]
        assert pins == [{"value": -2, "reason": "pinned by Gunner's covering fire (R-6.12)"}]
        assert shot.result == shot.read + sum(m["value"] for m in shot.modifiers)
        assert "pinned by Gunner's covering fire" in shot.describe()
        assert '"pinned":["Gunner"]' in shot.to_line()


def test_outside_the_area_nobody_is_pinned(tmp_path: Path) -> None:
    with _battle(tmp_path, ["declare Runner normal", "shoot Runner Gunner mode=snap", "end Runner"],
                 cover_at="10,1") as b:
        b.run()
        assert next(e for e in b.log if e.type == "cover").pinned is None
        shot = next(e for e in b.log if e.type == "attack" and e.actor == "Runner")
        assert shot.pinned is None and not [m for m in shot.modifiers if "covering" in m["reason"]]
        assert "R-6.12" not in shot.rules


def test_breaking_out_of_the_area_draws_the_covering_shot(tmp_path: Path) -> None:
    with _battle(tmp_path, ["declare Runner normal", "move Runner 9,1", "end Runner"]) as b:
        b.run()
        shots = [e for e in b.log if e.type == "attack"]
        assert len(shots) == 1  # the step 7,1 -> 8,1 leaves the area; 8,1 -> 9,1 is outside it
        s = shots[0]
        assert (s.actor, s.target, s.covering, s.trigger, s.burst, s.column, s.row) == \
            ("Gunner", "Runner", True, True, 3, "II", 2)
        assert s.distance_m == 16.0  # fired at the cell it stepped to


def test_moving_inside_the_area_draws_nothing(tmp_path: Path) -> None:
    with _battle(tmp_path, ["declare Runner normal", "move Runner 5,1", "end Runner"]) as b:
        b.run()
        assert not [e for e in b.log if e.type == "attack"]
