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
