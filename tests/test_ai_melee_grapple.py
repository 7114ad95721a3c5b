"""The utility AI entangles and trips (R-7.6, issue 14 item 7) where winning the contest buys more than its best blow,
with the reason in the trace, and strikes instead where it does not. Hand-built views (tests/conftest.py
`battle_at`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.utility import PERSONALITIES, UtilityAI, harm
from skirmish.ai.utility import melee as mm
from skirmish.ai.utility.grapple_options import grapple_chance, grapple_worth, raw_harm
from skirmish.ai.utility.melee_options import enemy_harm
from skirmish.rulesets.fi import Entangle, MeleeAttack, Trip
from tests.conftest import battle_at

ROWS = ["....................", "....................", "....................", "...................."]
NIMBLE = "strength: II-2, dexterity: IV-4, reflexes: III-2, vigor: III-2, acuity: II-2"
SLOW = "strength: III-2, dexterity: II-2, reflexes: III-2, vigor: III-2, acuity: II-2"
WHIP = f'traits: {{{NIMBLE}}}, skills: {{"fighting:whips": 5}}, melee: [whip]'
LASSO = f'traits: {{{NIMBLE}}}, skills: {{"fighting:lariats": 5}}, melee: [lariat]'
SWORD = ('traits: {strength: IV-3, dexterity: IV-3, reflexes: III-2, vigor: III-2, acuity: II-2}, '
         'skills: {"fighting:swords": 5}, melee: [sword]')
BRUTE = ('traits: {strength: V-3, dexterity: II-2, reflexes: III-2, vigor: III-2, acuity: II-2}, '
         'skills: {"fighting:swords": 5}, armour: [flak_vest], melee: [sword]')
PLATED = "armour: [hardshell, combat_helmet, greaves]"
GUNNER = f'traits: {{{SLOW}}}, skills: {{"shooting:rifle": 5}}, {PLATED}, weapons: [assault_rifle]'
UNARMED = f"traits: {{{SLOW}}}, {PLATED}"
RIFLE = ('traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}, '
         'skills: {"shooting:rifle": 3}, armour: [flak_vest], weapons: [assault_rifle]')


def _decide(tmp_path: Path, blue: str, red: str) -> tuple[Any, dict[str, Any], Any, Any]:
    with battle_at(tmp_path, ROWS, blue, red) as b:
        view, req = b.view(), b.pending
        action, trace = UtilityAI(replace(PERSONALITIES["hard"], runners_up=40)).decide_traced(view, req)  # grapples on
        assert req.legal().allows(action) and b.check(action) is None, action
        return action, trace, view, req.legal()


def _grapples(legal: Any) -> list[Entangle | Trip]:
    return [a for a in legal.melee if isinstance(a, Entangle | Trip)]


def test_a_whip_trips_a_strong_swordsman_its_friends_are_engaged_with(tmp_path: Path) -> None:
    """Two swordsmen engaged with a brute: the whip's blow is poor, but the trip (likely against the brute's low
    Dexterity) puts it on the ground where both friends strike at +2: the trip is chosen, its reason traced."""
    action, trace, view, _legal = _decide(
        tmp_path, f"[{{name: Me, at: [2, 1], {WHIP}}}, {{name: F, at: [3, 2], {SWORD}}}, {{name: G, at: [4, 2], {SWORD}}}]",
        f"[{{name: R1, at: [3, 1], {BRUTE}}}]")
    assert isinstance(action, Trip) and action.target == "R1"
    names = [c["name"] for c in trace["chosen"]["considerations"]]
    assert any(n.startswith("wins the contest: downs R1") for n in names)
    me, r1 = view.unit("Me"), view.unit("R1")
    p, worth, _ = grapple_worth(view, me, action, lambda e, _u: raw_harm(e), enemy_harm(view, r1, me))
    assert p == pytest.approx(grapple_chance(view, me, r1, "whip")) and 0.5 < p < 1
    assert worth > harm(mm.best_blow(view, me, r1)[0])


def test_the_same_whip_alone_strikes_instead(tmp_path: Path) -> None:
    """No friend engaged: the trip buys only this unit's +2 and a share of the brute's action: the blow is better,
    and no trip is offered (the trip was listed by the battle)."""
    action, trace, _view, legal = _decide(tmp_path, f"[{{name: Me, at: [2, 1], {WHIP}}}]",
                                         f"[{{name: R1, at: [3, 1], {BRUTE}}}]")
    assert any(isinstance(a, Trip) for a in _grapples(legal))
    assert isinstance(action, MeleeAttack)
    assert not any(o["action"].startswith(("trip", "entangle")) for o in [trace["chosen"], *trace["runners_up"]])


def test_a_lariat_entangles_a_plated_rifleman_that_threatens_the_side(tmp_path: Path) -> None:
    """A rifleman in plate with a friend of ours in its sights: the lariat's blow does little, its hold (hard to
    break by Strength against TN 8) takes the rifleman's next actions: entangle."""
    action, trace, _view, _legal = _decide(
        tmp_path, f"[{{name: Me, at: [2, 1], {LASSO}}}, {{name: F, at: [8, 3], {RIFLE}}}]",
        f"[{{name: R1, at: [3, 1], {GUNNER}}}]")
    assert isinstance(action, Entangle) and action.target == "R1"
    names = [c["name"] for c in trace["chosen"]["considerations"]]
    assert any(n.startswith("wins the contest: holds R1 in place") for n in names)


def test_no_entangle_of_a_harmless_enemy(tmp_path: Path) -> None:
    """The same plated figure without a weapon threatens nothing: holding it buys nothing, the blow is chosen."""
    action, _trace, _view, legal = _decide(
        tmp_path, f"[{{name: Me, at: [2, 1], {LASSO}}}, {{name: F, at: [8, 3], {RIFLE}}}]",
        f"[{{name: R1, at: [3, 1], {UNARMED}}}]")
    assert any(isinstance(a, Entangle) for a in _grapples(legal))
    assert not isinstance(action, Entangle | Trip)
