"""The utility AI's final pick on the material scale (issue 12, `skirmish/ai/utility/material.py`): the options
that attack and the best that do not are ranked again by their exchange (the search tier's model: our attack
over the rules' odds, less the enemy's replies where the action ends; our next shot is the search tier's), plus
a share of the utility score. Hand-built battles where the product of considerations and the material scale
disagree."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from skirmish.ai.search.model import Replies, Weights, exchange
from skirmish.ai.utility import UtilityAI
from skirmish.ai.utility.material import FOLLOW, attacks, candidates
from skirmish.ai.utility.personality import PERSONALITIES
from skirmish.rules.actions import Move, Shoot, parse_action
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
RIFLE = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
ROWS = ["..................",
        "..................",
        "......=...........",
        "..................",
        "..................",
        ".................."]
BLUE = f"[{{name: Me, at: [6, 5], {RIFLE}}}]"
RED = f"[{{name: R1, at: [4, 0], {RIFLE}}}, {{name: R2, at: [8, 0], {RIFLE}}}]"


def _material(o: dict[str, Any]) -> dict[str, float]:
    return {str(c["name"]): float(c["input"]) for c in o["considerations"] if str(c["name"]).startswith("material")}


def test_the_material_scale_fires_the_burst_where_the_product_runs_for_cover(tmp_path: Path) -> None:
    """Me stands in the open 10 m from two rifles. On the product of considerations it steps behind the low wall
    (cover and low threat outweigh a 10-round burst whose "rounds left after" and the like flatten it); on the
    material scale the burst now, likely to put R1 out of action (R-6, R-8.1) before both reply, is worth more
    than the snap after the step with both still shooting: it fires. Every option weighed carries its
    exchange, equal to the search tier's model worked out here."""
    with battle_at(tmp_path, ROWS, BLUE, RED) as b:
        view, req = b.view(), b.pending
        me = view.unit("Me")
        product = UtilityAI(replace(PERSONALITIES["hard"], material=False, runners_up=40))
        a0, t0 = product.decide_traced(view, req)
        assert a0 == Move("Me", (6, 3)), t0["chosen"]
        assert not any(_material(o) for o in [t0["chosen"], *t0["runners_up"]])  # the scale is off
        ai = UtilityAI(replace(PERSONALITIES["hard"], runners_up=40))  # the scale: the top rung's (the ladder)
        action, trace = ai.decide_traced(view, req)
        assert isinstance(action, Shoot) and action.target in ("R1", "R2") and action.burst == 10, trace["chosen"]
        weighed = [o for o in [trace["chosen"], *trace["runners_up"]] if _material(o)]
        cover = next(o for o in weighed if o["action"] == "move Me to=6,3")
        assert cover["score"] > trace["chosen"]["score"]  # the product still prefers the cover
        chosen = _material(trace["chosen"])
        assert chosen["material: our attack"] > 0.6 > _material(cover)["material: our attack"]
        assert chosen["material: value"] == max(_material(o)["material: value"] for o in weighed)
        w = Weights(follow=FOLLOW)
        replies = Replies.of(view, me, w)
        for o in weighed:
            m = _material(o)
            a = parse_action(o["action"])
            if isinstance(a, Shoot) and (a.also or a.double_tap):
                continue  # a split burst or a double tap: weighed by ai/utility/ranged_extra.py (tests/test_ai_ranged.py)
            n = int(m.get("material: shots this turn", 1))  # a snap the NORMAL turn allows three times
            if isinstance(a, Shoot):  # as many as the rounds loaded allow
                assert n == (min(3, me.rounds // max(1, a.burst)) if a.mode == "snap" else 1), o
            ex = exchange(view, me, a, replies, w, req.legal().walk, repeats=n)
            assert abs(m["material: our attack"] - ex.attack) < 1e-3
            assert abs(m["material: enemy replies"] - ex.reply) < 1e-3
            assert abs(m["material: value"] - (ex.attack - ex.reply + w.utility * o["score"])) < 2e-3


def test_only_the_attacks_and_the_best_alternatives_are_weighed(tmp_path: Path) -> None:
    """Every option that attacks is weighed, and of those that do not only the best move and the best option
    that stays (the considerations still choose where to go when no shot is involved)."""
    with battle_at(tmp_path, ROWS, BLUE, RED) as b:
        view, req = b.view(), b.pending
        ai = UtilityAI(replace(PERSONALITIES["hard"], runners_up=400))
        _, trace = ai.decide_traced(view, req)
        options = [trace["chosen"], *trace["runners_up"]]
        weighed = [o for o in options if _material(o)]
        hitting = [o for o in options if any(c["name"] == "hit chance" for c in o["considerations"])
                   or o["action"].startswith(("shoot", "aim", "throw"))]
        assert hitting and all(_material(o) for o in hitting)
        quiet = [o for o in weighed if o not in hitting]
        assert [o["action"] for o in quiet if not o["action"].startswith("move")] == ["end Me"]  # the best stay
        assert not any(o["action"].startswith("move") for o in quiet)  # every move here still allows a shot
        assert len(weighed) == len(hitting) + 1 < len(options)  # the other quiet options keep their utility order
        assert [o["action"] for o in options if o not in weighed] == \
            [o["action"] for o in sorted((o for o in options if o not in weighed), key=lambda o: -o["score"])]


def test_candidates_and_easy_keep_the_product(tmp_path: Path) -> None:
    """With nothing that attacks there is nothing to rank; easy does not use the scale (the ladder)."""
    from skirmish.ai.curves import Curve
    from skirmish.ai.utility.scoring import Option
    from skirmish.rules.actions import EndTurn

    quiet = [Option("end", EndTurn("Me"), ("end",)), Option("go", Move("Me", (1, 1)), ("move", (1, 1), "walk"))]
    assert candidates(quiet) == [] and not any(attacks(o) for o in quiet)
    shot = Option("shoot", Shoot("Me", "R1"), ("shoot", "R1"))
    snap = Option("walk", Move("Me", (2, 2)), ("move", (2, 2), "walk")).add("hit chance", 0.5, Curve("linear"))
    later = Option("go", Move("Me", (3, 3)), ("move", (3, 3), "walk"))
    ranked = [quiet[1], snap, quiet[0], later, shot]  # best first, as the reasoner sorts them
    assert candidates(ranked) == [snap, shot, quiet[1], quiet[0]]  # attacks, the best quiet move, the best stay
    assert PERSONALITIES["easy"].material is False  # the ladder: easy picks by its considerations alone
    assert PERSONALITIES["normal"].material is True and PERSONALITIES["hard"].material is True


def test_an_energy_weapon_counts_only_the_shots_its_tacpack_pays_for() -> None:
    """R-6.13: every energy shot draws the weapon's power from what the tacpack has left this round. Depot
    breach's Raider-3 (laser pistol, 1 point a shot, rate of fire 2, a tp4 with 2 points on its screen) can pay
    for two shots, not the six a SLOW turn of two-shot actions would otherwise allow (a reviewer's finding)."""
    from skirmish.ai.estimate import replaced
    from skirmish.ai.utility.material import shots_this_turn
    from skirmish.battle import Battle
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario

    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=1) as b:
        me = b.observe("Raiders").unit("Raider-3")
    w = me.weapon
    assert w is not None and w.energy and me.power_left == 2 and w.rof == 2
    slow = replaced(me, declared="slow")
    assert shots_this_turn(slow, Shoot(me.name, "Guard-1", mode="prepared")) == 2
    assert shots_this_turn(replaced(slow, shot_points=1), Shoot(me.name, "Guard-1", mode="prepared")) == 1
    rifle = replaced(slow, tacpack_generator=0, screen_points=0, shot_points=0, weapon=None)
    assert shots_this_turn(rifle, Shoot(me.name, "Guard-1")) == 1  # no weapon: the one shot asked about


def test_a_personality_sets_the_scales_reply_weight_and_utility_share(tmp_path: Path) -> None:
    """`Personality.scale_reply` and `scale_utility` are the material pick's `Weights.reply` and `Weights.utility`
    (a rung's data, docs/AI.md's ladder): each weighed option's value is its attack, less the replies at that
    weight, plus that share of its utility score; and a share large enough hands the pick back to the product
    of considerations (Me steps behind the wall, as with the scale off)."""
    with battle_at(tmp_path, ROWS, BLUE, RED) as b:
        view, req = b.view(), b.pending
        p = replace(PERSONALITIES["hard"], runners_up=40, scale_reply=0.5, scale_utility=0.7)
        _, trace = UtilityAI(p).decide_traced(view, req)
        weighed = [o for o in [trace["chosen"], *trace["runners_up"]] if _material(o)]
        assert len(weighed) > 2
        for o in weighed:
            m = _material(o)
            value = m["material: our attack"] - 0.5 * m["material: enemy replies"] + 0.7 * o["score"]
            assert abs(m["material: value"] - value) < 2e-3, o
        action, trace = UtilityAI(replace(p, scale_utility=50.0)).decide_traced(view, req)
        assert action == Move("Me", (6, 3)), trace["chosen"]
