"""Checks, tasks, bumps and contests (RULES §3), independent of cards or dice.

The random read itself comes from a `Draw` (skirmish.rules.randomizer); this module holds the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Scope = Literal["pulp", "gritty"]
DIFFICULTIES = ("easy", "standard", "challenging", "difficult", "incredible")
# TN ladder: (pulp, gritty).
TN_LADDER: dict[str, tuple[int, int]] = {
    "easy": (3, 4),
    "standard": (5, 6),
    "challenging": (7, 8),
    "difficult": (9, 10),
    "incredible": (11, 12),
}
BUMP_STEP = 5  # one bump per full 5 over the TN.
COLUMN_NUMBER = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}
NUMBER_COLUMN = {v: k for k, v in COLUMN_NUMBER.items()}


def tn(difficulty: str, scope: Scope = "pulp") -> int:
    """The task number of a named difficulty under a scope (R-3.2)."""
    pulp, gritty = TN_LADDER[difficulty]
    return pulp if scope == "pulp" else gritty


def bumps(total: int, target: int) -> int:
    """Bumps for a successful total against a TN: one per full 5 above it (R-3.3)."""
    if total < target:
        return 0
    return (total - target) // BUMP_STEP


def worth_improving(total: int, target: int, sides: int) -> bool:
    """R-3.4 roller policy: improve while below the TN, or while the next bump is one die away."""
    if total < target:
        return True
    next_bump = target + (bumps(total, target) + 1) * BUMP_STEP
    return next_bump - total <= sides


def task_successes(effect: int, complexity: int) -> int:
    """R-3.7: each full multiple of the complexity is one success; the remainder is lost."""
    return effect // max(1, complexity)


def shift_column(column: str, by: int) -> str:
    """Move a column left (negative) or right, clamped to I..VI."""
    return NUMBER_COLUMN[max(1, min(6, COLUMN_NUMBER[column] + by))]


@dataclass(frozen=True)
class Modifier:
    """A signed modifier with the reason a player would give for it."""

    value: int
    reason: str

    def to_json(self) -> dict[str, object]:
        """JSON form used in events (C-3)."""
        return {"value": self.value, "reason": self.reason}


@dataclass(frozen=True)
class Pool:
    """What to read for a check: trait column, row (skill level or training) and how."""

    column: str
    row: int
    skill: str
    halve: bool = False  # unskilled: halve the result
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)


def skill_pool(trait: tuple[str, int], skills: dict[str, int], skill: str) -> Pool:
    """Pool for a skill on a trait (column, training): trained; a related specialisation at −2; or unskilled,
    the trait's training halved (R-3.6)."""
    col, training = trait
    if skill in skills:
        return Pool(col, skills[skill], skill)
    base = skill.split(":")[0]
    related = [(lvl, s) for s, lvl in skills.items() if s.split(":")[0] == base]
    if related:
        lvl, s = max(related)
        return Pool(col, lvl, s, False, (Modifier(-2, f"related skill {s} (R-3.6)"),))
    return Pool(col, training, skill, True)


@dataclass(frozen=True)
class CheckResult:
    """A resolved check: the read, the modifiers, and the outcome against the TN."""

    read: int
    cf: bool
    total: int
    tn: int
    success: bool
    bumps: int
    modifiers: tuple[Modifier, ...]


def settle(read: int, cf: bool, pool: Pool, target: int, extra: tuple[Modifier, ...] = ()) -> CheckResult:
    """Apply halving and modifiers to a read and compare with the TN (R-3.1, R-3.3, R-3.5, R-3.6)."""
    mods = pool.modifiers + extra
    if cf:
        return CheckResult(0, True, 0, target, False, 0, mods)
    base = read // 2 if pool.halve else read
    total = base + sum(m.value for m in mods)
    ok = total >= target
    return CheckResult(read, False, total, target, ok, bumps(total, target) if ok else 0, mods)


def contest_winner(a_total: int, b_total: int, a_tiebreak: int, b_tiebreak: int) -> int:
    """R-3.8: 0 if the first side wins, 1 if the second; ties go to the higher tiebreak (impulse)."""
    if a_total != b_total:
        return 0 if a_total > b_total else 1
    if a_tiebreak != b_tiebreak:
        return 0 if a_tiebreak > b_tiebreak else 1
    return -1
