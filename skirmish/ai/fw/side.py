"""The side's intent for the Future*World utility AI (as FI's utility AI has one, docs/AI.md "Squad leader"):
press when the side is as strong as the enemy it knows of or the clock is running out (a draw is only half a
win), fall back when it is much weaker, else hold. Strength: the HP of the figures still able to act (R-9.7)."""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.ecs.view import BattleView, UnitView
from skirmish.rulesets.fw import FwUnitView

PRESS_AT = 0.8  # our strength / theirs at or above which the side presses
FALL_BACK_BELOW = 0.4  # ... and below which it falls back
LATE = 0.5  # pressing anyway once this share of the round limit is gone


@dataclass(frozen=True)
class Intent:
    """What the side means to do, and why (traced)."""

    mode: str  # "press", "hold" or "fall back"
    why: str

    @property
    def press(self) -> bool:
        return self.mode == "press"

    @property
    def fall_back(self) -> bool:
        return self.mode == "fall back"

    @property
    def text(self) -> str:
        """The trace's line: "press: strength 1.20, round 3 of 15"."""
        return f"{self.mode}: {self.why}"


def _strength(units: list[UnitView]) -> int:
    return sum(max(0, u.ext.hp) for u in units if isinstance(u.ext, FwUnitView) and u.ext.can_act)


def side_intent(view: BattleView, me: UnitView) -> Intent:
    """Press, hold or fall back (see the module's docstring)."""
    ours = _strength([u for u in view.units if u.side == me.side and not u.out_of_action])
    theirs = _strength(view.enemies(me))
    ratio = ours / theirs if theirs else 9.99
    why = f"strength {ratio:.2f}" + (f", round {view.round} of {view.max_rounds}" if view.max_rounds else "")
    if ratio >= PRESS_AT or (view.max_rounds and view.round >= LATE * view.max_rounds):
        return Intent("press", why)
    if ratio < FALL_BACK_BELOW:
        return Intent("fall back", why)
    return Intent("hold", why)
