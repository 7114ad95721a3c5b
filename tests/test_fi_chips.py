"""R-8.5 story chips (issue 14 item 4): the bin and its draws, the seed's "Saving your skin" table, the AI's
policy, the engine's hooks through `skirmish run --json` with a stacked deck (C-4), scenario checks (C-6), and
the property that chips conserve the bin."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.rules.fi import chips as C
from tests.conftest import cli, make_card, write_deck
from tests.test_fuzz_loaders import assert_contract, json_values

T = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"
TT = "{strength: III-2, dexterity: III-2, reflexes: II-2, vigor: II-2, acuity: II-2}"
INIT = make_card(1, upper={("III", 2): 9, ("II", 2): 9})
SAVE = make_card(2, upper={("II", 2): 6, ("III", 2): 6})


def shot_card(read: Any, above: Any = 7, **kw: Any) -> Any:
    """The carbine example's card 34 (2 rounds hit, 13 damage each: 2 wounds 1 CT a hit) reading `read` at
    III-4 and `above` at III-5."""
    return make_card(34, upper={("III", 4): read, ("III", 5): above}, lower={("III", 3): 13},
                     burst={3: 2, 5: 3, 10: 5}, hit_stack=("head", "chest", "left_arm", "belly"), standard=2,
                     ablation=("P", "A", "D"), toggle=False, breakdown=None, **kw)


def scenario(tmp: Path, cards: list[Any], *, xenes: str = "{white: 1, blue: 1}", thugs: str = "{red: 1}",
             x_orders: str = '["Xenes check white up"]', t_orders: str = '["Thug wounds red"]') -> Path:
    write_deck(tmp / "deck.json", cards)
    p = tmp / "s.yaml"
    p.write_text(f"""
