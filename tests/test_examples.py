"""Worked examples from the seeds, replayed with stacked cards and asserting the seeds' numbers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.armoury import shipped
from skirmish.content.scenario import parse_scenario
from skirmish.rules.checks import Pool, bumps, settle, task_successes, tn
from skirmish.rules.deck import Deck
from skirmish.rules.dice import read_pool
from skirmish.rules.equipment import Speed
from skirmish.rules.fi.ranged import ArmourLayer, ShotSetup, TargetState, resolve_shot
from skirmish.rules.fi.timing import Part, TimingError, check_turn, turn_speed
from skirmish.rules.randomizer import CardDraw
from tests.conftest import make_card, write_deck

ARM = shipped()


def _draw(card):  # one stacked card, with a deck behind it for chains
    deck = Deck([card], random.Random(0), shuffle=False)
    return CardDraw(deck.draw(), deck)


def _setup(weapon: str, row: int, column: str = "III", burst: int = 0, **kw) -> ShotSetup:
    base = dict(weapon=ARM.weapons[weapon], column=column, row=row, halve=False, tn=5, tn_mods=(),
                result_mods=(), distance_m=8.0, burst=burst, spends=())
    base.update(kw)
    return ShotSetup(**base)


def test_blast_carbine_burst_on_the_thug() -> None:
    """Xenes, 4d8 rifle, burst of 3 at TN 5: reads 7, 2 rounds hit (left arm, then chest above it),
    PN 6 beats LBA3 AV 4 (P), 13 damage each = 2 wounds 1 CT, 4 wounds 2 CT in all; the weapon breaks."""
    card = make_card(34, upper={("III", 4): 7}, lower={("III", 3): 13}, burst={3: 2, 5: 3, 10: 5},
                     hit_stack=("head", "chest", "left_arm", "belly"), standard=2,
                     ablation=("P", "A", "D"), toggle=False, breakdown="F")
    lba3 = ARM.armour["lba3"]
    layers = {loc: (ArmourLayer(0, lba3.name, lba3.kind, lba3.av),) for loc in lba3.locations}
    out = resolve_shot(_draw(card), _setup("blast_carbine", 4, burst=3), TargetState(6, layers))
    assert out.hit and out.total == 7 and out.rounds_hit == 2 and out.pool == 1
    assert [h.location for h in out.hits] == ["left_arm", "chest"]
    assert [h.layers[0]["result"] for h in out.hits] == ["P", "P"]
    assert [(h.damage, h.wounds, h.ct) for h in out.hits] == [(13, 2, 1), (13, 2, 1)]
    assert (out.wounds, out.ct) == (4, 2)
    assert out.breakdown  # F on the card, reliability R: at or right of R


def test_blast_pistol_to_the_belly() -> None:
    """Kayla's blast pistol (4d6) on card 45: 26 to the belly of a size-6 agent = 4 wounds 2 CT."""
    card = make_card(45, upper={("III", 3): 8}, lower={("II", 4): 26}, hit_stack=("chest", "vitals", "belly",
                     "left_leg"), standard=2, breakdown=None)
    out = resolve_shot(_draw(card), _setup("blast_pistol", 3), TargetState(6, {}))
    assert out.hits[0].location == "belly"
    assert (out.damage, out.wounds, out.ct) == (26, 4, 2)


def test_hrulfgarr_result_twelve_against_six_is_one_bump() -> None:
    assert bumps(12, 6) == 1 and bumps(10, 6) == 0 and bumps(16, 6) == 2 and bumps(5, 6) == 0


def test_xenes_security_task_four_successes() -> None:
    """4d8 Security reads 9 vs TN 5: success; tools 5d6 read 27 at complexity 6 = 4 successes."""
    card = make_card(10, upper={("III", 4): 9}, lower={("II", 5): 27})
    draw = _draw(card)
    read = draw.check("III", 4, 5, 0)
    res = settle(read.result, read.cf, Pool("III", 4, "security"), tn("standard"))
    assert res.success and res.total == 9
    assert task_successes(draw.effect("II", 5), 6) == 4


def test_allison_explodes_one_maximum_at_a_time() -> None:
    """2d8 climbing shows two 8s; she rolls one: 8 then 3 for 19 and keeps it."""
    rolls = iter([8, 8, 8, 3])
    read = read_pool(lambda s: next(rolls), 8, 2, want=lambda total: total < 7)
    assert read.result == 19 and not read.cf and read.chains == ((8, 8, 3),)


def test_cf_on_dice_needs_more_than_half_ones() -> None:
    rolls = iter([1, 1, 5])
    assert read_pool(lambda s: next(rolls), 8, 3, want=lambda t: False).cf
    rolls = iter([1, 5, 1, 6])
    assert not read_pool(lambda s: next(rolls), 8, 4, want=lambda t: False).cf


