"""Double tap (R-6.12; the seed's "Double Tap"): two shots in one action off one card. Pure.

A weapon with the double tap attribute fires twice: −2 to hit when ready, −4 when not (a snap attack at a
target it is not readied on), one less for a pistol and one less again for a low-recoil (LR) weapon; without the
`double_tap` specialisation the maneuver is an associated skill (−2 more). The first shot reads the card as any
shot; the second reads one row up in the same column (one column left at row 1) and lands one box up from the
standard when the toggle reads YES, one down when NO. The weapon's reliability counts one grade lower for the
card's breakdown (R-4.8).
"""

from __future__ import annotations

from skirmish.rules.checks import Modifier
from skirmish.rules.deck import BREAKDOWN_ORDER, COLUMNS
from skirmish.rules.equipment import Weapon

SPECIALISATION = "double_tap"  # the skill that makes the maneuver a trained one


def tap_modifiers(weapon: Weapon, ready: bool, specialised: bool) -> list[Modifier]:
    """The double tap's to-hit modifiers (both shots take them)."""
    base = 2 if ready else 4
    cut = (1 if weapon.skill.startswith("shooting:pistol") else 0) + (1 if weapon.low_recoil else 0)
    value = max(0, base - cut)
    why = []
    if cut:
        why.append("pistol" if weapon.skill.startswith("shooting:pistol") else "")
        why.append("low recoil" if weapon.low_recoil else "")
    reasons = ", ".join(w for w in why if w)
    out = [Modifier(-value, f"double tap, {'ready' if ready else 'not ready'}"
                    f"{f' ({reasons} -{cut})' if cut else ''} (R-6.12)")] if value else []
    if not specialised:
        out.append(Modifier(-2, "double tap without the specialisation: an associated skill (R-6.12)"))
    return out


def second_read(column: str, row: int) -> tuple[str, int]:
    """Where the second shot reads: one row up in the same column, or one column left at row 1 (column I, row 1
    stays)."""
    if row > 1:
        return column, row - 1
    i = COLUMNS.index(column)
    return (COLUMNS[i - 1] if i > 0 else column), 1


def second_shift(toggle: bool) -> int:
    """The second shot's box from the standard: one up (toggle YES) or one down (NO)."""
    return -1 if toggle else 1


def tap_reliability(reliability: str) -> str:
    """A double-tapped weapon's reliability for the breakdown check: one grade lower (R-4.8: E > F > R > V)."""
    return BREAKDOWN_ORDER[max(0, BREAKDOWN_ORDER.index(reliability) - 1)]
