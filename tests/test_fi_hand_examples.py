"""Card-hand initiative (R-5.8, `initiative: cards`): the seed's worked examples (`000_…` Conflict) replayed with
a stacked deck and scripted orders through `skirmish run --json` (C-4), and the special cards and the reserve.

Deck order in these battles: each unit in turn draws its Reflex card and then its hand (Crew first); then the
count-down's resolutions (rush tests, shots) in the order they happen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skirmish.rules.deck import Card
from tests.conftest import make_card, run, write_deck


def at(step: int, fragment: int, **kw: Any) -> Card:
    """The card of a step and fragment (R-4.1: impulse (step-1)*4 + fragment; number = impulse + 1)."""
    return make_card((step - 1) * 4 + fragment + 1, **kw)


def reads(column: str, row: int, value: Any) -> Card:
    """A card for a check: reads `value` at (column, row); step 1 (never a special card)."""
    return make_card(2, upper={(column, row): value})


BONUS = make_card(54, special="bonus")  # the black joker: step 14, fragment 5
DISCARD = make_card(1, special="discard")  # the red joker: step 0
TRAITS = "{{strength: III-2, dexterity: {dex}, reflexes: {ref}, vigor: III-2, acuity: II-2}}"


def scenario(tmp: Path, cards: list[Card], crew: str, foe: str, orders: list[str], rounds: int = 1) -> Path:
    """A stacked-deck battle file under `initiative: cards`: Crew (scripted `orders`) against an idle foe."""
    deck = write_deck(tmp / "deck.json", cards)
    text = f"""name: hand example
ruleset: fi
seed: 1
options: {{initiative: cards}}
map: {{ascii: ["............", "............", "............"]}}
deck: {{cards: {deck.name}, shuffle: false}}
victory: {{max_rounds: {rounds}}}
sides:
  - name: Crew
    controller: scripted
    orders: {json.dumps(orders)}
    units: [{crew}]
  - name: Others
    controller: scripted
    units: [{foe}]
"""
    path = tmp / "hand.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def events(path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code, out, err = run(["run", str(path), "--json"], capsys)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


def of(evs: list[dict[str, Any]], etype: str, actor: str | None = None) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == etype and (actor is None or e["actor"] == actor)]


def foe(name: str = "Klackon", ref: str = "II-2") -> str:
    return f"{{name: {name}, at: [9, 1], traits: {TRAITS.format(dex='III-2', ref=ref)}}}"


def test_chuks_hand_reflex_eight_three_cards_fires_the_mmg_at_six(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Chuk: Reflex 8 vs Easy 3 (a success and a bump) draws three cards; he keeps 10 and 6. On 10 he raises the
    heavy MMG (action speed 2: a preparation card, and aim counters, bulky: 4 steps a count); he fires at 6,
    ready, without the snap penalty."""
    chuk = (f"{{name: Chuk, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='II-2')}, "
            f"skills: {{'shooting:heavy': 3}}, weapons: [blast_mmg]}}")
    shot = make_card(30, upper={("III", 3): 9})
    cards = [reads("II", 2, 8), at(10, 1), at(6, 2), at(2, 3), reads("II", 2, "CF"), shot]
    orders = ["hand Chuk keep=10,6", "aim Chuk Klackon", "end Chuk",
              "shoot Chuk Klackon mode=prepared burst=10", "end Chuk"]
    evs = events(scenario(tmp_path, cards, chuk, foe(), orders), capsys)
    draw = of(evs, "hand_draw", "Chuk")[0]
    assert (draw["result"], draw["tn"], draw["success"], draw["bumps"]) == (8, 3, True, 1)
    assert draw["drawn"] == ["10.1", "6.2", "2.3"]
    keep = of(evs, "hand_keep", "Chuk")[0]
    assert keep["kept"] == ["10.1", "6.2"] and keep["discarded"] == ["2.3"]
    assert of(evs, "hand_draw", "Klackon")[0]["drawn"] == []  # a CF draws no cards
    steps = [(e["step"], e["actor"]) for e in of(evs, "step")]
    assert steps == [(10, "Chuk"), (6, "Chuk")]
    ready = [e for e in of(evs, "aim_step", "Chuk") if e["ready"]]
    assert ready and ready[0]["step"] == 7 and ready[0]["counters"] == 4 and ready[0]["steps"] == 4
    attack = of(evs, "attack", "Chuk")[0]
    assert attack["phase"] is None and not any("snap" in m["reason"] for m in attack["modifiers"])
    assert attack["card"] == 30


