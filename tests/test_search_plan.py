"""The search tier's seventh-session look-ahead (issue 12 items 4/5): a move's attacks as often as the turn still
allows them (`Weights.move_volley`, R-5.5), and the rest of the round walked over kill chances (`plan.Plan`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from skirmish.ai.estimate import estimate_shot
from skirmish.ai.search import Replies, SearchAI, Weights, exchange, material
from skirmish.ai.search.controller import DEFAULT
from skirmish.ai.search.model import repeated, shot_after_move
from skirmish.ai.search.plan import Plan
from skirmish.ai.utility.material import shots_this_turn
from skirmish.ecs.view import BattleView
from skirmish.rules.actions import Move, Shoot
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
SLOW = "{strength: III-2, dexterity: III-3, reflexes: II-2, vigor: III-2, acuity: II-2}"  # a later Reflex column
RIFLE = 'skills: {"shooting:rifle": 3}, weapons: [assault_rifle]'


def test_a_move_counts_the_attacks_the_turn_still_allows_after_it(tmp_path: Path) -> None:
    """Me (SLOW) walks round a wall into sight of Gunner. Without `move_volley` the move is worth one attack after
    it; with it, as many as the engine then lets Me take in that turn (R-5.5), in the mode worth most: the count
    the model uses is the one `shots_this_turn` gives once the battle has applied the move (a rifle: one prepared
    attack after a walk, or three snaps)."""
    rows = ["......#.....",
            "......#.....",
            "......#.....",
            "............",
            "............"]
    me = f"[{{name: Me, at: [4, 1], traits: {TRAITS}, {RIFLE}}}]"
    red = f"[{{name: Gunner, at: [9, 1], traits: {TRAITS}, {RIFLE}}}]"
    with battle_at(tmp_path, rows, me, red, declare="slow") as b:
        view, legal = b.observe("Blue"), b.pending.legal()  # type: ignore[union-attr]
        me_v, gunner = view.unit("Me"), view.unit("Gunner")
        assert not view.sight(me_v, gunner).visible
        cell = (5, 3)
        assert cell in legal.walk
        once, volley = Weights(), Weights(move_volley=True)
        a1 = exchange(view, me_v, Move("Me", cell), Replies.of(view, me_v, once), once, legal.walk)
        a3 = exchange(view, me_v, Move("Me", cell), Replies.of(view, me_v, volley), volley, legal.walk)
        assert 0 < a1.attack < a3.attack
        after = replace(me_v, cell=cell, ready_target=None, aim=0)
        est, target, _ = shot_after_move(view, me_v, after, False, {"Gunner": 1.0}, volley=True)
        assert target == "Gunner" and est is not None
        b.submit(Move("Me", cell))  # the engine's turn after the move: how often it lets Me take each mode
        moved = b.observe("Blue").unit("Me")
        counts = {mode: shots_this_turn(moved, Shoot("Me", "Gunner", mode=mode, burst=3)) for mode in ("prepared", "snap")
                  if b.check(Shoot("Me", "Gunner", mode=mode, burst=3)) is None}
        assert counts, "the engine allows some attack after the move"
        best = max(material(repeated(estimate_shot(view, after, gunner, mode=m, burst=3, moved="walked"), n), gunner)
                   for m, n in counts.items())
        there = Replies.of(view, me_v, volley).present["Gunner"]  # unseen from where Me stands: a ghost, at half
        assert there == 0.5 and abs(a3.attack - there * best) < 1e-9
        assert DEFAULT.move_volley  # shipped for hard and `search`


def _staged(view: BattleView) -> BattleView:
    """Every unit flipped into phase IV (R-5.1), as the view shows once initiative is flipped."""
    return replace(view, phase=4, units=tuple(replace(u, phase=4, hesitating=False) for u in view.units))


def test_the_plan_leaves_the_enemy_a_friend_can_reach_to_that_friend(tmp_path: Path) -> None:
    """Me and Mate (a later Reflex column: it acts after Me in phase IV, before the enemies, R-5.1) face Near and
    Far. A wall hides Far from Mate but not from Me. The rest of the round (`Plan`) is worth more after Me takes
    Far down than after it takes Near down with the same chance: Mate's volley then goes at Near, where otherwise
    it has no one left to shoot while Far fires. And the walk is exact: with no kill chance at all it is the
    volleys that follow, friends first."""
    rows = ["............",
            "............",
            "............",
            "............",
            "......##....",
            "............",
            "............"]
    blue = (f"[{{name: Me, at: [1, 3], traits: {TRAITS}, {RIFLE}}}, "
            f"{{name: Mate, at: [1, 0], traits: {SLOW}, {RIFLE}}}]")
    red = (f"[{{name: Near, at: [8, 1], traits: {SLOW}, {RIFLE}}}, "
           f"{{name: Far, at: [8, 5], traits: {SLOW}, {RIFLE}}}]")
    with battle_at(tmp_path, rows, blue, red, declare="slow") as b:
        view = _staged(b.observe("Blue"))
        me, mate = view.unit("Me"), view.unit("Mate")
        near, far = view.unit("Near"), view.unit("Far")
        assert view.sight(me, far).visible and view.sight(me, near).visible
        assert view.sight(mate, near).visible and not view.sight(mate, far).visible
        plan = Plan.of(view, me, {"Near": 1.0, "Far": 1.0})
        assert plan is not None
        assert [plan.units[i].name for i in plan.turns] == ["Mate", "Near", "Far"]  # Reflex column, then side
        k = 0.5
        assert plan.value(view, me, {"Far": k}) > plan.value(view, me, {"Near": k})
        assert plan.value(view, me, {"Far": 1.0}) > plan.value(view, me, {}) > -2
        # SearchAI with the plan weighs it in its trace.
        _, trace = SearchAI(weights=replace(DEFAULT, plan=1.0)).decide_traced(view, b.pending)  # type: ignore[arg-type]
        names = [c["name"] for c in trace["chosen"]["considerations"]]
        assert "search: rest of the round" in names
    # Before initiative is flipped (no phase in the view) there is no order to walk.
    with battle_at(tmp_path / "b", rows, blue, red, declare="slow") as b:
        view = b.observe("Blue")
        assert Plan.of(replace(view, phase=None), view.unit("Me"), {"Near": 1.0, "Far": 1.0}) is None


def test_a_dodging_units_move_is_credited_no_attack(tmp_path: Path) -> None:
    """review8b: a unit that declared DODGE makes no attacks (R-5.4; the engine refuses its shot), so a move that
    brings it into sight of an enemy is worth no attack after it, once or as a volley (`shot_after_move`), as a
    DODGE declaration is worth none (`shot_this_round`)."""
    rows = ["......#.....",
            "......#.....",
            "......#.....",
            "............",
            "............"]
    me = f"[{{name: Me, at: [4, 1], traits: {TRAITS}, {RIFLE}}}]"
    red = f"[{{name: Gunner, at: [9, 1], traits: {TRAITS}, {RIFLE}}}]"
    with battle_at(tmp_path, rows, me, red, declare="dodge") as b:
        view, legal = b.observe("Blue"), b.pending.legal()  # type: ignore[union-attr]
        me_v = view.unit("Me")
        cell = (5, 3)
        assert me_v.declared == "dodge" and cell in legal.walk
        for w in (Weights(), DEFAULT):
            ex = exchange(view, me_v, Move("Me", cell), Replies.of(view, me_v, w), w, legal.walk)
            assert ex.attack == 0.0
        b.submit(Move("Me", cell))
        r = b.check(Shoot("Me", "Gunner", mode="snap"))
        assert r is not None and r.rule == "R-5.4"  # the engine's answer the model follows
