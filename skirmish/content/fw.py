"""Future*World's content: the shipped equipment tables (skirmish/data/fw_equipment.yaml), loaded once and
checked (R-9.12, C-6: a bad entry names the file and the key path), and the scenario schema's fw parts
(skirmish.content.parts): the `options:` block (darkness, R-9.4) and the unit (characteristics STR..DEX,
R-9.1; skills in %; weapons and armour from the fw tables; a tacpack {generator, screen, screen_points,
effectors, sensors}, R-8/R-9.9; jump pack and medikit). docs/FILES.md "Future*World scenarios" lists them."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from skirmish.content.errors import ContentError, quote
from skirmish.content.limits import Name
from skirmish.content.parts import SchemaParts, register_parts
from skirmish.content.schema import RulesetOptions, SideSpec, UnitSpec, WeaponSpec
from skirmish.rules.fw import actions as _fw_actions  # noqa: F401  (registers the fw verbs for orders)
from skirmish.rules.fw.checks import Characteristics
from skirmish.rules.fw.equipment import (
    FwArmoury,
    GravCar,
    number,
    parse_armour,
    parse_car_weapon,
    parse_grav_car,
    parse_item,
    parse_weapon,
)
from skirmish.rules.fw.gravcar import MOUNT_REACH_M as MOUNT_M
from skirmish.rules.geometry import GridMap

DATA_FILE = "fw_equipment.yaml"
SECTIONS = ("weapons", "car_weapons", "armour", "equipment", "grav_cars")
T = TypeVar("T")


def parse_fw_armoury(raw: Any, file: str) -> FwArmoury:
    """Build the tables from parsed YAML, naming the bad key on error."""
    if not isinstance(raw, dict):
        raise ContentError(file, "", "expected a mapping with " + ", ".join(SECTIONS))
    extra = sorted(set(map(str, raw)) - set(SECTIONS) - {"hover_m", "max_slope_deg"})
    if extra:
        raise ContentError(file, extra[0], "unknown section (expected " + ", ".join(SECTIONS) + ", hover_m, max_slope_deg)")
    for section in SECTIONS:
        if not isinstance(raw.get(section), dict):
            raise ContentError(file, section, "expected a mapping of id -> entry")
    try:
        hover = number(raw.get("hover_m", 10), "hover_m", hi=1000)
        slope = number(raw.get("max_slope_deg", 45), "max_slope_deg", hi=90)
    except ValueError as exc:
        raise ContentError(file, str(exc).split(":")[0], str(exc).split(": ", 1)[1]) from None
    weapons = _rows(raw["weapons"], "weapons", file, parse_weapon)
    car_weapons = _rows(raw["car_weapons"], "car_weapons", file, parse_car_weapon)
    for wid in car_weapons:
        if wid in weapons:
            raise ContentError(file, f"car_weapons.{wid}", f"{quote(wid)} already names a row of the weapons table")
    weapons.update(car_weapons)  # one look-up by id; `vehicle` marks what only a car's mount fires
    cars = _rows(raw["grav_cars"], "grav_cars", file, parse_grav_car)
    for cid, car in cars.items():
        _check_mounts(car, weapons, file, f"grav_cars.{cid}")
    return FwArmoury(
        weapons=weapons,
        armour=_rows(raw["armour"], "armour", file, parse_armour),
        equipment=_rows(raw["equipment"], "equipment", file, parse_item),
        grav_cars=cars,
        hover_m=hover, max_slope_deg=slope,
    )


def _check_mounts(car: GravCar, weapons: dict[str, Any], file: str, where: str) -> None:
    """A car's mounts against the weapons (R-9.12): a fixed weapon known and able to fire from a mount (a firearm
    or a missile, not a grenade or a sword); missiles loaded only on a missile mount; an empty mount takes a
    category some firearm has."""
    categories = {w.category for w in weapons.values() if w.weapon_class in MOUNTABLE}
    for m in car.mounts:
        at = f"{where}.mounts.{m.id}"
        if m.weapon is None:
            if m.takes not in categories:
                raise ContentError(file, f"{at}.takes", f"no weapon of category {quote(m.takes)} fires from a mount "
                                   f"(known: {', '.join(sorted(categories))})")
            if m.rounds:
                raise ContentError(file, f"{at}.rounds", "an empty mount fires its rider's weapon: it loads no rounds")
            continue
        w = weapons.get(m.weapon)
        if w is None:
            raise ContentError(file, f"{at}.weapon", f"unknown weapon {quote(m.weapon)}; known: "
                               f"{', '.join(sorted(weapons))}")
        if w.weapon_class not in MOUNTABLE:
            raise ContentError(file, f"{at}.weapon", f"a {w.name} ({w.weapon_class}) is not fired from a mount "
                               f"(R-9.12: {', '.join(MOUNTABLE)})")
        if (w.weapon_class == "missile") != bool(m.rounds):
            raise ContentError(file, f"{at}.rounds", "a missile mount loads its rounds (1-100); a gun loads none"
                               if w.weapon_class == "missile" else "a gun's mount loads no rounds (ammunition is not "
                               "counted)")


MOUNTABLE = ("projectile", "laser", "blaster", "missile")  # what fires from a car's mount


def _rows(section: dict[Any, Any], name: str, file: str, parse: Callable[[str, Any], T]) -> dict[str, T]:
    out = {}
    for key, row in section.items():
        try:
            out[str(key)] = parse(str(key), row)
        except (KeyError, ValueError, TypeError) as exc:
            why = f"missing field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
            raise ContentError(file, f"{name}.{key}", why) from None
    return out


@lru_cache(maxsize=1)
def shipped() -> FwArmoury:
    """The Future*World equipment shipped with skirmish."""
    text = resources.files("skirmish.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_fw_armoury(yaml.safe_load(text), f"skirmish/data/{DATA_FILE}")


# ----------------------------------------------------------------------------------------------------------
# The scenario schema's fw parts (skirmish.content.parts).

MAX_PERCENT = 100
MAX_HEIGHT_M = 100
SKILL_NAMES = ("first_aid",)  # skills read by name besides weapons (an id or a category of the weapons table)


class Options(RulesetOptions):
    """Future*World's switches (RULES §9): every one has a default."""

    darkness: StrictBool = False  # fighting in the dark, every attack x1/5
    # Heights in metres by terrain name (R-9.12's sight in the vertical): a terrain not named here is as tall as
    # `default_height` gives (a wall 4 m, low cover 1 m, open ground 0). A car sees and is seen over anything
    # lower than its floor (10 m up) and cannot fly through anything as tall.
    heights: dict[Name, StrictInt] = Field(default_factory=dict, max_length=32)

    # An optional ground-height layer (R-9.12's slopes): one string a map row, one digit a cell, the ground's height
    # in metres (0-9). None: a flat map (every cell's ground 0).
    ground: list[str] | None = Field(None, max_length=200)

    @field_validator("ground")
    @classmethod
    def _ground(cls, v: list[str] | None) -> list[str] | None:
        for i, row in enumerate(v or ()):
            bad = next((c for c in row if c not in "0123456789"), None)
            if bad is not None or len(row) > 200:
                raise ValueError(f"row {i}: expected one digit (metres 0-9) a cell, got {quote(bad or row[:20])}")
        return v

    @field_validator("heights")
    @classmethod
    def _heights(cls, v: dict[str, int]) -> dict[str, int]:
        for name, m in v.items():
            if not 0 <= m <= MAX_HEIGHT_M:
                raise ValueError(f"height of {quote(name)}: expected whole metres 0-{MAX_HEIGHT_M}, got {quote(m)}")
        return v


