"""Future*World's events (C-3, R-10.2), registered when this module is imported, with their log text: every roll
and every step that made a chance or a wound is a field, so one log line explains itself.

The round's events in order: `fw_declare` for each figure (R-9.2), `fw_move` in the movement segment, then per
DEX group `fw_attack` / `fw_aid` / `fw_idle` (resolved against the state at the group's start) followed by the
group's `fw_wound`s (taking effect together, R-9.2's simultaneity), then bookkeeping's `fw_bleed`, `fw_rise`
and `fw_energy_reset`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from skirmish.core.events import Event, register
from skirmish.rules.fw.actions import ATTACKS

__all__ = [
    "FwAct",
    "FwAidEvent",
    "FwAttackEvent",
    "FwBleedEvent",
    "FwCaught",
    "FwDeclareEvent",
    "FwEnergyEvent",
    "FwHit",
    "FwIdleEvent",
    "FwMoveEvent",
    "FwRiseEvent",
    "FwScan",
    "FwSensorsEvent",
    "FwSplit",
    "FwStep",
    "FwThrowEvent",
    "FwWoundEvent",
]


class FwStep(TypedDict):
    """One modifier of an attack chance in R-9.4's order: "x1/2" or "+20", and why."""

    op: str
    reason: str


class FwHit(TypedDict):
    """One hit's damage (R-9.6): the dice and their total (doubled dice on an impale, R-9.4), then what the
    armour and the screen stopped and what got through."""

    dice: str
    rolls: list[int]
    rolled: int
    impale: bool
    damage_class: str
    armour: int
    screen: int
    through: int


class FwAct(TypedDict):
    """One declared action (R-9.2): what, at whom ("" for nobody) and the DEX it acts at (R-9.3)."""

    act: str
    target: str
    dex: int


class FwSplit(TypedDict):
    """A tacpack's split for the round (R-9.8): screen type and points, energy shots, EW programs, jump pack."""

    generator: int
    screen: str
    screen_points: int
    shots: int
    cm: int
    dccm: int
    sensors: int
    jump: int


class _FwEvent(Event):
    """The fw events' common log text: the round, and in resolution the DEX rank acting (the event's `phase`)."""

    __slots__ = ()

    def where(self) -> str:
        return f"R{self.round}" + (f" DEX {self.phase}" if self.phase else "")


def _split_text(s: FwSplit) -> str:
    parts = [f"screen {s['screen']} {s['screen_points']}" if s["screen_points"] else ""]
    parts += [f"{k} {s[k]}" for k in ("shots", "cm", "dccm", "sensors", "jump") if s[k]]
    used = [p for p in parts if p]
    return f"tacpack {s['generator']}: " + (", ".join(used) if used else "nothing drawn")


@register("fw_declare")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwDeclareEvent(_FwEvent):
    """A figure's declaration (R-9.2): its actions in order with the DEX each acts at (R-9.3), its weapon, and
    the tacpack's split (R-9.8)."""

    acts: list[FwAct]
    weapon: str | None = None
    split: FwSplit
    mount: str | None = None  # its attack fires from its grav car's mount: "CAR's MOUNT"

    def describe(self) -> str:
        def one(a: FwAct) -> str:
            gun = f" with {self.weapon}" if self.weapon and a["act"] in ATTACKS else ""
            gun += f" from the {self.mount}" if self.mount and a["act"] in ATTACKS else ""
            return f"{a['act']}{' ' + a['target'] if a['target'] else ''}{gun} at DEX {a['dex']}"

        acts = "; then ".join(one(a) for a in self.acts) or "no action"
        return f"R{self.round} {self.actor} declares {acts}; {_split_text(self.split)}{self.rules_text()}"


@register("fw_bumped")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwBumpedEvent(_FwEvent):
    """A move stopped at `at`: its next cell, `blocked`, held `target`, an enemy figure the mover's side had not seen
    nor placed (fog); its place is known to the mover's side from now on."""

    at: list[int]
    blocked: list[int]
    target: str

    def describe(self) -> str:
        return (f"{self.where()} {self.actor} runs into {self.target}, unseen until now, at {self.blocked[0]},"
                f"{self.blocked[1]}: stops at {self.at[0]},{self.at[1]}{self.rules_text()}")


@register("fw_move")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwMoveEvent(_FwEvent):
    """A move in the movement segment (R-9.2): the route, metres and the allowance after ENC (R-9.11), or a
    jump pack's leap (energy x 20 m less 40 m per excess ENC)."""

    path: list[list[int]]
    metres: float
    allowance: float
    jump: bool

    def describe(self) -> str:
        how = "leaps" if self.jump else "moves"
        end = self.path[-1]
        return (f"R{self.round} {self.actor} {how} to {end[0]},{end[1]}: {self.metres:g} m of {self.allowance:g} m"
                f"{self.rules_text()}")


