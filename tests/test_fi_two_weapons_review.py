"""Review of two weapons (R-6.12) end to end: defects found by a second reader, each shown here first."""

from __future__ import annotations

from pathlib import Path

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
    b.close()
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    load = b.world.get(b.world.entity("Me"), Loadout)
    load.weapons[1].jammed = True
    assert b.check(parse_action("reload Me")) is None
    b.submit(parse_action("reload Me"))
    assert not load.weapons[1].jammed and [e for e in b.log if e.type == "reload"][-1].cleared
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
