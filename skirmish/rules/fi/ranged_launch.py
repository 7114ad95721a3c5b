"""Launched grenades (R-6.10, R-6.9; issue 14): an explosive fired from a launcher at a cell. Pure, with its event.

The TN is a shot's (R-6.1: Standard + one per full range increment of the launcher, the firer's walk/run, wounds,
readiness and aim as for any shot), read with the launcher's skill on Dexterity. On a success it lands on the
aimed cell; a miss scatters like a throw, the card's clock giving the direction, but by the card's *launched*
multiplier × the miss margin, capped at the distance launched (from the launcher on a CF). The burst is a
thrown explosive's (skirmish.rules.fi.thrown): everyone in reach draws a card.
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.core.events import register
from skirmish.rules import geometry as geo
from skirmish.rules.fi.combat_events import ThrowEvent
from skirmish.rules.fi.ranged import ShotSetup, read_attack
from skirmish.rules.fi.thrown import Placement, scatter_landing
from skirmish.rules.randomizer import Draw


def place_launch(draw: Draw, setup: ShotSetup, grid: geo.GridMap, firer: geo.Cell, aim: geo.Cell) -> Placement:
    """Read the launch and place it: on the aimed cell on a success, else scattered by the launched multiplier
    (R-6.10)."""
    read, total, hit = read_attack(draw, setup)
    if hit:
        return Placement(read.result, read.cf, total, True, aim, None, read.source)
    card = draw.fields
    land, scatter = scatter_landing(grid, firer, aim, clock=card.clock, multiplier=card.scatter_launched,
                                    margin=setup.tn - total, thrown_m=setup.distance_m, cf=read.cf)
    return Placement(read.result, read.cf, total, False, land, scatter, read.source)


@register("launch")
@dataclass(frozen=True, slots=True, kw_only=True)
class LaunchEvent(ThrowEvent):
    """A launched explosive (R-6.10, R-6.9): the fields of a throw (`item` is the launcher); `left` is the
    rounds left in it; `breakdown` True when the card broke the launcher down after it fired (R-4.8); `hand` "off"
    when the launcher was the one in the other hand (R-6.12)."""

    _verb = "fires the"
    _from = "the launcher"
    _times = "launched x"

    breakdown: bool | None = None  # the card's breakdown broke the launcher down after the launch
    hand: str | None = None  # "off": the launcher in the other hand (R-6.12 two weapons; a reload of that hand clears it)

    def describe(self) -> str:
        line = ThrowEvent.describe(self)
        if self.hand == "off":
            line = line.replace(f" {self._verb} ", f" {self._verb} off hand's ", 1)
        return line + (f"; the {self.item.replace('_', ' ')} breaks down (R-4.8: a reload clears it)"
                       if self.breakdown else "")

    def headline(self) -> str:
        where_to = "on target" if self.hit else f"scatters to {self.landed[0]},{self.landed[1]}"
        return f"{self.actor or ''} launches: {self.result} vs TN {self.tn} {where_to}"