def test_chuks_first_card_lays_the_heavy_mmg_aside_preparing(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Action speed 2 (R-5.8): a burst ordered on the first card lays the card aside preparing; the next card
    fires it (unready here: a snap shot takes the aim penalty, R-6.2); the card spent preparing takes no shot."""
    chuk = (f"{{name: Chuk, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='II-2')}, "
            f"skills: {{'shooting:heavy': 3}}, weapons: [blast_mmg]}}")
    cards = [reads("II", 2, 8), at(10, 1), at(6, 2), at(2, 3), reads("II", 2, "CF"), make_card(30)]
    orders = ["hand Chuk keep=10,6", "shoot Chuk Klackon mode=snap burst=10",  # prepares
              "shoot Chuk Klackon mode=snap burst=10",  # refused: the turn ends (the fallback)
              "shoot Chuk Klackon mode=snap burst=10", "end Chuk"]
    evs = events(scenario(tmp_path, cards, chuk, foe(), orders), capsys)
    prepare = of(evs, "prepare", "Chuk")
    assert [(e["cards"], e["of"], e["weapon"]) for e in prepare] == [(1, 1, "blast MMG")]
    refused = of(evs, "refused", "Chuk")
    assert refused and "R-5.8" in refused[0]["reason"] and "preparing" in refused[0]["reason"]
    attacks = of(evs, "attack", "Chuk")
    assert len(attacks) == 1 and any("snap" in m["reason"] for m in attacks[0]["modifiers"])
    before = [e["step"] for e in of(evs, "step", "Chuk") if evs.index(e) < evs.index(attacks[0])]
    assert before == [10, 6]  # fired on the second card


def _kayla(tmp_path: Path, rush_reads: list[Card]) -> list[Card]:
    return [reads("IV", 3, 4), at(7, 4), at(5, 1), reads("II", 2, "CF"), *rush_reads]


KAYLA = f"{{name: Kayla, at: [0, 1], traits: {TRAITS.format(dex='IV-2', ref='IV-3')}}}"


def test_kaylas_rush_from_seven_at_eleven_reads_one_d4(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Kayla: 3d10 Reflexes read 4 (a success, no bump): two cards, 7 and 5. She rushes the 7 at step 11: four
    steps early shift her 2d10 Dexterity (IV-2) up one row and left three columns, to I-1 (1d4) vs Standard 5.
    The d4 explodes (4, then 2: 6): she acts at 11."""
    cards = _kayla(tmp_path, [reads("I", 1, (4, True)), reads("I", 1, 2)])
    orders = ["hand Kayla keep=7,5 rush=7@11", "move Kayla 3,1", "end Kayla"]
    evs = events(scenario(tmp_path, cards, KAYLA, foe("Agent"), orders), capsys)
    draw = of(evs, "hand_draw", "Kayla")[0]
    assert (draw["result"], draw["success"], draw["bumps"], draw["drawn"]) == (4, True, 0, ["7.4", "5.1"])
    rush = of(evs, "rush", "Kayla")[0]
    assert (rush["column"], rush["row"], rush["tn"], rush["result"], rush["success"]) == ("I", 1, 5, 6, True)
    assert rush["acts_at"] == 11 and rush["step"] == 11
    steps = [(e["step"], e["card"], e["rushed"]) for e in of(evs, "step", "Kayla")]
    assert steps == [(11, "7.4", True), (5, "5.1", False)]
    assert of(evs, "move", "Kayla")[0]["round"] == 1


def test_kaylas_failed_rush_acts_two_steps_after_her_card(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    cards = _kayla(tmp_path, [reads("I", 1, 3)])
    orders = ["hand Kayla keep=7,5 rush=7@11"]
    evs = events(scenario(tmp_path, cards, KAYLA, foe("Agent"), orders), capsys)
    rush = of(evs, "rush", "Kayla")[0]
    assert (rush["result"], rush["success"], rush["acts_at"]) == (3, False, 5)
    assert [e["step"] for e in of(evs, "step", "Kayla")] == [5, 5]


def test_a_rush_past_one_d4_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """IV-2 can be rushed four steps (one row, three columns); five would go before I-1 (R-5.8)."""
    cards = _kayla(tmp_path, [])
    orders = ["hand Kayla keep=7,5 rush=7@12"]
    evs = events(scenario(tmp_path, cards, KAYLA, foe("Agent"), orders), capsys)
    refused = of(evs, "refused", "Kayla")
    assert refused and "I-1" in refused[0]["reason"] and "R-5.8" in refused[0]["reason"]
    assert not of(evs, "rush")


X = f"{{name: Xi, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='III-2')}}}"


def test_bonus_is_kept_besides_two_and_acts_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Reflex 8 draws three: BONUS, 9 and 4; the BONUS is kept besides the two and acts at 14."""
    cards = [reads("III", 2, 8), BONUS, at(9, 2), at(4, 1), reads("II", 2, "CF")]
    evs = events(scenario(tmp_path, cards, X, foe(), ["hand Xi"]), capsys)
    keep = of(evs, "hand_keep", "Xi")[0]
    assert keep["kept"] == ["9.2", "4.1"] and keep["bonus"] == ["14.5 BONUS"] and keep["discarded"] == []
    assert [e["step"] for e in of(evs, "step", "Xi")] == [14, 9, 4]


def test_discard_loses_itself_and_the_highest_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Reflex 13 (two bumps) draws four: DISCARD, 9, 4, 2: the DISCARD takes the 9; 4 and 2 are kept."""
    cards = [reads("III", 2, 13), DISCARD, at(9, 2), at(4, 1), at(2, 2), reads("II", 2, "CF")]
    evs = events(scenario(tmp_path, cards, X, foe(), ["hand Xi"]), capsys)
    keep = of(evs, "hand_keep", "Xi")[0]
    assert keep["kept"] == ["4.1", "2.2"] and keep["discarded"] == ["0.0 DISCARD", "9.2"]


def _reserve_round(extra_orders: list[str], second: list[Card]) -> tuple[list[Card], list[str]]:
    first = [reads("III", 2, 4), at(9, 1), at(4, 1), reads("II", 2, "CF")]
    orders = ["hand Xi keep=9,4", "wait Xi", "end Xi", *extra_orders]
    return first + second + [reads("II", 2, "CF")], orders


def test_discard_takes_the_reserve_as_the_highest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Round 1: Xi reserves the 9 (waits) and passes on the 4, keeping the reserve. Round 2: he draws (asked
    first, as he holds a reserve) DISCARD, 8, 3: the reserve counts highest, so it is lost and 8, 3 stay."""
    cards, orders = _reserve_round(["hand Xi forgo=no", "hand Xi keep=8,3"],
                                   [reads("III", 2, 8), DISCARD, at(8, 1), at(3, 3)])
    evs = events(scenario(tmp_path, cards, X, foe(), orders, rounds=2), capsys)
    reserve = [(e["round"], e["what"], e["card"]) for e in of(evs, "reserve", "Xi")]
    assert reserve == [(1, "reserved", "9.1"), (1, "kept", "9.1"), (2, "lost", "9.1")]
    keep = next(e for e in of(evs, "hand_keep", "Xi") if e["round"] == 2)
    assert keep["reserve_lost"] and keep["kept"] == ["8.1", "3.3"] and keep["discarded"] == ["0.0 DISCARD"]


def test_forgo_the_draw_to_hold_the_reserve(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards, orders = _reserve_round(["hand Xi forgo=yes"], [])
    evs = events(scenario(tmp_path, cards, X, foe(), orders, rounds=2), capsys)
    assert not [e for e in of(evs, "hand_draw", "Xi") if e["round"] == 2]
    keep = next(e for e in of(evs, "hand_keep", "Xi") if e["round"] == 2)
    assert keep["forgo"] and keep["reserve"] == "9.1" and keep["kept"] == []


def test_forgo_without_a_reserve_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cards = [reads("III", 2, 4), at(9, 1), at(4, 1), reads("II", 2, "CF")]
    evs = events(scenario(tmp_path, cards, X, foe(), ["hand Xi forgo=yes"]), capsys)
    refused = of(evs, "refused", "Xi")
    assert refused and "R-5.8" in refused[0]["reason"] and "reserve" in refused[0]["reason"]


def test_a_hand_under_phases_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario(tmp_path, [reads("III", 2, 4)] * 3, X, foe(), ["hand Xi keep=9,4"])
    path.write_text(path.read_text().replace("options: {initiative: cards}", "options: {}"))
    evs = events(path, capsys)
    refused = of(evs, "refused", "Xi")
    assert refused and "initiative: cards" in refused[0]["reason"]


def test_the_shipped_chuk_example_plays_as_built(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tests/data/hand/chuk.yaml (with its stacked deck) is the first example as files a person can run:
    `skirmish run tests/data/hand/chuk.yaml --json` writes the same events."""
    shipped = events(Path(__file__).parent / "data" / "hand" / "chuk.yaml", capsys)
    chuk = (f"{{name: Chuk, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='II-2')}, "
            f"skills: {{'shooting:heavy': 3}}, weapons: [blast_mmg]}}")
    cards = [reads("II", 2, 8), at(10, 1), at(6, 2), at(2, 3), reads("II", 2, "CF"),
             make_card(30, upper={("III", 3): 9})]
    orders = ["hand Chuk keep=10,6", "aim Chuk Klackon", "end Chuk",
              "shoot Chuk Klackon mode=prepared burst=10", "end Chuk"]
    built = events(scenario(tmp_path, cards, chuk, foe(), orders), capsys)
    assert shipped[1:] == built[1:] and of(shipped, "attack", "Chuk")


def test_harrys_aim_counters_ready_the_rifle_for_the_reserve_shot(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Harry: he aims at the bug on 12 (a blast rifle: 3 steps a count under R-6.2's card initiative); on 10 he
    reserves his card (a wait). On 9 the bug moves: Harry's 2d8 Reflex reads 4, the bug's 1d10 reads 1, so he
    plays the reserve first; three counters are on his card, so the shot is ready: no snap penalty; TN 5 and
    the 3d8 column reads 7: a hit."""
    harry = (f"{{name: Harry, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='III-2')}, "
             f"skills: {{'shooting:rifle': 3}}, weapons: [blast_rifle]}}")
    bug = f"{{name: Bug, at: [9, 1], traits: {TRAITS.format(dex='III-2', ref='IV-1')}}}"
    cards = [reads("III", 2, 4), at(12, 1), at(10, 3), reads("IV", 1, 2), at(9, 2),
             reads("III", 2, 4), reads("IV", 1, 1), make_card(2, upper={("III", 3): 7})]
    path = scenario(tmp_path, cards, harry, bug, ["hand Harry keep=12,10", "aim Harry Bug", "end Harry",
                                                  "wait Harry"])
    path.write_text(path.read_text().replace(
        "    units: [{name: Bug", '    orders: ["hand Bug keep=9", "move Bug 7,1", "end Bug"]\n    units: [{name: Bug'),
        encoding="utf-8")
    evs = events(path, capsys)
    ready = [e for e in of(evs, "aim_step", "Harry") if e["ready"]]
    assert ready[0]["step"] == 10 and ready[0]["counters"] == 3 and ready[0]["steps"] == 3
    assert [(e["what"], e["card"]) for e in of(evs, "reserve", "Harry")] == [("reserved", "10.3"), ("spent", "10.3")]
    trigger = of(evs, "trigger", "Harry")[0]
    assert (trigger["waiter_result"], trigger["mover_result"], trigger["waiter_first"]) == (4, 1, True)
    attack = of(evs, "attack", "Harry")[0]
    assert attack["trigger"] and (attack["tn"], attack["result"], attack["hit"]) == (5, 7, True)
    assert not any("snap" in m["reason"] for m in attack["modifiers"])


def test_aim_counters_go_when_readiness_is_lost(tmp_path: Path) -> None:
    """R-6.2: CT damage (or a move) loses readiness; under card hands the aim counters go with it, so the next
    continuing phase does not ready the weapon again."""
    from skirmish.ai.controllers import ScriptedController
    from skirmish.battle import Battle
    from skirmish.content.scenario import load_scenario
    from skirmish.ecs.components import Readiness

    chuk = (f"{{name: Chuk, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='II-2')}, "
            f"skills: {{'shooting:heavy': 3}}, weapons: [blast_mmg]}}")
    cards = [reads("II", 2, 8), at(10, 1), at(6, 2), at(2, 3), reads("II", 2, "CF"), make_card(30)]
    sc = load_scenario(scenario(tmp_path, cards, chuk, foe(), ["hand Chuk keep=10,6", "aim Chuk Klackon", "end Chuk"]))
    with Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides}) as b:
        while not any(e.type == "aim_step" and e.ready for e in b.log):
            assert b.step()
        eid = b.world.entity("Chuk")
        assert b.sys.hand(eid).aiming is not None
        b.world.get(eid, Readiness).target = None  # as a CT hit does
        b.sys.continuing(6)
        assert b.sys.hand(eid).aiming is None and b.world.peek(eid, Readiness).target is None
