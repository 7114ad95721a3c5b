"""Weapon, armour and tacpack value types (RULES §6), parsed from the shipped data tables."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache
from typing import Any

from skirmish.rules.checks import NUMBER_COLUMN
from skirmish.rules.deck import LOCATIONS, SIDES

DIE_COLUMN = {sides: col for col, sides in SIDES.items()}
ARMOUR_TYPES = ("flexible", "rigid", "energy")
WEAPON_CLASSES = ("projectile", "fragment", "laser", "blaster", "force_blade", "stun", "flame")  # no screen stops flame
# which screen stops which weapon class.
SCREEN_STOPS: dict[str, frozenset[str]] = {
    "kinetic": frozenset({"projectile", "fragment"}),
    "diffusion": frozenset({"laser"}),
    "magnetic": frozenset({"blaster", "force_blade"}),
}
SCREEN_TYPES = tuple(SCREEN_STOPS)


class Speed(IntEnum):
    """Action speeds (R-5.1); a higher value is slower."""

    FAST = 0
    NORMAL = 1
    SLOW = 2

    @property
    def label(self) -> str:
        """Lower-case name used in files and events."""
        return _SPEED_LABELS[self]

    @staticmethod
    def parse(text: str) -> Speed:
        """Parse 'fast' | 'normal' | 'slow'."""
        got = _SPEED_BY_LABEL.get(text)
        return got if got is not None else Speed[text.upper()]

    def slower(self, by: int = 1) -> int:
        """Rank `by` steps slower (may exceed SLOW: the caller refuses that)."""
        return int(self) + by

    def faster(self) -> Speed:
        """One step faster, never faster than FAST."""
        return _SPEEDS[max(0, int(self) - 1)]


# Looked up rather than worked out through the enum's machinery (these are asked several times a decision).
_SPEEDS: tuple[Speed, ...] = tuple(sorted(Speed))  # by rank
_SPEED_LABELS: tuple[str, ...] = tuple(s.name.lower() for s in _SPEEDS)
_SPEED_BY_LABEL: dict[str, Speed] = {s.name.lower(): s for s in _SPEEDS}


@dataclass(frozen=True)
class Dice:
    """An effect-grid address written like '3d8': row (number of dice) and column (die size)."""

    row: int
    column: str

    @staticmethod
    def parse(text: str) -> Dice:
        """Parse 'NdS' where S is 4, 6, 8, 10, 12 or 14 (R-2.1)."""
        m = re.fullmatch(r"\s*(\d+)\s*d\s*(\d+)\s*", str(text))
        if not m or int(m.group(2)) not in DIE_COLUMN or not 1 <= int(m.group(1)) <= 7:
            raise ValueError(f"expected dice like '3d8' (1-7 dice of d4..d14), got {text!r}")
        return Dice(int(m.group(1)), DIE_COLUMN[int(m.group(2))])

    def __str__(self) -> str:
        return f"{self.row}d{SIDES[self.column]}"


@dataclass(frozen=True)
class Weapon:
    """A ranged weapon's rules (R-6.1–R-6.13)."""

    id: str
    name: str
    skill: str
    speed: Speed
    range_inc_m: float
    max_range_m: float
    damage: Dice
    reduced: Dice
    pn: dict[str, int]
    aim_bonus: int
    aim_penalty: int
    rof: int
    bursts: tuple[int, ...]
    magazine: int
    reload_actions: int
    reliability: str
    weapon_class: str
    power: int = 0
    ae: int = 0
    bulky: bool = False
    suppression: bool = False
    two_handed: bool = True
    thrown: bool = False  # thrown by hand (range from Strength, scatter on a miss)
    blast_m: float = 0.0  # explosive radius of full damage (0 = not an explosive)
    double_tap: bool = False  # may be double tapped (two shots in one action)
    low_recoil: bool = False  # the LR attribute: a double tap's penalty one less
    launched: bool = False  # launches an explosive at a cell (a miss scatters by the launched multiplier)

    @property
    def explosive(self) -> bool:
        """True if the weapon bursts over an area (R-6.9)."""
        return self.blast_m > 0

    def pn_against(self, armour_type: str) -> int:
        """Penetration against an armour type (R-6.7)."""
        return self.pn.get(armour_type, self.pn["default"])

    @property
    def automatic(self) -> bool:
        """True if the weapon can fire bursts (R-6.3)."""
        return bool(self.bursts)

    @property
    def energy(self) -> bool:
        """True if each shot draws tacpack power (R-6.13)."""
        return self.power > 0

    def shot_power(self, burst: int = 0) -> int:
        """Tacpack points one attack draws: every round of a burst draws the weapon's power (R-6.13)."""
        return self.power * (burst or 1)


@dataclass(frozen=True)
class ArmourType:
    """Worn armour: AV and type over listed locations (R-6.7)."""

    id: str
    name: str
    av: int
    kind: str
    locations: tuple[str, ...]


@dataclass(frozen=True)
class TacpackType:
    """A tacpack generator (R-6.13): points per round split between screen and energy shots."""

    id: str
    name: str
    generator: int


