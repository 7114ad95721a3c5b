"""Dice pools (RULES §3): highest-die reads, critical failures, exploding dice, and exact distributions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

Roll = Callable[[int], int]  # roll(sides) -> 1..sides


@dataclass(frozen=True)
class PoolRead:
    """A read of a skill or trait pool: the result before modifiers and every die rolled."""

    result: int
    cf: bool
    dice: tuple[int, ...]
    chains: tuple[tuple[int, ...], ...] = ()


def is_critical_failure(dice: tuple[int, ...] | list[int]) -> bool:
    """R-3.5 dice mode: more than half of the dice show 1."""
    return sum(1 for d in dice if d == 1) * 2 > len(dice)


def chain(roll: Roll, sides: int) -> tuple[int, ...]:
    """Roll one exploding die from a shown maximum: the maximum then every further roll while maximal."""
    faces = [sides]
    while True:
        r = roll(sides)
        faces.append(r)
        if r != sides:
            return tuple(faces)


def read_pool(roll: Roll, sides: int, count: int, *, want: Callable[[int], bool]) -> PoolRead:
    """Roll `count` dice and read the highest (R-3.1), exploding one maximum at a time (R-3.4).

    `want(total)` says whether a result is still worth improving; a finished chain is abandoned for the
    next maximum only while `want` holds (a new chain may come out lower), as the roller chooses.
    """
    dice = tuple(roll(sides) for _ in range(max(1, count)))
    if is_critical_failure(dice):
        return PoolRead(0, True, dice)
    best = max(dice)
    maxima = sum(1 for d in dice if d == sides)
    chains: list[tuple[int, ...]] = []
    result = best
    for _ in range(maxima):
        c = chain(roll, sides)
        chains.append(c)
        result = sum(c)
        if not want(result):
            break
    return PoolRead(result, False, dice, tuple(chains))


def effect_roll(roll: Roll, sides: int, count: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Effect (damage) dice: the sum of `count` dice, every maximum exploding (R-3.4)."""
    groups: list[tuple[int, ...]] = []
    for _ in range(max(1, count)):
        r = roll(sides)
        groups.append(chain(roll, sides) if r == sides else (r,))
    return sum(sum(g) for g in groups), tuple(groups)


# ----------------------------------------------------------------------------------------------------------
# Exact distributions for previews (dice mode).

_TAIL = 1e-9


@lru_cache(maxsize=256)
def exploding_pmf(sides: int) -> dict[int, float]:
    """P(one exploding die = v), truncated where the tail falls below 1e-9."""
    out: dict[int, float] = {}
    scale = 1.0
    base = 0
    while scale > _TAIL:
        for face in range(1, sides):
            out[base + face] = scale / sides
        base += sides
        scale /= sides
    return out


@lru_cache(maxsize=1024)
def pool_pmf(sides: int, count: int, want_at: int) -> tuple[tuple[int, float], ...]:
    """Distribution of a pool read (CF as 0) when the roller rerolls maxima while below `want_at`."""
    count = max(1, count)
    out: dict[int, float] = {}
    chain_pmf = {sides + v: p for v, p in exploding_pmf(sides).items()}
    below = {v: p for v, p in chain_pmf.items() if v < want_at}
    p_below = sum(below.values())
    for (cf, best, maxima), p in outcome_tally(sides, count):
        if cf:
            out[0] = out.get(0, 0.0) + p
            continue
        if maxima == 0:
            out[best] = out.get(best, 0.0) + p
            continue
        # Chains 1..maxima: keep the first chain at or above want_at; the last chain is kept regardless.
        stay = 1.0
        for i in range(maxima):
            last = i == maxima - 1
            for v, q in chain_pmf.items():
                if last or v >= want_at:
                    out[v] = out.get(v, 0.0) + p * stay * q
            stay *= p_below
    return tuple(sorted(out.items()))


@lru_cache(maxsize=64)
def outcome_tally(sides: int, count: int) -> tuple[tuple[tuple[bool, int, int], float], ...]:
    """P(cf, highest, maxima) of `count` dice before any explodes, in the order the outcomes first show each
    (kept per pool: `pool_pmf` asks it for every `want_at`). Up to 4 dice, it is what enumerating every outcome
    in `itertools.product` order and adding 1 / sides**count to its key's total gives, bit for bit: the outcomes
    are counted with numpy, and a key met n times gets the n-th of the running sums of that one weight (adding the
    same weight n times from 0.0 is the same float sums whatever comes between; speedutil11, ~100x faster on
    4d10; tests/test_pool_pmf_speed11.py holds it equal to the enumeration)."""
    if count > 4:
        return tuple(_tally_large(sides, count).items())
    rolled = np.indices((sides,) * count).reshape(count, -1) + 1  # column j: the j-th outcome of product()
    cf = (rolled == 1).sum(axis=0) * 2 > count  # is_critical_failure
    best = rolled.max(axis=0)
    maxima = (rolled == sides).sum(axis=0)
    _, first, n = np.unique((cf * (sides + 1) + best) * (count + 1) + maxima, return_index=True, return_counts=True)
    sums = np.add.accumulate(np.full(int(n.max()), 1 / sides**count))  # 0.0 + w, + w, ...: one add at a time
    order = np.argsort(first)
    return tuple(((bool(cf[first[i]]), int(best[first[i]]), int(maxima[first[i]])), float(sums[n[i] - 1]))
                 for i in order.tolist())


def _tally_large(sides: int, count: int) -> dict[tuple[bool, int, int], float]:
    """(cf, highest, maxima) probabilities for big pools by dynamic programming over dice."""
    # state: (ones, highest, maxima) -> prob
    states: dict[tuple[int, int, int], float] = {(0, 0, 0): 1.0}
    for _ in range(count):
        nxt: dict[tuple[int, int, int], float] = {}
        for (ones, hi, mx), p in states.items():
            for face in range(1, sides + 1):
                key = (ones + (face == 1), max(hi, face), mx + (face == sides))
                nxt[key] = nxt.get(key, 0.0) + p / sides
        states = nxt
    tally: dict[tuple[bool, int, int], float] = {}
    for (ones, hi, mx), p in states.items():
        cf = ones * 2 > count
        key = (cf, hi, mx)
        tally[key] = tally.get(key, 0.0) + p
    return tally


def prob_at_least(pmf: tuple[tuple[int, float], ...], threshold: int) -> float:
    """P(value >= threshold) from a (value, p) table (CF sits at 0 and never succeeds)."""
    return sum(p for v, p in pmf if v >= threshold and v > 0)
