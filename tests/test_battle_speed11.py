"""Issue 12 item 6 (speedhold11): the battle's own shortcuts per answer are the plain statements they replace.

- `answers.given` builds an Answer without the frozen dataclass's `__init__`: equal to `Answer(...)`, the same
  fields in the same order, still frozen;
- `delay._holding` (who waits, asked round every turn) finds the waiters a scan of every unit finds, so the
  turn triggers (R-5.7) are asked of the same units;
- `parse_trait` is kept by its text: the same answers, the same refusal for a bad trait (R-2.1).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.battle.answers import Answer, given
from skirmish.content.scenario import SCENARIOS_DIR, default_scenario_path, load_scenario
from skirmish.core.flow import Request
from skirmish.ecs.components import Status
from skirmish.ecs.systems.fi import delay
from skirmish.rules.actions import EndTurn, Move
from skirmish.rules.equipment import parse_trait


def test_given_answer_equals_the_dataclass() -> None:
    req = Request("act", "a", "Blue")
    for action, trace, phase in ((EndTurn("a"), None, 2), (Move("a", (3, 4)), {"why": "cover"}, None)):
        fast, plain = given(req, action, trace, 5, phase), Answer(req, action, trace, 5, phase)
        assert fast == plain
        assert list(fast.__dict__.items()) == list(plain.__dict__.items())
        assert not fast.direct
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.round = 6  # type: ignore[misc]


def test_battle_answers_are_the_plain_answers() -> None:
    sc = load_scenario(default_scenario_path())
    with Battle(sc, seed=3, controllers={s.name: make_ai("hold", "fi") for s in sc.spec.sides}) as b:
        for _ in range(40):
            b.step()
    assert len(b.answers) == 40
    for a in b.answers:
        assert a == Answer(a.request, a.action, a.trace, a.round, a.phase)


def test_holding_finds_every_waiter_a_full_scan_finds() -> None:
    """R-5.7: waits set on some units (a turn trigger, `later`) are found by `_holding` and the scans built on it."""
    sc = load_scenario(default_scenario_path())
    with Battle(sc, seed=1, controllers={s.name: make_ai("hold", "fi") for s in sc.spec.sides}) as b:
        sys_ = b.sys
        units = [e for e, _ in b.world.units()]
        assert delay._holding(sys_) == []
        names = {e: i.name for e, i in b.world.units()}
        b.world.get(units[0], Status).waiting = "later"
        b.world.get(units[1], Status).waiting = f"acts:{names[units[5]]}"
        b.world.get(units[6], Status).waiting = f"preempt:{names[units[2]]}"
        scan = [(e, b.world.peek(e, Status).waiting) for e in units if b.world.peek(e, Status).waiting]
        assert delay._holding(sys_) == scan
        assert delay._waiting(sys_, "later") == [units[0]]
        assert delay._waiting_for(sys_, names[units[5]]) == ([], [units[1]])
        assert delay._waiting_for(sys_, names[units[2]]) == ([units[6]], [])
        assert delay._holding(sys_) is delay._holding(sys_)  # kept while no Status is handed out
        b.world.get(units[0], Status).waiting = None
        assert [e for e, _ in delay._holding(sys_)] == [units[1], units[6]]


def test_parse_trait_kept_and_refusing() -> None:
    assert parse_trait("III-2") == ("III", 2)
    assert parse_trait(" VI - 5 ") == ("VI", 5)
    assert parse_trait("III-2") is parse_trait("III-2")
    for bad in ("VII-2", "III-6", "III-0", 3):
        with pytest.raises(ValueError, match=f"got {bad!r}".replace("(", r"\(")):
            parse_trait(bad)  # type: ignore[arg-type]


def _scan(b: Battle) -> tuple[list[tuple[int, str]], list[int]]:
    """What FiBase.status_marks keeps, looked for afresh over every unit."""
    units = [e for e, _ in b.world.units()]
    return ([(e, b.world.peek(e, Status).waiting) for e in units if b.world.peek(e, Status).waiting],
            [e for e in units if b.world.peek(e, Status).covering is not None])


@pytest.mark.parametrize("path", sorted(p for p in SCENARIOS_DIR.rglob("*.yaml")
                                        if p.parent.name not in ("bench", "fw") and "fw" not in p.stem))
def test_status_marks_never_stale(path: Path) -> None:
    """R-5.7, R-6.12: at every decision and after every event (while the rules run, too), the waits and covered
    areas kept equal a fresh look; with the utility AI (which waits: breach, hostage_extraction, boarding_action)
    and the baseline. Covering fire's own paths (pinned_by, stepped) are played by tests/test_fi_pinned.py."""
    sc = load_scenario(path)
    if sc.spec.ruleset != "fi":
        pytest.skip("Future Imperfect's systems only")
    for ai, seed in (("utility", 6), ("hold", 7)):
        box: list[Battle] = []

        def check(_event: object, box: list[Battle] = box) -> None:
            if box:
                assert box[0].sys.status_marks() == _scan(box[0])

        with Battle(sc, seed=seed, controllers={s.name: make_ai(ai, "fi") for s in sc.spec.sides},
                    on_event=check) as b:
            box.append(b)
            for _ in range(400):
                if not b.step():
                    break
                assert b.sys.status_marks() == _scan(b)
