"""Both AIs use melee and the mind (issue 14 item 7): the utility AI (and the search tier it proposes to) weighs
blows, charges, Close, active defence and contests on the shots' scale with the melee rules' own numbers, chooses
them where they pay and not where a shot is better; the scripted baselines answer legally when held in melee
(R-7.2, R-7.6). Hand-built views (tests/conftest.py `battle_at`); the soak is tests/test_ai_melee_soak.py."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.ai.estimate import estimate_shot
from skirmish.ai.utility import PERSONALITIES, UtilityAI, harm
from skirmish.ai.utility import melee as mm
from skirmish.rules.actions import Shoot, parse_action
from skirmish.rulesets.fi import Charge, Close, Contest, Defend, MeleeAttack
from tests.conftest import battle_at, make_card
from tests.test_fi_melee import _battle, _holds, _init, _to_turn, _unit

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
RIFLE = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
KNIFE = f'traits: {TRAITS}, skills: {{"fighting:knives": 3}}, melee: [vibro_knife]'
SWORD = ('traits: {strength: IV-3, dexterity: IV-3, reflexes: III-2, vigor: III-2, acuity: II-2}, '
         'skills: {"fighting:swords": 5}, melee: [sword]')
ROWS = ["....................", "....................", "....................", "...................."]


def _decide(tmp_path: Path, blue: str, red: str, ai: str = "utility") -> tuple[Any, dict[str, Any], Any]:
    """Me's first action chosen by `ai` (its trace widened for the utility AI), with the view it read."""
    with battle_at(tmp_path, ROWS, blue, red) as b:
        view, req = b.view(), b.pending
        ctrl = UtilityAI(replace(PERSONALITIES["hard"], runners_up=40)) if ai == "utility" else make_ai(ai)  # the full rung
        action, trace = ctrl.decide_traced(view, req)
        assert req.legal().allows(action), action
        assert b.check(action) is None
        return action, trace, view


def _options(trace: dict[str, Any]) -> list[dict[str, Any]]:
    return [trace["chosen"], *trace["runners_up"]]


def _inputs(o: dict[str, Any]) -> dict[str, float]:
    return {str(c["name"]): float(c["input"]) for c in o["considerations"]}


def test_a_rifleman_adjacent_to_a_knife_fighter_shoots_at_point_blank(tmp_path: Path) -> None:
    """Melee matters to the rifleman (the enemy engaged with it carries a knife): its fists and an active defence are
    weighed, with their reasons, and lose to the burst at point blank, whose harm the blow's does not reach."""
    action, trace, view = _decide(tmp_path, f"[{{name: Me, at: [2, 1], {RIFLE}}}]",
                                  f"[{{name: R1, at: [3, 1], {KNIFE}}}]")
    assert isinstance(action, Shoot) and action.target == "R1"
    opts = _options(trace)
    blow = next(o for o in opts if o["action"].startswith("melee Me target=R1"))
    assert "hit chance" in _inputs(blow) and "expected harm" in _inputs(blow)
    assert _inputs(blow)["expected harm"] < _inputs(trace["chosen"])["expected harm"]
    me, r1 = view.unit("Me"), view.unit("R1")
    assert harm(mm.blow_estimate(view, me, r1)) < harm(estimate_shot(view, me, r1, mode="prepared"))


@pytest.mark.parametrize("ai", ["utility", "search"])
def test_a_knife_fighter_two_cells_from_a_rifleman_charges(tmp_path: Path, ai: str) -> None:
    """No gun, a rifleman 4 m away: the charge (the run and the blow at −2, R-5.4) beats walking up under its fire;
    the search tier, proposed the charge by the utility AI, weighs it on its own scale and keeps it."""
    action, trace, view = _decide(tmp_path, f"[{{name: Me, at: [2, 1], {KNIFE}}}]",
                                  f"[{{name: R1, at: [4, 1], {RIFLE}}}]", ai)
    assert isinstance(action, Charge) and action.target == "R1" and action.ranged != "yes"
    assert max(abs(action.at[0] - 4), abs(action.at[1] - 1)) == 1  # next to the rifleman
    c = _inputs(trace["chosen"])
    est = mm.blow_estimate(view, view.unit("Me"), view.unit("R1"), charge=True)
    assert c["hit chance"] == pytest.approx(est.hit, abs=1e-3)
    plain = mm.blow_estimate(view, view.unit("Me"), view.unit("R1"))
    assert est.hit < plain.hit  # the charge's −2
    if ai == "search":
        assert c["search: our attack"] > 0


def test_a_knife_fighter_closes_on_a_sword_when_its_blow_is_poor(tmp_path: Path) -> None:
    """Against a master swordsman (Defense 1, Fighting 5) the Close (R-7.2) is weighed by what getting inside
    changes: our blows ignore the sword's Defense, its blows take it as a penalty with no Strength."""
    knife = ('traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}, '
             'skills: {"fighting:knives": 4}, melee: [combat_knife]')
    action, trace, view = _decide(tmp_path, f"[{{name: Me, at: [2, 1], {knife}}}]",
                                  f"[{{name: R1, at: [3, 1], {SWORD}}}]")
    close = next(o for o in _options(trace) if o["action"].startswith("close Me"))
    me, r1 = view.unit("Me"), view.unit("R1")
    inside = mm.blow_estimate(view, me, r1, "combat_knife", close="attacker")
    outside = mm.blow_estimate(view, me, r1, "combat_knife")
    assert inside.tn == outside.tn - 1  # the sword's Defense no help inside
    theirs_in = mm.blow_estimate(view, r1, me, "sword", close="defender")
    assert theirs_in.tn == mm.blow_estimate(view, r1, me, "sword").tn + 1  # its Defense a penalty
    assert _inputs(close)["expected harm"] > 0
    assert isinstance(action, (MeleeAttack, Close, Defend))