LETHALITY = ("lethal", "nonlethal", "choose")  # heavier improvised weapons choose before the draw


@dataclass(frozen=True)
class MeleeWeapon:
    """A hand-to-hand weapon's rules (R-7.1–R-7.6): its Fighting skill, speed, damage (None: the wielder's
    Strength column at the skill's row, as fists and clubs are), Defense, length for Close, bulky readying,
    lethality, Strength use, and entangling or tripping with the TN to break free."""

    id: str
    name: str
    skill: str
    speed: Speed
    damage: Dice | None  # None: Strength column, row = Fighting level + damage_rows (R-7.3, the bottle)
    reduced: Dice | None
    pn: dict[str, int]  # per armour type; empty: the unarmed PN from Strength
    defense: int = 0  # Defense (DB)
    length: int = 0  # Close: the shorter weapon (or none, 0) may close on the longer
    bulky: bool = False  # an action to ready every attack
    lethal: str = "lethal"  # lethal | nonlethal | choose
    strength: bool = True  # the wielder's Strength shifts damage and PN
    damage_rows: int = 0  # Strength-based damage: rows added to the Fighting level
    weapon_class: str = "melee"  # force_blade: stopped by a magnetic screen
    reliability: str = "R"
    entangle: int = 0  # entangles; the Strength TN to break free (0: does not entangle)
    fragile: bool = False  # broken when the entangled figure breaks free by Strength
    trip: bool = False  # can trip

    def pn_against(self, armour_type: str) -> int:
        """Penetration against an armour type (R-6.7); a weapon without its own PN uses the default."""
        return self.pn.get(armour_type, self.pn.get("default", 0))


MELEE_COLUMNS = frozenset({"name", "skill", "speed", "damage", "rd", "pn", "defense", "length", "bulky", "lethal",
                           "strength", "damage_rows", "class", "reliability", "entangle", "fragile", "trip"})


def parse_melee_weapon(mid: str, raw: dict[str, Any]) -> MeleeWeapon:
    """Build a MeleeWeapon from a data-table row; raises ValueError/KeyError naming the field."""
    unknown = sorted(set(raw) - MELEE_COLUMNS)
    if unknown:
        raise ValueError(f"unknown column {unknown[0]!r}; columns are {', '.join(sorted(MELEE_COLUMNS))}")
    dmg = str(raw["damage"])
    strength_based = dmg.strip().lower() == "strength"
    damage = None if strength_based else Dice.parse(dmg)
    reduced = None if strength_based else Dice.parse(raw["rd"])
    pn: dict[str, int] = {}
    if not strength_based:
        pn_raw = raw["pn"]
        pn = {"default": int(pn_raw)} if isinstance(pn_raw, int) else {str(k): int(v) for k, v in pn_raw.items()}
        if "default" not in pn:
            raise ValueError("pn: a per-type table needs a 'default'")
        bad = [k for k in pn if k != "default" and k not in ARMOUR_TYPES]
        if bad:
            raise ValueError(f"pn: unknown armour type {bad[0]!r}; types are {', '.join(ARMOUR_TYPES)}")
    lethal = str(raw.get("lethal", "lethal"))
    if lethal not in LETHALITY:
        raise ValueError(f"lethal: expected one of {', '.join(LETHALITY)}, got {lethal!r}")
    cls = str(raw.get("class", "melee"))
    if cls not in ("melee", "force_blade", "stun"):
        raise ValueError(f"class: expected melee, force_blade or stun, got {cls!r}")
    rel = str(raw.get("reliability", "R"))
    if rel not in ("V", "R", "F", "E"):
        raise ValueError(f"reliability: expected V, R, F or E, got {rel!r}")
    speed = str(raw["speed"])
    if speed not in _SPEED_BY_LABEL:
        raise ValueError(f"speed: expected fast, normal or slow, got {speed!r}")
    skill = str(raw["skill"])
    if not skill.startswith("fighting:"):
        raise ValueError(f"skill: expected a Fighting specialisation like 'fighting:knives' (R-2.2), got {skill!r}")
    ints: dict[str, Any] = {}
    for key, low, high in (("defense", 0, 6), ("length", 0, 6), ("damage_rows", 0, 3), ("entangle", 0, 20)):
        value = raw.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise ValueError(f"{key}: expected a whole number {low}-{high}, got {value!r}")
        ints[key] = value
    flags: dict[str, Any] = {}
    for key, default in (("bulky", False), ("strength", True), ("fragile", False), ("trip", False)):
        value = raw.get(key, default)
        if not isinstance(value, bool):
            raise ValueError(f"{key}: expected true or false, got {value!r}")
        flags[key] = value
    if flags["fragile"] and not ints["entangle"]:
        raise ValueError("fragile: only an entangling weapon (entangle: TN) breaks when its victim breaks free")
    return MeleeWeapon(
        id=mid, name=str(raw.get("name", mid)), skill=skill, speed=Speed.parse(speed), damage=damage,
        reduced=reduced, pn=pn, lethal=lethal, weapon_class=cls, reliability=rel, **ints, **flags,
    )