class FwScan(TypedDict):
    """One enemy out of sight within a sensor sweep's range (R-9.9): the d100 against 100 - 10 per net CM point."""

    enemy: str
    metres: float
    cm: int
    chance: int
    roll: int
    registered: bool


@register("fw_sensors")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwSensorsEvent(_FwEvent):
    """Combat sensors swept (R-9.9): the points run, the range (15 m a point) and each enemy out of sight in
    range with its roll; a registered enemy's position is known to the figure's side."""

    points: int
    range_m: int
    scans: list[FwScan]

    def describe(self) -> str:
        found = "; ".join(f"{s['enemy']} at {s['metres']:g} m: d100 {s['roll']} vs {s['chance']}% "
                          f"{'REGISTERED' if s['registered'] else 'missed'}" for s in self.scans)
        found = found or "nothing out of sight in range"
        return f"R{self.round} {self.actor} sweeps with sensors {self.points} ({self.range_m} m): {found}{self.rules_text()}"


_VERBS = {"melee": "strikes at", "launch": "launches at"}


@register("fw_attack")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwAttackEvent(_FwEvent):
    """An attack resolved at its DEX (R-9.2): base chance, every modifier in R-9.4's order, the chance and the
    impale chance, the d100, and for a burst the 1d3 rounds that strike (R-9.5); each hit's damage through
    armour and screen (R-9.6). Its wounds take effect with the rest of its DEX group (`fw_wound`)."""

    target: str
    weapon: str
    act: str
    dex: int
    base: int
    steps: list[FwStep]
    chance: int
    impale_chance: int
    roll: int
    hit: bool
    impale: bool
    burst_roll: int | None = None
    energy: int
    damage: list[FwHit]
    mount: str | None = None  # fired from a grav car's mount: "CAR's MOUNT"; its energy is the car's

    def describe(self) -> str:
        steps = "".join(f" {s['op']} ({s['reason']})" for s in self.steps)
        verb = _VERBS.get(self.act, f"{self.act}s")
        gun = f" from the {self.mount}" if self.mount else ""
        head = (f"{self.where()} {self.actor} {verb} {self.target} with {self.weapon}{gun}: "
                f"{self.base}%{steps} = {self.chance}% (impale {self.impale_chance}%), d100 {self.roll}")
        if not self.hit:
            miss = " (96-00 misses)" if self.roll >= 96 and (self.act != "launch" or self.roll <= self.chance) else ""
            return head + miss + " MISS" + self.rules_text()
        head += " IMPALE" if self.impale else " HIT"
        if self.burst_roll is not None:
            head += f", burst 1d3 = {self.burst_roll} hit"
        hits = "; ".join(f"{h['dice']}{' x2' if h['impale'] else ''} {h['rolls']} = {h['rolled']} {h['damage_class']}"
                         f" - armour {h['armour']} - screen {h['screen']} = {h['through']}" for h in self.damage)
        return f"{head}: {hits}{self.rules_text()}"


class FwCaught(TypedDict):
    """One figure within a grenade's radius (R-9.10): its distance from where it landed, and either the blast's
    damage through its armour and screen (R-9.6) or, for a photon flash, its Luck roll and rounds blind."""

    figure: str
    metres: float
    armour: int
    screen: int
    through: int
    luck: int
    luck_roll: int
    blind: int


@register("fw_throw")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwThrowEvent(_FwEvent):
    """A grenade thrown at a figure's place, or at a cell (`at`, R-9.10): the chance (45% base, R-9.4's darkness
    and moving thrower), the d100; on a miss the scatter (1d12 clock, 1D10 m); where it landed (metres on the
    board); the blast's dice rolled once, and every figure in its radius (friends and the thrower too)."""

    target: str | None = None  # the figure thrown at (None: a cell, `at`)
    at: list[int] | None = None
    weapon: str
    dex: int
    base: int
    steps: list[FwStep]
    chance: int
    roll: int
    hit: bool
    clock: int | None = None
    scatter_m: int | None = None
    lands: list[float]
    radius_m: float
    dice: str | None = None
    rolls: list[int] | None = None
    rolled: int | None = None
    caught: list[FwCaught]

    def describe(self) -> str:
        steps = "".join(f" {s['op']} ({s['reason']})" for s in self.steps)
        aim = self.target if self.target is not None else f"cell {self.at[0]},{self.at[1]}" if self.at else "?"
        head = (f"{self.where()} {self.actor} throws a {self.weapon.replace('_', ' ')} at {aim}: {self.base}%"
                f"{steps} = {self.chance}%, d100 {self.roll}")
        if self.hit:
            head += " HIT"
        else:
            head += f" MISS, scatters 1d12 {self.clock} o'clock, 1D10 {self.scatter_m} m"
        head += f", lands at {self.lands[0]:g},{self.lands[1]:g}"
        if self.dice is not None:
            head += f"; blast {self.dice} {self.rolls} = {self.rolled} in {self.radius_m:g} m"
            each = [f"{c['figure']} ({c['metres']:g} m) - armour {c['armour']} - screen {c['screen']} = {c['through']}"
                    for c in self.caught]
        else:
            head += f"; flash in {self.radius_m:g} m"
            each = [f"{c['figure']} Luck d100 {c['luck_roll']} vs {c['luck']}% "
                    + (f"BLIND {c['blind']} rounds" if c["blind"] else "escapes") for c in self.caught]
        return f"{head}: {'; '.join(each) or 'nobody caught'}{self.rules_text()}"


