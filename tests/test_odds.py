"""Shot odds (the attack menu's numbers) agree with resolving the shot card by card."""

from __future__ import annotations

import random

from skirmish.content.armoury import shipped
from skirmish.rules.deck import Deck, builtin
from skirmish.rules.fi.odds import shot_odds
from skirmish.rules.fi.ranged import ShotSetup, TargetState, resolve_shot
from skirmish.rules.randomizer import CardDraw
from tests.conftest import make_card

ARM = shipped()


def _setup(tn: int) -> ShotSetup:
    return ShotSetup(weapon=ARM.weapons["slug_pistol"], column="III", row=3, halve=False, tn=tn, tn_mods=(),
                     result_mods=(), distance_m=8.0)


TARGET = TargetState(size=6, armour={}, screen_type=None, screen_av=0, prone=False)


def test_certain_hit_and_certain_miss() -> None:
    sure = [make_card(n, upper={("III", 3): 30}) for n in range(1, 11)]
    assert shot_odds(_setup(8), TARGET, cards=sure, wounds=0, ct=12).hit == 1.0
    cf = [make_card(n, upper={("III", 3): "CF"}) for n in range(1, 11)]
    odds = shot_odds(_setup(8), TARGET, cards=cf, wounds=0, ct=12)
    assert odds.hit == 0.0 and odds.wounds == 0.0 and odds.out_of_action == 0.0


def test_odds_equal_the_share_of_hitting_top_cards() -> None:
    """Over the whole deck A, the odds are the fraction of cards that hit when drawn first."""
    cards = list(builtin("A"))
    odds = shot_odds(_setup(9), TARGET, cards=cards, wounds=0, ct=12)
    hits = 0
    for i, card in enumerate(cards):
        deck = Deck([card, *cards[i + 1:], *cards[:i]], random.Random(0), shuffle=False)
        hits += resolve_shot(CardDraw(deck.draw(), deck), _setup(9), TARGET).hit
    assert odds.exact and odds.samples == 54 and odds.hit == hits / 54
    assert 0.0 < odds.hit < 1.0
    harder = shot_odds(_setup(13), TARGET, cards=cards, wounds=0, ct=12)
    assert harder.hit < odds.hit


def test_dice_mode_estimate_is_seeded() -> None:
    a = shot_odds(_setup(9), TARGET, cards=None, wounds=0, ct=12, seed=3)
    b = shot_odds(_setup(9), TARGET, cards=None, wounds=0, ct=12, seed=3)
    assert a == b and not a.exact and 0.0 < a.hit < 1.0
