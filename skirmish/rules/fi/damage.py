"""Wounds, concussion and incapacitation (R-6.8, R-7.4, R-8.1, R-8.2)."""

from __future__ import annotations

from dataclasses import dataclass

WOUND_PENALTY_CAP = 3
INCAPACITATED_AT = 4
DEAD_AT = 6
HEAD_WOUNDS_KILL = 2


def split_damage(damage: int, size: int, stun: bool = False) -> tuple[int, int]:
    """Wounds = damage ÷ size (whole); the remainder is CT damage (R-6.8). Stun: non-lethal (R-7.4)."""
    if stun:
        return damage // 12, (damage // 6) * 3
    size = max(1, size)
    return damage // size, damage % size


def wound_penalty(wounds: int) -> int:
    """−1 to all results per wound, at most −3 (R-8.1)."""
    return -min(WOUND_PENALTY_CAP, wounds)


def ct_max(vigor_sides: int) -> int:
    """Concussion track: twice the Vigor die's sides (R-2.3)."""
    return 2 * vigor_sides


@dataclass(frozen=True)
class Condition:
    """A combatant's state after damage."""

    wounds: int
    ct: int
    dead: bool
    incapacitated: bool
    unconscious: bool

    @property
    def out_of_action(self) -> bool:
        """True if it can take no actions."""
        return self.dead or self.incapacitated or self.unconscious


def after_damage(wounds: int, ct: int, add_wounds: int, add_ct: int, head_wounds_this_hit: int) -> Condition:
    """Apply wounds and CT damage: 4 wounds incapacitate, 6 (or 2 head wounds in one hit) kill,
    CT 0 knocks out (R-8.1)."""
    w = min(DEAD_AT, wounds + add_wounds)  # past death the count means nothing
    c = max(0, ct - add_ct)
    dead = w >= DEAD_AT or head_wounds_this_hit >= HEAD_WOUNDS_KILL
    return Condition(w, c, dead, (not dead) and w >= INCAPACITATED_AT, (not dead) and c == 0)
