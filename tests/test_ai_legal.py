"""The AIs ask the battle (issue 11, item 2): every action they propose is one `legal_actions` lists, so the
rules never refuse them (the search tier of issue 12 too); their turn state is the view's (and says what the
battle's Turn component says); `Request.legal()` is worked out only when asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle, consult
from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.core.legal import LegalActions
from skirmish.ecs.components import Turn
from skirmish.rules.actions import EndTurn, Move

SCENARIOS = builtin_scenarios()
# (AI on one side, AI on the other, seeds): the random AI and the rush AI are cheap, so they play more.
PAIRINGS = [("utility", "utility", (11,)), ("hold", "hold", (11, 12)), ("rush", "rush", (11, 12)),
            ("random", "random", (11, 12, 13)), ("random", "utility", (14,)), ("rush", "hold", (15,)),
            ("focus", "spread", (16,)), ("search", "utility", (17,))]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("pairing", PAIRINGS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_the_ais_propose_only_legal_actions(path: Path, pairing: tuple[str, str, tuple[int, ...]]) -> None:
    """Seeded battles on every shipped scenario: no `refused` event, every answer is one the battle listed
    for the request it answered, and every unit's turn state in the view is the battle's own."""
    first, second, seeds = pairing
    sc = load_scenario(path)
    names = [s.name for s in sc.spec.sides]
    for seed in seeds:
        ctrl = {names[0]: make_ai(first), names[1]: make_ai(second)}
        with Battle(sc, seed=seed, controllers=ctrl) as b:  # type: ignore[arg-type]
            answers = 0
            while b.pending is not None:
                req = b.pending
                view = b.view()
                action, trace = consult(ctrl[req.side], view, req)
                legal = req.legal()  # the same value the AI saw, if it asked
                assert legal.allows(action), (path.stem, seed, req, str(action), b.check(action))
                if req.kind == "act":
                    me, turn = view.unit(req.unit), b.world.get(b.world.entity(req.unit), Turn)
                    moved = ("ran" if turn.ran_this_turn else "walked") if turn.moved_this_turn else "none"
                    assert (me.turn_parts, me.moved, me.acted) == (tuple(turn.parts), moved, turn.acted)
                b.answer(req, action, trace)
                answers += 1
            refused = [e.to_json() for e in b.log if e.type == "refused"]
            assert refused == [], (path.stem, first, second, seed, refused[:3])
            assert answers > 0 and b.outcome is not None


def _counting(b: Battle) -> list[str]:
    """Count the battle's legal_actions calls (Request.legal goes through it)."""
    calls: list[str] = []
    inner = b.legal_actions

    def counting(unit: str) -> LegalActions:
        calls.append(unit)
        return inner(unit)

    b.legal_actions = counting  # type: ignore[method-assign]
    return calls


def test_a_battle_of_ais_that_do_not_ask_works_out_no_legal_actions() -> None:
    sc = load_scenario(SCENARIOS[0])  # Canal crossing: seed 4 is a battle of 5 rounds (64 answers)
    with Battle(sc, seed=4, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        calls = _counting(b)
        b.run()
        assert calls == [] and len(b.answers) > 50


def test_a_request_works_out_its_legal_actions_once_when_asked() -> None:
    sc = load_scenario(SCENARIOS[0])
    with Battle(sc, seed=3, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        calls = _counting(b)
        while b.pending is not None and b.pending.kind == "declare":
            b.step()
        req = b.pending
        assert req is not None and req.kind == "act"
        first = req.legal()
        assert req.legal() is first and calls == [req.unit]
        assert first.kind == "act" and first.allows(EndTurn(req.unit))
        b.answer(req, EndTurn(req.unit))
        assert req.legal().kind == "none"  # answered: what was legal then is no longer
        assert b.pending is not None and b.pending is not req and calls == [req.unit]


def test_the_view_carries_the_turn_so_far() -> None:
    """After a move, the unit's view says it has moved (and how), its parts hold the move, and a wait is off."""
    sc = load_scenario(SCENARIOS[0])
    with Battle(sc, seed=5, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        while b.pending is not None:
            req = b.pending
            moves = req.legal().walk if req.kind == "act" else frozenset()
            if moves:
                b.submit(Move(req.unit, sorted(moves)[0]))
                if b.pending is not None and b.pending.unit == req.unit:
                    me = b.view().unit(req.unit)
                    assert me.moved == "walked" and me.acted and not me.attacked
                    assert [p.kind for p in me.turn_parts] == ["move"]
                    assert not b.pending.legal().waits and not b.pending.legal().walk
                    return
            else:
                b.step()
    pytest.fail("no unit walked")
