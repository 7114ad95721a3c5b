"""The round as data (issue 11, item 3): core.flow walks a table of steps with hooks; Future Imperfect's round
is such a table, and new rows and hooks need no new branches in the loop."""

from __future__ import annotations

from typing import Any

import pytest

from skirmish import rulesets
from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.core.errors import IllegalAction
from skirmish.core.flow import HOOK_POINTS, Hooks, Request, RoundTable, Step, walk
from tests.conftest import ROOT


def _toy(log: list[str]) -> tuple[RoundTable, dict[str, int]]:
    """Two actors who each must answer "ok" (anything else is refused), in one asking step per round."""
    state = {"round": 0}

    def begin() -> None:
        state["round"] += 1
        log.append(f"round {state['round']}")

    def answer(actor: int, a: Any) -> bool:
        if a != "ok":
            raise IllegalAction(f"R-0: {a!r} is not ok")
        log.append(f"{actor} ok")
        return True

    return RoundTable(begin, (
        Step("ask", order=lambda: [1, 2], kind="ask", who=lambda e: (f"u{e}", "S"), answer=answer),
        Step("tally", begin=lambda: log.append("tally")),
    )), state


def test_walk_asks_in_order_fires_every_hook_and_reasks_after_a_refusal() -> None:
    log: list[str] = []
    table, state = _toy(log)
    hooks = Hooks()
    for point in HOOK_POINTS:
        hooks.add(point, lambda *a, p=point: log.append(f"<{p}{'' if not a else ' ' + a[0].name}>"))
    refusals: list[str] = []
    flow = walk(table, hooks, ended=lambda round_end: round_end and state["round"] >= 2,
                refused=lambda actor, a, exc: refusals.append(f"{actor}:{exc.refusal.rule}"))
    req = next(flow)
    assert req == Request("ask", "u1", "S")
    assert flow.send("nope") == Request("ask", "u1", "S")  # refused: the same actor is asked again
    assert refusals == ["1:R-0"]
    assert flow.send("ok") == Request("ask", "u2", "S")
    assert flow.send("ok") == Request("ask", "u1", "S")  # round 2
    flow.send("ok")
    with pytest.raises(StopIteration):
        flow.send("ok")
    first_round = log[:log.index("round 2")]
    assert first_round == [
        "round 1", "<round_start>", "<step_start ask>", "<turn_start ask>", "1 ok", "<action ask>",
        "<turn_end ask>", "<turn_start ask>", "2 ok", "<action ask>", "<turn_end ask>", "<step_end ask>",
        "tally", "<step_start tally>", "<step_end tally>", "<round_end>"]  # begin runs before step_start


def test_limit_and_may_end_cut_a_turn_and_the_battle_short() -> None:
    asked: list[str] = []

    def answer(actor: int, a: Any) -> bool:
        asked.append(a)
        return False  # never ends the turn by itself

    table = RoundTable(lambda: None, (Step("act", order=lambda: [1, 2], kind="act", who=lambda e: (f"u{e}", "S"),
                                           answer=answer, limit=3, may_end=True),))
    flow = walk(table, Hooks(), ended=lambda round_end: not round_end, refused=lambda *a: None)
    req = next(flow)
    for i in range(2):
        req = flow.send(f"a{i}")
    assert req.unit == "u1"
    with pytest.raises(StopIteration):  # the third accepted answer ends u1's turn; the battle ends after it
        flow.send("a2")
    assert asked == ["a0", "a1", "a2"]


def test_unknown_hook_point_is_refused() -> None:
    with pytest.raises(ValueError, match="no hook point"):
        Hooks().add("teatime", print)  # type: ignore[arg-type]


def _battle(seed: int = 3) -> Battle:
    sc = load_scenario(ROOT / "scenarios" / "depot_breach.yaml")
    return Battle(sc, seed=seed, controllers={s.name: make_ai("hold") for s in sc.spec.sides})


def test_future_imperfect_round_is_a_table() -> None:
    with _battle() as b:
        assert b.sys.round_table().names() == [  # `mind`: surprise, fear and terror (R-8.3, R-8.4, issue 14)
            "mind", "declaration", "initiative", "phase I", "phase II", "phase III", "phase IV", "bookkeeping"]


def test_battle_hooks_see_every_turn_and_action_of_a_real_battle() -> None:
    """Hooks added to a battle run at the points the events show: one turn_start per `turn` event, one
    action hook per accepted answer, one round_end per round."""
    seen: dict[str, int] = {p: 0 for p in HOOK_POINTS}
    hooks = Hooks()
    for point in HOOK_POINTS:
        hooks.add(point, lambda *a, p=point: seen.__setitem__(p, seen[p] + 1))
    sc = load_scenario(ROOT / "scenarios" / "depot_breach.yaml")
    with Battle(sc, seed=3, controllers={s.name: make_ai("hold") for s in sc.spec.sides}, hooks=hooks) as b:
        out = b.run()
        events = list(b.log)
    turns = sum(1 for e in events if e.type == "turn")
    declares = sum(1 for e in events if e.type == "declare")
    refused = sum(1 for e in events if e.type == "refused")
    assert seen["turn_start"] == turns + declares  # a declaration is a one-answer turn of its step
    assert refused == 0 and seen["action"] == len(b.history)  # declarations and turn actions, all accepted
    assert seen["round_start"] == out.rounds
    assert seen["round_end"] in (out.rounds, out.rounds - 1)  # the last round may end inside a phase
    assert seen["step_start"] >= 7 * seen["round_end"]


