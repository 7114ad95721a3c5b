"""Two weapons (R-6.12) in the side views and the AIs (issue 14 item 7; skirmish/ai/utility/two_guns.py): the view
carries the off hand's weapon (an enemy's seen as its main weapon is: its rounds unknown); the utility AI fires a
two-gun turn (the off hand first, then the main hand in the same action) where it pays and not where one weapon's
shot does more; the search model prices an off-hand shot with the main hand's fire after it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from skirmish.ai.estimate import estimate_shot
from skirmish.ai.search.model import Replies, Weights, exchange
from skirmish.ai.utility import UtilityAI
from skirmish.ai.utility.personality import PERSONALITIES
from skirmish.ai.utility.two_guns import OFF_MIN_HIT, off_estimate
from skirmish.ecs.view import replace_unit
from skirmish.rules.actions import Shoot
from tests.conftest import battle_at

T = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"


def _battle(tmp_path: Path, weapons: str, skills: str, x: int, two: bool = True) -> Any:
    me = (f"[{{name: Me, at: [0, 1], traits: {T}, skills: {skills}, weapons: {weapons}"
          f"{', two_weapons: true' if two else ''}}}]")
    return battle_at(tmp_path, ["." * 30] * 3, me, f"[{{name: A, at: [{x}, 1], traits: {T}, wounds: 0}}]")


def _decide(b: Any) -> tuple[Any, list[dict[str, Any]]]:
    # hard: the rung that weighs the material scale at its full share (normal leans on its own utility scores,
    # scale_utility 3.0, and takes the single prepared shot here; docs/AI.md's ladder)
    ai = UtilityAI(replace(PERSONALITIES["hard"], runners_up=80))
    action, trace = ai.decide_traced(b.observe("Blue"), b.pending)
    return action, [trace["chosen"], *trace["runners_up"]]


def _value(o: dict[str, Any]) -> float:
    return next(float(c["input"]) for c in o["considerations"] if c["name"] == "material: value")


PISTOLS = ("[blast_pistol, slug_pistol]", "{'shooting:pistol': 4}")
RIFLE_AND_PISTOL = ("[blast_rifle, slug_pistol]", "{'shooting:rifle': 5}")  # the pistol unskilled: halved


def test_the_view_carries_the_off_hands_weapon_and_fog_hides_its_rounds(tmp_path: Path) -> None:
    with _battle(tmp_path, *PISTOLS, x=4) as b:
        own = b.observe("Blue").unit("Me")
        assert own.weapon is not None and own.weapon.id == "blast_pistol"
        assert own.off_hand is not None and own.off_hand.id == "slug_pistol" and own.off_rounds == 8
        seen = b.observe("Red").unit("Me")
        assert seen.off_hand is not None and seen.off_hand.id == "slug_pistol"  # seen as the main weapon is
        assert (seen.off_rounds, seen.off_jammed, seen.rounds) == (0, False, 0)  # its rounds are not
        b.submit(Shoot("Me", "A", mode="snap", hand="off"))
        assert b.observe("Blue").unit("Me").off_rounds == 7 and b.observe("Blue").unit("Me").rounds == 12
        assert b.observe("Red").unit("A").off_hand is None
    with _battle(tmp_path / "one", *PISTOLS, x=4, two=False) as b:
        assert b.observe("Blue").unit("Me").off_hand is None  # two_weapons off: one weapon in hand


def test_the_off_hands_estimate_takes_six_and_the_main_hands_two(tmp_path: Path) -> None:
    with _battle(tmp_path, *PISTOLS, x=4) as b:
        view = b.observe("Blue")
        me, a = view.unit("Me"), view.unit("A")
        alone = replace_unit(me, {"off_hand": None})
        for mode in ("snap", "prepared", "aimed"):
            two, one = estimate_shot(view, me, a, mode=mode), estimate_shot(view, alone, a, mode=mode)
            assert two.modifier == one.modifier - 2 and two.hit < one.hit  # every shot -2
            off = off_estimate(view, me, a, mode)
            assert 0 < off.hit < two.hit
            refusal = b.check(Shoot("Me", "A", mode=mode, hand="off"))
            odds = b.odds(Shoot("Me", "A", mode=mode, hand="off")) if refusal is None else None
            if odds is not None:  # the battle's own odds (over the deck as it stands) near the estimate, below the main's
                assert abs(odds.hit - off.hit) < 0.05 and odds.hit < b.odds(Shoot("Me", "A", mode=mode)).hit


def test_a_two_gun_turn_where_it_pays_the_off_hand_first_then_the_main(tmp_path: Path) -> None:
    with _battle(tmp_path, *PISTOLS, x=4) as b:
        action, opts = _decide(b)
        assert isinstance(action, Shoot) and action.hand == "off", opts[0]["option"]
        assert "with both guns" in opts[0]["option"] and b.check(action) is None
        single = max((o for o in opts if o["action"].startswith("shoot Me target=A") and "hand=off" not in o["action"]),
                     key=_value)
        assert _value(opts[0]) > _value(single)  # more than any one-weapon shot on the material scale
        b.submit(action)
        after, opts = _decide(b)  # the main hand follows in the same action and mode
        assert isinstance(after, Shoot) and after.hand == "" and after.mode == action.mode, opts[0]["option"]


def test_no_two_gun_turn_where_a_single_shot_does_more(tmp_path: Path) -> None:
    # 14 m: the unskilled pistol's off-hand shot hits rarely; a rifle shot (a burst) does more: weighed, not taken
    with _battle(tmp_path, *RIFLE_AND_PISTOL, x=14) as b:
        action, opts = _decide(b)
        assert isinstance(action, Shoot) and action.hand == "", opts[0]["option"]
        both = [o for o in opts if "with both guns" in o["option"]]
        assert both and all(_value(o) < _value(opts[0]) for o in both)
    # 24 m: the off hand's hit chance is below OFF_MIN_HIT in every mode: listed by the battle, never offered
    with _battle(tmp_path / "far", *RIFLE_AND_PISTOL, x=24) as b:
        view = b.observe("Blue")
        assert b.legal_actions("Me").offhand
        assert all(off_estimate(view, view.unit("Me"), view.unit("A"), m).hit < OFF_MIN_HIT
                   for m in ("snap", "prepared", "aimed"))
        action, opts = _decide(b)
        assert isinstance(action, Shoot) and action.hand == ""
        assert not [o for o in opts if "hand=off" in o["action"]]


def test_the_search_model_prices_the_off_hand_with_the_main_hands_fire_after_it(tmp_path: Path) -> None:
    with _battle(tmp_path, *PISTOLS, x=4) as b:
        view = b.observe("Blue")
        me = view.unit("Me")
        w = Weights()
        replies = Replies.of(view, me, w)
        plain = exchange(view, me, Shoot("Me", "A", mode="snap"), replies, w)
        off = exchange(view, me, Shoot("Me", "A", mode="snap", hand="off"), replies, w)
        assert off.attack > plain.attack  # the off hand's shot and the main hand's after it
        b.submit(Shoot("Me", "A", mode="snap"))
        view = b.observe("Blue")
        me = view.unit("Me")
        alone = exchange(view, me, Shoot("Me", "A", mode="snap", hand="off"), Replies.of(view, me, w), w)
        assert 0 < alone.attack < off.attack  # after the main hand fired: the off hand's shot alone
