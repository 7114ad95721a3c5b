"""The tacpack's energy budget and electronic warfare (R-9.8, R-9.9, R-9.10).

A tacpack generator gives G points a round. A figure allocates them among its force screen (one type at a
time, switchable each round), energy-weapon shots (a burst draws three shots' worth), EW programs and a jump
pack; the allocation never exceeds G (R-9.8). EW programs draw on the computer's effector and sensor ratings
(5 EW points per ENC of module): CM uses effectors, DCCM an effector and a sensor point each at one target
in line of sight, combat sensors a sensor point per 15 m of range (R-9.9).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmish.rules.fw.checks import Outcome
from skirmish.rules.fw.damage import SCREEN_TYPES

SENSOR_M_PER_POINT = 15  # combat sensors reach 15 m per sensor point
CM_STEP = 10  # each net CM point takes 10% off seeker acquisition and off being registered
EW_PER_ENC = 5  # 5 EW points per ENC of effectors or sensors
EW_PROGRAMS = ("cm", "dccm", "sensors")


@dataclass(frozen=True)
class Allocation:
    """One round's split of a generator's points (R-9.8); `dccm_target` names the figure DCCM is beamed at."""

    screen_type: str | None = None
    screen: int = 0
    shots: int = 0
    cm: int = 0
    dccm: int = 0
    sensors: int = 0
    jump: int = 0
    dccm_target: str | None = None

    @property
    def ew(self) -> int:
        """Generator points drawn by EW programs: one per CM, DCCM and sensor point."""
        return self.cm + self.dccm + self.sensors

    @property
    def total(self) -> int:
        """Every point this allocation draws."""
        return self.screen + self.shots + self.ew + self.jump

    def programs(self) -> tuple[str, ...]:
        """The EW programs this allocation runs (those with points)."""
        return tuple(p for p, v in zip(EW_PROGRAMS, (self.cm, self.dccm, self.sensors), strict=True) if v)


@dataclass(frozen=True)
class Tacpack:
    """A figure's tacpack: generator points, effector and sensor ratings (EW points)."""

    generator: int
    effectors: int = 0
    sensors: int = 0
    screens: tuple[str, ...] = field(default=SCREEN_TYPES)


def refusal(pack: Tacpack, a: Allocation, *, whole_round_programming: bool = False) -> str | None:
    """Why `a` is not a legal split of `pack` this round (the rule id first), or None (R-9.8, R-9.9).

    `whole_round_programming`: the figure spends its round programming all three EW functions; otherwise it
    may run one program and take another action (R-9.9)."""
    values = (a.screen, a.shots, a.cm, a.dccm, a.sensors, a.jump)
    if any(v < 0 for v in values):
        return "R-9.8: an allocation is made of whole points, none below 0"
    if a.screen and a.screen_type not in pack.screens:
        return f"R-9.8: a screen is one of {', '.join(pack.screens)}"
    if a.total > pack.generator:
        return f"R-9.8: {a.total} points allocated, the generator gives {pack.generator}"
    if a.cm + a.dccm > pack.effectors:
        return f"R-9.9: CM and DCCM need {a.cm + a.dccm} effector points, the computer has {pack.effectors}"
    if a.dccm + a.sensors > pack.sensors:
        return f"R-9.9: DCCM and sensors need {a.dccm + a.sensors} sensor points, the computer has {pack.sensors}"
    if a.dccm and not a.dccm_target:
        return "R-9.9: DCCM is beamed at one target in line of sight"
    if len(a.programs()) > 1 and not whole_round_programming:
        return "R-9.9: one EW program a round with another action, or the whole round to program all three"
    if whole_round_programming and (a.shots or a.jump):
        return "R-9.9: a round spent programming all three EW functions leaves no energy shots or jump"
    return None


def net_cm(cm: int, dccm_against: int) -> int:
    """A target's CM after the DCCM beamed at it: never below 0 (R-9.9)."""
    return max(0, cm - dccm_against)


def seeker_acquisition(cm: int, dccm_against: int) -> int:
    """A seeker missile's chance to acquire its target, % (R-9.10): 100 - 10 x max(0, CM - DCCM)."""
    return max(0, 100 - CM_STEP * net_cm(cm, dccm_against))


def sensor_range_m(points: int) -> int:
    """How far combat sensors detect with `points` sensor points (R-9.9)."""
    return SENSOR_M_PER_POINT * max(0, points)


def registers(rng_roll: int, distance_m: float, sensor_points: int, target_cm: int, dccm_against: int = 0) -> bool:
    """Whether combat sensors register a figure out of sight (R-9.9): within range, and a d100 `rng_roll` at
    or under 100 - 10 per net CM point of the target."""
    if distance_m > sensor_range_m(sensor_points):
        return False
    return Outcome.of(rng_roll, max(0, 100 - CM_STEP * net_cm(target_cm, dccm_against))).success  # 96-00 fails


def module_enc(ew_points: int) -> float:
    """ENC of an effector or sensor module of `ew_points` (R-9.9: 5 EW points per ENC)."""
    return ew_points / EW_PER_ENC
