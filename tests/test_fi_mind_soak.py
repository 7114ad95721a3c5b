"""The mind under load (issue 14 item 3): every AI plays the ruins ambush (surprise, fear, terror) and decides
legally in every state; an incapacitated unit never acts; a contest never lowers its initiator; the scenario
keys are checked on load; the states show in the view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import ScriptedController, make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario, parse_scenario
from skirmish.rules.actions import Declare
from skirmish.rulesets.fi import Contest
from tests.conftest import cli, one_line

AMBUSH = Path(__file__).parent / "data" / "mind" / "ambush.yaml"
ACTS = ("turn", "attack", "move", "throw", "aim", "reload", "contest", "declare", "initiative", "wait")


@pytest.mark.parametrize("ai", ["hold", "utility", "random", "rush", "baseline"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_ai_decides_legally_in_the_ambush(ai: str, seed: int) -> None:
    """No refusal in any state of mind; the battle ends; nobody acts once out of action (R-8.1), nor declares
    or turns initiative in a round it sits out (R-8.3, catatonic)."""
    sc = load_scenario(AMBUSH)
    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
        b.run()
        assert b.outcome is not None
        evs = list(b.log)
    assert not [e for e in evs if e.type == "refused"]
    assert {e.type for e in evs} >= {"surprise", "fear"}
    down: set[str] = set()
    sitting: dict[int, set[str]] = {}
    for e in evs:
        if e.type == "out_of_action":
            down.add(e.actor or "")
        elif e.type in ACTS:
            assert e.actor not in down, f"{e.actor} acts after it fell: {e.to_line()}"
            assert e.actor not in sitting.get(e.round, set()), f"{e.actor} sits round {e.round} out: {e.to_line()}"
        if (e.type == "surprise" and not e.success) or (e.type == "mind" and e.state == "catatonic"):
            sitting.setdefault(e.round, set()).add(e.actor or "")


def test_the_ambush_is_deterministic() -> None:
    """C-5: the same scenario and seed give the same events, minds and all."""
    logs = []
    for _ in range(2):
        sc = load_scenario(AMBUSH)
        with Battle(sc, seed=4, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
            b.run()
            logs.append(b.log.jsonl())
            hashed = b.state_hash()
    assert logs[0] == logs[1] and hashed


T = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: III-2}"


def _duel(tmp: Path, me: str, foe: str, options: str = "") -> Any:
    text = (f"name: duel\nseed: 1\n{options}map: {{ascii: [',,,,,,,,,,', ',,,,,,,,,,']}}\nsides:\n"
            f"  - name: Blue\n    controller: scripted\n    units: [{{name: Me, at: [1, 1], traits: {T}, {me}}}]\n"
            f"  - name: Red\n    controller: scripted\n    units: [{{name: Foe, at: [7, 1], traits: {T}, {foe}}}]\n")
    return parse_scenario(text, str(tmp / "d.yaml"), base=tmp)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10**6), kind=st.sampled_from(["bluff", "intimidate", "taunt"]),
       mode=st.sampled_from(["focused", "cautious"]), mine=st.integers(1, 5), theirs=st.integers(1, 5),
       simple=st.booleans(), dice=st.booleans())
def test_a_contest_never_lowers_its_initiator(tmp_path: Path, seed: int, kind: str, mode: str, mine: int,
                                             theirs: int, simple: bool, dice: bool) -> None:
    """Whatever the draw: the initiator's health, states of mind (focus aside) and readiness stand; the target's
    states are the ones its successes give (R-8.4)."""
    opts = f"options: {{randomizer: {'dice' if dice else 'cards'}, contests: {'simple' if simple else 'opposed'}}}\n"
    skills = f"skills: {{bluff: {mine}, intimidate: {mine}, taunt: {mine}}}"
    resist = f"skills: {{scrutinize: {theirs}, bravery: {theirs}, taunt: {theirs}}}"
    sc = _duel(tmp_path, skills, resist, opts)
    with Battle(sc, seed=seed, controllers={s.name: ScriptedController([]) for s in sc.spec.sides}) as b:
        # Declare for everyone, round after round (a unit that hesitates, R-5.2, waits for the next round), until
        # Me's turn comes.
        while b.pending is not None and not (b.pending.unit == "Me" and b.pending.kind == "act"):
            if b.pending.kind == "declare":
                b.submit(Declare(b.pending.unit, "normal"))
            else:
                b.step()
        assert b.pending is not None
        before = b.view().unit("Me")
        b.submit(Contest("Me", "Foe", kind, mode))
        after = b.view()
        me, foe = after.unit("Me"), after.unit("Foe")
        (event,) = [e for e in b.log if e.type == "contest"]
    assert (me.wounds, me.ct, me.out_of_action, me.ready_target, me.aim) == \
        (before.wounds, before.ct, before.out_of_action, before.ready_target, before.aim)
    assert set(me.mind) <= {"focused"} and (("focused" in me.mind) == (mode == "focused"))
    assert 0 <= event.successes <= 3
    want = {1: {"annoyed"}, 2: {"annoyed", "distraught"}, 3: {"annoyed", "distraught"}}.get(event.successes, set())
    assert set(foe.mind) == want


@pytest.mark.parametrize(("where", "value", "message"), [
    ("side", "surprised: true", "sides[0].surprised: expected {expecting: true|false}, got true"),
    ("unit", "surprised: false", "sides[0].units[0].surprised: expected {expecting: true|false}, got false"),
    ("unit", "surprised: {expecting: maybe}", "sides[0].units[0].surprised.expecting"),
    ("unit", "fearsome: dread", "sides[0].units[0].fearsome.kind: Input should be 'fear' or 'terror', got 'dread'"),
    ("unit", "fearsome: {kind: fear, tn: 0}", "sides[0].units[0].fearsome.tn"),
    ("unit", "fearsome: {kind: fear, how: loud}", "sides[0].units[0].fearsome.how: unknown key"),
])
def test_bad_mind_keys_exit_2_naming_the_key(tmp_path: Path, where: str, value: str, message: str) -> None:
    """C-6: one line naming the file and key path, exit 2, no traceback."""
    side_key = f"    {value}\n" if where == "side" else ""
    unit_key = f", {value}" if where == "unit" else ""
    path = tmp_path / "bad.yaml"
    path.write_text(f"name: bad\nmap: {{ascii: [',,,,']}}\nsides:\n  - name: A\n{side_key}    units: "
                    f"[{{name: A-1, at: [0, 0], traits: {T}{unit_key}}}]\n  - name: B\n    units: "
                    f"[{{name: B-1, at: [3, 0], traits: {T}}}]\n", encoding="utf-8")
    code, _, err = cli("run", str(path))
    assert code == 2
    line = one_line(err)
    assert str(path) in line and message in line, line


def test_states_show_in_the_view_and_the_side_views(tmp_path: Path) -> None:
    """UnitView.mind: what a unit causes, and its states (surprised while it sits the round out)."""
    sc = _duel(tmp_path, "surprised: {expecting: false}", "fearsome: terror")
    with Battle(sc, seed=1, controllers={s.name: ScriptedController([]) for s in sc.spec.sides}) as b:
        while b.pending is not None and b.pending.kind == "declare":
            b.submit(Declare(b.pending.unit, "normal"))
        view = b.view()
        assert "terrifying" in view.unit("Foe").mind
        surprise = [e for e in b.log if e.type == "surprise"]
        assert surprise and ("surprised" in view.unit("Me").mind) == (not surprise[0].success)
        assert b.observe("Red").unit("Foe").mind == view.unit("Foe").mind


def test_the_contest_action_round_trips_and_side_views_see_the_states(tmp_path: Path) -> None:
    """STYLE 3: the text form reads back; each side's view shows the target's states and the initiator's focus."""
    from skirmish.rules.actions import parse_action

    for c in (Contest("Me", "Foe"), Contest("Me", "Foe", "bluff", "cautious")):
        assert parse_action(str(c)) == c
    assert parse_action("contest Me Foe kind=intimidate") == Contest("Me", "Foe", "intimidate")
    sc = _duel(tmp_path, "skills: {taunt: 5}", "skills: {taunt: 1}")
    with Battle(sc, seed=1, controllers={s.name: ScriptedController([]) for s in sc.spec.sides}) as b:
        while b.pending is not None and b.pending.kind == "declare":
            b.submit(Declare(b.pending.unit, "normal"))
        while b.pending is not None and b.pending.unit != "Me":
            b.step()
        b.observe("Blue"), b.observe("Red")  # the side views as they were, kept
        b.submit(Contest("Me", "Foe"))
        truth = b.view()
        assert truth.unit("Foe").mind and b.observe("Blue").unit("Foe").mind == truth.unit("Foe").mind
        assert b.observe("Red").unit("Me").mind == ("focused",)