@dataclass(frozen=True)
class Armoury:
    """The equipment tables a battle may refer to by id (STYLE 10)."""

    weapons: dict[str, Weapon] = field(default_factory=dict)
    armour: dict[str, ArmourType] = field(default_factory=dict)
    tacpacks: dict[str, TacpackType] = field(default_factory=dict)
    melee: dict[str, MeleeWeapon] = field(default_factory=dict)  # hand-to-hand weapons (the `melee:` table)


def parse_weapon(wid: str, raw: dict[str, Any]) -> Weapon:
    """Build a Weapon from a data-table row; raises ValueError/KeyError naming the field."""
    aim = str(raw.get("aim", "1/1"))
    m = re.fullmatch(r"\s*(\d+)\s*/\s*-?(\d+)\s*", aim)
    if not m:
        raise ValueError(f"aim: expected 'x/y' like '2/3', got {aim!r}")
    pn_raw = raw["pn"]
    pn = {"default": int(pn_raw)} if isinstance(pn_raw, int) else {str(k): int(v) for k, v in pn_raw.items()}
    if "default" not in pn:
        raise ValueError("pn: a per-type table needs a 'default'")
    cls = str(raw.get("class", "projectile"))
    if cls not in WEAPON_CLASSES:
        raise ValueError(f"class: expected one of {', '.join(WEAPON_CLASSES)}, got {cls!r}")
    rel = str(raw.get("reliability", "R"))
    if rel not in ("V", "R", "F", "E"):
        raise ValueError(f"reliability: expected V, R, F or E, got {rel!r}")
    bursts = tuple(int(b) for b in raw.get("bursts", ()))
    if any(b not in (3, 5, 10) for b in bursts):
        raise ValueError("bursts: only 3, 5 and 10 round bursts exist (R-6.3)")
    thrown = bool(raw.get("thrown", False))
    blast = float(raw.get("blast_m", 0))
    if blast < 0:
        raise ValueError(f"blast_m: expected a radius in metres >= 0, got {blast:g}")
    # a thrown weapon's range comes from the thrower's Strength, so its increment is not used.
    inc = float(raw["range_inc_m"]) if not thrown else float(raw.get("range_inc_m", 5))
    if inc <= 0:
        raise ValueError(f"range_inc_m: expected metres > 0, got {inc:g}")
    return Weapon(
        id=wid,
        name=str(raw.get("name", wid)),
        skill=str(raw["skill"]),
        speed=Speed.parse(str(raw["speed"])),
        range_inc_m=inc,
        max_range_m=float(raw.get("max_range_m", inc * 10)),
        damage=Dice.parse(raw["damage"]),
        reduced=Dice.parse(raw["rd"]),
        pn=pn,
        aim_bonus=int(m.group(1)),
        aim_penalty=int(m.group(2)),
        rof=int(raw.get("rof", 1)),
        bursts=bursts,
        magazine=int(raw["magazine"]) if not thrown else int(raw.get("magazine", 1)),
        reload_actions=int(raw.get("reload_actions", 2)),
        reliability=rel,
        weapon_class=cls,
        power=int(raw.get("power", 0)),
        ae=int(raw.get("ae", 0)),
        bulky=bool(raw.get("bulky", False)),
        suppression=bool(raw.get("suppression", False)),
        two_handed=bool(raw.get("two_handed", True)),
        thrown=thrown,
        blast_m=blast,
        double_tap=bool(raw.get("double_tap", False)),
        low_recoil=bool(raw.get("low_recoil", False)),
        launched=bool(raw.get("launched", False)),
    )


def parse_armour(aid: str, raw: dict[str, Any]) -> ArmourType:
    """Build an ArmourType from a data-table row."""
    kind = str(raw["type"])
    if kind not in ARMOUR_TYPES:
        raise ValueError(f"type: expected one of {', '.join(ARMOUR_TYPES)}, got {kind!r}")
    locs = tuple(str(x) for x in raw["locations"])
    bad = [x for x in locs if x not in LOCATIONS]
    if bad:
        raise ValueError(f"locations: unknown location {bad[0]!r}")
    return ArmourType(aid, str(raw.get("name", aid)), int(raw["av"]), kind, locs)


def column_of(trait: str) -> str:
    """Validate a trait column numeral."""
    if trait not in SIDES:
        raise ValueError(f"expected a column I..VI, got {trait!r}")
    return trait


def parse_trait(text: str) -> tuple[str, int]:
    """Parse a trait written 'III-2' into (column, training) (R-2.1)."""
    out = _parse_trait(str(text))
    if out is None:
        raise ValueError(f"expected a trait like 'III-2' (column I..VI, training 1-5), got {text!r}")
    return out


@lru_cache(maxsize=256)
def _parse_trait(text: str) -> tuple[str, int] | None:
    """`parse_trait`, kept by the text (None: not a trait): every battle spawns its units from the same few."""
    m = re.fullmatch(r"\s*(I|II|III|IV|V|VI)\s*-\s*(\d)\s*", text)
    if not m or not 1 <= int(m.group(2)) <= 5:
        return None
    return m.group(1), int(m.group(2))


def column_name(number: int) -> str:
    """Column numeral for 1..6."""
    return NUMBER_COLUMN[number]