class FwTacpack(BaseModel):
    """A tacpack (R-9.8, R-9.9): generator points a round, the screen it raises by default and its points,
    and the EW computer's effector and sensor ratings."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    generator: StrictInt = Field(ge=0, le=MAX_PERCENT)
    screen: Literal["none", "kinetic", "diffusion", "magnetic"] = "none"
    screen_points: StrictInt = Field(0, ge=0, le=MAX_PERCENT)
    effectors: StrictInt = Field(0, ge=0, le=MAX_PERCENT)
    sensors: StrictInt = Field(0, ge=0, le=MAX_PERCENT)


class Unit(UnitSpec):
    """A Future*World figure: characteristics STR..DEX (R-9.1), skills in %, kit from the fw tables."""

    characteristics: dict[str, Any]
    traits: dict[str, Any] = Field(default_factory=dict)  # Future Imperfect's; an fw unit has none
    skills: dict[Name, StrictInt] = Field(default_factory=dict, max_length=50)
    tacpack: FwTacpack | None = None  # type: ignore[assignment]  # fw's own tacpack, not FI's (R-9.8)
    jump_pack: StrictBool = False
    medikit: StrictBool = False

    @field_validator("characteristics")
    @classmethod
    def _characteristics(cls, v: dict[str, Any]) -> dict[str, Any]:
        Characteristics.parse(v)  # ValueError naming the characteristic
        return v

    @field_validator("traits")
    @classmethod
    def _traits(cls, v: dict[str, Any]) -> dict[str, Any]:
        if v:
            raise ValueError("a Future*World unit has characteristics (STR CON SIZ INT POW DEX), not traits")
        return v

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: dict[str, int]) -> dict[str, int]:
        for name, pct in v.items():
            if not 0 <= pct <= MAX_PERCENT:
                raise ValueError(f"skill {quote(name)}: expected a percentage 0-100, got {quote(pct)}")
        return v


AIS = ("baseline", "hold", "random", "rush", "focus", "spread")  # the AIs that play fw (skirmish.ai.fw_baselines)
UTILITY = ("utility", *(f"utility:{p}" for p in ("easy", "normal", "hard", "aggressive", "cautious")))  # skirmish.ai.fw
UTILITY += tuple(u.replace("utility", "search") for u in UTILITY)  # the search tier (skirmish/ai/fw/search.py)


class CarSpec(BaseModel):
    """A grav car on a side (R-9.12): its name, its type from the grav_cars table, its cell, the riders aboard at
    the start by unit name (the first drives) and the screen its generator raises when the driver declares no
    split."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Name
    type: Name
    at: tuple[StrictInt, StrictInt]
    riders: list[Name] = Field(default_factory=list, max_length=20)
    screen: Literal["none", "kinetic", "diffusion", "magnetic"] = "none"
    screen_points: StrictInt = Field(0, ge=0, le=MAX_PERCENT)
    mounts: dict[Name, Name] = Field(default_factory=dict, max_length=8)  # an empty mount -> the weapon set on it


