"""The search tier (issue 12 item 5): an AI name everywhere one is taken, deterministic for a seed, reading only
its side's view, and preferring the option with the better exchange where a one-ply choice is worse."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from skirmish.ai.controllers import AI_KINDS, make_ai
from skirmish.ai.estimate import estimate_shot
from skirmish.ai.search import Replies, SearchAI, Weights, exchange, material, next_shot, presence, throws
from skirmish.ai.search.order import closing_cell
from skirmish.ai.utility import harm
from skirmish.battle import Battle, consult
from skirmish.content.scenario import ContentError, load_scenario, parse_scenario
from skirmish.core.events import DecisionEvent
from skirmish.ecs.view import BattleView
from skirmish.rules.actions import Move, Shoot
from tests.conftest import ascii_scenario, battle_at, run

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
ROOT = Path(__file__).resolve().parents[1]
KILLHOUSE = ROOT / "scenarios" / "killhouse_drill.yaml"


def _scenario(tmp_path: Path, rows: list[str], blue: str, red: str, ai: str = "utility") -> str:
    return ascii_scenario(rows, blue, red, ai=ai)


def _battle(tmp_path: Path, rows: list[str], blue: str, red: str) -> Battle:
    """A hand-built battle, every unit declared NORMAL, stopped at Me's first action request."""
    return battle_at(tmp_path, rows, blue, red)  # type: ignore[no-any-return]


def test_search_is_an_ai_name_everywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "search" in AI_KINDS
    assert isinstance(make_ai("search"), SearchAI) and make_ai("search:hard").name == "search:hard"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown AI personality 'genius'"):
        make_ai("search:genius")
    rows = ["......", "......"]
    unit = f"[{{name: U, at: [0, 0], traits: {TRAITS}}}]"
    enemy = f"[{{name: V, at: [5, 1], traits: {TRAITS}}}]"
    sc = parse_scenario(_scenario(tmp_path, rows, unit, enemy, ai="search"), str(tmp_path / "t.yaml"), base=tmp_path)
    assert sc.spec.sides[0].ai == "search"
    with pytest.raises(ContentError, match="search"):
        parse_scenario(_scenario(tmp_path, rows, unit, enemy, ai="search:genius"), str(tmp_path / "t.yaml"),
                       base=tmp_path)
    code, out, _ = run(["run", str(KILLHOUSE), "--seed", "2", "--ai", "Blue=search", "--ai", "Red=utility"], capsys)
    assert code == 0 and "result: winner=" in out and "search: enemy replies" not in out  # the log line is short
    assert "Blue-1 decides:" in out


def _play(ai: str, opponent: str, seed: int) -> tuple[str, list[DecisionEvent]]:
    sc = load_scenario(KILLHOUSE)
    names = [s.name for s in sc.spec.sides]
    with Battle(sc, seed=seed, controllers={names[0]: make_ai(ai), names[1]: make_ai(opponent)}) as b:
        b.run()
        return b.log.jsonl(), [e for e in b.log if isinstance(e, DecisionEvent) and e.actor in
                               {u.name for u in sc.spec.sides[0].units}]


def test_same_seed_same_events_and_every_decision_explained() -> None:
    first, decisions = _play("search", "utility", 4)
    again, _ = _play("search", "utility", 4)
    assert first == again  # C-5, R-10.1: nothing drawn outside the battle's own random source
    acts = [d for d in decisions if d.request == "act"]
    assert acts and all(d.personality == "search" for d in decisions)
    names = {c["name"] for d in acts for c in d.chosen["considerations"]}
    assert {"search: our attack", "search: enemy replies", "search: our next shot"} <= names
    # The chosen option is the best scored one the trace shows.
    assert all(d.chosen["score"] >= max((o["score"] for o in d.runners_up), default=-9) for d in acts)


