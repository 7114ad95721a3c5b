"""Card-hand initiative (R-5.8): the pure rules as properties, and whole battles under `initiative: cards` soaked
under the hand's invariants (cards conserved, never more than two kept + a BONUS + one reserve, every listed
answer accepted, same seed same events)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.rules.actions import parse_action
from skirmish.rules.deck import builtin
from skirmish.rules.fi import hand as hr

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "scenarios" / "fi" / "killhouse_hands.yaml"
DECK = [hr.HandCard(c.number, c.step, c.fragment, c.special) for c in builtin("A")]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=7, unique=True), st.booleans(), st.data())
def test_a_draw_sorts_into_kept_bonus_and_discarded_each_card_once(drawn, reserve, data) -> None:
    """Cards are conserved: every card drawn is kept, a BONUS kept besides, or discarded, exactly once; at most
    two are kept; a DISCARD takes the reserve first, else the highest other card."""
    sorted_ = hr.sort_draw(drawn, reserve)
    steps = [c.step for c in sorted_.keepable]
    wanted = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(steps), max_size=2, unique=True)
                                 if steps else st.just([])))
    kept, dropped = hr.choose_keep(sorted_.keepable, wanted)
    assert len(kept) <= hr.KEEP
    assert Counter([*kept, *dropped, *sorted_.bonus, *sorted_.discarded]) == Counter(drawn)
    discards = sum(1 for c in drawn if c.special == "discard")
    assert sorted_.reserve_lost == (reserve and discards > 0)
    taken = [c for c in sorted_.discarded if c.special != "discard"]
    assert len(taken) == min(discards - (1 if sorted_.reserve_lost else 0),
                             sum(1 for c in drawn if c.special is None))
    for c in taken:  # the highest other cards went
        assert all(hr.count_down_key(c) >= hr.count_down_key(k) for k in sorted_.keepable)
    if wanted is None:
        assert kept == sorted(sorted_.keepable, key=hr.count_down_key, reverse=True)[:2]


@given(st.booleans(), st.integers(0, 10), st.booleans())
def test_cards_to_draw(success: bool, bumps: int, cf: bool) -> None:
    n = hr.cards_to_draw(success, bumps, cf)
    assert n == (0 if cf else 1 + success + bumps)


@given(st.sampled_from(hr.COLUMNS), st.integers(1, 5), st.integers(0, 12))
def test_a_rush_shifts_rows_up_then_columns_left_never_past_i_1(column: str, row: int, early: int) -> None:
    if early > hr.max_rush(column, row):
        with pytest.raises(hr.HandError, match=r"R-5\.8.*I-1"):
            hr.rush_shift(column, row, early)
        return
    col, r = hr.rush_shift(column, row, early)
    assert 1 <= r <= row and hr.COLUMNS.index(col) <= hr.COLUMNS.index(column)
    assert (row - r) + (hr.COLUMNS.index(column) - hr.COLUMNS.index(col)) == early
    assert r == 1 or col == column  # columns move only once the top row is reached


def test_the_seeds_numbers() -> None:
    assert hr.rush_shift("IV", 2, 4) == ("I", 1)  # Kayla: 2d10 rushed four steps is 1d4
    assert hr.cards_to_draw(True, 1, False) == 3  # Chuk: Reflex 8 vs 3
    assert hr.failed_rush_step(7) == 5
    assert [hr.ready_steps(s, b) for s, b in (("shooting:pistol", False), ("shooting:smg", False),
                                              ("shooting:rifle", False), ("shooting:shotgun", False),
                                              ("shooting:heavy", True))] == [1, 2, 3, 3, 4]
    assert hr.aim_from_counters(3, 3) == (True, 0) and hr.aim_from_counters(9, 3) == (True, 2)
    assert hr.aim_from_counters(2, 3) == (False, 0)


def test_the_hand_order_reads_back() -> None:
    text = "hand Chuk keep=10,6 rush=6@9"
    a = parse_action(text)
    assert isinstance(a, hr.Hand) and str(a) == text and a.keep_steps() == [10, 6] and a.rush_plan() == (6, 9)
    assert a.same_as(parse_action("hand Chuk keep=6,10 rush=6@9"))
    with pytest.raises(hr.HandError, match=r"R-5\.8"):
        parse_action("hand Chuk keep=15").keep_steps()  # type: ignore[attr-defined]


def _soak(seed: int, ai: str) -> Battle:
    sc = load_scenario(HANDS)
    b = Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides})
    b.run()
    return b


@pytest.mark.parametrize("ai", ["hold", "utility", "random", "baseline"])
def test_ai_battles_with_card_hands_play_to_the_end_under_the_invariants(ai: str) -> None:
    for seed in (1, 2, 3):
        with _soak(seed, ai) as b:
            assert b.outcome is not None
            log = list(b.log)
            assert not [e for e in log if e.type == "refused"], "the AIs answer legally"
            drawn: dict[tuple[int, str], list[str]] = {}
            reserve: dict[str, str | None] = {}
            played: Counter[tuple[int, str]] = Counter()
            for e in log:
                if e.type == "hand_draw":
                    drawn[(e.round, e.actor)] = list(e.drawn)
                elif e.type == "hand_keep" and not e.forgo:
                    got = drawn.pop((e.round, e.actor))
                    assert len(e.kept) <= 2 and len(e.bonus) <= got.count("14.5 BONUS") + 1
                    assert Counter([*e.kept, *e.bonus, *e.discarded]) == Counter(got)
                elif e.type == "reserve":
                    if e.what == "reserved":
                        assert reserve.get(e.actor) is None, "one reserve card at most"
                        reserve[e.actor] = e.card
                    elif e.what in ("flushed", "spent", "lost"):
                        assert reserve.pop(e.actor) == e.card
                elif e.type == "step":
                    played[(e.round, e.actor)] += 1
            keeps = {(e.round, e.actor): len(e.kept) + len(e.bonus) for e in log if e.type == "hand_keep"}
            assert all(n <= keeps[k] for k, n in played.items())


def test_same_seed_same_events() -> None:
    with _soak(4, "utility") as a, _soak(4, "utility") as b:
        assert a.log.jsonl() == b.log.jsonl()
        assert any(e.type == "step" for e in a.log)


def test_listed_hand_answers_are_accepted() -> None:
    """Every answer legal_actions lists (plain declarations, hands, actions of a card) passes the systems'
    check, through whole battles of the random AI (which picks among them)."""
    sc = load_scenario(HANDS)
    with Battle(sc, seed=7, controllers={s.name: make_ai("random") for s in sc.spec.sides}) as b:
        hands = 0
        while b.pending is not None:
            legal = b.legal_actions(b.pending.unit)
            for a in legal.actions(called=True):
                assert b.check(a) is None, a
            hands += sum(1 for a in legal.declare if isinstance(a, hr.Hand))
            b.step()
        assert hands and b.outcome is not None


def test_the_shipped_variant_passes_check(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import run

    code, out, _ = run(["check", str(HANDS)], capsys)
    assert code == 0 and out.startswith("ok:")
    assert load_scenario(HANDS).spec.options.initiative == "cards"  # type: ignore[attr-defined]
