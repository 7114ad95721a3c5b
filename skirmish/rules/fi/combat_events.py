"""Future Imperfect's combat events (C-3, R-6, R-8): shots, throws and blasts, and what they do to a unit
(concussion saves, out of action), registered when this module is imported, with their log text. The turn's
other events are in skirmish.rules.fi.events, which imports this module (so importing either registers all).

Field order is the order the event's JSON is written in (tests/data/golden keeps it byte for byte). A field
whose default is None is written only when it has a value; `draw` writes what was turned or rolled in its
place (the card and its chains, or the dice).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from skirmish.core.events import FLAT, Event, register
from skirmish.core.reads import DrawRecord, Mod
from skirmish.rules.fi.ranged_events import Split, split_text
from skirmish.rules.fi.text import (
    Hit,
    Layer,
    Scatter,
    check_lines,
    draw_text,
    hit_lines,
    hits_text,
    layer_text,
    mods_text,
)


@register("attack")
@dataclass(frozen=True, slots=True, kw_only=True)
class AttackEvent(Event):
    """A shot (R-6.1-R-6.13): the TN and its modifiers, the read, each hit with its armour and damage, and
    the weapon's power drawn from the tacpack (`power`, `power_left`) for an energy weapon."""

    target: str
    weapon: str
    mode: str
    burst: int  # 0: a single shot
    called: str | None
    trigger: bool  # fired on a trigger
    distance_m: float
    tn: int
    tn_modifiers: list[Mod]
    column: str
    row: int
    halved: bool
    read: int
    cf: bool
    result: int
    hit: bool
    bumps: int
    bump_pool: int
    spent: list[str]
    rounds_hit: int
    cover: str
    cover_av: int
    location: str | None  # the first hit's
    ablation: list[Layer]  # the first hit's
    damage: int
    wounds: int
    ct: int
    hits: list[Hit]
    extra_damage: list[tuple[int, int]]  # (card, effect) drawn for EXTRA DAMAGE
    breakdown: bool
    ammo_left: int
    power: int | None = None
    power_left: int | None = None
    unintended: list[str] | None = None  # the candidates listed before the draw, nearest first
    split: Split | None = None  # a burst split between targets: one attack event per target
    double_tap: int | None = None  # a double tap's shot, 1 or 2, both off one card
    covering: bool | None = None  # a covering shot at a unit entering the covered area
    pinned: list[str] | None = None  # the enemies whose covering fire pins the firer: its shot took -2
    modifiers: list[Mod]
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        tap = f" (double tap {self.double_tap}/2)" if self.double_tap else " (covering fire)" if self.covering else ""
        head = (f"{self.where()} {self.actor or ''} {'(trigger) ' if self.trigger else ''}fires {self.weapon}{tap} "
                f"{self.mode}{' burst ' + str(self.burst) if self.burst else ''} at {self.target} "
                f"({self.distance_m:.1f} m)")
        read = "CF" if self.cf else f"{self.read}{' halved' if self.halved else ''}"
        mods = f" {mods_text(self.modifiers)}" if self.modifiers else ""
        line = (f"{head}: TN {self.tn} ({mods_text(self.tn_modifiers)}); {self.column}-{self.row} on "
                f"{draw_text(self.draw)} reads {read}{mods} = {self.result} -> {'HIT' if self.hit else 'miss'}")
        if self.hit:
            line += f", {self.rounds_hit} round(s), bumps {self.bumps} pool {self.bump_pool}"
            if self.spent:
                line += f" spent {','.join(self.spent)}"
            line += "; " + hits_text(self.hits)
        if self.breakdown:
            line += "; BREAKDOWN"
        if self.power is not None:
            line += f"; tacpack -{self.power} ({self.power_left} left)"
        if self.unintended:
            line += f"; on the line of fire: {', '.join(self.unintended)}"
        if self.split:
            line += f"; {split_text(self.split)}"
        if self.pinned:
            line += f"; pinned by {', '.join(self.pinned)}'s covering fire"
        return line + self.rules_text()

    def headline(self) -> str:
        dmg = (f" {sum(h['wounds'] for h in self.hits)}W {sum(h['ct'] for h in self.hits)}CT" if self.hit else "")
        burst = f" ×{self.burst}" if self.burst else ""
        return (f"{self.actor or ''} → {self.target}{burst}: {self.result} vs TN {self.tn} "
                f"{'HIT' if self.hit else 'miss'}{dmg}")

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, self.read, self.tn, self.tn_modifiers, self.modifiers) + hit_lines(self.hits)


@register("out_of_action")
@dataclass(frozen=True, slots=True, kw_only=True)
class OutOfActionEvent(Event):
    """A unit's state changes (R-8.1): unconscious, incapacitated or dead; `was` when it was already down."""

    state: str
    wounds: int
    ct: int
    was: str | None = None

    def describe(self) -> str:
        was = f", was {self.was}" if self.was else ""
        return (f"{self.where()} {self.actor or ''} is {self.state.upper()} ({self.wounds} wounds, CT {self.ct}{was})"
                f"{self.rules_text()}")


