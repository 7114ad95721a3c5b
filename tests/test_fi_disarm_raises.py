"""R-7.7 Disarm's raises (seed 000 "Maneuver Descriptions": "Opponent loses hold of item. May attempt opposed strength
roll if a raise is achieved to take item away. May automatically take item with two raises"; issue 14 item 3):
Kayla's Grab at the pirate's club with stacked decks through `skirmish run --json` (C-4) — no raise drops the club,
one raise is a Strength contest (won: taken; lost: dropped), two raises take it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.rules.deck import Card
from skirmish.rules.fi import arts_use as au
from tests.conftest import cli, make_card, write_deck

INIT = make_card(1, upper={("IV", 3): 10, ("II", 2): 8})  # Kayla phase I, the pirate II
KAYLA = ('{name: Kayla, at: [1, 0], traits: {strength: III-2, dexterity: III-3, reflexes: IV-3, vigor: III-2, '
         'acuity: II-2}, skills: {"Martial Arts:TU Space Marine Fighting": 2}, martial_arts: {sm_fighting: [basic, '
         '{techniques: [knee_strike, chop], dice: {strike_short: 1, strike_medium: 1, strike_low: 1}}]}}')
PIRATE = ('{name: Pirate, at: [2, 0], traits: {strength: III-2, dexterity: II-2, reflexes: II-2, vigor: III-2, '
          'acuity: II-2}, skills: {"fighting:brawling": 1}, melee: [club]}')
FILL = [make_card(20 + i, upper={("III", 2): 6}) for i in range(4)]


def _run(tmp_path: Path, cards: list[Card]) -> tuple[list[dict[str, Any]], str]:
    write_deck(tmp_path / "deck.json", cards)
    path = tmp_path / "disarm.yaml"
    path.write_text(f"""name: Kayla's Grab
seed: 1
options: {{martial_arts: true}}
map: {{ascii: ["......", "......"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Marines
    controller: scripted
    orders: ["declare Kayla normal", "melee Kayla Pirate maneuver=disarm", "end Kayla"]
    units: [{KAYLA}]
  - name: Pirates
    controller: scripted
    orders: ["declare Pirate normal", "end Pirate"]
    units: [{PIRATE}]
""", encoding="utf-8")
    code, out, err = cli("run", str(path), "--json")
    assert code == 0, err
    code, text, err = cli("run", str(path))  # the readable log names the raises and the taking
    assert code == 0, err
    return [json.loads(line) for line in out.strip().splitlines()], text


def _carried(tmp_path: Path) -> dict[str, list[str]]:
    """The same battle played again in-process: each unit's melee weapons at the end."""
    sc = load_scenario(tmp_path / "disarm.yaml")
    with Battle(sc, controllers={s.name: make_controller(s.controller, s.orders)  # type: ignore[arg-type]
                                 for s in sc.spec.sides}) as b:
        b.run()
        return {u.name: [w.id for w in u.melee.carried] for u in b.view().units}


def _grab(read: int) -> Card:
    return make_card(2, upper={("III", 2): read})  # her Disarm pool: 2 dice on Dexterity III


def _of(evs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == kind]


def _tn(tmp_path: Path) -> int:
    return int(_of(_run(tmp_path, [INIT, _grab(1), *FILL])[0], "maneuver")[0]["tn"])


def test_raises_are_full_fives_over_the_tn() -> None:
    assert [au.raises(t, 7) for t in (6, 7, 11, 12, 16, 17, 30)] == [0, 0, 0, 1, 1, 2, 4]


@pytest.mark.parametrize("over, contest, taken", [
    (0, None, False),  # success, no raise: the club is dropped
    (5, (9, 3), True),  # one raise, Kayla's Strength 9 beats 3: she takes it
    (5, (3, 9), False),  # one raise, the pirate holds on: dropped
    (10, None, True),  # two raises: taken, no contest
])
def test_a_disarm_drops_or_takes_the_club_by_its_raises(tmp_path: Path, over: int, contest: tuple[int, int] | None,
                                                        taken: bool) -> None:
    (tmp_path / "probe").mkdir()
    tn = _tn(tmp_path / "probe")
    strength = [] if contest is None else [make_card(3, upper={("III", 2): contest[0]}),
                                           make_card(4, upper={("III", 2): contest[1]})]
    evs, text = _run(tmp_path, [INIT, _grab(tn + over), *strength, *FILL])
    [m] = _of(evs, "maneuver")
    assert m["success"] and m["result"] == tn + over and m.get("raises") == (over // 5 or None)
    takes = _of(evs, "melee_contest")
    assert len(takes) == (1 if contest else 0)
    if contest:
        t = takes[0]
        assert (t["maneuver"], t["weapon"], t["result"], t["other_result"], t["success"]) == \
            ("take", "club", contest[0], contest[1], taken)
    assert not _of(evs, "refused")
    assert ("the item TAKEN" in text) == (over == 10) and ("TAKES the club" in text) == (contest is not None and taken)
    assert _carried(tmp_path) == {"Kayla": ["club"] if taken else [], "Pirate": []}  # dropped either way


def test_a_break_out_of_a_grip_and_a_take_read_in_the_log() -> None:
    """The contest's log text names every maneuver it carries (a `break hold` once raised a KeyError)."""
    from skirmish.rules.fi.melee_events import MeleeContestEvent

    for maneuver, says in (("break hold", "Kayla breaks FREE"), ("take", "Kayla TAKES the club")):
        e = MeleeContestEvent(round=1, phase=1, actor="Kayla", rules=("R-7.7",), maneuver=maneuver, target="Pirate",
                              weapon="club", column="III", row=2, result=9, cf=False, modifiers=[], against="its strength",
                              other_column="III", other_row=2, other_result=3, other_cf=False, other_modifiers=[],
                              success=True, draw={"card": 3}, other_draw={"card": 4})  # type: ignore[typeddict-item]
        assert says in e.describe()
