"""The AIs' melee contact is the rule's (R-1.3, R-7.x; skirmish/rules/fi/melee.py `in_contact`, docs/RULES-NOTES.md
"Contact across a wall corner"): an enemy diagonal across a closed wall corner is next to a unit but not within
1 m for hand-to-hand, so the AIs do not count it as engaged with the unit, as holding it in place (closed on,
R-7.2), nor as a blow's reach without a charge; an enemy on an open diagonal is."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from skirmish.ai import baseline_melee
from skirmish.ai.utility import melee as mm
from skirmish.ecs.view import BattleView
from tests.conftest import battle_at

T = "traits: {strength: III-2, dexterity: III-2, reflexes: II-2, vigor: III-2, acuity: II-2}"
CORNER = ["......", ".M#...", ".#F...", "......"]  # Me 1,1 and Foe 2,2 across the closed corner of 2,1 and 1,2
OPEN = ["......", ".M....", "......", "......"]


def _view(tmp_path: Path, rows: list[str]) -> BattleView:
    """Blue's view: Me (club) at 1,1; Pal at 5,2 sees Foe (fists) at 2,2, so Foe is no ghost to Blue."""
    b = battle_at(tmp_path, [r.replace("M", ".").replace("F", ".") for r in rows],
                  f"[{{name: Me, at: [1, 1], {T}, melee: [club]}}, {{name: Pal, at: [5, 2], {T}}}]",
                  f"[{{name: Foe, at: [2, 2], {T}}}]")
    v = b.observe("Blue")
    b.close()
    assert not v.unit("Foe").ghost
    return v


def _closed_on(v: BattleView) -> BattleView:
    """The same view with Foe (fists) inside Me's club (R-7.2: Me is closed on)."""
    me, foe = v.unit("Me"), v.unit("Foe")
    assert me.melee is not None and foe.melee is not None
    units = {"Me": replace(me, melee=replace(me.melee, held="club")),
             "Foe": replace(foe, melee=replace(foe.melee, inside=("Me",)))}
    return replace(v, units=tuple(units.get(u.name, u) for u in v.units))


@pytest.mark.parametrize(("rows", "touching"), [(CORNER, False), (OPEN, True)])
def test_engaged_held_and_threat_read_the_rules_contact(tmp_path: Path, rows: list[str], touching: bool) -> None:
    v = _view(tmp_path, rows)
    me, foe = v.unit("Me"), v.unit("Foe")
    assert [e.name for e in mm.engaged(v, me)] == (["Foe"] if touching else [])
    assert [e.name for e in mm.engaged(v, foe)] == (["Me"] if touching else [])
    held = _closed_on(v)
    assert mm.held(held, held.unit("Me")) == ("closed on" if touching else None)
    # Foe has only its fists: across the corner it has no blow at Me without going round (no charge with fists)
    assert (mm.melee_threat(v, foe, me) > 0) == touching


def test_the_baselines_held_answer_strikes_only_an_enemy_in_contact(tmp_path: Path) -> None:
    class Allow:
        def allows(self, a: object) -> bool:
            return type(a).__name__ == "MeleeAttack"

    for rows, want in ((CORNER, None), (OPEN, "Foe")):
        v = _view(tmp_path / str(len(rows[1].split("#"))), rows)
        got = baseline_melee.held_answer(v, v.unit("Me"), Allow())  # type: ignore[arg-type]
        assert (getattr(got, "target", None)) == want
