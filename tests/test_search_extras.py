"""The search tier's ninth-session parts (issue 12 items 4/5, `ai/search/extras.py`): split bursts (R-6.3), double
taps (R-6.12) and covering fire with its pin (R-6.12, "Covering fire suppresses") priced with the rules' own odds
(`Weights.extras`, `Weights.cover`), and the extra candidates (`Weights.more`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ai.estimate import estimate_shot, replaced
from skirmish.ai.search import Replies, SearchAI, Weights, exchange
from skirmish.ai.search.extras import pinned_hit, split_shares, tap_shot
from skirmish.ai.search.model import material
from skirmish.ai.search.volley import combined, follow_up
from skirmish.rules.actions import CoverFire, EndTurn, Shoot
from skirmish.rulesets.fi import cover_rules
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
RIFLE = f'traits: {TRAITS}, skills: {{"shooting:rifle": 3}}, weapons: [assault_rifle]'
PISTOL = f'traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [blast_pistol]'
ROWS = ["." * 14] * 7
RED = f"[{{name: Foe, at: [10, 3], {RIFLE}}}, {{name: Foe2, at: [10, 5], {RIFLE}}}]"


def test_a_split_burst_is_two_shares_at_their_raised_tn(tmp_path: Path) -> None:
    """R-6.3: each target of a split burst takes its share of the dice and card at TN +2; the exchange reads both
    targets (`Weights.extras`), not the whole burst at the first one as before."""
    with battle_at(tmp_path, ROWS, f"[{{name: Me, at: [1, 3], {RIFLE}}}]", RED, declare="slow") as b:
        view = b.observe("Blue")
        me = view.unit("Me")
        split = Shoot("Me", "Foe", mode="prepared", burst=10, also=("Foe2",))
        assert split in b.legal_actions("Me").ranged
        shares = split_shares(view, me, split)
        assert shares is not None and [t.name for t, _ in shares] == ["Foe", "Foe2"]
        whole = estimate_shot(view, me, view.unit("Foe"), mode="prepared", burst=10)
        assert all(0 < est.hit < whole.hit for _, est in shares)  # fewer dice, TN +2
        replies = Replies.of(view, me)
        on = exchange(view, me, split, replies, Weights(extras=True))
        assert on.attack == pytest.approx(sum(material(e, t) for t, e in shares))
        off = exchange(view, me, split, replies, Weights())
        assert off.attack == pytest.approx(material(whole, view.unit("Foe")))  # the old misreading
        assert on.attack != pytest.approx(off.attack)


def test_a_double_tap_counts_both_shots_off_the_card(tmp_path: Path) -> None:
    """R-6.12: a double tap is two shots at the tap's modifiers, the second read a row up: less than two plain
    shots at full dice, and not the one plain shot the model read it as."""
    with battle_at(tmp_path, ROWS, f"[{{name: Me, at: [1, 3], {PISTOL}}}]", RED, declare="slow") as b:
        view = b.observe("Blue")
        me, foe = view.unit("Me"), view.unit("Foe")
        tap = Shoot("Me", "Foe", mode="prepared", double_tap=True)
        assert tap in b.legal_actions("Me").ranged
        one = estimate_shot(view, me, foe, mode="prepared")
        two = tap_shot(view, me, foe, "prepared")
        assert 0 < two.hit < 1 - (1 - one.hit) ** 2 and two.hit != pytest.approx(one.hit)
        replies = Replies.of(view, me)
        got = exchange(view, me, tap, replies, Weights(extras=True))
        assert got.attack == pytest.approx(material(two, foe))
        assert got.attack != pytest.approx(exchange(view, me, tap, replies, Weights()).attack)
        # With the turn of fire (`Weights.mixed`): after a tap the turn holds four prepared shots, not five (the
        # tap took the action's second shot, R-6.3); the battle's own count, after the tap is fired
        ready = estimate_shot(view, replaced(me, ready_target="Foe"), foe, mode="prepared")
        turn = exchange(view, me, tap, replies, Weights(extras=True, mixed=True))
        assert turn.attack == pytest.approx(material(combined([two, *[ready] * 4]), foe))
        plain = exchange(view, me, Shoot("Me", "Foe", mode="prepared"), replies, Weights(mixed=True))
        assert plain.attack > turn.attack  # six plain shots at full dice beat the tap and four
        b.submit(tap)
        after = b.observe("Blue").unit("Me")
        assert len(follow_up(after, "prepared", 0)) + 1 == 4


def test_covering_fire_pins_the_enemy_it_covers_and_the_replies_say_so(tmp_path: Path) -> None:
    """R-6.12: covering fire over an enemy it sees pins it (its shots -2), so its reply takes less than when the
    unit ends its turn, and the shot it draws breaking out counts as the cover's attack; with `Weights.cover` off
    the model read covering fire as nothing. Once laid, a friend's cover pins the enemy in every candidate."""
    blue = f"[{{name: Me, at: [1, 3], {RIFLE}}}, {{name: Pal, at: [1, 5], {RIFLE}}}]"
    red = f"[{{name: Foe, at: [10, 3], {RIFLE}}}]"
    with battle_at(tmp_path, ROWS, blue, red, declare="slow") as b:
        view = b.observe("Blue")
        me, foe = view.unit("Me"), view.unit("Foe")
        w = Weights(cover=True)
        replies = Replies.of(view, me, w)
        assert replies.pinned == frozenset()
        cover = CoverFire("Me", foe.cell, burst=3)
        assert b.legal_actions("Me").allows(cover)
        laid, end = exchange(view, me, cover, replies, w), exchange(view, me, EndTurn("Me"), replies, w)
        assert laid.attack > 0 and laid.reply < end.reply
        shot = estimate_shot(view, foe, me, mode="prepared", burst=3)
        assert 0 < pinned_hit(foe, shot) < shot.hit and cover_rules.PINNED_SHOT == -2
        off = exchange(view, me, cover, Replies.of(view, me), Weights())
        assert off.attack == 0 and off.reply == pytest.approx(exchange(view, me, EndTurn("Me"), Replies.of(view, me),
                                                                       Weights()).reply)
        b.submit(cover)
        while b.pending is not None and b.pending.unit != "Pal":
            b.step()
        assert b.pending is not None and b.pending.unit == "Pal"
        view = b.observe("Blue")
        pal = view.unit("Pal")
        assert view.unit("Me").covering is not None
        assert Replies.of(view, pal, w).pinned == frozenset({"Foe"})
        assert Replies.of(view, pal, Weights()).pinned == frozenset()


def test_more_weighs_every_listed_split_tap_and_cover(tmp_path: Path) -> None:
    """`Weights.more`: the candidates hold every split burst and double tap the battle lists and covering fire
    over each enemy in sight, each one the battle allows."""
    with battle_at(tmp_path, ROWS, f"[{{name: Me, at: [1, 3], {RIFLE}}}]", RED, declare="slow") as b:
        view, legal = b.observe("Blue"), b.legal_actions("Me")
        ai = SearchAI("hard", weights=Weights(more=True))
        _, trace = ai.proposer.decide_traced(view, b.pending)
        cands = {c.action for c in ai.candidates(view, view.unit("Me"), trace, legal)}
        assert set(legal.ranged) <= cands
        covers = {a for a in cands if isinstance(a, CoverFire)}
        assert {a.at for a in covers} == {(10, 3), (10, 5)} and all(legal.allows(a) for a in cands)
        plain = SearchAI("hard", weights=Weights())
        assert not set(legal.ranged) <= {c.action for c in plain.candidates(view, view.unit("Me"), trace, legal)}
