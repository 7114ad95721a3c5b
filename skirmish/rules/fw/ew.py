"""Electronic warfare between figures (R-9.9, R-9.10), on top of `tacpack.py`'s one-figure budget: the DCCM that
lands on a target (only from figures that see it), a target's net CM, the seeker's acquisition and the
chance that combat sensors register a figure out of sight.

DCCM from several figures at one target adds up; the target's CM never goes below 0 (R-9.9). CM counts
against seekers and sensors only: a guided missile is aimed and rolls to hit (R-9.10).
"""

from __future__ import annotations

from collections.abc import Iterable

from skirmish.rules.fw.checks import ALWAYS_MISS_FROM
from skirmish.rules.fw.tacpack import CM_STEP, Allocation, net_cm, seeker_acquisition, sensor_range_m


def dccm_refusal(a: Allocation, target_in_sight: bool) -> str | None:
    """Why `a`'s DCCM cannot be beamed this round, or None (R-9.9: at one target in line of sight)."""
    if a.dccm and not target_in_sight:
        return f"R-9.9: DCCM is beamed at a target in line of sight; {a.dccm_target} is not in sight"
    return None


def dccm_on(target: str, beams: Iterable[tuple[Allocation, bool]]) -> int:
    """DCCM points landing on `target` this round from the (allocation, sees the target) of every figure."""
    return sum(a.dccm for a, sees in beams if sees and a.dccm_target == target)


def acquisition(target_cm: int, target: str, beams: Iterable[tuple[Allocation, bool]]) -> int:
    """A seeker's acquisition chance at `target`, % (R-9.10), after every DCCM beamed at it."""
    return seeker_acquisition(target_cm, dccm_on(target, beams))


def detect_chance(distance_m: float, sensor_points: int, target_cm: int, dccm_against: int = 0) -> int:
    """The chance combat sensors register a figure out of sight, % (R-9.9): 0 beyond 15 m per sensor point,
    else 100 - 10 per net CM point, and 96-00 fails (so at most 95): `tacpack.registers` rolls it."""
    if distance_m > sensor_range_m(sensor_points):
        return 0
    return min(ALWAYS_MISS_FROM - 1, max(0, 100 - CM_STEP * net_cm(target_cm, dccm_against)))


def tool_computer_ew(rated: int, generator: int) -> int:
    """EW a tool computer can put out: its modules' rating, but no more than its own generator's points
    (seed 004, "Computers")."""
    return min(rated, generator)