def test_an_engaged_wounded_unit_defends(tmp_path: Path) -> None:
    """Wounded twice, a knife against two master swordsmen: the active defence (R-7.5) with a step (no −4) turns
    aside more harm than its own blow does; the trace says how much."""
    wounded = ('traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}, '
               'skills: {"fighting:knives": 2, dodge: 3}, melee: [combat_knife], wounds: 2')
    action, trace, view = _decide(tmp_path, f"[{{name: Me, at: [2, 1], {wounded}}}]",
                                  f"[{{name: R1, at: [3, 1], {SWORD}}}, {{name: R2, at: [3, 2], {SWORD}}}]")
    assert isinstance(action, Defend) and action.to is not None, trace["chosen"]
    c = _inputs(trace["chosen"])
    assert c["blows turned aside"] > 0 and c["outmatched"] > 0.5
    now, after = mm.defended_harm(view, view.unit("Me"), action.skill, True)
    assert after < now
    assert mm.defended_harm(view, view.unit("Me"), action.skill, False)[1] >= after  # −4 without the step


INTIMIDATING = ('traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: IV-3}, '
                'skills: {%s, intimidate: 5}, %s')
TIMID = ('traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: II-1, acuity: II-2}, '
         'skills: {"shooting:rifle": 3}, weapons: [assault_rifle]')


@pytest.mark.parametrize("ai", ["utility", "search"])
def test_a_contest_before_the_fight_when_it_pays(tmp_path: Path, ai: str) -> None:
    """A knife fighter 16 m from a timid rifleman: intimidating it (R-8.4: distraught loses its next action,
    annoyed −4) is worth more than running at it under fire or a charge at −2."""
    me = INTIMIDATING % ('"fighting:knives": 3', "melee: [combat_knife]")
    action, trace, _ = _decide(tmp_path, f"[{{name: Me, at: [1, 1], {me}}}]", f"[{{name: R1, at: [9, 1], {TIMID}}}]",
                                  ai)
    assert isinstance(action, Contest) and action.kind == "intimidate" and action.target == "R1"
    assert _inputs(trace["chosen"])["distraught or broken"] > 0.3


def test_no_contest_when_a_shot_is_better(tmp_path: Path) -> None:
    """The same intimidator with a rifle and a clear burst: the contest is not even offered (its worth is below
    the shot's), and it shoots."""
    me = INTIMIDATING % ('"shooting:rifle": 3', "weapons: [assault_rifle]")
    action, trace, _ = _decide(tmp_path, f"[{{name: Me, at: [1, 1], {me}}}]", f"[{{name: R1, at: [9, 1], {TIMID}}}]")
    assert isinstance(action, Shoot)
    assert not any(o["action"].startswith("contest") for o in _options(trace))


def test_an_untrained_unit_starts_no_contest(tmp_path: Path) -> None:
    """Contests are listed for everyone in earshot, but only a unit trained in the skill weighs one."""
    action, trace, _ = _decide(tmp_path, f"[{{name: Me, at: [1, 1], {KNIFE}}}]", f"[{{name: R1, at: [9, 1], {TIMID}}}]")
    assert not isinstance(action, Contest)
    assert not any(o["action"].startswith("contest") for o in _options(trace))


# ---------------------------------------------------------------------------------------------- the baselines
@pytest.mark.parametrize("ai", ["hold", "focus", "spread", "rush", "utility", "search"])
def test_an_entangled_unit_answers_legally(tmp_path: Path, ai: str) -> None:
    """Entangled by a net (R-7.6; the stacked deck of tests/test_fi_melee.py), the unit may not move: every AI
    answers with an action the battle accepts (the baselines break free by Strength)."""
    cards = [_init(), make_card(2, upper={("III", 2): 10}), make_card(3, upper={("III", 2): 2}), *_holds(6)]
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3", skills='{"fighting:nets": 2}', melee="[net]")],
                [_unit("Foe", 3, 1, weapons="[assault_rifle]", skills='{"shooting:rifle": 2}')], cards)
    _to_turn(b, "Me")
    b.submit(parse_action("entangle Me Foe"))
    b.submit(parse_action("end Me"))
    _to_turn(b, "Foe")
    view, req = b.view(), b.pending
    assert mm.held(view, view.unit("Foe")) == "entangled"
    action = make_ai(ai).decide(b.observe("Red"), req)
    assert b.check(action) is None, action
    if ai in ("hold", "focus", "spread", "rush"):
        assert str(action) == "break Foe"  # by strength (the default)
    b.close()


def test_a_tripped_baseline_rises(tmp_path: Path) -> None:
    cards = [_init(), make_card(2, upper={("III", 2): 10}), make_card(3, upper={("III", 2): 2}), *_holds(6)]
    b = _battle(tmp_path, [_unit("Me", 2, 1, "IV-3", skills='{"fighting:staves": 2}', melee="[staff]")],
                [_unit("Foe", 3, 1)], cards)
    _to_turn(b, "Me")
    b.submit(parse_action("trip Me Foe"))
    b.submit(parse_action("end Me"))
    _to_turn(b, "Foe")
    req = b.pending
    action = make_ai("rush").decide(b.observe("Red"), req)
    assert str(action) == "rise Foe" and b.check(action) is None
    b.close()
