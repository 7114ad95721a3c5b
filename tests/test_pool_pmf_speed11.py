"""pool_pmf (the AIs' exact pool distributions, RULES §3: R-3.1 highest die, R-3.4 exploding, R-3.5 critical
failure) with its outcome tally kept per (sides, dice) and counted with numpy (speedutil11): the same table, bit
for bit and in the same order, as the plain enumeration it replaced (kept here as the reference)."""

from __future__ import annotations

from itertools import product

import pytest

from skirmish.rules import dice
from skirmish.rules.dice import exploding_pmf, is_critical_failure


def reference_pool_pmf(sides: int, count: int, want_at: int) -> tuple[tuple[int, float], ...]:
    """pool_pmf as it was written before speedutil11: every outcome of up to 4 dice enumerated one by one."""
    count = max(1, count)
    out: dict[int, float] = {}
    chain_pmf = {sides + v: p for v, p in exploding_pmf(sides).items()}
    below = {v: p for v, p in chain_pmf.items() if v < want_at}
    p_below = sum(below.values())
    if count <= 4:
        weight = 1 / sides**count
        tally: dict[tuple[bool, int, int], float] = {}
        for rolled in product(range(1, sides + 1), repeat=count):
            key = (is_critical_failure(rolled), max(rolled), sum(1 for d in rolled if d == sides))
            tally[key] = tally.get(key, 0.0) + weight
    else:
        tally = dice._tally_large(sides, count)
    for (cf, best, maxima), p in tally.items():
        if cf:
            out[0] = out.get(0, 0.0) + p
            continue
        if maxima == 0:
            out[best] = out.get(best, 0.0) + p
            continue
        stay = 1.0
        for i in range(maxima):
            last = i == maxima - 1
            for v, q in chain_pmf.items():
                if last or v >= want_at:
                    out[v] = out.get(v, 0.0) + p * stay * q
            stay *= p_below
    return tuple(sorted(out.items()))


@pytest.mark.parametrize("sides", [4, 6, 8, 10, 12])
@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5])
def test_pool_pmf_equals_the_plain_enumeration(sides: int, count: int) -> None:
    for want in (1, 3, sides, sides + 2, 2 * sides + 1, 40):
        dice.pool_pmf.cache_clear()
        got = dice.pool_pmf(sides, count, want)
        ref = reference_pool_pmf(sides, count, want)
        assert [v for v, _ in got] == [v for v, _ in ref]
        assert [p.hex() for _, p in got] == [p.hex() for _, p in ref]  # bit for bit, not approximately


def test_the_tally_is_kept_per_sides_and_dice_whatever_the_roller_wants() -> None:
    dice.pool_pmf.cache_clear()
    dice.outcome_tally.cache_clear()
    dice.pool_pmf(10, 4, 12)
    dice.pool_pmf(10, 4, 15)  # another want: a new distribution from the same tally
    info = dice.outcome_tally.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    assert dice.outcome_tally(10, 4) is dice.outcome_tally(10, 4)