def test_listed_contests_are_exactly_the_accepted_ones() -> None:
    """STYLE 13: at every turn of an ambush (a hold battle, contests in range, sight changing), the contests listed
    are the ones `check` accepts among every enemy × kind × mode (legality asks only the range of the enemies
    it already found in sight)."""
    from skirmish.rulesets.fi import CONTESTS, MODES

    sc = load_scenario(AMBUSH)
    turns = listed = 0
    with Battle(sc, seed=3, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        while b.pending is not None and turns < 60:
            req = b.pending
            if req.kind == "act":
                me = b.view().unit(req.unit)
                foes = [u.name for u in b.view().units if u.side != me.side]
                every = [Contest(req.unit, f, k, m) for f in foes for k in CONTESTS for m in MODES]
                accepted = {c for c in every if b.check(c) is None}
                assert set(b.legal_actions(req.unit).contests) == accepted
                turns, listed = turns + 1, listed + bool(accepted)
            b.step()
    assert turns >= 20 and listed >= 5


def test_the_board_names_the_states(tmp_path: Path) -> None:
    """The unit card's state word leads with the states of mind, and the miniature carries an M (the H overlay's
    legend says what it means); what a unit causes is not a state it is in."""
    from skirmish.ui.board import MARKS, marks
    from skirmish.ui.panels import unit_state

    sc = _duel(tmp_path, "surprised: {expecting: false}", "fearsome: terror")
    for seed in range(1, 30):
        with Battle(sc, seed=seed, controllers={s.name: ScriptedController([]) for s in sc.spec.sides}) as b:
            while b.pending is not None and b.pending.kind == "declare":
                b.submit(Declare(b.pending.unit, "normal"))
            me, foe = b.view().unit("Me"), b.view().unit("Foe")
        if "surprised" in me.mind:
            break
    assert "surprised" in me.mind and unit_state(me).startswith("surprised")
    assert "M" in marks(me) and ("M", "state of mind") in MARKS
    assert foe.mind == ("terrifying",) and unit_state(foe) == "ready" and "M" not in marks(foe)