def test_cover_penetration_low_cover() -> None:
    """A hit on the belly behind hardwood crates (AV 3) with PN 6 penetrates; PN drops by 1 (3//2)."""
    card = make_card(20, upper={("III", 3): 6}, lower={("III", 3): 12}, hit_stack=("chest", "vitals", "belly",
                     "left_leg"), standard=2, ablation=("P", "P", "P"), toggle=False)
    flak = ARM.armour["flak_vest"]
    target = TargetState(6, {"belly": (ArmourLayer(0, flak.name, flak.kind, flak.av),)})
    out = resolve_shot(_draw(card), _setup("blast_carbine", 3, cover="low", cover_av=3), target)
    h = out.hits[0]
    assert h.cover == "penetrated" and h.layers[0]["pn"] == 5


def test_cover_stops_when_pn_equals_av_and_toggle_no() -> None:
    card = make_card(20, upper={("III", 3): 6}, hit_stack=("chest", "vitals", "belly", "left_leg"),
                     standard=2, toggle=False)
    out = resolve_shot(_draw(card), _setup("blast_carbine", 3, cover="low", cover_av=6), TargetState(6, {}))
    assert out.hit and out.hits[0].cover == "stopped" and out.damage == 0
    card_yes = make_card(20, upper={("III", 3): 6}, hit_stack=("chest", "vitals", "belly", "left_leg"),
                         standard=2, toggle=True)
    out = resolve_shot(_draw(card_yes), _setup("blast_carbine", 3, cover="low", cover_av=6), TargetState(6, {}))
    assert out.hits[0].cover == "penetrated"


def test_prone_target_needs_the_prone_mark() -> None:
    card = make_card(20, upper={("III", 3): 9}, hit_stack=("head", "chest", "vitals", "belly"), standard=1,
                     prone=(True, False, False, False))
    out = resolve_shot(_draw(card), _setup("blast_carbine", 3, prone_rule=True), TargetState(6, {}, prone=True))
    assert out.hit and not out.hits[0].counted and out.damage == 0


def test_ablation_a_gives_reduced_damage_and_loses_av() -> None:
    card = make_card(20, upper={("III", 3): 6}, lower={("I", 1): 3, ("III", 1): 5, ("III", 3): 20},
                     hit_stack=("chest", "vitals", "belly", "left_leg"), standard=0, ablation=("P", "A", "D"))
    lba3 = ARM.armour["lba3"]
    target = TargetState(6, {"chest": (ArmourLayer(0, lba3.name, lba3.kind, 6),)})  # PN 6 vs AV 6: middle band
    out = resolve_shot(_draw(card), _setup("blast_carbine", 3), target)
    h = out.hits[0]
    assert h.level == "reduced" and h.av_loss == [(0, 1)] and h.damage == 5  # RD 1d8 reads row 1


def test_combining_examples() -> None:
    """Chuk's MMG alone is SLOW; Sid runs and fires his pistol (engage) at NORMAL; Kayla's three actions
    (run, pistol, draw a baton) are SLOW; a SLOW action combines with nothing."""
    assert turn_speed([Part("attack", int(Speed.SLOW), "prepared")]) == Speed.SLOW
    assert turn_speed([Part("move", running=True), Part("attack", int(Speed.FAST), "prepared")]) == Speed.NORMAL
    assert turn_speed([Part("move", running=True), Part("attack", int(Speed.FAST), "prepared"),
                       Part("reload", int(Speed.NORMAL))]) == Speed.SLOW
    with pytest.raises(TimingError, match=r"R-5\.5"):
        turn_speed([Part("attack", int(Speed.SLOW), "prepared"), Part("reload", int(Speed.NORMAL))])
    with pytest.raises(TimingError, match=r"R-5\.3"):
        check_turn(Speed.FAST, [Part("move"), Part("attack", int(Speed.NORMAL), "prepared")])
    # Xenes, NORMAL declared: walk + fast laser pistol is an engage at NORMAL.
    check_turn(Speed.NORMAL, [Part("move"), Part("attack", int(Speed.FAST), "prepared")])


def _initiative_battle(tmp_path: Path, card, units: str, orders: list[str], sides2: str) -> Battle:
    deck = write_deck(tmp_path / "deck.json", [card] * 3)
    text = f"""
name: initiative example
seed: 1
map: {{ascii: ["..........", "..........", ".........."]}}
deck: {{cards: {deck.name}, shuffle: false}}
sides:
  - name: Crew
    controller: scripted
    orders: {orders!r}
    units: {units}
  - name: Others
    controller: scripted
    units: {sides2}
"""
    sc = parse_scenario(text, str(tmp_path / "s.yaml"), base=tmp_path)
    ctrl = {s.name: ScriptedController(s.orders) for s in sc.spec.sides}
    return Battle(sc, controllers=ctrl)  # type: ignore[arg-type]


def _traits(reflexes: str) -> str:
    return f"{{strength: III-2, dexterity: III-2, reflexes: {reflexes}, vigor: III-2, acuity: II-2}}"


