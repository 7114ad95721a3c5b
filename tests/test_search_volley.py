"""The search tier's eighth-session parts (issue 12 items 4/5): a shot weighed with the turn of fire the timing
rules let follow it (`ai/search/volley.py`, R-5.4/R-5.5/R-6.2) and the rounds it sends past its target
(`ai/search/strays.py`, R-6.11)."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from skirmish.ai.estimate import estimate_shot, replaced
from skirmish.ai.search import Replies, Weights, exchange
from skirmish.ai.search.strays import CROSSED, stray_material, struck_chance
from skirmish.ai.search.volley import combined, follow_up
from skirmish.rules.actions import Move, Shoot
from skirmish.rulesets.fi import unintended
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
RIFLE = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'


def _shots(b: object, unit: str) -> set[str]:
    """The modes of the shots the battle lists for `unit` now."""
    return {s.mode for s in b.legal_actions(unit).shots}  # type: ignore[attr-defined]


def test_the_turn_after_a_move_and_a_shot_is_the_battles_own(tmp_path: Path) -> None:
    """At SLOW after a walk or a run, a prepared attack ends the turn (R-5.4: engage) while a snap leaves two
    prepared attacks after it; standing, three prepared. `follow_up` says what the battle then lists, step by
    step, and nothing after the last."""
    rows = ["." * 20] * 7
    red = "[" + ", ".join(f"{{name: Foe{i}, at: [18, {i}], {RIFLE}}}" for i in (1, 3, 5)) + "]"  # one for each shot
    for to, running in (((4, 3), False), ((8, 3), True)):
        for first in ("snap", "prepared"):
            with battle_at(tmp_path, rows, f"[{{name: Me, at: [1, 3], {RIFLE}}}]", red, declare="slow") as b:
                me = b.observe("Blue").unit("Me")
                assert follow_up(me, "prepared", 3) == ("prepared", "prepared")  # standing: three
                b.submit(Move("Me", to))
                me = b.observe("Blue").unit("Me")
                assert me.turn_parts[-1].running is running
                rest = follow_up(me, first, 3)
                assert rest == (("prepared", "prepared") if first == "snap" else ())
                for mode in (first, *rest):  # each one the battle allows in turn
                    assert mode in _shots(b, "Me")  # (the timing is the same at any target)
                    foe = next(u.name for u in b.observe("Blue").units if u.side == "Red" and not u.out_of_action)
                    b.submit(Shoot("Me", foe, mode=mode, burst=3))
                    assert b.pending is not None and b.pending.unit == "Me"
                assert not _shots(b, "Me")


def test_a_pistol_turn_holds_six_shots_as_the_allowance_says(tmp_path: Path) -> None:
    """A weapon firing two shots an action (R-6.3) holds six prepared shots in a SLOW turn (R-5.5): the follow-up
    counts what `shots_this_turn` counts standing, each mode as the battle allows it after a move."""
    from skirmish.ai.utility.material import shots_this_turn

    rows = ["." * 20] * 7
    pistol = f'traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [blast_pistol]'
    red = f"[{{name: Foe, at: [10, 3], {RIFLE}}}]"
    with battle_at(tmp_path, rows, f"[{{name: Me, at: [1, 3], {pistol}}}]", red, declare="slow") as b:
        me = b.observe("Blue").unit("Me")
        assert me.weapon is not None and me.weapon.rof == 2
        for mode in ("prepared", "snap"):
            n = shots_this_turn(me, Shoot("Me", "Foe", mode=mode))
            assert len(follow_up(me, mode, 0)) == min(n, me.rounds) - 1 >= 2


def test_a_snap_after_a_move_is_weighed_with_the_prepared_attacks_it_leaves_room_for(tmp_path: Path) -> None:
    """`Weights.mixed`: the snap's exchange counts the snap and two prepared attacks (readied at the target,
    R-6.2), taken as independent; without it three snaps (`shots_this_turn`)."""
    rows = ["." * 14] * 7
    red = f"[{{name: Foe, at: [12, 3], {RIFLE}}}]"
    with battle_at(tmp_path, rows, f"[{{name: Me, at: [1, 3], {RIFLE}}}]", red, declare="slow") as b:
        b.submit(Move("Me", (5, 3)))
        view = b.observe("Blue")
        me, foe = view.unit("Me"), view.unit("Foe")
        snap = estimate_shot(view, me, foe, mode="snap", burst=3, moved=me.moved)
        ready = estimate_shot(view, replaced(me, ready_target="Foe"), foe, mode="prepared", burst=3, moved=me.moved)
        assert ready.hit > snap.hit  # the first snap is not readied; the prepared after it are
        both = combined([snap, ready, ready])
        assert both.kill == pytest.approx(1 - (1 - snap.kill) * (1 - ready.kill) ** 2)
        assert both.wounds == pytest.approx(snap.wounds + 2 * ready.wounds)
        w = Weights(mixed=True)
        replies = Replies.of(view, me, w)
        shot = Shoot("Me", "Foe", mode="snap", burst=3)
        mixed = exchange(view, me, shot, replies, w, repeats=3)
        three = exchange(view, me, shot, replies, Weights(), repeats=3)
        assert mixed.attack > three.attack > 0
        prepared = Shoot("Me", "Foe", mode="prepared", burst=3)  # the turn's last: the same either way
        assert exchange(view, me, prepared, replies, w, repeats=1).attack == pytest.approx(
            exchange(view, me, prepared, replies, Weights(), repeats=1).attack)


def test_a_figures_chance_to_take_a_stray_round_is_the_rules_strip() -> None:
    """`struck_chance` against every strip the card could show (R-6.11 read by the rules' own `struck`)."""
    for place, missed in product(range(4), range(1, 4)):
        brute = 0.0
        for strip in product((False, True), repeat=4):
            p = 1.0
            for crossed in strip:
                p *= CROSSED if crossed else 1 - CROSSED
            if place in unintended.struck(strip, 4, missed):
                brute += p
        assert struck_chance(place, missed) == pytest.approx(brute)
    assert struck_chance(0, 0) == 0.0


def test_a_shot_past_a_friend_is_worth_less_and_one_past_an_enemy_more(tmp_path: Path) -> None:
    """R-6.11: a missed round strikes a figure within 1 m of the line of fire. A friend on the line makes the shot
    worth less (`Weights.strays`, our own at `friendly`), an enemy behind the target more; nobody near the line,
    nothing changes."""
    rows = ["." * 14] * 7
    me = f"{{name: Me, at: [1, 3], {RIFLE}}}"
    foe = f"{{name: Foe, at: [10, 3], {RIFLE}}}"
    cases = {"friend": (f"[{me}, {{name: Pal, at: [5, 3], {RIFLE}}}]", f"[{foe}]"),
             "enemy": (f"[{me}]", f"[{foe}, {{name: Back, at: [12, 3], {RIFLE}}}]"),
             "nobody": (f"[{me}, {{name: Pal, at: [5, 6], {RIFLE}}}]", f"[{foe}, {{name: Back, at: [12, 0], {RIFLE}}}]")}
    got = {}
    for case, (blue, red) in cases.items():
        with battle_at(tmp_path, rows, blue, red) as b:
            view = b.observe("Blue")
            me_v, foe_v = view.unit("Me"), view.unit("Foe")
            present = {e.name: 1.0 for e in view.enemies(me_v)}
            hit = estimate_shot(view, me_v, foe_v, mode="prepared", burst=3).hit
            got[case] = stray_material(view, me_v, foe_v, "prepared", 3, hit, 1.5, present)
            shot = Shoot("Me", "Foe", mode="prepared", burst=3)
            on = exchange(view, me_v, shot, Replies.of(view, me_v), Weights(strays=True)).attack
            off = exchange(view, me_v, shot, Replies.of(view, me_v), Weights()).attack
            assert on == pytest.approx(off + got[case])
    assert got["friend"] < 0 < got["enemy"]
    assert got["nobody"] == 0.0
