"""Future Imperfect's melee events (C-3, R-7, R-10.2), registered when this module is imported (skirmish.rules.fi.events
imports it), with their log text: every number of a blow, a Close or Open, an entangle or trip contest, an active
defence and a break for freedom.

Field order is the order the event's JSON is written in. A field whose default is None is written only when it
has a value; `draw` writes what was turned or rolled in its place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmish.core.events import FLAT, Event, register
from skirmish.core.reads import DrawRecord, Mod
from skirmish.rules.fi.text import Hit, Layer, check_lines, draw_text, hit_lines, hits_text, mods_text

__all__ = ["BreakFreeEvent", "ChargeLostEvent", "DefendEvent", "FallEvent", "ManeuverEvent",
            "MeleeContestEvent", "MeleeEvent", "RiseEvent"]


def _read(cf: bool, read: int, halved: bool) -> str:
    return "CF" if cf else f"{read}{' halved' if halved else ''}"


@register("melee")
@dataclass(frozen=True, slots=True, kw_only=True)
class MeleeEvent(Event):
    """A hand-to-hand blow (R-7.1–R-7.5), or the attack of a charge (`charge`, R-5.4): the TN and its reasons, the
    read, the damage the weapon reads and why (`strength`, R-7.3), lethal or not (R-7.4), each hit with its armour
    and damage as a shot's (R-6.4–R-6.8); `capped` when a non-lethal hit's wounds were held short of death."""

    target: str
    weapon: str
    charge: bool
    lethal: bool
    called: str | None
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
    damage_dice: str
    strength: list[str]
    location: str | None
    ablation: list[Layer]
    damage: int
    wounds: int
    ct: int
    hits: list[Hit]
    extra_damage: list[tuple[int, int]]
    capped: int | None = None
    breakdown: bool
    maneuver: str | None = None  # R-7.7: the martial arts maneuver, its effects, a Block that met the blow
    effects: list[str] | None = None
    damage_bonus: int | None = None
    blocked: str | None = None
    modifiers: list[Mod]
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        verb = "charges" if self.charge else "strikes at"
        if self.maneuver:
            named = ", ".join(e.replace("plus_", "+1 ").replace("_", " ") for e in self.effects or ())
            verb = f"uses {self.maneuver.replace('_', ' ')}{f' ({named})' if named else ''} on"
        mods = f" {mods_text(self.modifiers)}" if self.modifiers else ""
        line = (f"{self.where()} {self.actor or ''} {verb} {self.target} with {self.weapon.replace('_', ' ')} "
                f"({'lethal' if self.lethal else 'non-lethal'}): TN {self.tn} ({mods_text(self.tn_modifiers)}); "
                f"{self.column}-{self.row} on {draw_text(self.draw)} reads {_read(self.cf, self.read, self.halved)}"
                f"{mods} = {self.result} -> {'HIT' if self.hit else 'miss'}")
        if self.hit:
            line += f", bumps {self.bumps}"
            if self.spent:
                line += f" spent {','.join(self.spent)}"
            line += f"; damage {self.damage_dice}"
            if self.strength:
                line += f" ({'; '.join(self.strength)})"
            line += "; " + hits_text(self.hits)
            if self.capped is not None:
                line += f"; non-lethal: wounds held to {self.capped} (R-7.4)"
            if self.damage_bonus:
                line += f"; +{self.damage_bonus} damage (R-7.7)"
            if self.blocked:
                line += f"; {self.target}'s Block {'cancels' if self.blocked == 'cancel' else 'halves'} the damage (R-7.7)"
        if self.breakdown:
            line += "; BREAKDOWN"
        return line + self.rules_text()

    def headline(self) -> str:
        dmg = f" {self.wounds}W {self.ct}CT" if self.hit else ""
        return f"{self.actor or ''} ⚔ {self.target}: {self.result} vs TN {self.tn} {'HIT' if self.hit else 'miss'}{dmg}"

    def detail_lines(self) -> list[str]:
        return (check_lines(self.draw, self.read, self.tn, self.tn_modifiers, self.modifiers)
                + [f"   damage {self.damage_dice}: {s}" for s in self.strength] + hit_lines(self.hits))


@register("maneuver")
@dataclass(frozen=True, slots=True, kw_only=True)
class ManeuverEvent(Event):
    """Close or Open (R-7.2): an attack roll at the normal TN; on success the closer is inside the longer weapon
    (`closed` after it), or the longer weapon's wielder has made its distance again."""

    maneuver: str  # close | open
    target: str
    weapon: str
    tn: int
    tn_modifiers: list[Mod]
    column: str
    row: int
    halved: bool
    read: int
    cf: bool
    result: int
    success: bool
    modifiers: list[Mod]
    draw: DrawRecord = field(metadata=FLAT)
    raises: int | None = None  # a Disarm's success: its raises (R-3.3; one: a Strength contest to take the item, two: taken)

    def describe(self) -> str:
        mods = f" {mods_text(self.modifiers)}" if self.modifiers else ""
        done = {"close": f"inside {self.target}'s reach", "open": f"out of {self.target}'s reach again"}.get(
            self.maneuver, "done (R-7.7)")
        what = {"close": f"CLOSE on {self.target}", "open": f"OPEN the distance from {self.target}"}.get(
            self.maneuver, f"{self.maneuver.replace('_', ' ').upper()} {self.target}")
        if self.raises:
            done += (f", {self.raises} raise{'s' if self.raises > 1 else ''}: "
                     + ("the item TAKEN" if self.raises >= 2 else "a Strength contest to take the item"))
        return (f"{self.where()} {self.actor or ''} tries to {what} with "
                f"{self.weapon.replace('_', ' ')}: TN {self.tn} ({mods_text(self.tn_modifiers)}); {self.column}-"
                f"{self.row} on {draw_text(self.draw)} reads {_read(self.cf, self.read, self.halved)}{mods} = "
                f"{self.result} -> {done if self.success else 'fails'}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''} {self.maneuver} → {self.target}: {self.result} vs TN {self.tn}"

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, self.read, self.tn, self.tn_modifiers, self.modifiers)


