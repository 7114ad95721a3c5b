"""The AI's behaviour figures (issue 12): each figure on hand-built event lists, and a short real run through
`skirmish tournament --behaviour` checked against the battles' own event logs."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

from skirmish.ai.behaviour import Figures, Setup, aggregate, behaviour
from skirmish.core.events import DecisionEvent, Event, ResultEvent
from skirmish.core.scenario_events import ObjectiveEvent
from skirmish.rulesets.fi import AttackEvent, DeclareEvent, TacpackEvent, ThrowEvent
from tests.conftest import cli

SETUP = Setup(sides={"A-1": "A", "A-2": "A", "B-1": "B"}, grenades={"A-1": 2, "A-2": 1, "B-1": 0},
              screens={"A-1": "kinetic", "A-2": None, "B-1": None})


def ev(cls: type[Event], actor: str | None, round: int = 1, **fields: Any) -> Event:
    """An event of `cls` with the given fields and blank values (0, "", False, [], None) for the rest."""
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        if f.name in fields or f.name in ("round", "phase", "actor", "rules"):
            continue
        hint = hints[f.name]
        origin = typing.get_origin(hint) or hint
        blank: Any = {int: 0, float: 0.0, str: "", bool: False, list: [], dict: {}}.get(origin)
        if blank is None and type(None) not in typing.get_args(hint):
            blank = {}  # a TypedDict (a flattened draw)
        fields[f.name] = blank
    return cls(round=round, phase=1, actor=actor, **fields)


def shoot(unit: str, hit: float | None, option: str = "shoot B-1 burst 3") -> Event:
    cons = [] if hit is None else [{"name": "hit chance", "input": hit, "output": 0.5}]
    return ev(DecisionEvent, unit, unit=unit, request="act", personality="normal",
              chosen={"option": option, "action": "fire", "score": 0.5, "considerations": cons}, runners_up=[])


def attack(unit: str, trigger: bool = False) -> Event:
    return ev(AttackEvent, unit, target="B-1", trigger=trigger)


def result(winner: str | None, rounds: int, reason: str) -> Event:
    return ev(ResultEvent, None, round=rounds, winner=winner, rounds=rounds, casualties={}, reason=reason)


def test_low_odds_shots_read_the_shooters_last_shoot_decision() -> None:
    events = [shoot("A-1", 0.10), attack("A-1"),  # low odds
              shoot("A-1", 0.15), attack("A-1"),  # at the bound: low odds
              shoot("A-1", 0.16), attack("A-1"),  # above it
              shoot("A-2", 0.05, option="walk to 3,4"), attack("A-2"),  # not a shoot decision: no estimate
              attack("A-1", trigger=True),  # on a trigger: its last decision is not about this shot
              shoot("A-2", None), attack("A-2"),  # a shoot option without a hit estimate
              attack("B-1")]  # no trace at all
    f = behaviour(events, SETUP)
    assert (f["A"].shots, f["A"].estimated, f["A"].low_odds) == (6, 3, 2)
    assert f["A"].summary()["low_odds_share"] == 2 / 3
    assert (f["B"].shots, f["B"].estimated) == (1, 0)
    assert f["B"].summary()["low_odds_share"] is None  # n/a for an AI without traces


def test_grenades_thrown_per_grenade_carried() -> None:
    events = [ev(ThrowEvent, "A-1", item="frag_grenade", at=[3, 4]), ev(ThrowEvent, "A-2", item="frag_grenade")]
    f = behaviour(events, SETUP)
    assert (f["A"].thrown, f["A"].carried) == (2, 3)
    assert f["A"].summary()["grenades_per_carried"] == 2 / 3
    assert f["B"].summary()["grenades_per_carried"] is None  # carried none


def test_screen_changes_per_unit_round_count_only_changes() -> None:
    declares = [ev(DeclareEvent, "A-1", round=r, speed="normal", carried_wait=False) for r in (1, 2, 3, 4)]
    declares += [ev(DeclareEvent, "A-2", round=r, speed="normal", carried_wait=False) for r in (1, 2)]  # no tacpack
    screens = [ev(TacpackEvent, "A-1", round=1, screen="kinetic", points=3, generator=4),  # as it started: kept
               ev(TacpackEvent, "A-1", round=2, screen="diffusion", points=3, generator=4),  # a change
               ev(TacpackEvent, "A-1", round=3, screen="diffusion", points=2, generator=4),  # kept
               ev(TacpackEvent, "A-1", round=4, screen="kinetic", points=3, generator=4)]  # a change
    f = behaviour(declares + screens, SETUP)
    assert (f["A"].screen_changes, f["A"].tacpack_rounds) == (2, 4)
    assert f["A"].summary()["screen_changes_per_unit_round"] == 0.5


def test_dodges_counted_over_wounded_exposed_declarations() -> None:
    setup = dataclasses.replace(SETUP, wounded_exposed=frozenset({(2, "A-1"), (3, "A-1"), (3, "B-1")}))
    events = [ev(DeclareEvent, "A-1", round=1, speed="dodge", carried_wait=False),  # not wounded and exposed
              ev(DeclareEvent, "A-1", round=2, speed="dodge", carried_wait=False),
              ev(DeclareEvent, "A-1", round=3, speed="fast", carried_wait=False),
              ev(DeclareEvent, "B-1", round=3, speed="slow", carried_wait=True)]  # a carried wait: not a choice
    f = behaviour(events, setup)
    assert (f["A"].dodges, f["A"].wounded_exposed) == (1, 2)
    assert f["A"].summary()["dodge_share"] == 0.5
    assert f["B"].summary()["dodge_share"] is None


def test_battle_length_draws_and_reasons_aggregate_per_ai() -> None:
    draw = behaviour([result(None, 20, "round limit")], SETUP)
    win = behaviour([result("A", 7, "nobody left standing: A")], SETUP)
    per_ai = aggregate([({"A": "utility", "B": "hold"}, draw), ({"A": "hold", "B": "utility"}, win)])
    assert list(per_ai) == ["hold", "utility"]
    for f in per_ai.values():
        s = f.summary()
        assert (f.battles, s["mean_rounds"], f.draws, s["draw_rate"]) == (2, 13.5, 1, 0.5)
        assert s["end_reasons"] == {"nobody left standing": 1, "round limit": 1}  # the kind of end, not the winner
    same = aggregate([({"A": "utility", "B": "utility"}, draw)])  # an AI on both sides counts each side
    assert same["utility"].battles == 2
    total = Figures()
    total.add(draw["A"])
    total.add(win["A"])
    assert total.rounds == 27


def objective(side: str, name: str, state: str) -> Event:
    return ev(ObjectiveEvent, None, side=side, objective=name, kind="hold", state=state, why="")


def test_the_kind_of_end_keeps_an_objectives_name_whole_and_drops_the_points() -> None:
    """R-10.1: an objective's name may hold a colon (the default name is SIDE:KIND, docs/FILES.md), and a battle
    with objectives ends on the round limit with each side's points after a semicolon (skirmish/objectives)."""
    ends = [
        [objective("A", "A:hold", "done"), result("A", 6, "objective A:hold done: 1 unit holding Relay")],
        [objective("A", "Gate", "done"), objective("B", "Gate: north", "failed"),
         result(None, 9, "objective Gate: north failed: too few left to make Gate; points equal: A 2")],
        [objective("A", "A:reach", "done"), objective("B", "B:reach", "done"),
         result(None, 4, "objectives A:reach (A) and B:reach (B) done at once: a draw")],
        [objective("B", "B:survive", "done"), result("B", 12, "round limit; points A 1, B 3")],
        [result(None, 12, "round limit; points equal: A 2, B 2")],
        [result("A", 5, "nobody left standing: B")],
    ]
    kinds = [next(iter(behaviour(events, SETUP)["A"].reasons)) for events in ends]
    assert kinds == ["objective A:hold done", "objective Gate: north failed",
                     "objectives A:reach (A) and B:reach (B) done at once", "round limit", "round limit",
                     "nobody left standing"]


