"""The utility AI: response curves, the compensation factor, considerations on hand-built battles, and
traces that round-trip through JSON (issue 4)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.ai.controllers import make_ai
from skirmish.ai.curves import KINDS, Curve, combine, compensate
from skirmish.ai.utility import PERSONALITIES, Personality, UtilityAI
from skirmish.ai.utility.scoring import targets
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.core.events import Event
from skirmish.rules.actions import Move, Reload, Shoot
from skirmish.rules.geometry import sight
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"


# ------------------------------------------------------------------------------------------ curves


def test_curve_shapes() -> None:
    assert Curve("linear")(0.25) == pytest.approx(0.25)
    assert Curve("linear", m=-1, b=1)(0.25) == pytest.approx(0.75)
    assert Curve("polynomial", k=2)(0.5) == pytest.approx(0.25)
    logistic = Curve("logistic", k=10, c=0.5)
    assert logistic(0.5) == pytest.approx(0.5) and logistic(0.9) > 0.95 and logistic(0.1) < 0.05
    logit = Curve("logit")
    assert logit(0.5) == pytest.approx(0.5) and logit(0.9) > 0.8 and logit(0.1) < 0.2
    normal = Curve("normal", k=0.1, c=0.5)
    assert normal(0.5) == pytest.approx(1.0) and normal(0.8) < 0.05
    with pytest.raises(ValueError, match="curve kind"):
        Curve("cubic")
    assert Curve.parse(Curve("logistic", k=3).to_json()) == Curve("logistic", k=3)


@given(st.sampled_from(KINDS), st.floats(-2, 2), st.floats(0.05, 12), st.floats(-1, 1), st.floats(-1, 1),
       st.floats(-5, 5))
def test_curves_stay_in_the_unit_interval(kind: str, m: float, k: float, b: float, c: float, x: float) -> None:
    y = Curve(kind, m, k, b, c)(x)
    assert 0.0 <= y <= 1.0
    arr = Curve(kind, m, k, b, c)(np.array([x, 0.3, 0.7]))
    assert arr.shape == (3,) and float(arr[0]) == pytest.approx(y)


def test_compensation_factor() -> None:
    # One consideration is left alone; with n of them each output is lifted by (1 - o)(1 - 1/n) o.
    assert compensate(0.5, 1) == 0.5
    assert compensate(0.5, 2) == pytest.approx(0.5 + 0.5 * 0.5 * 0.5)
    assert compensate(0.0, 5) == 0.0 and compensate(1.0, 5) == 1.0
    # Without it, five 0.9s multiply to 0.59; with it the option keeps most of its value.
    assert combine([0.9] * 5) > 0.85 and 0.9 ** 5 < 0.6
    assert combine([0.9, 0.0, 1.0]) == 0.0


# ------------------------------------------------------------------------------------------ hand-built views


def _battle(tmp_path: Path, rows: list[str], blue: str, red: str, declare: str = "normal") -> Battle:
    return battle_at(tmp_path, rows, blue, red, declare)  # type: ignore[no-any-return]


def test_a_unit_in_the_open_facing_two_rifles_prefers_cover(tmp_path: Path) -> None:
    rows = ["..................",
            "..................",
            "......=...........",
            "..................",
            "..................",
            ".................."]
    rifle = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
    with _battle(tmp_path, rows, f"[{{name: Me, at: [6, 5], {rifle}}}]",
                 f"[{{name: R1, at: [4, 0], {rifle}}}, {{name: R2, at: [8, 0], {rifle}}}]") as b:
        ai = UtilityAI("cautious")
        # The cell considerations on their own (the material scale, tests/test_material.py, takes the 10-round
        # burst at 2 m over the cover here: 0.89 of a unit against the replies).
        ai.p = Personality("test", caution=0.9, aggression=0.1, runners_up=40, material=False)
        view = b.view()
        action, trace = ai.decide_traced(view, b.pending)  # type: ignore[arg-type]
        moves = [o for o in [trace["chosen"], *trace["runners_up"]] if o["action"].startswith("move")]
        heat = ai.heat["Me"]
        grid = view.grid
        # The cell behind the low wall is covered from both rifles, and it out-scores the open cells beside it.
        assert all(sight(grid, e, (6, 5)).cover == "none" for e in ((4, 0), (8, 0)))  # in the open now
        assert all(sight(grid, e, (6, 3)).cover == "low" for e in ((4, 0), (8, 0)))  # behind the wall
        open_cells = [(5, 4), (7, 4), (4, 4), (8, 4), (6, 4)]
        assert all(np.isfinite(heat[c[1], c[0]]) for c in [(6, 3), *open_cells])
        assert heat[3, 6] > max(heat[c[1], c[0]] for c in open_cells)
        best_move = max(moves, key=lambda o: o["score"]) if moves else None
        assert best_move is not None and best_move["action"] == "move Me to=6,3", trace
        if isinstance(action, Move):
            assert action.to == (6, 3)
        else:  # shooting from the open is marked down for the better spot it gives up
            c = {x["name"]: x["input"] for x in trace["chosen"]["considerations"]}
            assert c["no better spot to shoot from"] < 0.5


def test_an_empty_magazine_is_reloaded(tmp_path: Path) -> None:
    rows = ["............", "............", "............", "............"]
    with _battle(tmp_path, rows,
                 f'[{{name: Me, at: [1, 1], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, '
                 f'weapons: [{{weapon: assault_rifle, ammo: 0}}]}}]',
                 f"[{{name: R1, at: [10, 2], traits: {TRAITS}}}]", declare="slow") as b:
        action, trace = UtilityAI().decide_traced(b.view(), b.pending)  # type: ignore[arg-type]
        assert isinstance(action, Reload), trace
        assert trace["chosen"]["option"] == "reload"


def test_with_equal_hit_chances_the_penetrable_target_is_preferred(tmp_path: Path) -> None:
    rows = ["............", "............", "............", "............", "............"]
    with _battle(tmp_path, rows,
                 f'[{{name: Me, at: [1, 2], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, '
                 f"weapons: [slug_pistol]}}]",
                 f"[{{name: Soft, at: [6, 0], traits: {TRAITS}}}, "
                 f"{{name: Hard, at: [6, 4], traits: {TRAITS}, armour: [hardshell, combat_helmet, greaves]}}]") as b:
        ai = UtilityAI(Personality("test", use_grenades=False, think_moves=False))
        action, trace = ai.decide_traced(b.view(), b.pending)  # type: ignore[arg-type]
        assert isinstance(action, Shoot) and action.target == "Soft", trace
        shots = {o["option"]: o for o in [trace["chosen"], *trace["runners_up"]] if o["option"].startswith("shoot")}
        hit = {name: next(c["input"] for c in o["considerations"] if c["name"] == "hit chance")
               for name, o in shots.items()}
        soft = [v for k, v in hit.items() if "Soft" in k]
        hard = [v for k, v in hit.items() if "Hard" in k]
        assert soft and (not hard or abs(max(soft) - max(hard)) < 1e-9)  # same distance, same chance


def test_traces_go_into_the_log_and_round_trip(tmp_path: Path) -> None:
    rows = ["............", "............", "....=.......", "............"]
    rifle = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
    text = f"""
