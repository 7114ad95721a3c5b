"""Review of two weapons (R-6.12) end to end: defects found by a second reader, each shown here first."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ecs.components import Loadout
from skirmish.rules.actions import Shoot, parse_action
from tests.test_fi_two_weapons_legal import _battle


def test_the_off_hands_weapon_is_reloaded_and_cleared(tmp_path: Path) -> None:
    """A reload action serves the main hand while its weapon needs one, else the off hand's (R-6.12, R-4.8): an
    empty or broken-down off-hand pistol is not lost for the rest of the battle."""
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    eid = b.world.entity("Me")
    load = b.world.get(eid, Loadout)
    off = load.weapons[1]
    off.rounds = 0
    assert b.check(Shoot("Me", "A", hand="off")) is not None
    assert b.check(parse_action("reload Me")) is None and b.legal_actions("Me").reload
    b.submit(parse_action("reload Me"))
    ev = [e for e in b.log if e.type == "reload"][-1]
    assert ev.hand == "off" and (off.rounds > 0 or off.reload_stage == 1) and load.weapons[0].reload_stage == 0
    assert "reloads the off hand's weapon" in ev.describe() and type(ev).from_json(ev.to_json()) == ev
    b.close()
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    load = b.world.get(b.world.entity("Me"), Loadout)
    load.weapons[1].jammed = True
    assert b.check(parse_action("reload Me")) is None
    b.submit(parse_action("reload Me"))
    cleared = [e for e in b.log if e.type == "reload"][-1]
    assert not load.weapons[1].jammed and cleared.cleared and "breakdown of the off hand's weapon" in cleared.describe()
    b.close()


def test_the_main_hand_is_reloaded_first(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    load = b.world.get(b.world.entity("Me"), Loadout)
    load.weapons[0].rounds = load.weapons[1].rounds = 0
    b.submit(parse_action("reload Me"))
    ev = [e for e in b.log if e.type == "reload"][-1]
    assert load.weapons[0].reload_stage == 1 and load.weapons[1].reload_stage == 0 and ev.hand is None
    assert "hand" not in ev.to_json()  # a one-hand reload's event is as before
    b.close()


def test_the_emptier_hand_is_reloaded_first(tmp_path: Path) -> None:
    """A main hand one round short does not keep the empty off hand waiting: the emptier is served (R-6.12)."""
    b = _battle(tmp_path, "[slug_pistol, slug_pistol]")
    load = b.world.get(b.world.entity("Me"), Loadout)
    load.weapons[0].rounds -= 1
    load.weapons[1].rounds = 0
    b.submit(parse_action("reload Me"))
    assert [e for e in b.log if e.type == "reload"][-1].hand == "off"
    assert load.weapons[1].rounds > 0 or load.weapons[1].reload_stage == 1
    b.close()


def test_the_utility_ai_reloads_an_empty_off_hand_with_no_target(tmp_path: Path) -> None:
    """The AI's reload option reads the hand the reload serves: the off hand's empty pistol with the main hand's full
    and no enemy in sight is reloaded, not left empty (R-6.12)."""
    from dataclasses import replace as dc_replace

    from skirmish.ai.utility import UtilityAI
    from skirmish.ai.utility.personality import PERSONALITIES
    from tests.conftest import battle_at
    traits = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
    me = (f"[{{name: Me, at: [0, 1], traits: {traits}, skills: {{'shooting:pistol': 3}}, "
          f"weapons: [slug_pistol, slug_pistol], two_weapons: true}}]")
    with battle_at(tmp_path, ["....#.........", "....#.........", "....#........."], me,
                   f"[{{name: A, at: [12, 1], traits: {traits}, wounds: 0}}]") as b:
        b.world.get(b.world.entity("Me"), Loadout).weapons[1].rounds = 0
        ai = UtilityAI(dc_replace(PERSONALITIES["normal"], runners_up=80))
        _, trace = ai.decide_traced(b.observe("Blue"), b.pending)
        reload = next(o for o in [trace["chosen"], *trace["runners_up"]] if o["option"] == "reload")
        spent = next(c for c in reload["considerations"] if c["name"] == "magazine spent")
        assert float(spent["input"]) == 1.0


def test_under_card_hands_an_off_hand_shot_readies_the_off_hands_weapon(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Under `initiative: cards` (R-5.8) an aimed off-hand shot not ready on its target readies the weapon in the
    other hand (R-6.2: a rifle's 3 steps a count, aimed twice), not the main hand's pistol (1 step a count)."""
    from tests.test_fi_hand_examples import TRAITS, at, events, foe, of, reads, scenario
    me = (f"{{name: Me, at: [0, 1], traits: {TRAITS.format(dex='III-2', ref='II-2')}, two_weapons: true, "
          f"skills: {{'shooting:pistol': 3, 'shooting:rifle': 3}}, weapons: [slug_pistol, blast_rifle]}}")
    cards = [reads("II", 2, 8), at(10, 1), at(6, 2), at(2, 3), reads("II", 2, "CF")]
    orders = ["hand Me keep=10,6", "shoot Me Klackon mode=aimed hand=off", "end Me"]
    evs = events(scenario(tmp_path, cards, me, foe(), orders), capsys)
    readying = [e for e in of(evs, "aim_step", "Me") if not e["ready"]]
    assert readying and readying[0]["steps"] == 6, readying


