"""R-4: the action deck's fields and statistics, the poker mapping, and C-2 JSON."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from skirmish.rules.deck import (
    COLUMNS,
    LOCATIONS,
    SIDES,
    Card,
    Deck,
    builtin,
    deck_stats,
    explode_mean,
    generate,
    upper_model_mean,
)


@pytest.mark.parametrize("name", ["A", "B"])
def test_means_within_three_percent(name: str) -> None:
    for row in deck_stats(builtin(name)):
        assert abs(row["deck"] - row["model"]) / row["model"] < 0.03, row


@pytest.mark.parametrize("name", ["A", "B"])
def test_one_cf_per_column_row_and_impulses_once(name: str) -> None:
    cards = builtin(name)
    assert len(cards) == 54
    assert sorted(c.impulse for c in cards) == list(range(54))
    for col in COLUMNS:
        for row in range(1, 6):
            assert sum(c.entry(col, row).cf for c in cards) == 1
            for c in cards:
                e = c.entry(col, row)
                assert e.cf or 1 <= e.value <= SIDES[col]
                assert e.explodes == (not e.cf and e.value == SIDES[col])


def test_model_means_match_the_digest() -> None:
    assert [round(upper_model_mean(4, r), 3) for r in range(1, 6)] == [3.333, 4.583, 5.365, 5.896, 6.273]
    assert [round(upper_model_mean(8, r), 3) for r in range(1, 6)] == [5.143, 7.018, 8.166, 8.987, 9.62]
    assert [round(upper_model_mean(12, r), 3) for r in range(1, 6)] == [7.091, 9.619, 11.108, 12.156, 12.967]


def test_lower_grid_cumulative_and_row_one_mean() -> None:
    cards = builtin("A")
    for col in COLUMNS:
        for c in cards:
            vals = c.lower[col]
            assert all(b > a for a, b in itertools.pairwise(vals))
        mean = sum(c.effect(col, 1) for c in cards) / 54
        assert abs(mean - explode_mean(SIDES[col])) / explode_mean(SIDES[col]) < 0.03


def test_timing_poker_mapping() -> None:
    cards = builtin("A")
    red, black = cards[0], cards[53]
    assert (red.step, red.fragment, red.special, red.shuffle, red.toggle) == (0, 0, "discard", True, False)
    assert (black.step, black.fragment, black.special, black.shuffle, black.toggle) == (14, 5, "bonus", True, True)
    for c in cards[1:53]:
        assert c.impulse == (c.step - 1) * 4 + c.fragment
        assert c.toggle == (c.fragment in (1, 4))  # clubs and spades are black
    assert Counter(c.step for c in cards[1:53]) == {s: 4 for s in range(1, 14)}


def test_clock_hit_locations_and_other_fields() -> None:
    cards = builtin("A")
    clocks = Counter(c.clock for c in cards)
    assert all(clocks[h] == (5 if h % 2 == 0 else 4) for h in range(1, 13))
    std = Counter(c.standard_location for c in cards)
    assert std["chest"] == 10 and std["head"] == 4 and std["vitals"] == 4
    assert 15 <= sum(c.prone[c.standard] for c in cards) <= 21
    for c in cards:
        assert len(set(c.hit_stack)) == 4
        assert list(c.hit_stack) == sorted(c.hit_stack, key=LOCATIONS.index)
        assert all(v >= 1 for v in c.burst.values())
        assert len(c.unintended) == 10
    crossed = sum(sum(c.unintended) for c in cards) / 540
    assert 0.25 <= crossed <= 0.35


def test_generation_is_deterministic_and_named_decks_differ() -> None:
    assert generate("A") == generate("A")
    assert generate("A") != generate("B")


def test_json_round_trip() -> None:
    for c in builtin("B"):
        assert Card.from_json(c.to_json()) == c


def test_deck_always_holds_54_and_shuffles_after_joker() -> None:
    import random

    deck = Deck(builtin("A"), random.Random(5))
    for _ in range(300):
        card = deck.draw()
        assert len(deck) == 54
        if card.shuffle:
            assert deck.pending_shuffle
            assert deck.settle()
            assert len(deck.draw_pile) == 54