def test_a_new_row_is_data_not_a_branch() -> None:
    """An option or scenario rule adds a step as one more row (here a 'morale' step after bookkeeping that
    notes the round); the loop is unchanged, the battle still ends, and the rest of it is the same."""
    sc = load_scenario(ROOT / "scenarios" / "depot_breach.yaml")
    notes: list[int] = []
    ctrl = {s.name: make_ai("hold") for s in sc.spec.sides}
    with Battle(sc, seed=3, controllers=ctrl) as plain:
        plain.run()
        want = plain.log.jsonl()
    holder: list[Battle] = []
    extra = Step("morale", begin=lambda: notes.append(holder[0].ctx.round))
    with Battle(sc, seed=3, controllers=ctrl, table=lambda t: t.insert(extra, after="bookkeeping")) as b:
        holder.append(b)
        out = b.run()
        got = b.log.jsonl()
    assert got == want
    assert notes == list(range(1, len(notes) + 1)) and len(notes) >= out.rounds - 1
    with pytest.raises(ValueError, match="no step 'lunch'"):
        b.sys.round_table().insert(extra, after="lunch")


def test_the_registry_names_fi_and_refuses_an_unknown_ruleset() -> None:
    assert rulesets.get("fi").title == "Future Imperfect"
    with pytest.raises(KeyError, match="no ruleset 'chess'"):
        rulesets.get("chess")


def test_refusals_do_not_use_up_a_turns_limit() -> None:
    """Two accepted answers end the turn under limit 2, however many refusals come between them."""
    def answer(actor: int, a: Any) -> bool:
        if a == "bad":
            raise IllegalAction("R-0: bad")
        return False

    table = RoundTable(lambda: None, (Step("act", order=lambda: [1, 2], kind="act", who=lambda e: (f"u{e}", "S"),
                                           answer=answer, limit=2),))
    flow = walk(table, Hooks(), ended=lambda round_end: round_end, refused=lambda *a: None)
    assert next(flow).unit == "u1"
    for a in ("bad", "ok", "bad", "bad"):
        assert flow.send(a).unit == "u1"
    assert flow.send("ok").unit == "u2"  # the second accepted answer ends u1's turn


def test_a_step_that_asks_without_answering_is_a_clear_error() -> None:
    table = RoundTable(lambda: None, (Step("broken", order=lambda: [1], kind="act"),))
    with pytest.raises(ValueError, match="'broken' asks actors but has no"):
        next(walk(table, Hooks(), ended=lambda r: True, refused=lambda *a: None))


def test_step_start_hooks_see_the_steps_own_phase_and_hooks_are_the_battles_own() -> None:
    """A hook at a phase's start sees that phase (the step's begin runs first), and a Hooks value given to
    two battles is copied, not grown by either battle's own hooks (the record hash hook)."""
    phases: list[tuple[str, int | None]] = []
    sc = load_scenario(ROOT / "scenarios" / "depot_breach.yaml")
    hooks = Hooks()
    holder: list[Battle] = []
    hooks.add("step_start", lambda step: phases.append((step.name, holder[-1].ctx.phase)) if holder else None)
    before = {p: len(fns) for p, fns in hooks.table.items()}
    for _ in range(2):
        with Battle(sc, seed=3, controllers={s.name: make_ai("hold") for s in sc.spec.sides}, hooks=hooks,
                    hashes=True) as b:
            holder.append(b)
            b.run()
    assert {p: len(fns) for p, fns in hooks.table.items()} == before
    by_name = dict(phases)
    assert by_name["phase I"] == 1 and by_name["phase IV"] == 4 and by_name["bookkeeping"] is None


def test_a_hook_can_decide_the_battle() -> None:
    """`Battle.finish` from a round_end hook (as objectives will) ends the battle at once with its reason."""
    sc = load_scenario(ROOT / "scenarios" / "depot_breach.yaml")
    holder: list[Battle] = []
    hooks = Hooks()
    hooks.add("round_end", lambda: holder[0].finish(holder[0].sides[1], "held the depot for 2 rounds")
              if holder[0].ctx.round == 2 else None)
    with Battle(sc, seed=3, controllers={s.name: make_ai("hold") for s in sc.spec.sides}, hooks=hooks) as b:
        holder.append(b)
        out = b.run()
        result = [e for e in b.log if e.type == "result"]
    assert (out.winner, out.rounds) == (b.sides[1], 2)
    assert len(result) == 1 and result[0].to_json()["reason"] == "held the depot for 2 rounds"
    with pytest.raises(ValueError, match="no side 'Nobody'"):
        Battle(sc, seed=3).finish("Nobody", "x")


def test_requests_made_by_the_loop_equal_constructed_ones() -> None:
    """The loop builds its requests without the frozen dataclass's __init__: equal to Request(...), the same
    fields in the same order, and `legal` calls the `ask` given."""
    import dataclasses

    from skirmish.core.flow import Request, _request
    from skirmish.core.legal import LegalActions

    legal = LegalActions("a", "none")
    made = _request("act", "a", "Blue", lambda: legal)
    plain = Request("act", "a", "Blue", None, lambda: legal)
    assert made == plain and hash(made) == hash(plain)
    assert list(vars(made)) == [f.name for f in dataclasses.fields(Request)]
    assert made.legal() is legal
    assert _request("declare", "a", "Blue", None) != plain
