"""The utility AI's card-hand choices (R-5.8, option `initiative: cards`; issue 14 item 7): it keeps the cards that
act soonest when pressed, one soon and one late when nothing is in sight, forgoes the draw to keep its reserve when
waiting pays, and rushes only when acting first decides an exchange and its Dexterity makes the rush likely. The
hand answers are the battle's own lists (scenarios/fi/killhouse_hands.yaml)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from skirmish.ai.estimate import replaced
from skirmish.ai.utility import UtilityAI
from skirmish.ai.utility.hand_choice import RUSH_HARM, THREATENED, best_rush, hand_plan, rush_chance
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.rulesets.fi import Hand
from skirmish.rulesets.fi import hand_rules as hr

HANDS = SCENARIOS_DIR / "fi" / "killhouse_hands.yaml"


def _keep_request(seed: int = 3) -> Iterator[tuple[Battle, Any, list[Hand]]]:
    """Each pending keep (after a draw of two or more cards) of a killhouse_hands battle played by the utility AI."""
    sc = load_scenario(HANDS)
    with Battle(sc, seed=seed, controllers={s.name: UtilityAI() for s in sc.spec.sides}) as b:
        while b.pending is not None and b.view().round <= 2:
            req = b.pending
            hands = [a for a in b.legal_actions(req.unit).declare if isinstance(a, Hand)]
            if req.kind == "declare" and any(len(h.keep_steps() or []) == 2 for h in hands):
                yield b, req, hands
            b.step()


def _steps(hands: list[Hand]) -> list[int]:
    """The keepable cards' steps, soonest first (two cards may share a step)."""
    most: Counter[int] = Counter()
    for h in hands:
        most |= Counter(h.keep_steps() or [])
    return sorted(most.elements(), reverse=True)


def test_pressed_it_keeps_the_soonest_cards_and_nothing_in_sight_one_soon_one_late() -> None:
    seen = 0
    for b, req, hands in _keep_request():
        me = b.view().unit(req.unit)
        steps = _steps(hands)
        if len(steps) < 3:
            continue
        pressed = hand_plan(me, hands, "normal", 0.5, 0.2, True, "gritty")
        assert pressed is not None
        assert sorted(pressed[0].keep_steps() or [], reverse=True) == steps[:2]
        assert "soonest" in pressed[1][0][0]
        calm = hand_plan(me, hands, "normal", 0.0, 0.0, False, "gritty")
        assert calm is not None
        assert sorted(calm[0].keep_steps() or [], reverse=True) == [steps[0], steps[-1]]
        seen += 1
    assert seen, "a draw of three cards or more"


def test_the_battle_takes_the_ai_hand_answers_and_traces_them() -> None:
    for b, req, hands in _keep_request():
        action, trace = UtilityAI().decide_traced(b.view(), req)
        assert isinstance(action, Hand) and action in hands and b.check(action) is None
        assert trace["chosen"]["option"].startswith("hand: keep")
        return
    pytest.fail("no keep request")


def test_it_rushes_only_a_likely_rush_when_acting_first_decides() -> None:
    for b, req, hands in _keep_request():
        me = b.view().unit(req.unit)
        steps = _steps(hands)
        if steps[0] >= hr.TOP_STEP - 1:
            continue
        nimble = replaced(me, traits=tuple((n, "IV", 3) if n == "dexterity" else (n, c, t) for n, c, t in me.traits))
        clumsy = replaced(me, traits=tuple((n, "II", 2) if n == "dexterity" else (n, c, t) for n, c, t in me.traits))
        assert rush_chance(nimble, 1, "gritty") > 2 / 3 > rush_chance(clumsy, 1, "gritty")
        hands_nimble = _hands_for(steps, "IV", 3)
        plan = hand_plan(nimble, hands_nimble, "normal", THREATENED + 0.3, RUSH_HARM + 0.1, True, "gritty")
        assert plan is not None and plan[0].rush.startswith(f"{steps[0]}@")
        assert any(name.startswith("acting first decides the exchange") for name, _ in plan[1])
        at = int(plan[0].rush.partition("@")[2])
        assert (at, pytest.approx(rush_chance(nimble, at - steps[0], "gritty"))) == \
            best_rush(nimble, steps[0], set(range(steps[0] + 1, hr.TOP_STEP + 1)), "gritty")
        weak_shot = hand_plan(nimble, hands_nimble, "normal", THREATENED + 0.3, RUSH_HARM - 0.1, True, "gritty")
        calm = hand_plan(nimble, hands_nimble, "normal", THREATENED / 2, RUSH_HARM + 0.1, True, "gritty")
        unlikely = hand_plan(clumsy, _hands_for(steps, "II", 2), "normal", THREATENED + 0.3, 1.0, True, "gritty")
        for got in (weak_shot, calm, unlikely):
            assert got is not None and got[0].rush == ""
        return
    pytest.fail("no keep request with a card below step 13")


def _hands_for(steps: list[int], col: str, row: int) -> list[Hand]:
    """The keeps and rushes the engine lists for these steps and that Dexterity (FiHandKeep.hand_options)."""
    out = []
    for i, a in enumerate(steps):
        for combo in [(a,), *((a, c) for c in steps[i + 1:])]:
            rushes = [""] + [f"{s}@{at}" for s in sorted(set(combo))
                             for at in range(s + 1, min(hr.TOP_STEP, s + hr.max_rush(col, row)) + 1)]
            out += [Hand("Me", speed="normal", keep=",".join(map(str, combo)), rush=r) for r in rushes]
    return out


def test_a_reserve_holder_forgoes_the_draw_only_when_waiting_pays() -> None:
    hands = [Hand("Me", speed=s, forgo=f) for s in ("normal", "dodge") for f in ("no", "yes")]
    for b, req, _ in _keep_request():
        me = b.view().unit(req.unit)
        wait = hand_plan(me, hands, "normal", 0.0, 0.0, False, "gritty")
        assert wait is not None and wait[0].forgoes() and wait[0].speed == "normal"
        for threat, sight in ((0.5, False), (0.0, True)):
            draw = hand_plan(me, hands, "dodge", threat, 0.0, sight, "gritty")
            assert draw is not None and not draw[0].forgoes() and draw[0].speed == "dodge"
        return