def _attacks_by_side(scenario: str, seed: int, ais: dict[str, str]) -> dict[str, int]:
    """Attacks per side in one battle, from `skirmish run --json`."""
    args = [a for side, ai in ais.items() for a in ("--ai", f"{side}={ai}")]
    code, out, err = cli("run", scenario, "--seed", str(seed), "--json", *args)
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    side_of = {}
    for e in events:
        if e["type"] == "decision" or e["type"] == "declare":
            side_of.setdefault(e["actor"], e["actor"].split("-")[0])
    counts: dict[str, int] = {}
    for e in events:
        if e["type"] == "attack":
            counts[ais[side_of[e["actor"]]]] = counts.get(ais[side_of[e["actor"]]], 0) + 1
    return counts


def test_cli_behaviour_run_matches_the_battles_logs() -> None:
    scenario = "scenarios/killhouse_drill.yaml"
    code, out, err = cli("tournament", "--behaviour", "--json", scenario, "--vs", "hold", "--pairs", "1",
                         "--workers", "1", timeout=120)
    assert code == 0, err
    doc = json.loads(out)
    ai = doc["ai"]
    assert set(ai) == {"utility", "hold"}
    expected: dict[str, int] = {}
    for ais in ({"Blue": "utility", "Red": "hold"}, {"Blue": "hold", "Red": "utility"}):
        for name, n in _attacks_by_side(scenario, 1, ais).items():
            expected[name] = expected.get(name, 0) + n
    assert {name: ai[name]["shots"] for name in ai} == expected
    assert ai["hold"]["low_odds_share"] is None  # no traces
    assert 0 < ai["utility"]["estimated_shots"] <= ai["utility"]["shots"]
    assert ai["utility"]["battles"] == ai["hold"]["battles"] == 2
    code, text, err = cli("tournament", "--behaviour", scenario, "--vs", "hold", "--pairs", "1", "--workers", "1",
                          "--by-scenario", timeout=120)
    assert code == 0, err
    assert "low-odds shots" in text and "utility | Killhouse drill" in text
    code, _, err = cli("tournament", "--behaviour", "--csv", "x.csv", scenario, "--vs", "hold")
    assert code == 2 and "--csv" in err
