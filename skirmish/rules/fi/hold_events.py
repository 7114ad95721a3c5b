"""The event of R-7.7's grapples (skirmish/ecs/systems/fi/holds.py), with its log text: a grip made, a choke, a
round of the disabling contest, a grip released and why. Registered when skirmish.rules.fi.events imports it."""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.core.events import Event, register
from skirmish.core.reads import DrawRecord


@register("grip")
@dataclass(frozen=True, slots=True, kw_only=True)
class GripEvent(Event):
    """A grip (Hold, Lift, Lock) and what happens to it (R-7.7): `what` is made, choke, disable or released."""

    target: str
    grip: str
    what: str
    effect: str | None = None
    reason: str | None = None
    wind: int | None = None  # a choke's wind (CT)
    result: int | None = None  # the disabling contest: the holder's Strength with its bonus
    other_result: int | None = None  # and the held's (halved, or at -2 on its own try)
    winner: str | None = None
    raised: bool | None = None
    disabled: bool | None = None
    broken: bool | None = None
    bonus: int | None = None  # the holder's bonus for its next try
    draw: DrawRecord | None = None
    other_draw: DrawRecord | None = None

    def describe(self) -> str:
        who, grip = self.actor or "", self.grip.upper()
        if self.what == "made":
            more = f" with {self.effect}" if self.effect else ""
            return f"{self.where()} {who} has {self.target} in a {grip}{more}{self.rules_text()}"
        if self.what == "choke":
            return f"{self.where()} {who} chokes {self.target}: {self.wind} wind (both prone){self.rules_text()}"
        if self.what == "disable":
            end = ("limb disabled: a serious wound" if self.disabled else "the lock is broken" if self.broken
                   else f"{self.winner} wins; next try +{self.bonus}" if self.winner == "attacker"
                   else "the defender holds out; the bonus is lost")
            return (f"{self.where()} {who} strains at {self.target}'s limb: Strength {self.result} vs "
                    f"{self.other_result} -> {end}{self.rules_text()}")
        return f"{self.where()} {who} lets go of {self.target}: {self.reason}{self.rules_text()}"

    def headline(self) -> str:
        return f"{self.actor or ''} {self.grip} {self.what} → {self.target}"