class Side(SideSpec):
    """A Future*World side: its AI is one of fw's (utility and search included), and its grav cars."""

    ai: str = Field("hold", max_length=40)
    cars: list[CarSpec] = Field(default_factory=list, max_length=8)

    @field_validator("ai")
    @classmethod
    def _ai(cls, v: str) -> str:
        if v not in AIS and v not in UTILITY:
            raise ValueError(f"expected a Future*World AI ({', '.join(AIS)}, utility[:personality], "
                             f"search[:personality]), got {quote(v)}")
        return v


def check_kit(unit: UnitSpec, where: str, bad: Callable[[str, str], None]) -> None:
    """A unit's kit against the fw tables (the schema parts' `kit` hook): weapons and armour known, one suit of
    armour, a default screen the generator can feed, skills naming a weapon, a category or first_aid."""
    tables = shipped()
    for wi, w in enumerate(unit.weapons):
        if isinstance(w, WeaponSpec):
            bad(f"{where}.weapons[{wi}]", "name a Future*World weapon by its id (ammunition is not counted)")
        elif w not in tables.weapons:
            known = sorted(k for k, v in tables.weapons.items() if not v.vehicle)
            bad(f"{where}.weapons[{wi}]", f"unknown weapon {quote(w)}; known: {', '.join(known)}")
        elif tables.weapons[w].vehicle:
            bad(f"{where}.weapons[{wi}]", f"a {tables.weapons[w].name} is a grav car's weapon, fired from its mount "
                "(R-9.12), not carried")
    if len(unit.armour) > 1:
        bad(f"{where}.armour", "one suit of body armour at most (R-9.6)")
    for ai, a in enumerate(unit.armour):
        if a not in tables.armour:
            bad(f"{where}.armour[{ai}]", f"unknown armour {quote(a)}; known: {', '.join(sorted(tables.armour))}")
    tp = unit.tacpack
    if isinstance(tp, FwTacpack) and tp.screen_points > tp.generator:
        bad(f"{where}.tacpack.screen_points", f"{tp.screen_points} exceeds the generator's {tp.generator} points (R-9.8)")
    categories = {w.category for w in tables.weapons.values()}
    for name in unit.skills:
        if name not in tables.weapons and name not in categories and name not in SKILL_NAMES:
            bad(f"{where}.skills.{name}", f"unknown skill {quote(name)}: expected a weapon id, a weapon category "
                f"({', '.join(sorted(categories))}) or {', '.join(SKILL_NAMES)}")


def default_height(grid: GridMap, terrain: str, heights: dict[str, int]) -> int:
    """A terrain's height in metres (R-9.12's vertical): the scenario's `options.heights`, else a wall (it blocks
    sight) 4 m, low or high cover 1 or 2 m, anything else 0."""
    if terrain in heights:
        return heights[terrain]
    t = next(t for t in grid.tiles if t.name == terrain)
    return DEFAULT_WALL_M if t.blocks_sight else {"low": 1, "high": 2}.get(t.cover, 0)


DEFAULT_WALL_M = 4


