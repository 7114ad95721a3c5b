"""Events of the rest of Future Imperfect's ranged combat (C-3, issue 14), registered when this module is
imported, with their log text: a missed round striking an unintended target (R-6.11).

Field order is the order the event's JSON is written in. A field whose default is None is written only when it
has a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from skirmish.core.events import Event, register
from skirmish.rules.fi.text import Hit, hit_lines, hits_text


class Split(TypedDict):
    """A split burst (R-6.3) on each of its attack events: the burst, the targets in the order named, each one's
    skill dice and rounds, and the rounds left over that miss."""

    burst: int
    targets: list[str]
    dice: list[int]
    rounds: list[int]
    extra: int


def split_text(s: Split) -> str:
    """A split burst in the log: "split burst 5: Kyr-1 3 dice 2 rounds, Kyr-2 2 dice 2 rounds, 1 misses"."""
    shares = ", ".join(f"{t} {d} dice {r} round{'s' if r > 1 else ''}"
                       for t, d, r in zip(s["targets"], s["dice"], s["rounds"], strict=False))
    extra = f", {s['extra']} miss{'es' if s['extra'] == 1 else ''}" if s["extra"] else ""
    return f"split burst {s['burst']}: {shares}{extra}"


@register("unintended_hit")
@dataclass(frozen=True, slots=True, kw_only=True)
class UnintendedHitEvent(Event):
    """A round that missed its target strikes a figure on the line of fire (R-6.11): the figure (`target`), its
    place among the candidates listed before the draw (1 = nearest, the card's strip from the top), whether it
    is on the firer's side, the card, and the hit read from the shot's draw."""

    target: str
    candidate: int
    friend: bool
    card: int  # the shot's card (0 when dice are rolled)
    distance_m: float
    cover: str
    location: str
    damage: int
    wounds: int
    ct: int
    hits: list[Hit]

    def describe(self) -> str:
        who = f"{self.target} ({'a friend, ' if self.friend else ''}candidate {self.candidate}"
        card = f" on card {self.card}" if self.card else ""
        return (f"{self.where()} a round from {self.actor or ''} that missed strikes {who}{card}, "
                f"{self.distance_m:.1f} m): {hits_text(self.hits)}{self.rules_text()}")

    def headline(self) -> str:
        return f"stray round → {self.target}: {self.wounds}W {self.ct}CT"

    def detail_lines(self) -> list[str]:
        return hit_lines(self.hits)


@register("cover")
@dataclass(frozen=True, slots=True, kw_only=True)
class CoverEvent(Event):
    """Covering fire declared over the area round `at` (R-6.12): the burst, its fire volume and the radius."""

    at: list[int]
    burst: int
    volume: int
    radius_m: float
    pinned: list[str] | None = None  # the enemies inside the area in the firer's sight: pinned

    def describe(self) -> str:
        fire = f"bursts of {self.burst}" if self.burst else "single shots"
        pins = f"; pins {', '.join(self.pinned)} (their shots -2, leaving draws fire)" if self.pinned else ""
        return (f"{self.where()} {self.actor or ''} lays covering fire within {self.radius_m:g} m of {self.at[0]},"
                f"{self.at[1]} ({fire}, volume {self.volume}){pins}{self.rules_text()}")