name: t
seed: 3
map: {{ascii: {rows!r}}}
victory: {{max_rounds: 3}}
sides:
  - {{name: Blue, controller: ai, ai: "utility:hard", units: [{{name: B1, at: [1, 1], {rifle}}}]}}
  - {{name: Red, controller: ai, ai: rush, units: [{{name: R1, at: [10, 2], {rifle}}}]}}
"""
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    ctrl = {s.name: make_ai(s.ai) for s in sc.spec.sides}
    with Battle(sc, seed=3, controllers=ctrl) as b:  # type: ignore[arg-type]
        b.run()
        decisions = [e for e in b.log if e.type == "decision"]
        assert decisions and all(e.actor == "B1" for e in decisions)
        for e in decisions:
            assert Event.from_json(json.loads(json.dumps(e.to_json()))) == e
            chosen = e.chosen
            # (hard looks ahead, and the final pick weighs material: those parts are in units of material, not
            # curve outputs)
            assert chosen["considerations"] and all(0 <= c["output"] <= 1 for c in chosen["considerations"]
                                                    if not c["name"].startswith(("search:", "material:")))
            assert all(r["score"] <= chosen["score"] for r in e.runners_up)


def test_personalities_are_data() -> None:
    assert {"easy", "normal", "hard"} <= set(PERSONALITIES)
    p = Personality.parse({"name": "x", "aggression": 0.9})
    assert p.aggression == 0.9 and p.caution == Personality().caution
    with pytest.raises(ValueError, match="unknown field 'braveness'"):
        Personality.parse({"braveness": 1})
    with pytest.raises(ValueError, match="unknown AI"):
        make_ai("genius")


# ------------------------------------------------------------------------------------------ the screen (issue 12)
def _screens_offered(b: Battle) -> list[str]:
    """The screen options the utility AI weighed for Me now (every option kept in the trace)."""
    ai = UtilityAI()
    ai.p = Personality("test", runners_up=200)
    _, trace = ai.decide_traced(b.view(), b.pending)  # type: ignore[arg-type]
    return [o["option"] for o in [trace["chosen"], *trace["runners_up"]] if " screen " in o["option"]]


_SHIELDED = (f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle], '
             'tacpack: {type: tp6, screen: kinetic, screen_points: 3}')


def test_a_screen_is_kept_while_the_threat_is_unchanged(tmp_path: Path) -> None:
    """Kinetic stops the rifle, diffusion the laser: no other screen stops more, so none is offered (before
    issue 12 the AI weighed a switch every turn and flipped between them)."""
    rows = ["............", "............", "............", "............", "............"]
    red = (f"[{{name: R1, at: [9, 0], traits: {TRAITS}, weapons: [assault_rifle]}}, "
           f"{{name: R2, at: [9, 4], traits: {TRAITS}, weapons: [laser_rifle]}}]")
    with _battle(tmp_path, rows, f"[{{name: Me, at: [1, 2], {_SHIELDED}}}]", red) as b:
        offered = _screens_offered(b)
    assert not [o for o in offered if o.startswith(("diffusion", "magnetic"))], offered


def test_only_weapons_that_can_see_the_unit_count_for_its_screen(tmp_path: Path) -> None:
    """A laser behind a wall cannot shoot at Me: the rifle in sight is the whole threat, and kinetic answers
    it; once the laser is the one in sight, diffusion is offered."""
    rows = ["......#.....", "......#.....", "............", "............", "............"]
    hidden_laser = (f"[{{name: R1, at: [1, 4], traits: {TRAITS}, weapons: [assault_rifle]}}, "
                    f"{{name: R2, at: [9, 0], traits: {TRAITS}, weapons: [laser_rifle]}}]")
    with _battle(tmp_path, rows, f"[{{name: Me, at: [1, 0], {_SHIELDED}}}]", hidden_laser) as b:
        view = b.view()
        assert not view.sight(view.unit("R2"), view.unit("Me")).visible
        assert view.sight(view.unit("R1"), view.unit("Me")).visible
        assert not [o for o in _screens_offered(b) if o.startswith("diffusion")]
    seen_laser = (f"[{{name: R1, at: [9, 0], traits: {TRAITS}, weapons: [assault_rifle]}}, "
                  f"{{name: R2, at: [1, 4], traits: {TRAITS}, weapons: [laser_rifle]}}]")
    with _battle(tmp_path, rows, f"[{{name: Me, at: [1, 0], {_SHIELDED}}}]", seen_laser) as b:
        view = b.view()
        assert view.sight(view.unit("R2"), view.unit("Me")).visible
        assert not view.sight(view.unit("R1"), view.unit("Me")).visible
        assert [o for o in _screens_offered(b) if o.startswith("diffusion")]


# ------------------------------------------------------------------------------------------ the ladder (issue 12)
def _weighed(ai: object, b: Battle) -> list[dict[str, object]]:
    """Every option the AI weighed for Me now, chosen first (runners-up widened to keep them all)."""
    _, trace = ai.decide_traced(b.view(), b.pending)  # type: ignore[attr-defined]
    return [trace["chosen"], *trace["runners_up"]]


def _names(o: dict[str, object]) -> set[str]:
    return {str(c["name"]) for c in o["considerations"]}  # type: ignore[attr-defined]


_RIFLE = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
_BLUE = f"[{{name: Me, at: [2, 5], {_RIFLE}}}, {{name: Mate, at: [4, 5], {_RIFLE}}}]"
_RED = f"[{{name: R1, at: [13, 4], {_RIFLE}}}, {{name: R2, at: [14, 5], {_RIFLE}}}]"
_WALLED = ["................", "........#.......", "........#.......", "........#.......", "........#.......",
           "........#......."]  # the enemies out of sight behind the wall, a way round it at the top


def test_the_ladder_differs_where_it_should(tmp_path: Path) -> None:
    """easy plays each unit alone (no spacing, crossfire or fire allocation), weighs fewer moves in full and
    misjudges its options (deterministically); normal weighs the squad's considerations; hard weighs its best
    options again one exchange ahead (the search tier's model)."""
    from dataclasses import replace

    from skirmish.ai.search import SearchAI

    easy, normal, hard = (PERSONALITIES[n] for n in ("easy", "normal", "hard"))
    assert easy.top_moves < normal.top_moves < hard.top_moves and easy.noise > normal.noise > 0 == hard.noise
    assert not easy.use_squad and normal.use_squad and hard.look_ahead > 0 == normal.look_ahead
    with _battle(tmp_path, _WALLED, _BLUE, _RED) as b:
        assert not targets(b.view(), b.view().unit("Me"), (2, 5))  # no shot: even easy thinks of moving
        wide = {"easy": replace(easy, hesitate=0.0, runners_up=200),
                "normal": replace(normal, hesitate=0.0, runners_up=200)}  # rounds it thinks of moving
        got = {n: _weighed(UtilityAI(p), b) for n, p in wide.items()}
        moves = {n: [o for o in opts if str(o["option"]).startswith(("walk", "run"))] for n, opts in got.items()}
        full = {n: [o for o in ms if "exposure on the way" in _names(o) or "hit chance" in _names(o)
                    or any(c.startswith("intent:") for c in _names(o))] for n, ms in moves.items()}
        assert len(full["normal"]) == normal.top_moves and len(full["easy"]) == easy.top_moves
        assert all("spacing against blasts" in _names(o) for o in moves["normal"])
        assert not any("spacing against blasts" in _names(o) for o in moves["easy"])
        assert all("noise" in o for o in got["easy"]) and all(0.9 <= o.get("noise", 1) <= 1.1 for o in got["normal"])
        assert len({o["noise"] for o in got["easy"]}) > 1  # each option misjudged its own way
        assert _weighed(UtilityAI(wide["easy"]), b) == got["easy"]  # and the same way again
        frozen = _weighed(UtilityAI(replace(wide["easy"], hesitate=1.0)), b)  # a round it hesitates
        assert not [o for o in frozen if str(o["option"]).startswith(("walk", "run"))]
        ai = make_ai("utility:hard")
        assert isinstance(ai, SearchAI)
        action, trace = ai.decide_traced(b.view(), b.pending)  # type: ignore[arg-type]
        assert trace["personality"] == "hard" and b.pending.legal().allows(action)  # type: ignore[union-attr]
        assert isinstance(make_ai("utility"), UtilityAI) and isinstance(make_ai("utility:easy"), UtilityAI)
    for p in (easy, normal):  # hesitant rounds: their share, the same for one battle's salt, others for another's
        rounds = [r for r in range(1, 201) if p.hesitates(r, "Me", "a1")]
        assert abs(len(rounds) / 200 - p.hesitate) < 0.1, p.name
        assert rounds == [r for r in range(1, 201) if p.hesitates(r, "Me", "a1")]
        assert not p.hesitate or rounds != [r for r in range(1, 201) if p.hesitates(r, "Me", "b2")]
    assert not any(hard.hesitates(r, "Me", salt) for r in range(1, 201) for salt in ("", "a1", "b2"))
    aggressive, cautious = PERSONALITIES["aggressive"], PERSONALITIES["cautious"]  # still distinct, still data
    assert aggressive.aggression > normal.aggression > cautious.aggression
    assert aggressive.caution < normal.caution < cautious.caution


def test_easy_does_not_move_while_it_has_a_shot_and_hard_looks_ahead(tmp_path: Path) -> None:
    """With an enemy in sight, easy stands and shoots (no fire and move) while normal weighs moves too; hard's
    chosen option carries the exchange it looked ahead at."""
    from dataclasses import replace

    open_rows = ["................"] * 6
    with _battle(tmp_path, open_rows, _BLUE, _RED) as b:
        assert targets(b.view(), b.view().unit("Me"), (2, 5))
        easy = _weighed(UtilityAI(replace(PERSONALITIES["easy"], hesitate=0.0, runners_up=200)), b)
        normal = _weighed(UtilityAI(replace(PERSONALITIES["normal"], runners_up=200)), b)
        assert not [o for o in easy if str(o["option"]).startswith(("walk", "run"))]
        assert [o for o in normal if str(o["option"]).startswith(("walk", "run"))]
        assert any(str(o["option"]).startswith("shoot") for o in easy)
        _, trace = make_ai("utility:hard").decide_traced(b.view(), b.pending)  # type: ignore[arg-type]
        assert "search: enemy replies" in _names(trace["chosen"])
        assert not any(n.startswith("search:") for o in normal for n in _names(o))


def test_a_ladder_personality_is_checked() -> None:
    for field, bad in (("top_moves", 0), ("noise", 1.0), ("noise", -0.1), ("look_ahead", -1), ("hesitate", 1.5)):
        with pytest.raises(ValueError, match=field):
            Personality.parse({field: bad})
    assert Personality.parse({"top_moves": 3, "noise": 0.4, "look_ahead": 6}).look_ahead == 6
