"""Future*World equipment value types (R-9.12), parsed from the shipped tables (skirmish/data/fw_equipment.yaml)
with every column of seed 004 kept. Parsing raises ValueError/KeyError naming the field; the loader
(skirmish/content/fw_armoury.py) adds the file and key path (C-6)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from skirmish.rules.fw.damage import ARMOURED_CLASSES, DAMAGE_CLASSES
from skirmish.rules.fw.dice import DiceExpr

WEAPON_CLASSES = ("projectile", "laser", "blaster", "missile", "grenade", "melee")
# the armour column and screen a class meets. Missiles and grenades hit as impact damage (P).
CLASS_DAMAGE = {"projectile": "P", "laser": "L", "blaster": "B", "missile": "P", "grenade": "P"}
EFFECTS = ("", "blind")
LINE_OF_SIGHT = "LOS"
MAX_VALUE = 1_000_000  # a sanity bound on every number in the tables


@dataclass(frozen=True)
class FwWeapon:
    """One row of the weapons table (R-9.4, R-9.5, R-9.10)."""

    id: str
    name: str
    weapon_class: str
    category: str
    base_chance: int | None  # None: no to-hit roll (a seeker acquires instead, R-9.10)
    base_chance_hand_held: int | None  # semi-portables: 20% mounted, 5% hand-held; else = base_chance
    damage: DiceExpr | None  # None: no damage roll (the photon grenade blinds)
    enc: Fraction
    range_m: int | None  # None: melee, or line of sight when `line_of_sight`
    line_of_sight: bool
    cost: int
    black_market: bool
    energy: int  # tacpack points per shot when not firing ammunition (0: none); a burst draws 3x
    impales: bool
    burst: bool
    blast_radius_m: float
    effect: str
    damage_class: str
    vehicle: bool = False  # a grav car's own weapon (the car_weapons table): fired only from its mount

    @property
    def energy_weapon(self) -> bool:
        """True if each shot draws on a tacpack (R-9.8)."""
        return self.energy > 0

    def shot_energy(self, burst: bool = False) -> int:
        """Tacpack points one attack draws: x3 for a burst (R-9.8)."""
        return self.energy * (3 if burst else 1)

    def chance(self, mounted: bool = True) -> int | None:
        """The base chance: for a semi-portable, mounted or hand-held (R-9.5)."""
        return self.base_chance if mounted else self.base_chance_hand_held


@dataclass(frozen=True)
class FwArmour:
    """One body armour (R-9.6): points it takes off each damage class per hit."""

    id: str
    name: str
    stops: dict[str, int]
    enc: Fraction
    cost: int
    black_market: bool = False


@dataclass(frozen=True)
class FwItem:
    """One row of the equipment table: a fixed ENC and cost, or ENC and cost per point of a rating."""

    id: str
    name: str
    enc: Fraction | None
    cost: int | None
    rating: str = ""  # "energy" or "EW" for rated items
    enc_per: int = 0  # rating points per ENC point
    cost_per: int = 0  # credits per rating point
    pack: int = 1

    def enc_at(self, rating: int = 0) -> Fraction:
        """ENC of the item, at `rating` points for a rated item (a tacpack of 10 points: ENC 5)."""
        if self.rating:
            return Fraction(rating, self.enc_per)
        return self.enc or Fraction(0)

    def cost_at(self, rating: int = 0) -> int | None:
        """Cost in credits, at `rating` points for a rated item."""
        return self.cost_per * rating if self.rating else self.cost


CREWS = ("driver", "passenger", "any")  # who aboard may work a mount (the driver: the first rider on its feet)


@dataclass(frozen=True)
class CarMount:
    """A weapon mount on a grav car (R-9.12): its fixed weapon (an id of the weapons or car_weapons table), or
    none (an empty mount a rider's weapon of the category it `takes` is set on, fired as mounted: a
    semi-portable's 20%, R-9.5); who may work it; missiles loaded (`rounds`, 0: not used up). An energy weapon's
    shots draw the table's energy a shot (x3 a burst) from the car's split's weapon points (R-9.8)."""

    id: str
    name: str
    weapon: str | None = None
    takes: str = "support"
    crew: str = "passenger"
    rounds: int = 0


@dataclass(frozen=True)
class GravCar:
    """A grav car (R-9.12): its generator splits between movement, screens and weapons."""

    id: str
    name: str
    seats: int
    speed_m: int
    m_per_energy: int
    generator: int
    armour: dict[str, int]
    screen: int
    ew: int
    offense: str
    cargo_kg: int = 0
    full_load_speed: Fraction = Fraction(1)
    mounts: tuple[CarMount, ...] = ()

    def mount(self, mid: str | None) -> CarMount | None:
        """The mount of that id, or None."""
        return next((m for m in self.mounts if m.id == mid), None)

    def move_m(self, energy_left: int) -> int:
        """Metres a round on the energy left after screens and weapons, up to the top speed (R-9.12)."""
        return max(0, min(self.speed_m, self.m_per_energy * energy_left))


@dataclass(frozen=True)
class FwArmoury:
    """Future*World's tables by id (STYLE 10)."""

    weapons: dict[str, FwWeapon] = field(default_factory=dict)
    armour: dict[str, FwArmour] = field(default_factory=dict)
    equipment: dict[str, FwItem] = field(default_factory=dict)
    grav_cars: dict[str, GravCar] = field(default_factory=dict)
    hover_m: int = 10
    max_slope_deg: int = 45


def number(raw: Any, what: str, *, lo: int = 0, hi: int = MAX_VALUE) -> int:
    """A whole number in [lo, hi]."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not lo <= raw <= hi:
        raise ValueError(f"{what}: expected a whole number {lo}-{hi}, got {raw!r}")
    return raw


def fraction(raw: Any, what: str) -> Fraction:
    """A non-negative amount written as a whole number or a fraction like '1/4'."""
    try:
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise ValueError
        value = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{what}: expected a number like 2 or 1/4, got {raw!r}") from None
    if not 0 <= value <= MAX_VALUE:
        raise ValueError(f"{what}: expected a number 0-{MAX_VALUE}, got {raw!r}")
    return value


def _chances(raw: Any) -> tuple[int | None, int | None]:
    if raw is None:
        return None, None
    if isinstance(raw, str) and "/" in raw:
        a, _, b = raw.partition("/")
        try:
            mounted, held = int(a), int(b)
        except ValueError:
            raise ValueError(f"base_chance: expected a % or 'mounted/hand-held' like '20/5', got {raw!r}") from None
        return number(mounted, "base_chance", hi=100), number(held, "base_chance", hi=100)
    c = number(raw, "base_chance", hi=100)
    return c, c


def _known(raw: dict[str, Any], allowed: tuple[str, ...]) -> None:
    if not isinstance(raw, dict):
        raise ValueError("expected a mapping of field -> value")
    extra = sorted(set(map(str, raw)) - set(allowed))
    if extra:
        raise ValueError(f"unknown field {extra[0]!r} (expected {', '.join(allowed)})")


WEAPON_FIELDS = ("class", "category", "name", "base_chance", "damage", "enc", "range_m", "cost", "black_market",
                 "energy", "impales", "burst", "blast_radius_m", "effect", "damage_class")


def parse_car_weapon(wid: str, raw: dict[str, Any]) -> FwWeapon:
    """A car_weapons row (the same columns as the weapons table): a weapon fired only from a car's mount."""
    w = parse_weapon(wid, raw)
    if w.weapon_class not in ("projectile", "laser", "blaster", "missile"):
        raise ValueError(f"class: a car weapon fires (projectile, laser, blaster or missile), got {w.weapon_class!r}")
    return replace(w, vehicle=True)


def parse_weapon(wid: str, raw: dict[str, Any]) -> FwWeapon:
    """A weapons-table row."""
    _known(raw, WEAPON_FIELDS)
    cls = str(raw["class"])
    if cls not in WEAPON_CLASSES:
        raise ValueError(f"class: expected one of {', '.join(WEAPON_CLASSES)}, got {cls!r}")
    dclass = str(raw.get("damage_class", CLASS_DAMAGE.get(cls, "")))
    if dclass not in DAMAGE_CLASSES:
        raise ValueError(f"damage_class: expected one of {', '.join(DAMAGE_CLASSES)}, got {dclass!r}")
    chance, held = _chances(raw["base_chance"])
    rng = raw["range_m"]
    los = rng == LINE_OF_SIGHT
    if rng is not None and not los:
        number(rng, "range_m", lo=1)
    effect = str(raw.get("effect", ""))
    if effect not in EFFECTS:
        raise ValueError(f"effect: expected one of {', '.join(e for e in EFFECTS if e)}, got {effect!r}")
    damage = None if raw["damage"] is None else DiceExpr.parse(raw["damage"])
    if damage is None and not effect:
        raise ValueError("damage: a weapon without damage dice needs an effect (like the photon grenade's blind)")
    blast = raw.get("blast_radius_m", 0)
    if isinstance(blast, bool) or not isinstance(blast, (int, float)) or not 0 <= blast <= 1000:
        raise ValueError(f"blast_radius_m: expected metres 0-1000, got {blast!r}")
    return FwWeapon(
        id=wid, name=str(raw.get("name", wid)), weapon_class=cls, category=str(raw["category"]),
        base_chance=chance, base_chance_hand_held=held, damage=damage, enc=fraction(raw["enc"], "enc"),
        range_m=None if los or rng is None else int(rng), line_of_sight=los, cost=number(raw["cost"], "cost"),
        black_market=bool(raw.get("black_market", False)),
        energy=0 if raw["energy"] is None else number(raw["energy"], "energy", hi=100),
        impales=bool(raw.get("impales", False)), burst=bool(raw.get("burst", False)),
        blast_radius_m=float(blast), effect=effect, damage_class=dclass,
    )


def parse_armour(aid: str, raw: dict[str, Any]) -> FwArmour:
    """An armour-table row: `stops` gives a value for each of P, B and L (R-9.6)."""
    _known(raw, ("name", "stops", "enc", "cost", "black_market"))
    stops = raw["stops"]
    if not isinstance(stops, dict) or set(map(str, stops)) != set(ARMOURED_CLASSES):
        raise ValueError(f"stops: expected points for each of {', '.join(ARMOURED_CLASSES)}, got {stops!r}")
    return FwArmour(aid, str(raw.get("name", aid)), {k: number(stops[k], f"stops.{k}", hi=100) for k in ARMOURED_CLASSES},
                    fraction(raw["enc"], "enc"), number(raw["cost"], "cost"), bool(raw.get("black_market", False)))


def parse_item(iid: str, raw: dict[str, Any]) -> FwItem:
    """An equipment-table row: fixed (enc, cost) or rated (rating, enc_per, cost_per)."""
    _known(raw, ("name", "enc", "cost", "rating", "enc_per", "cost_per", "pack"))
    name, pack = str(raw.get("name", iid)), number(raw.get("pack", 1), "pack", lo=1)
    if "rating" in raw:
        rating = str(raw["rating"])
        if rating not in ("energy", "EW"):
            raise ValueError(f"rating: expected energy or EW, got {rating!r}")
        return FwItem(iid, name, None, None, rating, number(raw["enc_per"], "enc_per", lo=1),
                      number(raw["cost_per"], "cost_per"), pack)
    cost = None if raw.get("cost") is None else number(raw["cost"], "cost")
    return FwItem(iid, name, fraction(raw["enc"], "enc"), cost, pack=pack)


def parse_grav_car(cid: str, raw: dict[str, Any]) -> GravCar:
    """A grav car's entry (R-9.12)."""
    _known(raw, ("name", "seats", "speed_m", "m_per_energy", "generator", "armour", "screen", "ew", "offense",
                 "cargo_kg", "full_load_speed", "mounts"))
    armour = raw.get("armour") or {}
    if not isinstance(armour, dict):
        raise ValueError(f"armour: expected a mapping of part -> ceramet points, got {armour!r}")
    return GravCar(
        cid, str(raw.get("name", cid)), number(raw["seats"], "seats", lo=1), number(raw["speed_m"], "speed_m", lo=1),
        number(raw["m_per_energy"], "m_per_energy", lo=1), number(raw["generator"], "generator", lo=1),
        {str(k): number(v, f"armour.{k}") for k, v in armour.items()}, number(raw.get("screen", 0), "screen"),
        number(raw.get("ew", 0), "ew"), str(raw.get("offense", "none")), number(raw.get("cargo_kg", 0), "cargo_kg"),
        fraction(raw.get("full_load_speed", 1), "full_load_speed"), parse_mounts(raw.get("mounts") or {}),
    )


MOUNT_FIELDS = ("name", "weapon", "takes", "crew", "rounds")


def parse_mounts(raw: Any) -> tuple[CarMount, ...]:
    """A car's `mounts`: id -> {name, weapon (an id, or null: an empty mount), takes, crew, rounds}. Whether a
    weapon id is known is checked against the tables by the loader (content.fw)."""
    if not isinstance(raw, dict):
        raise ValueError(f"mounts: expected a mapping of mount id -> entry, got {raw!r}")
    out = []
    for mid, row in raw.items():
        where = f"mounts.{mid}"
        try:
            _known(row, MOUNT_FIELDS)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        crew = str(row.get("crew", "passenger"))
        if crew not in CREWS:
            raise ValueError(f"{where}.crew: expected one of {', '.join(CREWS)}, got {crew!r}")
        weapon = row.get("weapon")
        if weapon is not None and not isinstance(weapon, str):
            raise ValueError(f"{where}.weapon: expected a weapon id or null (an empty mount), got {weapon!r}")
        out.append(CarMount(str(mid), str(row.get("name", mid)), weapon, str(row.get("takes", "support")), crew,
                            number(row.get("rounds", 0), f"{where}.rounds", hi=100)))
    return tuple(out)
