"""Declared speeds, the initiative bar and phase order (R-5.1, R-5.2)."""

from __future__ import annotations

from skirmish.rules.checks import COLUMN_NUMBER
from skirmish.rules.equipment import Speed
from skirmish.rules.fi.timing import declared_speed

PHASES = (1, 2, 3, 4)
PHASE_NAMES = {1: "I", 2: "II", 3: "III", 4: "IV"}
DECLARATIONS = ("fast", "normal", "slow", "dodge")
# initiative bar: TN to act in phases I..IV by speed (the same on every card).
INITIATIVE_BAR: dict[Speed, tuple[int, int, int, int]] = {
    Speed.FAST: (7, 5, 3, 1),
    Speed.NORMAL: (10, 8, 5, 2),
    Speed.SLOW: (13, 11, 8, 3),
}


def timing_speed(declared: str | None, hesitated_last_round: bool) -> Speed:
    """The speed whose bar row a declaration reads: DODGE as NORMAL; one faster after hesitating."""
    speed = declared_speed(declared)
    return speed.faster() if hesitated_last_round else speed


def phase_options(result: int, cf: bool, speed: Speed) -> list[int]:
    """Phases whose TN the Reflex result meets; empty means the combatant hesitates (R-5.2). A new list."""
    if cf:
        return []
    got = _OPTIONS.get((result, speed))
    if got is None:
        got = tuple(p for p, target in zip(PHASES, INITIATIVE_BAR[speed], strict=True) if result >= target)
        if len(_OPTIONS) < 4096:  # results are small integers: a few hundred keys in practice
            _OPTIONS[(result, speed)] = got
    return list(got)


_OPTIONS: dict[tuple[int, Speed], tuple[int, ...]] = {}  # phase_options by (result, speed)


def order_key(reflex_column: str, reflex_training: int, side_index: int, entity: int) -> tuple[int, ...]:
    """Order within a phase: Reflex column, then training (higher first), then side, then id (R-5.1)."""
    return (-COLUMN_NUMBER[reflex_column], -reflex_training, side_index, entity)