name: chips example
seed: 1
options: {{chips: true}}
map: {{ascii: ["............", "............"]}}
deck: {{cards: deck.json, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Xenes
    controller: scripted
    chips: {xenes}
    chip_draws: 0
    chip_orders: {x_orders}
    orders: ["declare Xenes normal", "shoot Xenes Thug mode=prepared burst=3 spends=none", "end Xenes"]
    units:
      - {{name: Xenes, at: [0, 0], traits: {T}, skills: {{"shooting:rifle": 4}}, weapons: [blast_carbine]}}
  - name: Thugs
    controller: scripted
    chips: {thugs}
    chip_draws: 0
    chip_orders: {t_orders}
    orders: ["declare Thug normal", "end Thug"]
    units:
      - {{name: Thug, at: [4, 0], traits: {TT}, armour: [lba3]}}
""", encoding="utf-8")
    return p


def events(path: Path) -> list[dict[str, Any]]:
    code, out, err = cli("run", str(path), "--json")
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def of(evs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == kind]


# ------------------------------------------------------------------------------------------ pure rules


def test_the_bin_and_the_saving_your_skin_table() -> None:
    assert dict(C.BIN) == {"white": 50, "red": 25, "blue": 10}
    assert dict(C.NEGATES) == {"white": (1, 5), "red": (2, 10), "blue": (3, 15)}
    assert C.draws_for({"white": 2}, 3) == 1 and C.draws_for({"red": 5}, 3) == 0  # the seed's examples
    # A red chip negating fewer wounds than its value also negates the CT; a white one never.
    assert C.negate([1], [3], [False], ["red"]) == C.Negation((0,), (0,), (("red", 1, 3),))
    assert C.negate([1], [3], [False], ["white"]) == C.Negation((0,), (3,), (("white", 1, 0),))
    # Wounds go from head hits first, then from the last hits.
    assert C.negate([2, 2, 2], [1, 1, 1], [False, True, False], ["blue"]).wounds == (2, 0, 1)
    # With no wounds left, 5 CT per level of chip.
    assert C.negate([0, 0], [7, 9], [False, False], ["red"]) == C.Negation((0, 0), (0, 6), (("red", 0, 10),))


def test_the_ai_spends_only_when_it_turns_the_result() -> None:
    miss = C.CheckOffer(raw=4, cf=False, tn=5, modifier=0, halve=False, up=7, down=3)
    assert C.ai_check_chip({"white": 1, "red": 1}, miss) == ("white", "up")
    assert C.ai_check_chip({"red": 1}, miss) == ("red", "up")
    assert C.ai_check_chip({"blue": 2}, miss) is None
    assert C.ai_check_chip({"white": 1}, C.CheckOffer(4, False, 5, 0, False, 4, 3)) is None  # would not turn it
    assert C.ai_check_chip({"white": 1}, C.CheckOffer(0, True, 5, 0, False, 9, 3)) is None  # CF
    # Wounds: only to stay in action (below 4 wounds, no two head wounds from one hit), cheapest that does.
    assert C.ai_wound_chips({"white": 1, "red": 1, "blue": 1}, 0, [2, 2], [False, False]) == ["white"]
    assert C.ai_wound_chips({"white": 1, "red": 1, "blue": 1}, 2, [2, 2], [False, False]) == ["blue"]
    assert C.ai_wound_chips({"white": 3}, 0, [2], [True]) == ["white"]
    assert C.ai_wound_chips({"white": 1}, 0, [1, 1], [False, False]) == []
    assert C.ai_wound_chips({"white": 1}, 3, [3, 3], [False, False]) == []  # cannot be saved: keep it


@pytest.mark.parametrize("text, why", [
    ("Xenes check white sideways", "a check takes one chip and its use"),
    ("Xenes check blue up", "a check takes one chip and its use"),
    ("Xenes wounds green", "chips are white, red, blue"),
    ("check white up", "expected 'UNIT check COLOUR USE'"),
])
def test_chip_orders_are_parsed(text: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        C.parse_chip_order(text)
    assert C.parse_chip_order("Big Joe wounds red blue") == ("Big Joe", "wounds", ("red", "blue"))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.sampled_from(["draw", "spend"]), st.integers(0, 3),
                                                 st.integers(0, 5)), max_size=60))
def test_chips_conserve_the_bin(seed: int, steps: list[tuple[str, int, int]]) -> None:
    rng, b = random.Random(seed), C.ChipBin()
    hands = [C.counts() for _ in range(4)]
    for kind, who, n in steps:
        if kind == "draw":
            for c in b.draw(rng, n):
                hands[who][c] += 1
        else:
            held = [c for c in C.COLOURS if hands[who][c]]
            if held:
                c = held[n % len(held)]
                hands[who][c] -= 1
                b.put(c)
        for c in C.COLOURS:
            assert b.chips[c] + sum(h[c] for h in hands) == C.BIN[c]
            assert b.chips[c] >= 0


# ------------------------------------------------------------------------------------------ through the CLI


def test_worked_example_white_chip_turns_the_miss_and_red_saves_the_thug(tmp_path: Path) -> None:
    """The carbine burst reads 4 against TN 5; the white chip takes the entry above (7): a hit, 2 rounds, 2
    wounds 1 CT each (the seed's carbine example). The Thug's red chip negates 2 wounds: 2 wounds instead of
    4, so he stays in action (incapacitated at 4), then his concussion save (II-2, 6 - 2 for wounds) stuns."""
    evs = events(scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT]))
    drawn = of(evs, "chips_drawn")
    assert [(d["side"], d["hand"]) for d in drawn] == [("Xenes", {"white": 1, "red": 0, "blue": 1}),
                                                       ("Thugs", {"white": 0, "red": 1, "blue": 0})]
    assert drawn[0]["bin"] == {"white": 49, "red": 24, "blue": 9}
    chip, attack = evs.index(of(evs, "chip")[0]), evs.index(of(evs, "attack")[0])
    assert chip < attack  # the chip comes before the attack it changed
    white, red = of(evs, "chip")
    assert (white["colour"], white["use"], white["before"], white["after"]) == ("white", "up", 4, 7)
    a = evs[attack]
    assert (a["read"], a["result"], a["hit"], a["card"], a["wounds"], a["ct"]) == (7, 7, True, 34, 4, 2)
    assert (red["actor"], red["colour"], red["wounds_negated"], red["ct_negated"]) == ("Thug", "red", 2, 0)
    assert red["hand"] == {"white": 0, "red": 0, "blue": 0}
    assert not of(evs, "out_of_action")
    save = of(evs, "concussion")[0]
    assert (save["actor"], save["result"], save["stunned"]) == ("Thug", 4, True)


def test_without_chips_the_same_shot_misses(tmp_path: Path) -> None:
    evs = events(scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT], x_orders="[]", t_orders="[]"))
    assert not of(evs, "chip") and of(evs, "attack")[0]["hit"] is False


def test_red_draws_again_and_keeps_the_better_blue_adds(tmp_path: Path) -> None:
    # Red: card 34 reads 4; the next card (5) reads 8 at III-4: kept, the attack reads card 5.
    other = make_card(5, upper={("III", 4): 8, ("III", 1): 3})
    evs = events(scenario(tmp_path, [INIT, shot_card(4), other, SAVE, INIT], xenes="{red: 1}",
                          x_orders='["Xenes check red redraw"]', t_orders="[]"))
    red = of(evs, "chip")[0]
    assert (red["use"], red["before"], red["after"], red["cards"]) == ("redraw", 4, 8, [5])
    a = of(evs, "attack")[0]
    assert (a["read"], a["hit"], a["card"]) == (8, True, 5)
    # Blue: the next card's chained value (its III-1 entry, 3) is added to the 4: 7.
    evs = events(scenario(tmp_path, [INIT, shot_card(4), other, SAVE, INIT], xenes="{blue: 1}",
                          x_orders='["Xenes check blue add"]', t_orders="[]"))
    blue = of(evs, "chip")[0]
    assert (blue["use"], blue["before"], blue["after"], blue["cards"]) == ("add", 4, 7, [5])
    assert of(evs, "attack")[0]["read"] == 7 and of(evs, "attack")[0]["card"] == 34


def test_no_chip_on_a_critical_failure_nor_one_not_held(tmp_path: Path) -> None:
    evs = events(scenario(tmp_path, [INIT, shot_card("CF"), SAVE, INIT, INIT], t_orders="[]"))
    chip = of(evs, "chip")[0]
    assert chip["refused"] == "R-3.5: no chips on a critical failure" and "hand" not in chip
    assert of(evs, "attack")[0]["cf"] is True
    evs = events(scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT], xenes="{}", t_orders="[]"))
    assert of(evs, "chip")[0]["refused"] == "Xenes holds no white chip" and not of(evs, "attack")[0]["hit"]


@pytest.mark.parametrize("change, expect", [
    ({"x_orders": '["Thug check white up"]'}, "sides[0].chip_orders[0]: chip order for 'Thug', who is not on "
     "side 'Xenes'"),
    ({"x_orders": '["Xenes check white left"]'}, "sides[0].chip_orders[0]: a check takes one chip"),
    ({"xenes": "{white: 30}", "thugs": "{white: 30}"}, "sides: the sides hold 60 white chips; the bin has 50 "
     "(R-8.5)"),
])
def test_bad_chips_in_a_scenario_exit_2(tmp_path: Path, change: dict[str, str], expect: str) -> None:
    p = scenario(tmp_path, [INIT, shot_card(4)], **change)
    code, _out, err = cli("check", str(p))
    assert code == 2 and any(line.startswith(f"skirmish: {p}: {expect}") for line in err.splitlines()), err


# ------------------------------------------------------------------------------------------ AI sides


def test_ai_sides_draw_one_chip_each_and_the_battle_conserves_the_bin() -> None:
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml").with_options(chips=True)
    logs = []
    for _ in range(2):
        with Battle(sc, seed=4, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            b.run()
            bank = b.sys.ctx.chips
            for c in C.COLOURS:
                assert bank.bin.chips[c] + sum(h[c] for h in bank.hands.values()) == C.BIN[c]
            logs.append([e.to_line() for e in b.log])
    assert logs[0] == logs[1]  # one seeded source: the same draws and spends, byte for byte
    drawn = [json.loads(line) for line in logs[0] if '"chips_drawn"' in line]
    assert [len(d["drawn"]) for d in drawn] == [1, 1]  # AI sides draw one for all their combatants


def test_a_chip_on_the_concussion_save(tmp_path: Path) -> None:
    """The Thug's save reads 6 - 2 (wounds) = 4 vs 5; his white chip takes the entry above (9): 7, not stunned."""
    save = make_card(2, upper={("II", 2): 6, ("II", 3): 9})
    evs = events(scenario(tmp_path, [INIT, shot_card(4), save, INIT, INIT], thugs="{red: 1, white: 1}",
                          t_orders='["Thug wounds red", "Thug check white up"]'))
    white = [c for c in of(evs, "chip") if c["actor"] == "Thug" and c["use"] == "up"]
    assert [(c["before"], c["after"]) for c in white] == [(6, 9)]
    save_ev = of(evs, "concussion")[0]
    assert evs.index(white[0]) < evs.index(save_ev)
    assert (save_ev["result"], save_ev["success"], save_ev["stunned"]) == (7, True, False)


def test_a_chip_on_a_throw(tmp_path: Path) -> None:
    """A grenade's attack check (Throwing 2: III-2) reads 2; the white chip takes the entry above (9)."""
    p = scenario(tmp_path, [INIT, make_card(34, upper={("III", 2): 2, ("III", 3): 9}), SAVE, INIT, INIT, INIT],
                 t_orders="[]")
    text = p.read_text(encoding="utf-8")
    text = text.replace('"shoot Xenes Thug mode=prepared burst=3 spends=none"', '"throw Xenes at=4,1 item=frag_grenade"')
    text = text.replace('skills: {"shooting:rifle": 4}, weapons: [blast_carbine]',
                        "skills: {throwing: 2}, weapons: [{weapon: frag_grenade, ammo: 1}]")
    p.write_text(text, encoding="utf-8")
    evs = events(p)
    chip, throw = of(evs, "chip")[0], of(evs, "throw")[0]
    assert (chip["use"], chip["before"], chip["after"]) == ("up", 2, 9)
    assert evs.index(chip) < evs.index(throw) and throw["read"] == 9 and throw["card"] == 34


@settings(max_examples=60, deadline=None, derandomize=True)
@given(key=st.sampled_from(["chips", "chip_draws", "chip_orders"]), value=json_values)
def test_any_value_at_a_sides_chip_keys(tmp_path_factory: pytest.TempPathFactory, key: str, value: Any) -> None:
    """C-6: whatever a side's chip keys hold, `check` exits 0 or 2 with one line per error naming the file."""
    folder = tmp_path_factory.mktemp("chips")
    doc = yaml.safe_load(scenario(folder, [INIT, shot_card(4)]).read_text(encoding="utf-8"))
    doc["sides"][1][key] = value
    p = folder / "s.yaml"
    p.write_bytes(yaml.safe_dump(doc, allow_unicode=True).encode("utf-8", "surrogatepass"))
    assert_contract(p, f"{key} = {value!r:.60}")
