"""Scenarios: YAML files naming ruleset, options, map, sides, units, orders and victory; checked on load
with messages naming the file and key path (C-6, STYLE 10)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from skirmish.content.armoury import shipped
from skirmish.content.errors import ContentError, key_path
from skirmish.content.tiled import EMBEDDED_DIR, MAPS_DIR, from_ascii, load_tmj
from skirmish.rules.actions import ActionParseError, parse_action
from skirmish.rules.deck import BUILTIN_DECKS, Card, load_cards_json
from skirmish.rules.equipment import SCREEN_TYPES, Armoury, parse_trait
from skirmish.rules.geometry import GridMap

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS_DIR = ROOT / "scenarios"
DEFAULT_SCENARIO = "depot_breach.yaml"
TRAITS = ("strength", "dexterity", "reflexes", "vigor", "acuity")
CONTROLLERS = ("scripted", "ai", "idle")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Options(_Strict):
    """Optional rules and switches (RULES: every option has a default)."""

    randomizer: Literal["cards", "dice"] = "cards"
    deck: str = "A"
    scope: Literal["pulp", "gritty"] = "pulp"
    initiative_cards: Literal["one", "per_side", "per_character"] = "one"
    unintended_targets: bool = False
    concussion_saves: bool = True
    cover_reach: int = Field(1, ge=1, le=2)

    @field_validator("deck")
    @classmethod
    def _deck(cls, v: str) -> str:
        if v not in BUILTIN_DECKS:
            raise ValueError(f"expected a built-in deck ({', '.join(BUILTIN_DECKS)})")
        return v


MAX_THROWN = 10  # grenades one combatant may carry (ammo of a thrown weapon)


class WeaponSpec(_Strict):
    """A carried weapon and its loaded rounds."""

    weapon: str
    ammo: int | None = Field(None, ge=0)
    magazines: int = Field(2, ge=0, le=20)


class TacpackSpec(_Strict):
    """A tacpack and its default split (R-6.13)."""

    type: str
    screen: Literal["none", "kinetic", "diffusion", "magnetic"] = "none"
    screen_points: int = Field(0, ge=0)


class UnitSpec(_Strict):
    """One combatant."""

    name: str = Field(min_length=1)
    at: tuple[int, int]
    traits: dict[str, str]
    skills: dict[str, int] = Field(default_factory=dict)
    size: int = Field(6, ge=1, le=36)
    armour: list[str] = Field(default_factory=list)
    weapons: list[WeaponSpec | str] = Field(default_factory=list)
    tacpack: TacpackSpec | None = None
    prone: bool = False
    wounds: int = Field(0, ge=0, le=5)

    @field_validator("traits")
    @classmethod
    def _traits(cls, v: dict[str, str]) -> dict[str, str]:
        for name in v:
            if name not in TRAITS:
                raise ValueError(f"unknown trait {name!r}; traits are {', '.join(TRAITS)}")
        for name in TRAITS:
            if name not in v:
                raise ValueError(f"missing trait {name!r}")
            parse_trait(v[name])
        return v

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: dict[str, int]) -> dict[str, int]:
        for name, level in v.items():
            if not 1 <= level <= 5:
                raise ValueError(f"skill {name!r}: level must be 1-5, got {level}")
        return v


# The AIs a side may name (skirmish.ai.controllers.make_ai); utility takes an optional personality.
AI_PATTERN = r"^(baseline|hold|random|rush|focus|spread|utility(:(easy|normal|hard|aggressive|cautious))?)$"


class SideSpec(_Strict):
    """A side, its controller and its units."""

    name: str = Field(min_length=1)
    controller: Literal["scripted", "ai", "idle"] = "ai"
    ai: str = Field("utility", pattern=AI_PATTERN)
    orders: list[str] = Field(default_factory=list)
    units: list[UnitSpec] = Field(min_length=1)


class AsciiMap(_Strict):
    """A small map written inline with the tileset's glyphs."""

    ascii: list[str] = Field(min_length=1)
    cell_m: float = Field(2.0, gt=0)
    name: str = "inline"


class DeckSpec(_Strict):
    """A stacked deck (C-4): cards in draw order."""

    cards: str
    shuffle: bool = False


class Victory(_Strict):
    """How the battle ends: one side left standing, or a draw at the round limit."""

    eliminate: bool = True
    max_rounds: int = Field(12, ge=1, le=500)