def test_a_fresh_search_ai_decides_the_same_from_the_same_view() -> None:
    """Nothing but the view and the request goes into a decision (no global random, no battle state)."""
    sc = load_scenario(KILLHOUSE)
    with Battle(sc, seed=6, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
        checked = 0
        while b.pending is not None and checked < 12:
            req = b.pending
            view = b.observe(req.side)
            if req.kind == "act":
                a1, _ = consult(make_ai("search"), view, req)
                a2, _ = consult(make_ai("search"), view, req)
                assert a1 == a2 and req.legal().allows(a1)
                checked += 1
            b.step()
        assert checked == 12


def test_search_shoots_the_enemy_whose_reply_it_fears_where_one_ply_shoots_the_easier_kill(tmp_path: Path) -> None:
    """Me (two wounds, a pistol) sees two enemies in the open: Weak (unarmed, two wounds, near) and Gunner (an
    assault rifle, two wounds, farther). One ply (the greater immediate harm or kill chance) shoots Weak; but
    Gunner's reply can put Me out of action, and by the rules' own odds the exchange is better when Me shoots
    Gunner: P(kill Gunner) - P(Gunner stands) P(Gunner kills Me) > P(kill Weak) - P(Gunner kills Me)."""
    rows = ["." * 12] * 7
    me = f'[{{name: Me, at: [1, 3], wounds: 2, traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}]'
    red = (f'[{{name: Weak, at: [3, 1], wounds: 2, traits: {TRAITS}}}, '
           f'{{name: Gunner, at: [8, 5], wounds: 2, traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, '
           f'weapons: [assault_rifle]}}]')
    with _battle(tmp_path, rows, me, red) as b:
        view = b.observe("Blue")
        me_v, weak, gunner = view.unit("Me"), view.unit("Weak"), view.unit("Gunner")
        on_weak = estimate_shot(view, me_v, weak, mode="aimed")
        on_gunner = estimate_shot(view, me_v, gunner, mode="aimed")
        reply = estimate_shot(view, gunner, me_v, mode="prepared", burst=3).kill
        # One ply prefers Weak; two plies (kills only, from the rules' odds) prefer Gunner.
        assert harm(on_weak) > harm(on_gunner) and on_weak.kill > on_gunner.kill
        assert on_gunner.kill - (1 - on_gunner.kill) * reply > on_weak.kill - reply
        ai = SearchAI()
        action, trace = ai.decide_traced(view, b.pending)  # type: ignore[arg-type]
        assert isinstance(action, Shoot) and action.target == "Gunner", trace
        # The model says why: the replies after shooting Gunner take less than after shooting Weak.
        replies = Replies.of(view, me_v)
        w = Weights()
        after_gunner = exchange(view, me_v, Shoot("Me", "Gunner", mode="aimed"), replies, w)
        after_weak = exchange(view, me_v, Shoot("Me", "Weak", mode="aimed"), replies, w)
        assert after_gunner.reply < after_weak.reply and after_weak.attack > after_gunner.attack
        assert after_gunner.value(w) > after_weak.value(w)


def test_the_replies_follow_the_rules_odds_at_the_cell_a_move_ends_in(tmp_path: Path) -> None:
    """Walking behind a wall out of an enemy rifle's sight leaves no reply on Me; standing in the open draws
    the rifle's expected harm (R-6.1, R-6.6)."""
    rows = ["...#........",
            "...#........",
            "...#........",
            "............",
            "............"]
    me = f'[{{name: Me, at: [1, 3], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}]'
    red = f'[{{name: Gunner, at: [10, 3], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]}}]'
    with _battle(tmp_path, rows, me, red) as b:
        view = b.observe("Blue")
        me_v, gunner = view.unit("Me"), view.unit("Gunner")
        replies = Replies.of(view, me_v)
        legal = b.pending.legal()  # type: ignore[union-attr]
        assert (1, 1) in legal.walk
        hidden = exchange(view, me_v, Move("Me", (1, 1)), replies, Weights(), legal.walk)
        assert hidden.reply == 0.0 and hidden.survive == 1.0
        open_ = exchange(view, me_v, Move("Me", (1, 4)), replies, Weights(), legal.walk)
        expected = material(estimate_shot(view, gunner, view.unit("Me"), mode="prepared", burst=3), me_v)
        assert open_.reply > 0 and open_.reply <= expected + 1e-9  # moving makes Me harder to hit, never easier


def test_a_ghost_counts_at_half_unless_one_of_us_sees_its_cell(tmp_path: Path) -> None:
    """Fog of war: a ghost (an enemy out of sight, at its last known cell) may have gone, so it counts at half;
    when one of our units sees that cell now it has gone, and counts nothing (no reply, no shot to wait for)."""
    rows = ["......#.....",
            "......#.....",
            "......#.....",
            "............"]
    me = f'[{{name: Me, at: [1, 1], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]}}]'
    red = (f'[{{name: Seen, at: [4, 3], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]}}, '
           f'{{name: Hidden, at: [10, 1], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]}}]')
    with _battle(tmp_path, rows, me, red) as b:
        view = b.observe("Blue")
        assert not view.unit("Seen").ghost
        # Make both enemies ghosts at their cells: Me sees the first cell (it has gone), not the second (behind
        # the wall: it may still be there).
        ghosts = tuple(replace(u, ghost=True) if u.side == "Red" else u for u in view.units)
        fog = replace(view, units=ghosts)
        me_v = fog.unit("Me")
        assert fog.sight(me_v, fog.unit("Seen")).visible and not fog.sight(me_v, fog.unit("Hidden")).visible
        w = Weights()
        assert presence(view, view.unit("Me"), w) == {"Seen": 1.0, "Hidden": w.ghost}
        assert presence(fog, me_v, w) == {"Seen": 0.0, "Hidden": w.ghost}
        replies = Replies.of(fog, me_v, w)
        assert [e.name for e in replies.enemies] == ["Hidden"]
        assert next_shot(fog, me_v, {}, replies.present) == 0.0  # nobody left to shoot at from here


def test_the_board_session_plays_search_shows_its_heat_map_and_saves_it(tmp_path: Path) -> None:
    """The board's session takes `--ai Blue=search`: the search AI answers, its move scores feed the heat map
    (key M), and a saved record names it, so a loaded battle continues with it."""
    from skirmish.record import load
    from skirmish.ui.session import Session

    s = Session(load_scenario(KILLHOUSE), seed=2, ai={"Blue": "search"})
    try:
        assert isinstance(s.controllers["Blue"], SearchAI) and s.labels()["Blue"] == "ai:search"
        blue = [u.name for u in s.scenario.spec.sides[0].units]
        steps = 0
        while not any(s.heat(u) is not None for u in blue) and steps < 400:
            assert s.ai_step()
            steps += 1
        assert any(s.heat(u) is not None for u in blue)
        decisions = [e for e in s.battle.log if isinstance(e, DecisionEvent) and e.actor in blue]
        assert decisions and all(d.personality == "search" for d in decisions)
        s.save(tmp_path / "b.json")
    finally:
        s.close()
    again = Session.from_record(load(tmp_path / "b.json"))
    try:
        assert isinstance(again.controllers["Blue"], SearchAI)
    finally:
        again.close()


def test_throws_weighed_at_enemies_in_sight_and_between_them_never_near_a_friend(tmp_path: Path) -> None:
    """The throws the search adds (R-6.10): at each enemy in sight and the cell between two, each one the battle
    lists, none whose blast (plus two cells of scatter) would reach one of us; each weighed by the exchange."""
    rows = ["............",
            "............",
            "......=.....",
            "......=.....",
            "............",
            "............"]
    kit = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3, throwing: 2}}, weapons: [assault_rifle, ' \
          f'{{weapon: frag_grenade, ammo: 2}}]'
    rifle = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
    red = f"[{{name: R1, at: [7, 1], {rifle}}}, {{name: R2, at: [7, 3], {rifle}}}]"
    with _battle(tmp_path, rows, f"[{{name: Me, at: [1, 2], {kit}}}]", red) as b:
        view, legal = b.observe("Blue"), b.pending.legal()  # type: ignore[union-attr]
        me_v = view.unit("Me")
        got = throws(view, me_v, legal)
        assert {t.at for t in got} == {(7, 1), (7, 3), (7, 2)} and all(legal.allows(t) for t in got)
        ex = exchange(view, me_v, got[0], Replies.of(view, me_v), Weights())
        assert 0 < ex.attack < 2  # the chance the burst lands times its harm on the two caught in it
    with _battle(tmp_path, rows, f"[{{name: Me, at: [1, 2], {kit}}}, {{name: Pal, at: [9, 4], {rifle}}}]", red) as b:
        view, legal = b.observe("Blue"), b.pending.legal()  # type: ignore[union-attr]
        assert {t.at for t in throws(view, view.unit("Me"), legal)} == {(7, 1)}  # Pal is near the other two