@register("concussion")
@dataclass(frozen=True, slots=True, kw_only=True)
class ConcussionEvent(Event):
    """A concussion save after CT damage (R-8.2)."""

    column: str
    row: int
    tn: int
    result: int
    cf: bool
    success: bool
    stunned: bool
    modifiers: list[Mod]
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} concussion save {self.column}-{self.row} on {draw_text(self.draw)}: "
                f"{self.result} vs {self.tn} -> {'holds' if self.success else 'STUNNED'}{self.rules_text()}")

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, tn=self.tn, modifiers=self.modifiers)


@register("throw")
@dataclass(frozen=True, slots=True, kw_only=True)
class ThrowEvent(Event):
    """A thrown explosive (R-6.9, R-6.10): aimed at `at`, on target or scattered, landed, and who the burst
    reaches."""

    # The log's words for how it went (a launched grenade, skirmish.rules.fi.ranged_launch, has its own).
    _verb: ClassVar[str] = "throws a"
    _from: ClassVar[str] = "the thrower"
    _times: ClassVar[str] = "x"

    item: str
    at: list[int]
    distance_m: float
    tn: int
    tn_modifiers: list[Mod]
    column: str
    row: int
    halved: bool
    read: int
    cf: bool
    result: int
    hit: bool
    scatter: Scatter | None
    landed: list[int]
    radius_m: float
    reach_m: float
    caught: list[str]
    left: int
    modifiers: list[Mod]
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        read = "CF" if self.cf else f"{self.read}{' halved' if self.halved else ''}"
        mods = f" {mods_text(self.modifiers)}" if self.modifiers else ""
        line = (f"{self.where()} {self.actor or ''} {self._verb} {self.item.replace('_', ' ')} at {self.at[0]},{self.at[1]} "
                f"({self.distance_m:.1f} m): TN {self.tn} ({mods_text(self.tn_modifiers)}); {self.column}-{self.row} "
                f"on {draw_text(self.draw)} reads {read}{mods} = {self.result} -> ")
        sc = self.scatter
        if sc is None:
            line += "on target"
        else:
            base = f"from {self._from} (CF)" if sc["from"] == "thrower" else f"missed by {sc['margin']}"
            capped = f", capped from {sc['wanted_m']:g} m" if sc["wanted_m"] > sc["metres"] + 1e-9 else ""
            wall = ", stopped by a wall" if sc["stopped"] else ""
            line += (f"scatters {base}: {sc['clock']} o'clock, {self._times}{sc['multiplier']} = {sc['metres']:g} m"
                     f"{capped}{wall}; lands at {self.landed[0]},{self.landed[1]}")
        caught = ", ".join(self.caught) or "no one"
        return line + f"; the burst ({self.radius_m:g} m) reaches {caught}{self.rules_text()}"

    def headline(self) -> str:
        where_to = "on target" if self.hit else f"scatters to {self.landed[0]},{self.landed[1]}"
        return f"{self.actor or ''} throws {self.item.split('_')[0]}: {self.result} vs TN {self.tn} {where_to}"

    def detail_lines(self) -> list[str]:
        out = check_lines(self.draw, self.read, self.tn, self.tn_modifiers, self.modifiers)
        sc = self.scatter
        if sc:
            out.append(f"   scatter: clock {sc['clock']}, thrown multiplier {sc['multiplier']} x margin {sc['margin']}"
                       f" = {sc['wanted_m']:g} m, capped at the throw -> {sc['metres']:g} m from the {sc['from']}")
        return out


@register("blast")
@dataclass(frozen=True, slots=True, kw_only=True)
class BlastEvent(Event):
    """An explosive's burst on one unit (R-6.9): its zone and column, cover, armour and damage."""

    target: str
    item: str
    at: list[int]
    distance_m: float
    zone: str  # full | outer
    column: str
    row: int
    cover: str
    cover_av: int
    location: str
    ablation: list[Layer]
    damage: int
    wounds: int
    ct: int
    hits: list[Hit]
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        bits = [f"{self.distance_m:.1f} m, {'full' if self.zone == 'full' else 'outer ring'} {self.column} column"]
        if self.cover != "none":
            bits.append(f"cover {self.cover}")
        bits += [layer_text(a) for a in self.ablation]
        bits.append(f"{self.damage} dmg = {self.wounds}W {self.ct}CT" if self.damage else "no damage")
        return (f"{self.where()} blast hits {self.target} ({self.location}) on {draw_text(self.draw)}: "
                f"{'; '.join(bits)}{self.rules_text()}")

    def headline(self) -> str:
        return f"blast → {self.target}: {self.wounds}W {self.ct}CT ({self.zone})"

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw) + hit_lines(self.hits)