@register("fw_wound")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwWoundEvent(_FwEvent):
    """Damage taking effect on `actor` (R-9.7): HP before and after, a major wound's d20 against the HP left
    and whether it falls, and its condition (ok, fallen, unconscious, dead)."""

    source: str
    through: int
    hp_before: int
    hp_after: int
    major: bool
    d20: int | None = None
    condition: str

    def describe(self) -> str:
        major = ""
        if self.major:
            major = ", major wound" + ("" if self.d20 is None else
                                       f": d20 {self.d20} vs {self.hp_after} HP " + ("stays up" if self.condition == "ok"
                                                                                      else "falls"))
        return (f"{self.where()} {self.actor} takes {self.through} from {self.source}: HP {self.hp_before} -> "
                f"{self.hp_after}{major} -> {self.condition.upper()}{self.rules_text()}")


@register("fw_aid")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwAidEvent(_FwEvent):
    """A medikit used on `patient` (R-9.7): the First Aid roll, the CON x 5 survival roll, HP restored."""

    patient: str
    first_aid_roll: int
    first_aid: int
    survival_roll: int
    survival: int
    restored: int
    killed: bool
    hp_after: int

    def describe(self) -> str:
        out = (f"{self.where()} {self.actor} uses a medikit on {self.patient}: First Aid d100 {self.first_aid_roll} vs "
               f"{self.first_aid}%, survival d100 {self.survival_roll} vs {self.survival}%")
        out += " -> the shock KILLS" if self.killed else f" -> +{self.restored} HP ({self.hp_after})"
        return out + self.rules_text()


@register("fw_idle")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwIdleEvent(_FwEvent):
    """A declared action that did not happen, and why (its figure fell, its target is down, a reaction that
    nothing triggered, energy or range lacking)."""

    act: str
    reason: str

    def describe(self) -> str:
        return f"{self.where()} {self.actor} does not {self.act}: {self.reason}{self.rules_text()}"


@register("fw_bleed")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwBleedEvent(_FwEvent):
    """Bookkeeping: an unconscious figure loses 1 HP (R-9.7); dead at -CON."""

    hp_before: int
    hp_after: int
    condition: str
    treated: bool | None = None  # True: First Aid since it went down halts the bleed (no HP lost); else left out

    def describe(self) -> str:
        if self.treated:
            return (f"R{self.round} {self.actor} does not bleed (treated): HP {self.hp_after} -> "
                    f"{self.condition.upper()}{self.rules_text()}")
        return (f"R{self.round} {self.actor} bleeds: HP {self.hp_before} -> {self.hp_after} -> "
                f"{self.condition.upper()}{self.rules_text()}")


@register("fw_rise")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwRiseEvent(_FwEvent):
    """Bookkeeping: a fallen figure's d20 against its HP to rise (R-9.7)."""

    d20: int | None = None
    hp: int
    rose: bool
    struck: bool | None = None  # True: attacked hand to hand this round, it may not stand (no roll, R-9.4)

    def describe(self) -> str:
        if self.struck:
            return f"R{self.round} {self.actor} stays down: attacked hand to hand this round{self.rules_text()}"
        return (f"R{self.round} {self.actor} tries to rise: d20 {self.d20} vs {self.hp} HP -> "
                f"{'RISES' if self.rose else 'stays down'}{self.rules_text()}")


@register("fw_energy_reset")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwEnergyEvent(_FwEvent):
    """Bookkeeping: every tacpack's split ends with the round; the next declaration makes a new one (R-9.8)."""

    def describe(self) -> str:
        return f"R{self.round} bookkeeping: tacpack energy reset{self.rules_text()}"