def test_the_turn_order_decides_which_enemy_to_shoot(tmp_path: Path) -> None:
    """Me (phase IV) sees two riflemen in the open: Done (one wound: the likelier kill) and Later. Once initiative
    is flipped the view shows each enemy's phase (R-5.1): when Done has acted this round (phase III) and Later is
    still to act after Me (phase IV, Blue wins the tie), only Later's reply comes before Me's next turn, so the
    order-aware search shoots Later; without the order (every enemy replies once) it shoots the likelier kill."""
    rows = ["." * 12] * 7
    rifle = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
    red = f"[{{name: Done, at: [8, 1], wounds: 1, {rifle}}}, {{name: Later, at: [8, 5], {rifle}}}]"
    with battle_at(tmp_path, rows, f"[{{name: Me, at: [1, 3], {rifle}}}]", red, declare="slow") as b:
        view = b.observe("Blue")
        assert view.phase == 4 and view.unit("Me").phase == 4

        def staged(done: int | None) -> BattleView:  # the phases the flipped initiative shows
            return replace(view, units=tuple(replace(u, phase=done) if u.name == "Done" else u for u in view.units))

        blind, ordered = Weights(), Weights(order=True, tie=1.0)
        for w, target in ((blind, "Done"), (ordered, "Later"), (None, "Later")):  # None: the shipped search
            action, trace = SearchAI(weights=w).decide_traced(staged(3), b.pending)  # type: ignore[arg-type]
            assert isinstance(action, Shoot) and action.target == target, trace
        me_v = view.unit("Me")
        replies = Replies.of(staged(3), me_v, ordered)
        # Done has acted; Later acts after Me; Blue wins the tie, so Me acts first next round too.
        assert replies.turns == {"Done": 0.0, "Later": 1.0}
        # Both still to act this round: the order changes nothing, the likelier kill again.
        action, _ = SearchAI(weights=ordered).decide_traced(staged(4), b.pending)  # type: ignore[arg-type]
        assert isinstance(action, Shoot) and action.target == "Done"
        # At tie 0 the tie is taken as a coin: each enemy acts first next round with chance one half.
        coin = Replies.of(staged(3), me_v, Weights(order=True, tie=0.0))
        assert coin.turns == {"Done": 0.5, "Later": 1.5}
        assert Replies.of(view, me_v, ordered).turns == {"Done": 1.0, "Later": 1.0}  # both later this round