def test_a_launch_breaks_down_in_dice_mode_too(tmp_path: Path) -> None:
    """R-4.8 in dice mode (the breakdown field sampled from the deck model, RULES-NOTES): some seed's launch breaks
    the grenade launcher (reliability R) down; it then launches nothing until a reload clears it, and a launch that
    did not break keeps the event as before (no `breakdown` key)."""
    from skirmish.ai.controllers import ScriptedController
    from skirmish.battle import Battle
    from skirmish.content.scenario import parse_scenario
    from skirmish.rules.actions import Launch
    traits = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
    broke = whole = 0
    for seed in range(1, 150):
        text = f"""
name: launch breakdown dice
seed: {seed}
options: {{concussion_saves: false, randomizer: dice}}
map: {{ascii: ["................", "................", "................"]}}
victory: {{max_rounds: 1}}
sides:
  - name: Crew
    controller: scripted
    orders: ["declare Gunner slow"]
    units:
      - {{name: Gunner, at: [0, 1], weapons: [grenade_launcher], skills: {{'shooting:launcher': 3}}, traits: {traits}}}
  - name: Raiders
    controller: idle
    units:
      - {{name: Near, at: [15, 1], traits: {traits}, wounds: 0}}
"""
        sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
        b = Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})
        while b.pending is not None and not (b.pending.unit == "Gunner" and b.pending.kind == "act"):
            b.step()
        if b.pending is None:
            b.close()
            continue
        b.submit(Launch("Gunner", (15, 1)))
        ev = next(e for e in b.log if e.type == "launch")
        if ev.to_json().get("breakdown"):
            refused = b.check(Launch("Gunner", (15, 1)))
            assert refused is not None and "R-4.8" in str(refused) and b.legal_actions("Gunner").reload
            broke += 1
        else:
            assert "breakdown" not in ev.to_json()
            whole += 1
        b.close()
        if broke and whole:
            break
    assert broke and whole


def test_a_shot_named_for_the_main_hand_is_allowed_as_the_battle_accepts_it(tmp_path: Path) -> None:
    """`shoot U T hand=main` is the plain shot (the battle accepts it, R-6.12): legality allows what the battle
    accepts, for a unit with a weapon in each hand and for one without."""
    for two in (True, False):
        b = _battle(tmp_path / str(two), "[blast_pistol, slug_pistol]", two=two)
        legal = b.legal_actions("Me")
        for mode in ("snap", "prepared", "aimed"):
            for called in (None, "head"):
                a = Shoot("Me", "A", mode=mode, hand="main", called=called)
                assert legal.allows(a) == (b.check(a) is None), a
        b.close()


def test_called_double_taps_and_spends_are_allowed_as_the_battle_accepts_them(tmp_path: Path) -> None:
    """A double tap called at a location (it holds for both shots, R-6.12) or with bump spends, from either hand:
    legality allows exactly what `Battle.check` accepts (before, allows refused every called double tap)."""
    b = _battle(tmp_path, "[slug_pistol, slug_pistol]", declare="slow")
    legal = b.legal_actions("Me")
    for hand in ("", "main", "off"):
        for mode in ("snap", "prepared", "aimed"):
            for called in (None, "head", "belly"):
                for spends in (None, ("damage",)):
                    a = Shoot("Me", "A", mode=mode, hand=hand, double_tap=True, called=called, spends=spends)
                    assert legal.allows(a) == (b.check(a) is None), a
    assert legal.allows(Shoot("Me", "A", mode="snap", double_tap=True, called="head"))
    b.close()