class ScenarioSpec(_Strict):
    """A whole scenario file."""

    name: str
    description: str = ""
    ruleset: Literal["fi", "fw"] = "fi"
    seed: int = 1
    options: Options = Options()
    map: str | AsciiMap
    deck: DeckSpec | None = None
    sides: list[SideSpec] = Field(min_length=2)
    victory: Victory = Victory()


class Scenario:
    """A loaded, checked scenario: the spec plus the resolved map, deck and equipment."""

    def __init__(self, spec: ScenarioSpec, grid: GridMap, armoury: Armoury, source: str,
                 stacked: list[Card] | None) -> None:
        self.spec = spec
        self.grid = grid
        self.armoury = armoury
        self.source = source
        self.stacked = stacked

    def with_options(self, **changes: object) -> Scenario:
        """The same scenario with some options changed (checked like the file's own options)."""
        try:
            opts = Options.model_validate({**self.spec.options.model_dump(), **changes})
        except ValidationError as exc:
            err = exc.errors()[0]
            where = "options." + ".".join(str(p) for p in err["loc"])
            raise ContentError(self.source, where, _message(dict(err))) from None
        spec = self.spec.model_copy(update={"options": opts})
        return Scenario(spec, self.grid, self.armoury, self.source, self.stacked)

    @property
    def name(self) -> str:
        """The scenario's display name."""
        return self.spec.name


def default_scenario_path() -> Path:
    """The scenario used when none is named: scenarios/ in a checkout, else the copy inside the package."""
    repo = SCENARIOS_DIR / DEFAULT_SCENARIO
    return repo if repo.exists() else EMBEDDED_DIR / DEFAULT_SCENARIO


def _message(err: dict[str, Any]) -> str:
    msg = str(err.get("msg", "invalid"))
    msg = msg.removeprefix("Value error, ")
    if err.get("type") == "extra_forbidden":
        return "unknown key"
    if err.get("type") == "missing":
        return "required key is missing"
    return msg


def _clean_loc(loc: tuple[Any, ...]) -> list[str | int]:
    # pydantic adds union branch names like 'WeaponSpec' or 'str' or 'AsciiMap'; drop them.
    skip = {"WeaponSpec", "str", "AsciiMap", "TacpackSpec", "DeckSpec", "function-after[_deck(), str]"}
    return [p for p in loc if not (isinstance(p, str) and (p in skip or p.startswith("function")))]


def load_scenario(path: str | Path, *, armoury: Armoury | None = None) -> Scenario:
    """Read, validate and resolve a scenario file; raises ContentError naming file and key path."""
    path = Path(path)
    label = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(label, "", f"cannot read the file ({exc.strerror or exc})") from None
    return parse_scenario(text, label, base=path.parent, armoury=armoury)


def parse_scenario(text: str, label: str, *, base: Path | None = None,
                   armoury: Armoury | None = None) -> Scenario:
    """Validate scenario YAML text (see load_scenario)."""
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise ContentError(label, where, f"not valid YAML: {problem}") from None
    if not isinstance(raw, dict):
        raise ContentError(label, "", "expected a YAML mapping with name, map and sides")
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = _clean_loc(tuple(err.get("loc", ())))
        raise ContentError(label, key_path(loc), _message(dict(err))) from None
    armoury = armoury or shipped()
    base = base or SCENARIOS_DIR
    grid = _load_map(spec, label, base)
    stacked = _load_deck(spec, label, base)
    _check_refs(spec, label, grid, armoury)
    return Scenario(spec, grid, armoury, label, stacked)


def _resolve(name: str, base: Path, default_dir: Path) -> Path:
    p = Path(name)
    if p.is_absolute():
        return p
    for cand in (base / p, default_dir / p):
        if cand.exists():
            return cand
    return base / p


def _load_map(spec: ScenarioSpec, label: str, base: Path) -> GridMap:
    if isinstance(spec.map, AsciiMap):
        return from_ascii(spec.map.ascii, label, "map.ascii", spec.map.name, spec.map.cell_m)
    path = _resolve(spec.map, base, MAPS_DIR)
    if path.suffix not in (".tmj", ".json"):
        raise ContentError(label, "map", f"expected a Tiled JSON map (.tmj), got {spec.map!r}")
    if not path.exists():
        raise ContentError(label, "map", f"map file {spec.map!r} not found (looked in {base} and {MAPS_DIR})")
    try:
        return load_tmj(path)
    except ContentError as exc:
        raise ContentError(label, "map", f"{spec.map}: {exc.where + ': ' if exc.where else ''}{exc.message}") \
            from None