def test_an_enemy_out_of_sight_may_walk_into_sight_and_fire(tmp_path: Path) -> None:
    """Gunner stands behind a wall: from its cell it sees none of Me's cells. With `Weights.closing` the model
    lets it walk (R-5.6: its Dexterity die's sides in metres, 8 m = 4 cells here) round the wall toward the cell
    Me ends in (the reachable cell nearest it) and fire a prepared shot after walking (R-5.4, R-6.1) if it sees
    that cell from there, at that weight. With the wall one cell longer the walk cannot get round it: the cell
    it reaches sees nothing, and the replies draw nothing, as without `closing`."""
    me = f'[{{name: Me, at: [1, 1], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]}}]'
    red = f'[{{name: Gunner, at: [9, 1], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]}}]'
    blind, closing = Weights(), Weights(closing=0.5)
    short = ["......#.....",
             "......#.....",
             "......#.....",
             "............",
             "............"]
    with _battle(tmp_path / "short", short, me, red) as b:
        view, legal = b.observe("Blue"), b.pending.legal()  # type: ignore[union-attr]
        me_v, gunner = view.unit("Me"), view.unit("Gunner")
        assert not view.sight(me_v, gunner).visible
        assert closing_cell(view, gunner, (2, 3)) == (6, 3)  # round the wall's end: 2 diagonals and a step
        for cell in ((2, 3), (4, 3)):
            assert cell in legal.walk
            unseen = exchange(view, me_v, Move("Me", cell), Replies.of(view, me_v, blind), blind, legal.walk)
            seen = exchange(view, me_v, Move("Me", cell), Replies.of(view, me_v, closing), closing, legal.walk)
            assert unseen.reply == 0.0 and unseen.survive == 1.0
            assert seen.reply > 0 and seen.survive < 1
    long = ["......#.....",
            "......#.....",
            "......#.....",
            "......#.....",
            "............"]
    with _battle(tmp_path / "long", long, me, red) as b:
        view, legal = b.observe("Blue"), b.pending.legal()  # type: ignore[union-attr]
        me_v, gunner = view.unit("Me"), view.unit("Gunner")
        at = closing_cell(view, gunner, (2, 3))
        assert at is not None and at[0] > 6  # the wall's end (6, 4) is 4.2 cells away: it stays on its side
        seen = exchange(view, me_v, Move("Me", (2, 3)), Replies.of(view, me_v, closing), closing, legal.walk)
        assert seen.reply == 0.0 and seen.survive == 1.0


