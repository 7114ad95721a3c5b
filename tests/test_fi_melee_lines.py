"""The attack menu's lines (skirmish.ui.fi_melee.enemy_lines) with a called location (R-6.1) keep each listed
martial arts maneuver (R-7.7): a Strike with a called shot stays that Strike, with its effects, and names the
location; it does not become a plain blow. A maneuver that is no blow (Disarm) is not aimed."""

from __future__ import annotations

from pathlib import Path

from skirmish.ui import fi_melee
from tests.test_fi_arts_melee import _with_arts


def test_a_called_location_keeps_the_maneuver_of_each_line(tmp_path: Path) -> None:
    b = _with_arts(tmp_path)
    listed = {(a.maneuver, a.effects) for a in b.legal_actions("Me").melee
              if getattr(a, "target", None) == "Foe" and getattr(a, "maneuver", "")}
    assert ("strike_medium", "plus_damage") in listed and ("disarm", "") in listed
    lines = [ln.action for ln in fi_melee.enemy_lines(b, b.view(), "Me", "Foe", "head")
             if isinstance(ln.action, fi_melee.fi.MeleeAttack)]
    assert {(a.maneuver, a.effects) for a in lines if a.maneuver} == listed
    assert all(a.called == ("head" if a.maneuver in ("", "strike_medium", "strike_short", "strike_low") else None)
               for a in lines)  # a Disarm is a check, no blow: no location to aim at
    strike = next(a for a in lines if (a.maneuver, a.effects) == ("strike_medium", "plus_damage"))
    assert b.check(strike) is None
    assert "at head" in fi_melee.describe(strike, b.view())
    b.close()
