"""Issue 12 item 6 (speedhold11): the battle's own shortcuts per answer are the plain statements they replace.

- `answers.given` builds an Answer without the frozen dataclass's `__init__`: equal to `Answer(...)`, the same
  fields in the same order, still frozen;
- `delay._holding` (who waits, asked round every turn) finds the waiters a scan of every unit finds, so the
  turn triggers (R-5.7) are asked of the same units;
- `parse_trait` is kept by its text: the same answers, the same refusal for a bad trait (R-2.1);
- `FiBase.status_marks` (the waits and covered areas, kept per Status hand-out) equals a fresh look at every
  decision and after every event;
- `Knowledge._as_known` patches a kept enemy view where only fields shown as they are changed: field by field,
  the same as one made afresh (R-5.1's hidden declaration included).
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
from skirmish.ecs import knowledge as kn
from skirmish.ecs.components import Status
from skirmish.ecs.knowledge import Knowledge, Sighting
from skirmish.ecs.systems.fi import delay
from skirmish.ecs.view import UnitView, replace_unit
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


def _other_value(name: str, value: object, others: list[object]) -> object:
    """A value for field `name` unlike `value`: another unit's, else one of the same kind."""
    for v in others:
        if v != value:
            return v
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if name == "declared":
        return "fast" if value != "fast" else "slow"
    if isinstance(value, str) or value is None:
        return "changed"
    if isinstance(value, tuple):
        return (*value, value[0]) if value else ("changed",)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # melee's view: someone inside its guard
        return dataclasses.replace(value, inside=("changed",)) if hasattr(value, "inside") else None
    raise AssertionError(f"no other value for {name}: {value!r}")


@pytest.mark.parametrize("hide", [False, True])
@pytest.mark.parametrize("kind", ["seen", "ghost"])
def test_enemy_view_patched_field_by_field_equals_one_made_afresh(kind: str, hide: bool,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Knowledge._as_known: an enemy's view changed in one field alone (each field it reads or shows as it is)
    gives what seen_enemy or ghost make of it afresh, field for field and in the same order."""
    sc = load_scenario(default_scenario_path())
    with Battle(sc, seed=2, controllers={s.name: make_ai("hold", "fi") for s in sc.spec.sides}) as b:
        for _ in range(30):
            b.step()
        view = b.view()
    side = view.units[0].side
    enemies = [u for u in view.units if u.side != side]
    u = enemies[0]
    sighting = Sighting(u.cell, view.round, u.facing, u.prone, u.out_of_action, u.dead, u.wounds, u.armour,
                        u.weapon.id if u.weapon else "")
    seen = frozenset({u.name}) if kind == "seen" else frozenset()
    passed = kn._SEEN_PASSED if kind == "seen" else kn._GHOST_PASSED
    reads = kn._SEEN_READS if kind == "seen" else kn._GHOST_READS

    seen_enemy, ghost, made = kn.seen_enemy, kn.ghost, []

    def fresh(v: UnitView) -> UnitView:
        return seen_enemy(v, side, view.round, hide) if kind == "seen" else ghost(v, side, sighting, hide, b.ctx.armoury)

    monkeypatch.setattr(kn, "seen_enemy", lambda *a: made.append(1) or seen_enemy(*a))
    monkeypatch.setattr(kn, "ghost", lambda *a: made.append(1) or ghost(*a))

    for field in reads:
        if field in ("name", "side"):  # another unit, not a change of this one
            continue
        k = Knowledge(view.sides, b.ctx.armoury)
        memory = {u.name: sighting}
        assert k._as_known(u, side, seen, memory, hide, view.round) == fresh(u)
        changed = replace_unit(u, {field: _other_value(field, getattr(u, field),
                                                       [getattr(e, field) for e in enemies[1:]])})
        made.clear()
        got, want = k._as_known(changed, side, seen, memory, hide, view.round), fresh(changed)
        assert got == want, field
        assert list(got.__dict__) == list(want.__dict__), field
        assert (field in passed) == (not made), field  # patched from the kept answer, or made afresh


def test_turn_hooks_added_after_the_walk_began_still_fire() -> None:
    """core.flow.walk reads the hook lists once and skips a point with none: a callback added to an empty point
    once the battle has begun (Battle.hooks.add) is called from then on, at every turn's start, action and end."""
    sc = load_scenario(default_scenario_path())
    with Battle(sc, seed=4, controllers={s.name: make_ai("hold", "fi") for s in sc.spec.sides}) as b:
        for _ in range(5):
            b.step()
        seen: dict[str, int] = {"turn_start": 0, "action": 0, "turn_end": 0}
        for point in seen:
            b.hooks.add(point, lambda *_, p=point: seen.__setitem__(p, seen[p] + 1))  # type: ignore[misc]
        b.run()
        turns = sum(1 for e in b.log.events if e.type in ("turn", "declare"))
        assert seen["turn_start"] >= turns - 8 > 0  # every turn and declaration after the first five answers
        assert seen["action"] >= seen["turn_end"] > 0