def check_cars(spec: Any, grid: GridMap | None, bad: Callable[[str, str], None]) -> None:
    """The grav cars and heights of an fw scenario against the tables and the map (the schema parts' `refs`
    hook): a known car type, riders of the car's side aboard one car each within its seats, a split its
    generator and screen allow, the car on a free cell of the map, and heights naming the map's terrains."""
    tables = shipped()
    units = {u.name: (si, u) for si, side in enumerate(spec.sides) for u in side.units}
    aboard: dict[str, str] = {}
    car_names: set[str] = set()
    cells = {tuple(u.at): u.name for _, u in units.values()}
    for si, side in enumerate(spec.sides):
        for ci, car in enumerate(getattr(side, "cars", [])):
            where = f"sides[{si}].cars[{ci}]"
            if car.name in units or car.name in car_names:
                bad(f"{where}.name", f"{quote(car.name)} already names a unit or a car")
            car_names.add(car.name)
            gc = tables.grav_cars.get(car.type)
            if gc is None:
                bad(f"{where}.type", f"unknown grav car {quote(car.type)}; known: {', '.join(sorted(tables.grav_cars))}")
                continue
            if len(car.riders) > gc.seats:
                bad(f"{where}.riders", f"{len(car.riders)} riders, the {gc.name} seats {gc.seats} (R-9.12)")
            for ri, rider in enumerate(car.riders):
                if rider not in units or units[rider][0] != si:
                    bad(f"{where}.riders[{ri}]", f"{quote(rider)} is not a unit of side {quote(side.name)}")
                elif rider in aboard:
                    bad(f"{where}.riders[{ri}]", f"{quote(rider)} already rides {quote(aboard[rider])}")
                else:
                    aboard[rider] = car.name
                    ux, uy = units[rider][1].at
                    if grid is not None and max(abs(ux - car.at[0]), abs(uy - car.at[1])) * grid.cell_m > MOUNT_M:
                        bad(f"{where}.riders[{ri}]", f"{quote(rider)} stands at {ux},{uy}: a rider boards within "
                            f"{MOUNT_M} m of the car (R-9.12)")
            _check_loads(car.mounts, gc, f"{where}.mounts", bad)
            if car.screen_points > gc.screen:
                bad(f"{where}.screen_points", f"the {gc.name}'s screen takes at most {gc.screen} points (R-9.12)")
            elif car.screen_points and car.screen == "none":
                bad(f"{where}.screen", "screen points need a screen type (kinetic, diffusion, magnetic)")
            if grid is None:
                continue
            x, y = car.at
            if not grid.inside((x, y)):
                bad(f"{where}.at", f"cell {quote(x)},{quote(y)} is off the map ({grid.width}x{grid.height})")
            elif not grid.passable((x, y)):
                bad(f"{where}.at", f"cell {x},{y} is {grid.terrain((x, y)).name}, where a car cannot set down")
            elif (x, y) in cells:
                bad(f"{where}.at", f"cell {x},{y} is taken by {cells[(x, y)]}")
            else:
                cells[(x, y)] = car.name
    heights = getattr(spec.options, "heights", {})
    ground = getattr(spec.options, "ground", None)
    if grid is not None and ground is not None:
        if len(ground) != grid.height:
            bad("options.ground", f"{len(ground)} rows, the map has {grid.height}")
        for i, row in enumerate(ground):
            if len(row) != grid.width:
                bad(f"options.ground[{i}]", f"{len(row)} cells, the map is {grid.width} wide")
    if grid is not None:
        names = {t.name for t in grid.tiles}
        for name in heights:
            if name not in names:
                bad(f"options.heights.{name}", f"no terrain {quote(name)} on this map ({', '.join(sorted(names))})")


def _check_loads(loads: dict[str, str], car: GravCar, where: str, bad: Callable[[str, str], None]) -> None:
    """A scenario's weapons set on a car's empty mounts (R-9.12): a mount the car has, empty, and a weapon of the
    table of the category it takes (the explorer hauler's semi-portable)."""
    tables = shipped()
    for mid, wid in loads.items():
        m = car.mount(mid)
        if m is None:
            known = ", ".join(x.id for x in car.mounts) or "none"
            bad(f"{where}.{mid}", f"the {car.name} has no mount {quote(mid)} (its mounts: {known}; R-9.12)")
        elif m.weapon is not None:
            bad(f"{where}.{mid}", f"the {car.name}'s {m.name} carries its {m.weapon} (R-9.12): only an empty mount "
                "takes a weapon")
        elif wid not in tables.weapons or tables.weapons[wid].vehicle:
            bad(f"{where}.{mid}", f"unknown weapon {quote(wid)}")
        elif tables.weapons[wid].category != m.takes:
            bad(f"{where}.{mid}", f"the {m.name} takes a {m.takes} weapon, not a {tables.weapons[wid].name}")
        elif tables.weapons[wid].weapon_class == "missile":  # (an empty mount has no rack to count it off, R-9.10)
            bad(f"{where}.{mid}", f"the {m.name} takes a gun, not a {tables.weapons[wid].name} (R-9.12)")


FW_PARTS = register_parts(SchemaParts("fw", "Future*World", Options, Unit, kit=check_kit, side_base=Side,
                                      refs=check_cars))