@register("melee_contest")
@dataclass(frozen=True, slots=True, kw_only=True)
class MeleeContestEvent(Event):
    """An entangle or trip (R-7.6), or a wriggle out of an entanglement: the actor's skill against the other's,
    highest wins (ties: the higher impulse, R-3.8); `success` for the actor."""

    maneuver: str  # entangle | trip | wriggle | break hold|lift|lock | take (a Disarm's raise: Strength, R-7.7)
    target: str
    weapon: str
    column: str
    row: int
    result: int
    cf: bool
    modifiers: list[Mod]
    against: str  # what the other rolled: Dexterity, or the entangler's Fighting skill
    other_column: str
    other_row: int
    other_result: int
    other_cf: bool
    other_modifiers: list[Mod]
    success: bool
    draw: DrawRecord
    other_draw: DrawRecord

    def describe(self) -> str:
        done = {"entangle": f"{self.target} is ENTANGLED", "trip": f"{self.target} is TRIPPED and falls",
                "wriggle": f"{self.actor} wriggles FREE", "take": f"{self.actor} TAKES the {self.weapon.replace('_', ' ')}"
                }.get(self.maneuver, f"{self.actor} breaks FREE")  # `break hold|lift|lock`: out of a grip (R-7.7)
        mine = f"{self.result}{' ' + mods_text(self.modifiers) if self.modifiers else ''}"
        theirs = f"{self.other_result}{' ' + mods_text(self.other_modifiers) if self.other_modifiers else ''}"
        return (f"{self.where()} {self.actor or ''} {self.maneuver}s {self.target} ({self.weapon.replace('_', ' ')}): "
                f"{self.column}-{self.row} on {draw_text(self.draw)} = {'CF' if self.cf else mine} vs {self.against} "
                f"{self.other_column}-{self.other_row} on {draw_text(self.other_draw)} = "
                f"{'CF' if self.other_cf else theirs} -> {done if self.success else 'fails'}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''} {self.maneuver} → {self.target}: {self.result} vs {self.other_result}"


@register("defend")
@dataclass(frozen=True, slots=True, kw_only=True)
class DefendEvent(Event):
    """An active defence (R-7.5): the Fighting or Dodge check that stands as the attackers' TN until the actor's
    next action; `to` the step it took (−4 without one)."""

    skill: str
    column: str
    row: int
    halved: bool
    read: int
    cf: bool
    result: int
    to: list[int] | None = None
    block: str | None = None  # R-7.7: a Block's blows halved ("halve") or cancelled ("cancel", with a weapon)
    modifiers: list[Mod]
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        mods = f" {mods_text(self.modifiers)}" if self.modifiers else ""
        step = f", steps to {self.to[0]},{self.to[1]}" if self.to else ""
        blk = f"; blows that land are {'cancelled' if self.block == 'cancel' else 'halved'}" if self.block else ""
        return (f"{self.where()} {self.actor or ''} DEFENDS ({self.skill}{step}): {self.column}-{self.row} on "
                f"{draw_text(self.draw)} reads {_read(self.cf, self.read, self.halved)}{mods} = {self.result}: "
                f"attackers need at least {self.result} until its next action{blk}{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''} defends: {self.result}"

    def detail_lines(self) -> list[str]:
        return check_lines(self.draw, self.read, modifiers=self.modifiers)


@register("break_free")
@dataclass(frozen=True, slots=True, kw_only=True)
class BreakFreeEvent(Event):
    """Breaking an entanglement by Strength against the weapon's TN (R-7.6); `broken` when the weapon is fragile."""

    weapon: str
    entangler: str
    tn: int
    column: str
    row: int
    result: int
    cf: bool
    success: bool
    broken: bool
    modifiers: list[Mod]
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        done = ("breaks FREE" + (f", the {self.weapon.replace('_', ' ')} torn apart" if self.broken else "")
                if self.success else "stays entangled")
        return (f"{self.where()} {self.actor or ''} strains against {self.entangler}'s {self.weapon.replace('_', ' ')}: "
                f"Strength {self.column}-{self.row} on {draw_text(self.draw)} = {'CF' if self.cf else self.result} vs "
                f"TN {self.tn} -> {done}{self.rules_text()}")


@register("charge_lost")
@dataclass(frozen=True, slots=True, kw_only=True)
class ChargeLostEvent(Event):
    """A charge's attack that did not come: the target fell or left on the way, or the charger went down (R-5.4)."""

    target: str
    reason: str

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''}'s charge at {self.target} comes to nothing: {self.reason}{self.rules_text()}"


@register("rise")
@dataclass(frozen=True, slots=True, kw_only=True)
class RiseEvent(Event):
    """A tripped figure stands up (docs/RULES-NOTES.md)."""

    def describe(self) -> str:
        return f"{self.where()} {self.actor or ''} gets up{self.rules_text()}"


@register("fall")
@dataclass(frozen=True, slots=True, kw_only=True)
class FallEvent(Event):
    """A martial arts maneuver puts its target on its back (R-7.7 "target falls"): the Vigor test against the
    fall's TN 5, its wind (1 on a failure, d6 at least 2 on a bust), and the figure prone until it rises."""

    cause: str
    by: str
    column: str
    row: int
    tn: int
    read: int
    cf: bool
    result: int
    wind: int
    draw: DrawRecord = field(metadata=FLAT)

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} FALLS ({self.cause.replace('_', ' ')} by {self.by}): Vigor "
                f"{self.column}-{self.row} on {draw_text(self.draw)} reads {_read(self.cf, self.read, False)} = "
                f"{self.result} vs {self.tn}: {self.wind} wind; prone until it rises{self.rules_text()}")

    def headline(self) -> str:
        return f"{self.actor or ''} falls: {self.wind} wind"
