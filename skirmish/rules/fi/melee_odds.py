"""Odds of the melee maneuvers before they are tried (R-7.2, R-7.6), for the board and the AIs: a Close, an Open or a
break by Strength succeeds when one check reaches a TN; an entangle, a trip or a wriggle is a contest of two checks,
each on its own card, ties to the higher impulse (R-3.8). A blow's odds are a shot's (`shot_odds` over the shot it is
resolved as). Exact over the draw pile with the action deck (every card as the first, every other as the second
of a contest); seeded rolls in dice mode. Pure."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from skirmish.rules.checks import Pool, contest_winner
from skirmish.rules.deck import Card, Deck
from skirmish.rules.fi.odds import DICE_SAMPLES
from skirmish.rules.randomizer import CardDraw, DiceDraw, Draw


@dataclass(frozen=True)
class ManeuverOdds:
    """What a maneuver is likely to do: the chance it succeeds."""

    success: float
    samples: int
    exact: bool

    def label(self) -> str:
        """Short text for a menu line."""
        return f"{'' if self.exact else '≈'}success {self.success:.0%}"


def _total(draw: Draw, pool: Pool, target: int, mod: int) -> tuple[int, int, bool]:
    """A check's total after halving and modifiers (0 on a CF), the draw's impulse, and whether it was a CF."""
    read = draw.check(pool.column, pool.row, target, mod)
    base = read.result // 2 if pool.halve else read.result
    return (0 if read.cf else base + mod), draw.impulse, read.cf


def _draws(cards: Sequence[Card] | None, seed: int, first: int | None = None) -> list[Draw]:
    """One draw per card of the pile as the top card (chains read on through the rest in a fixed order), or
    DICE_SAMPLES seeded dice draws."""
    if not cards:
        rng = random.Random(seed if first is None else seed * 7919 + first)
        return [DiceDraw(rng) for _ in range(DICE_SAMPLES)]
    pile = list(cards)
    out: list[Draw] = []
    for i, card in enumerate(pile):
        if first is not None and i == first:
            continue
        rest = pile[i + 1:] + pile[:i]
        deck = Deck([card, *rest], random.Random(seed), shuffle=False)
        out.append(CardDraw(deck.draw(), deck))
    return out


def check_odds(pool: Pool, target: int, mod: int, *, cards: Sequence[Card] | None, seed: int = 0) -> ManeuverOdds:
    """The chance one check (its pool, all modifiers summed in `mod`) reaches `target` (R-3.1, R-3.6)."""
    draws = _draws(cards, seed)
    ok = 0
    for d in draws:
        total, _, cf = _total(d, pool, target, mod)
        ok += not cf and total >= target
    return ManeuverOdds(ok / len(draws), len(draws), bool(cards))


def contest_odds(mine: Pool, my_mod: int, theirs: Pool, their_mod: int, *, cards: Sequence[Card] | None,
                 seed: int = 0) -> ManeuverOdds:
    """The chance the first of two opposed checks wins (R-3.8: highest total, ties to the higher impulse; a tie of
    impulses, dice only, fails), each check on its own card (the second from the pile without the first's)."""
    firsts = _draws(cards, seed)
    wins = total = 0
    for i, d in enumerate(firsts):
        a, a_imp, _ = _total(d, mine, 0, my_mod)
        seconds = _draws(cards, seed, first=i) if cards else _draws(None, seed, first=i)[:20]
        for d2 in seconds:
            b, b_imp, _ = _total(d2, theirs, 0, their_mod)
            wins += contest_winner(a, b, a_imp, b_imp) == 0
            total += 1
    return ManeuverOdds(wins / max(1, total), total, bool(cards))
