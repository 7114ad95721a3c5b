"""Legality as a question (issue 11, STYLE 13): every action `legal_actions` lists is accepted by `submit`,
and actions outside it are refused with a typed Refusal (rule, reason) by `check` and by `submit`."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import builtin_scenarios, load_scenario
from skirmish.core.errors import IllegalAction, Refusal
from skirmish.rules.actions import Action, Aim, Declare, EndTurn, Move, Reload, SetTacpack, Shoot, Throw, Wait
from skirmish.rules.deck import LOCATIONS

SCENARIOS = builtin_scenarios()


def _battle(path, seed: int, ai: str = "utility") -> Battle:
    sc = load_scenario(path)
    return Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides})  # type: ignore[arg-type]


def _replay(path, seed: int, history: list[Action]) -> Battle:
    """The same battle rebuilt from its seed and accepted actions (no AI is asked)."""
    b = _battle(path, seed)
    for a in history:
        b.submit(a)
    return b


def _advance(b: Battle, steps: int) -> None:
    for _ in range(steps):
        if b.pending is None:
            return
        b.step()


def _random_action(rng: random.Random, b: Battle, unit: str) -> Action:
    """Anything at all a player might try: valid and invalid units, cells, targets, modes and values."""
    view = b.view()
    names = [u.name for u in view.units] + ["Nobody"]
    who = unit if rng.random() < 0.85 else rng.choice(names)
    cell = (rng.randrange(-2, view.grid.width + 2), rng.randrange(-2, view.grid.height + 2))
    if rng.random() < 0.1 and who in names[:-1]:
        cell = view.unit(who).cell  # where it stands: not a move
    target = rng.choice(names)
    kind = rng.randrange(9)
    if kind == 0:
        return Declare(who, rng.choice(["fast", "normal", "slow", "dodge", "sprint"]))
    if kind == 1:
        return Move(who, cell)
    if kind == 2:
        return Shoot(who, target, mode=rng.choice(["snap", "prepared", "aimed", "wild"]),
                     burst=rng.choice([0, 0, 3, 5, 10, 7]), called=rng.choice([None, None, *LOCATIONS, "tail"]))
    if kind == 3:
        return Throw(who, cell, rng.choice(["", "frag_grenade", "concussion_grenade", "pie"]))
    if kind == 4:
        return Aim(who, target)
    if kind == 5:
        return Reload(who)
    if kind == 6:
        return Wait(who, rng.choice(["enemy_in_view", "later"]))
    if kind == 7:
        return SetTacpack(who, rng.choice(["none", "kinetic", "diffusion", "magnetic", "lead"]), rng.randrange(-1, 12))
    return EndTurn(who)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(SCENARIOS) - 1), st.integers(1, 40), st.integers(0, 160), st.integers(0, 2**31))
def test_listed_actions_are_accepted_and_others_refused(si: int, seed: int, steps: int, salt: int) -> None:
    path = SCENARIOS[si]
    rng = random.Random(salt)
    with _battle(path, seed) as b:
        _advance(b, steps)
        if b.pending is None:
            return
        unit = b.pending.unit
        legal = b.legal_actions(unit)
        assert legal.kind == b.pending.kind
        listed = list(legal.actions(called=True))
        assert listed, "something is always allowed (a declaration, or ending the turn)"
        for a in listed:
            assert b.check(a) is None, f"listed but refused: {a} ({b.check(a)})"
        # Listed actions are accepted by submit: try a few, each on the same battle rebuilt from its history.
        for a in rng.sample(listed, min(4, len(listed))):
            with _replay(path, seed, list(b.history)) as twin:
                assert twin.pending == b.pending
                twin.submit(a)
        # Random actions: listed ones pass check; the others are refused by check and by submit, typed.
        for _ in range(25):
            a = _random_action(rng, b, unit)
            refusal = b.check(a)
            if legal.allows(a):
                assert refusal is None, f"{a} is listed but check refuses it: {refusal}"
                continue
            assert isinstance(refusal, Refusal), f"{a} is not listed but check accepts it"
            assert str(refusal) and (refusal.rule == "" or refusal.rule.startswith("R-"))
            before = len(b.history)
            with pytest.raises(IllegalAction) as info:
                b.submit(a)
            assert info.value.refusal == refusal and len(b.history) == before


def test_the_board_and_the_rules_agree_on_other_units() -> None:
    """A unit the battle is not waiting for has nothing legal, and check says whose decision it is."""
    with _battle(SCENARIOS[0], 3) as b:
        other = next(u.name for u in b.view().units if u.name != b.pending.unit)  # type: ignore[union-attr]
        assert b.legal_actions(other).kind == "none" and not list(b.legal_actions(other).actions())
        refusal = b.check(EndTurn(other))
        assert refusal is not None and "decision" in refusal.reason


def test_a_move_to_where_the_unit_stands_is_refused_like_legal_actions_says() -> None:
    """legal_actions never lists the unit's own cell; check and submit refuse it too (R-5.6)."""
    with _battle(SCENARIOS[0], 3) as b:
        while b.pending is not None and b.pending.kind != "act":
            b.step()
        assert b.pending is not None
        unit = b.pending.unit
        here = b.view().unit(unit).cell
        legal = b.legal_actions(unit)
        assert here not in legal.walk and here not in legal.run
        refusal = b.check(Move(unit, here))
        assert refusal is not None and refusal.rule == "R-5.6" and "already at" in refusal.reason
        with pytest.raises(IllegalAction):
            b.submit(Move(unit, here))
        assert b.pending is not None and b.pending.unit == unit  # still its decision


def test_refusals_carry_the_rule_as_a_field() -> None:
    assert Refusal.from_text("R-6.1: Guard-2 is not in line of sight") == Refusal("R-6.1", "Guard-2 is not in line of sight")
    assert Refusal.from_text("no unit called 'X'") == Refusal("", "no unit called 'X'")
    assert str(IllegalAction("R-5.3: too slow")) == "R-5.3: too slow"
    assert IllegalAction(Refusal("R-5.3", "too slow")).refusal.rule == "R-5.3"
