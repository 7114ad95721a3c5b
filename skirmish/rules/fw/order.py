"""The order of resolution in a Future*World round (R-9.2, R-9.3): highest DEX first; figures of equal DEX
resolve simultaneously (every one of them resolves before any takes effect); a figure's second, different
action comes at half its DEX, rounded up, and no figure takes the same action twice in a round."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from skirmish.rules.fw.checks import half_dex

JUMP = "jump"  # a jump pack user moves in the movement segment and does nothing else that round


@dataclass(frozen=True)
class Slot:
    """One action's place in the round: who, which of its actions (0 first, 1 second), and at what DEX."""

    unit: str
    index: int
    dex: int
    action: str


def refusal(actions: tuple[str, ...]) -> str | None:
    """Why a figure may not declare these actions for one round, or None (R-9.3)."""
    if len(actions) > 2:
        return "R-9.3: at most two actions a round (the second at half DEX)"
    if JUMP in actions and len(actions) > 1:
        return "R-9.2: a figure using a jump pack moves in the movement segment and does nothing else"
    if len(actions) == 2 and actions[0] == actions[1]:
        return f"R-9.3: a figure never takes the same action twice in a round ({actions[0]})"
    return None


def resolution_order(declared: Iterable[tuple[str, int, tuple[str, ...]]]) -> list[list[Slot]]:
    """Groups of simultaneous slots, in the order they resolve, from (unit, DEX, declared actions) (R-9.2).

    The first action acts at DEX, a second at half DEX rounded up (R-9.3). Within a group (equal DEX) the
    slots are listed by unit name, for a stable log; they take effect together."""
    slots: dict[int, list[Slot]] = {}
    for unit, dex, actions in declared:
        why = refusal(actions)
        if why:
            raise ValueError(why)
        for i, act in enumerate(actions):
            at = dex if i == 0 else half_dex(dex)
            slots.setdefault(at, []).append(Slot(unit, i, at, act))
    return [sorted(slots[d], key=lambda s: (s.unit, s.index)) for d in sorted(slots, reverse=True)]