def test_tune_hard_sets_the_hard_tier_as_data_and_puts_it_back(capsys: pytest.CaptureFixture[str]) -> None:
    """tools/tune_hard.py (issue 12's ladder): a candidate's settings reach the hard AI the CLI builds (the search's
    weights and the hard personality), the shipped values come back after, and a bad setting is exit 2."""
    import random

    from skirmish.ai.search import controller
    from skirmish.ai.utility.personality import PERSONALITIES
    from tools import tune_hard

    shipped_w, shipped_p = controller.DEFAULT, PERSONALITIES["hard"]
    try:
        tune_hard.apply(tune_hard.parse_settings(["reply=1.2", "caution=0.6", "look_ahead=4", "order=false"]))
        hard = make_ai("utility:hard")
        assert isinstance(hard, SearchAI) and hard.name == "hard"
        assert hard.w.reply == 1.2 and hard.w.order is False and hard.w.closing == shipped_w.closing
        assert hard.proposer.p.caution == 0.6 and hard.proposer.p.runners_up == 3  # width 4: itself and 3 runners-up
        assert make_ai("utility:normal").p.caution == 0.5  # normal is not touched  # type: ignore[attr-defined]
    finally:
        tune_hard.apply({})
    assert shipped_w == controller.DEFAULT and PERSONALITIES["hard"] == shipped_p
    rng = random.Random(3)
    start = tune_hard.shipped()
    for _ in range(20):
        cand = tune_hard.step(start, rng)
        moved = {k for k in cand if cand[k] != start[k]}
        assert len(moved) <= 3 and all(cand[k] in tune_hard.SPACE[k] for k in moved)
    assert tune_hard.main(["eval", "bogus=1"]) == 2
    assert "unknown setting 'bogus'" in capsys.readouterr().err
    assert tune_hard.main(["eval", "reply=lots"]) == 2
    assert "'lots' is not a number" in capsys.readouterr().err
    assert tune_hard.main(["eval", "--vs", "genius"]) == 2
    assert "unknown AI 'genius'" in capsys.readouterr().err
    assert len(tune_hard.SCENARIOS) == 5  # the shipped scenarios, wherever it is run from


def test_our_next_shot_goes_to_the_best_enemy_still_standing(tmp_path: Path) -> None:
    """`Weights.standing`: the next shot is worth the shot at the best enemy still standing (each standing by its
    own chance), so an attack now that may put Near down leaves the next shot to Far (armoured: the lesser
    shot), not to nothing; without it the next shot is the best of the weighted shots, which makes a likelier
    kill now look worse later (Rubble run seed 24: a snap chosen over the prepared shot at the same target)."""
    rows = ["." * 12] * 7
    me = f'[{{name: Me, at: [1, 3], traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]}}]'
    red = (f'[{{name: Near, at: [4, 3], traits: {TRAITS}}}, '
           f'{{name: Far, at: [10, 5], traits: {TRAITS}, armour: [lba3]}}]')
    with _battle(tmp_path, rows, me, red) as b:
        view = b.observe("Blue")
        me_v = view.unit("Me")
        present = presence(view, me_v, Weights())
        near = next_shot(view, me_v, {"Far": 0.0}, present)  # Near alone
        far = next_shot(view, me_v, {"Near": 0.0}, present)  # Far alone
        assert near > far > 0
        got = next_shot(view, me_v, {"Near": 0.4}, present, standing=True)
        assert got == pytest.approx(0.4 * near + 0.6 * far)
        assert got > next_shot(view, me_v, {"Near": 0.4}, present) == pytest.approx(max(0.4 * near, far))
        assert next_shot(view, me_v, {}, present, standing=True) == pytest.approx(near)