def _load_deck(spec: ScenarioSpec, label: str, base: Path) -> list[Card] | None:
    if spec.deck is None:
        return None
    path = _resolve(spec.deck.cards, base, base)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(label, "deck.cards", f"cannot read deck file {spec.deck.cards!r} "
                           f"({exc.strerror or exc})") from None
    try:
        return load_cards_json(text)
    except ValueError as exc:
        raise ContentError(label, "deck.cards", f"{spec.deck.cards}: {exc}") from None


def _check_refs(spec: ScenarioSpec, label: str, grid: GridMap, armoury: Armoury) -> None:
    seen: dict[str, str] = {}
    cells: dict[tuple[int, int], str] = {}
    for si, side in enumerate(spec.sides):
        for ui, unit in enumerate(side.units):
            where = f"sides[{si}].units[{ui}]"
            if unit.name in seen:
                raise ContentError(label, f"{where}.name", f"duplicate unit name {unit.name!r} (also {seen[unit.name]})")
            seen[unit.name] = where
            for wi, w in enumerate(unit.weapons):
                wid = w if isinstance(w, str) else w.weapon
                if wid not in armoury.weapons:
                    raise ContentError(label, f"{where}.weapons[{wi}]",
                                       f"unknown weapon {wid!r}; known: {', '.join(sorted(armoury.weapons))}")
                limit = MAX_THROWN if armoury.weapons[wid].thrown else armoury.weapons[wid].magazine
                if isinstance(w, WeaponSpec) and w.ammo is not None and w.ammo > limit:
                    what = (f"a unit carries at most {limit} of a thrown weapon" if armoury.weapons[wid].thrown
                            else f"{w.ammo} rounds do not fit a magazine of {limit}")
                    raise ContentError(label, f"{where}.weapons[{wi}].ammo", what)
            for ai, a in enumerate(unit.armour):
                if a not in armoury.armour:
                    raise ContentError(label, f"{where}.armour[{ai}]",
                                       f"unknown armour {a!r}; known: {', '.join(sorted(armoury.armour))}")
            if unit.tacpack is not None:
                tp = unit.tacpack
                if tp.type not in armoury.tacpacks:
                    raise ContentError(label, f"{where}.tacpack.type", f"unknown tacpack {tp.type!r}; known: "
                                       f"{', '.join(sorted(armoury.tacpacks))}")
                if tp.screen_points > armoury.tacpacks[tp.type].generator:
                    raise ContentError(label, f"{where}.tacpack.screen_points",
                                       f"{tp.screen_points} exceeds the generator's "
                                       f"{armoury.tacpacks[tp.type].generator} points (R-6.13)")
                if tp.screen != "none" and tp.screen not in SCREEN_TYPES:
                    raise ContentError(label, f"{where}.tacpack.screen", "unknown screen type")
            cell = (unit.at[0], unit.at[1])
            if not grid.inside(cell):
                raise ContentError(label, f"{where}.at", f"cell {cell[0]},{cell[1]} is off the map "
                                   f"({grid.width}x{grid.height})")
            if not grid.passable(cell):
                raise ContentError(label, f"{where}.at", f"cell {cell[0]},{cell[1]} is "
                                   f"{grid.terrain(cell).name}, where no one can stand")
            if cell in cells:
                raise ContentError(label, f"{where}.at", f"cell {cell[0]},{cell[1]} is taken by {cells[cell]}")
            cells[cell] = unit.name
        for oi, order in enumerate(side.orders):
            try:
                action = parse_action(order)
            except ActionParseError as exc:
                raise ContentError(label, f"sides[{si}].orders[{oi}]", str(exc)) from None
            if action.unit not in {u.name for u in side.units}:
                raise ContentError(label, f"sides[{si}].orders[{oi}]",
                                   f"order for {action.unit!r}, who is not on side {side.name!r}")


def builtin_scenarios() -> list[Path]:
    """Shipped scenario files."""
    found = sorted(SCENARIOS_DIR.glob("*.yaml"))
    return found or [EMBEDDED_DIR / DEFAULT_SCENARIO]