def test_initiative_antares_runs_from_the_cops(tmp_path: Path) -> None:
    """Card 42: Antares (FAST) reads 6 and goes in phase II; the officers read CF and hesitate."""
    card = make_card(42, upper={("III", 2): 6, ("II", 2): "CF"})
    units = f"[{{name: Antares, at: [0, 0], traits: {_traits('III-2')}}}]"
    cops = (f"[{{name: Officer-1, at: [9, 0], traits: {_traits('II-2')}}}, "
            f"{{name: Officer-2, at: [9, 2], traits: {_traits('II-2')}}}]")
    b = _initiative_battle(tmp_path, card, units, ["declare Antares fast"], cops)
    while b.ctx.round == 1 and b.step():
        pass
    ini = {e.actor: e for e in b.log if e.type == "initiative" and e.round == 1}
    assert ini["Antares"].result == 6 and ini["Antares"].options == [2, 3, 4]
    assert ini["Antares"].phase == 2
    for cop in ("Officer-1", "Officer-2"):
        assert ini[cop].cf and ini[cop].hesitate and "R-3.5" in ini[cop].rules
    turns = [e.actor for e in b.log if e.type == "turn" and e.round == 1]
    assert turns == ["Antares"]
    b.close()


def test_initiative_sid_and_chuk_against_the_kyr(tmp_path: Path) -> None:
    """Card 28: Chuk (2d6, NORMAL) reads 2 -> IV; Kyr 2d10 read 7: NORMAL -> III, FAST -> I;
    Sid (3d10, FAST) reads 8 -> I and acts before Kyr operative 2 (bigger Reflex pool)."""
    card = make_card(28, upper={("II", 2): 2, ("IV", 2): 7, ("IV", 3): 8})
    crew = (f"[{{name: Chuk, at: [0, 0], traits: {_traits('II-2')}}}, "
            f"{{name: Sid, at: [0, 2], traits: {_traits('IV-3')}}}]")
    kyr = ", ".join(f"{{name: Kyr-{i}, at: [9, {i - 1}], traits: {_traits('IV-2')}}}" for i in (1, 2, 3))
    orders = ["declare Chuk normal", "declare Sid fast"]
    b = _initiative_battle(tmp_path, card, crew, orders, f"[{kyr}]")
    b.controllers["Others"] = ScriptedController(["declare Kyr-1 normal", "declare Kyr-2 fast",
                                                  "declare Kyr-3 normal"])
    while b.ctx.round == 1 and b.step():
        pass
    phase = {e.actor: e.phase for e in b.log if e.type == "initiative" and e.round == 1}
    assert phase == {"Chuk": 4, "Sid": 1, "Kyr-1": 3, "Kyr-2": 1, "Kyr-3": 3}
    turns = [e.actor for e in b.log if e.type == "turn" and e.round == 1]
    assert turns == ["Sid", "Kyr-2", "Kyr-1", "Kyr-3", "Chuk"]
    b.close()


def test_scripted_shot_through_a_battle(tmp_path: Path) -> None:
    """The carbine example through the whole stack: stacked deck, scripted orders, C-3 event fields."""
    init = make_card(1, upper={("III", 2): 9})
    shot = make_card(34, upper={("III", 4): 7}, lower={("III", 3): 13}, burst={3: 2, 5: 3, 10: 5},
                     hit_stack=("head", "chest", "left_arm", "belly"), standard=2, ablation=("P", "A", "D"),
                     toggle=False, breakdown="F")
    deck = write_deck(tmp_path / "deck.json", [init, shot, init])
    text = f"""
name: carbine
seed: 1
map: {{ascii: ["............", "............"]}}
deck: {{cards: {deck.name}}}
sides:
  - name: Xenes
    controller: scripted
    orders: ["declare Xenes normal", "shoot Xenes Thug mode=prepared burst=3 spends=none", "end Xenes"]
    units:
      - {{name: Xenes, at: [0, 0], traits: {_traits('III-2')}, skills: {{"shooting:rifle": 4}},
         weapons: [blast_carbine]}}
  - name: Thugs
    controller: idle
    units:
      - {{name: Thug, at: [4, 0], traits: {_traits('II-2')}, armour: [lba3]}}
"""
    sc = parse_scenario(text, "carbine.yaml", base=tmp_path)
    from skirmish.ai.controllers import make_controller

    ctrl = {s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides}
    with Battle(sc, controllers=ctrl) as b:  # type: ignore[arg-type]
        b.run()
        attack = next(e for e in b.log if e.type == "attack")
        j = attack.to_json()
        for key in ("type", "round", "phase", "actor", "rules", "target", "tn", "result", "hit", "location",
                    "ablation", "damage", "wounds", "ct", "modifiers", "card"):
            assert key in j
        assert (j["tn"], j["result"], j["hit"], j["card"]) == (5, 7, True, 34)
        assert (j["wounds"], j["ct"], j["location"]) == (4, 2, "left_arm")
        assert j["breakdown"] is True
        assert any(e.type == "out_of_action" and e.state == "incapacitated" for e in b.log)
        assert b.outcome is not None and b.outcome.winner == "Xenes"
