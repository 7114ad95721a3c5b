"""Scenarios: YAML files naming ruleset, options, map, sides, units, orders and victory; checked on load
with messages naming the file and key path (C-6, STYLE 10). Every size is bounded (docs/FILES.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    Tag,
    TypeAdapter,
    ValidationError,
    field_validator,
)

from skirmish.content.armoury import shipped
from skirmish.content.colours import parse_colour
from skirmish.content.errors import KIB, MIB, ContentError, check_tree, key_path, one_line, quote, read_text, unprintable
from skirmish.content.tiled import EMBEDDED_DIR, MAPS_DIR, MAX_MAP_SIDE, from_ascii, load_tileset, load_tmj, read_json
from skirmish.rules.actions import ActionParseError, parse_action
from skirmish.rules.deck import BUILTIN_DECKS, Card, CardFileError, load_cards_json
from skirmish.rules.equipment import SCREEN_TYPES, Armoury, parse_trait
from skirmish.rules.geometry import GridMap

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS_DIR = ROOT / "scenarios"
DEFAULT_SCENARIO = "depot_breach.yaml"
TRAITS = ("strength", "dexterity", "reflexes", "vigor", "acuity")
CONTROLLERS = ("scripted", "ai", "idle")

# Limits (docs/FILES.md): what a battle can honour at interactive speed, far above any shipped scenario.
SCENARIO_FILE_LIMIT = 512 * KIB  # YAML is parsed in pure Python (the C parser crashes on deep nesting)
DECK_FILE_LIMIT = 4 * MIB
MAX_SIDES = 8
MAX_UNITS_PER_SIDE = 32  # with MAX_UNITS: the utility AI still decides within about 2 s (docs/FILES.md)
MAX_UNITS = 64
MAX_ROUNDS = 100
MAX_ORDERS = 500  # scripted orders per side
MAX_ORDER_LENGTH = 200
MAX_NAME = 64  # scenario, side, unit, skill and map names
MAX_DESCRIPTION = 4000
MAX_FILE_NAME = 255
MAX_ERRORS = 50  # errors `check` lists per file before saying how many more
_YAML_DEPTH = 16
_YAML_NODES = 50_000
# Options accepted once but never built: they return with their own issue.
RETIRED_OPTIONS = {"unintended_targets": "R-6.11", "cover_reach": "R-6.6"}


def _one_line(v: str) -> str:
    if unprintable(v) is not None:
        raise ValueError(f"may not contain control characters or line breaks, got {quote(v)}")
    return v


def _text(v: str) -> str:
    bad = unprintable(v, allow="\n\t")
    if bad is not None:
        raise ValueError(f"may not contain control characters, got {quote(bad)}")
    return v


Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME), AfterValidator(_one_line)]
FileName = Annotated[str, StringConstraints(min_length=1, max_length=MAX_FILE_NAME), AfterValidator(_one_line)]
OrderText = Annotated[str, StringConstraints(max_length=MAX_ORDER_LENGTH), AfterValidator(_one_line)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Options(_Strict):
    """Optional rules and switches (RULES: every option has a default)."""

    randomizer: Literal["cards", "dice"] = "cards"
    deck: str = "A"
    scope: Literal["pulp", "gritty"] = "pulp"
    initiative_cards: Literal["one", "per_side", "per_character"] = "one"
    concussion_saves: StrictBool = True

    @field_validator("deck")
    @classmethod
    def _deck(cls, v: str) -> str:
        if v not in BUILTIN_DECKS:
            raise ValueError(f"expected a built-in deck ({', '.join(BUILTIN_DECKS)}), got {quote(v)}")
        return v


MAX_THROWN = 10  # grenades one combatant may carry (ammo of a thrown weapon)


class WeaponSpec(_Strict):
    """A carried weapon and its loaded rounds."""

    weapon: Name
    ammo: StrictInt | None = Field(None, ge=0, le=999)
    magazines: StrictInt = Field(2, ge=0, le=20)


def _weapon_kind(v: Any) -> str:
    return "spec" if isinstance(v, dict) else "id"


WeaponRef = Annotated[Annotated[WeaponSpec, Tag("spec")] | Annotated[Name, Tag("id")], Discriminator(_weapon_kind)]


class TacpackSpec(_Strict):
    """A tacpack and its default split (R-6.13)."""

    type: Name
    screen: Literal["none", "kinetic", "diffusion", "magnetic"] = "none"
    screen_points: StrictInt = Field(0, ge=0, le=999)


class UnitSpec(_Strict):
    """One combatant."""

    name: Name
    at: tuple[StrictInt, StrictInt]
    traits: dict[str, str]
    skills: dict[Name, StrictInt] = Field(default_factory=dict, max_length=50)
    size: StrictInt = Field(6, ge=1, le=36)
    armour: list[Name] = Field(default_factory=list, max_length=10)
    weapons: list[WeaponRef] = Field(default_factory=list, max_length=10)
    tacpack: TacpackSpec | None = None
    prone: StrictBool = False
    wounds: StrictInt = Field(0, ge=0, le=5)

    @field_validator("traits")
    @classmethod
    def _traits(cls, v: dict[str, str]) -> dict[str, str]:
        for name in v:
            if name not in TRAITS:
                raise ValueError(f"unknown trait {quote(name)}; traits are {', '.join(TRAITS)}")
        for name in TRAITS:
            if name not in v:
                raise ValueError(f"missing trait {name!r}")
            try:
                parse_trait(v[name])
            except ValueError:
                raise ValueError(f"{name}: expected a trait like 'III-2' (column I..VI, training 1-5), "
                                 f"got {quote(v[name])}") from None
        return v

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: dict[str, int]) -> dict[str, int]:
        for name, level in v.items():
            if not 1 <= level <= 5:
                raise ValueError(f"skill {quote(name)}: level must be 1-5, got {quote(level)}")
        return v


# The AIs a side may name (skirmish.ai.controllers.make_ai); utility takes an optional personality.
AI_PATTERN = r"^(baseline|hold|random|rush|focus|spread|utility(:(easy|normal|hard|aggressive|cautious))?)$"


class SideSpec(_Strict):
    """A side, its controller, its colour on the board (a name or #rrggbb; optional) and its units."""

    name: Name
    colour: str | None = Field(None, max_length=32)
    controller: Literal["scripted", "ai", "idle"] = "ai"
    ai: str = Field("utility", max_length=40)
    orders: list[OrderText] = Field(default_factory=list, max_length=MAX_ORDERS)
    units: list[UnitSpec] = Field(min_length=1, max_length=MAX_UNITS_PER_SIDE)

    @field_validator("ai")
    @classmethod
    def _ai(cls, v: str) -> str:
        if not re.match(AI_PATTERN, v):
            raise ValueError("expected an AI: baseline, hold, random, rush, focus, spread or utility, optionally "
                             f"utility:easy|normal|hard|aggressive|cautious; got {quote(v)}")
        return v

    @field_validator("colour")
    @classmethod
    def _colour(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                parse_colour(v)
            except ValueError as exc:
                raise ValueError(one_line(str(exc))) from None
        return v


class AsciiMap(_Strict):
    """A small map written inline with the tileset's glyphs."""

    ascii: list[Annotated[str, StringConstraints(max_length=MAX_MAP_SIDE)]] = Field(min_length=1,
                                                                                    max_length=MAX_MAP_SIDE)
    cell_m: float = Field(2.0, ge=0.5, le=10.0, allow_inf_nan=False, strict=True)
    name: Name = "inline"


def _map_kind(v: Any) -> str:
    return "inline" if isinstance(v, dict) else "file"


MapRef = Annotated[Annotated[AsciiMap, Tag("inline")] | Annotated[FileName, Tag("file")], Discriminator(_map_kind)]


class DeckSpec(_Strict):
    """A stacked deck (C-4): cards in draw order."""

    cards: FileName
    shuffle: StrictBool = False


class Victory(_Strict):
    """How the battle ends: one side left standing, or a draw at the round limit."""

    eliminate: StrictBool = True
    max_rounds: StrictInt = Field(12, ge=1, le=MAX_ROUNDS)


class ScenarioSpec(_Strict):
    """A whole scenario file."""

    name: Name
    description: Annotated[str, StringConstraints(max_length=MAX_DESCRIPTION), AfterValidator(_text)] = ""
    ruleset: Literal["fi", "fw"] = "fi"  # fw (Future*World) is refused on load until it is playable
    seed: StrictInt = Field(1, ge=0, le=2**63 - 1)
    options: Options = Options()
    map: MapRef
    deck: DeckSpec | None = None
    sides: list[SideSpec] = Field(min_length=2, max_length=MAX_SIDES)
    victory: Victory = Victory()


class Scenario:
    """A loaded, checked scenario: the spec plus the resolved map, deck and equipment, and `notes`: remarks
    for the user that are not errors (one line each, naming the file), e.g. a missing tileset replaced by
    the shipped one. Loaders have no logger: callers print them."""

    def __init__(self, spec: ScenarioSpec, grid: GridMap, armoury: Armoury, source: str,
                 stacked: list[Card] | None, notes: Sequence[str] = ()) -> None:
        self.spec = spec
        self.grid = grid
        self.armoury = armoury
        self.source = source
        self.stacked = stacked
        self.notes: tuple[str, ...] = tuple(notes)

    def with_options(self, **changes: object) -> Scenario:
        """The same scenario with some options changed (checked like the file's own options)."""
        try:
            opts = Options.model_validate({**self.spec.options.model_dump(), **changes})
        except ValidationError as exc:
            raise _errors(exc, self.source, ("options",))[0] from None
        spec = self.spec.model_copy(update={"options": opts})
        return Scenario(spec, self.grid, self.armoury, self.source, self.stacked, self.notes)

    @property
    def name(self) -> str:
        """The scenario's display name."""
        return self.spec.name


def default_scenario_path() -> Path:
    """The scenario used when none is named: scenarios/ in a checkout, else the copy inside the package."""
    repo = SCENARIOS_DIR / DEFAULT_SCENARIO
    return repo if repo.exists() else EMBEDDED_DIR / DEFAULT_SCENARIO


# ----------------------------------------------------------------------------------------------------------
# pydantic's errors as one line each, at the key path the file uses.

_TAGS = {"inline", "file", "spec", "id"}  # the discriminated unions' branch tags (MapRef, WeaponRef)
_SCALARS = (str, int, float, bool, type(None))


def _clean_loc(loc: Sequence[Any]) -> list[str | int]:
    """Drop what pydantic adds to a location beyond the file's keys: union branch tags, validator names."""
    out: list[str | int] = []
    for i, part in enumerate(loc):
        if isinstance(part, str):
            branch = part in _TAGS and ((i == 1 and loc[0] == "map")
                                        or (i >= 2 and isinstance(loc[i - 1], int) and loc[i - 2] == "weapons"))
            if branch or part.startswith("function-") or part == "[key]":
                continue
        out.append(part)
    return out


def _message(err: dict[str, Any], loc: Sequence[Any]) -> str:
    kind = err.get("type")
    if kind == "extra_forbidden":
        if len(loc) == 2 and loc[0] == "options" and loc[1] in RETIRED_OPTIONS:
            return f"not built yet ({RETIRED_OPTIONS[str(loc[1])]}); remove it"
        return "unknown key"
    if kind == "missing":
        return "required key is missing"
    if kind == "too_short" and len(loc) == 3 and loc[0] == "sides" and loc[2] == "units":
        return "a side needs at least one unit"
    if kind == "too_short" and loc == ["sides"]:
        return "a scenario needs at least two sides"
    msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    if "[key]" in err.get("loc", ()):
        msg = f"key: {msg}"
    value = err.get("input")
    own = kind in ("value_error", "assertion_error")  # our validators' messages quote the value already
    wrong_type = kind in ("string_type", "int_type", "float_type", "bool_type", "list_type", "dict_type",
                          "model_type", "tuple_type")
    if (not own and isinstance(value, _SCALARS)) or wrong_type:
        msg += f", got {quote(value)}"
    return msg


def _errors(exc: ValidationError, label: str, prefix: tuple[str, ...] = ()) -> list[ContentError]:
    out = []
    for err in exc.errors():
        loc = [*prefix, *_clean_loc(tuple(err.get("loc", ())))]
        out.append(ContentError(label, key_path(loc), _message(dict(err), loc)))
    return out


# ----------------------------------------------------------------------------------------------------------
# Loading.


def load_scenario(path: str | Path, *, armoury: Armoury | None = None) -> Scenario:
    """Read, validate and resolve a scenario file; raises the first ContentError (naming file and key path)."""
    scenario, errors = check_scenario(path, armoury=armoury)
    if scenario is None:
        raise errors[0]
    return scenario


def check_scenario(path: str | Path, *, armoury: Armoury | None = None) -> tuple[Scenario | None, list[ContentError]]:
    """Read and check a scenario file: the scenario, or None and every error found (one line each)."""
    path = Path(path)
    label = str(path)
    try:
        text = read_text(path, label, SCENARIO_FILE_LIMIT)
    except ContentError as exc:
        return None, [exc]
    return check_text(text, label, base=path.parent, armoury=armoury)


def parse_scenario(text: str, label: str, *, base: Path | None = None,
                   armoury: Armoury | None = None) -> Scenario:
    """Validate scenario YAML text (see load_scenario)."""
    scenario, errors = check_text(text, label, base=base, armoury=armoury)
    if scenario is None:
        raise errors[0]
    return scenario


def check_text(text: str, label: str, *, base: Path | None = None,
               armoury: Armoury | None = None) -> tuple[Scenario | None, list[ContentError]]:
    """Check scenario YAML text: the scenario, or None and every error found (pydantic's, then the ruleset,
    the map, the deck and every reference: weapons, cells, names …)."""
    if len(text) > SCENARIO_FILE_LIMIT:
        return None, [ContentError(label, "", f"the text is longer than the limit of {SCENARIO_FILE_LIMIT} bytes")]
    try:
        raw = _parse_yaml(text, label)
        check_tree(raw, label, max_depth=_YAML_DEPTH, max_nodes=_YAML_NODES)
    except ContentError as exc:
        return None, [exc]
    armoury = armoury or shipped()
    base = base or SCENARIOS_DIR
    try:
        spec = ScenarioSpec.model_validate(raw)
    except ValidationError as exc:
        errors = _errors(exc, label)
        _check_partial(raw, label, base, armoury, errors)
        return None, errors
    errors = []
    notes: list[str] = []
    if spec.ruleset != "fi":
        errors.append(_not_playable(spec.ruleset, label))
    grid: GridMap | None = None
    stacked: list[Card] | None = None
    try:
        grid = _load_map(spec.map, label, base, notes)
    except ContentError as exc:
        errors.append(exc)
    try:
        stacked = _load_deck(spec.deck, label, base)
    except ContentError as exc:
        errors.append(exc)
    _check_refs(spec.sides, label, grid, armoury, errors)
    if errors or grid is None:
        return None, errors
    return Scenario(spec, grid, armoury, label, stacked, notes), []


def scenario_title(path: str | Path) -> str | None:
    """A scenario file's `name:` read with the loader's bounds (regular file, size, depth), without loading
    its map and deck; None if the file cannot be read or has no usable name (for lists such as the menu's)."""
    label = str(path)
    try:
        raw = _parse_yaml(read_text(Path(path), label, SCENARIO_FILE_LIMIT), label)
        check_tree(raw, label, max_depth=_YAML_DEPTH, max_nodes=_YAML_NODES)
        name = raw.get("name")
        return _one_line(name).strip() or None if isinstance(name, str) else None
    except (ContentError, ValueError):
        return None


def _not_playable(ruleset: str, label: str) -> ContentError:
    return ContentError(label, "ruleset", f"{ruleset!r} (Future*World) is not playable yet; use 'fi'")


def _check_partial(raw: dict[str, Any], label: str, base: Path, armoury: Armoury, errors: list[ContentError]) -> None:
    """After pydantic's errors, the reference errors in the parts that are valid on their own (the map, the
    deck, each unit), so one `check` lists every problem in the file."""
    if raw.get("ruleset") == "fw":
        errors.append(_not_playable("fw", label))
    grid = None
    try:
        grid = _load_map(TypeAdapter(MapRef).validate_python(raw.get("map")), label, base, [])
    except ValidationError:
        pass  # already reported
    except ContentError as exc:
        errors.append(exc)
    try:
        if raw.get("deck") is not None:
            _load_deck(DeckSpec.model_validate(raw["deck"]), label, base)
    except ValidationError:
        pass
    except ContentError as exc:
        errors.append(exc)
    sides: list[_PartialSide] = []
    raw_sides = raw.get("sides")
    for side in raw_sides if isinstance(raw_sides, list) else []:
        if not isinstance(side, dict):
            continue
        units: list[UnitSpec | None] = []
        raw_units = side.get("units")
        for unit in raw_units if isinstance(raw_units, list) else []:
            try:
                units.append(UnitSpec.model_validate(unit))
            except ValidationError:
                units.append(None)  # keeps the indices; already reported
        name = side.get("name")
        raw_orders = side.get("orders")
        orders = [o for o in raw_orders if isinstance(o, str) and len(o) <= MAX_ORDER_LENGTH] \
            if isinstance(raw_orders, list) else []
        sides.append(_PartialSide(name if isinstance(name, str) else None, units, orders))
    _check_refs(sides, label, grid, armoury, errors, partial=True)


@dataclass
class _PartialSide:
    """A side as far as it is valid: units that failed pydantic are None (their errors are reported)."""

    name: str | None
    units: list[UnitSpec | None]
    orders: list[str]


def _parse_yaml(text: str, label: str) -> dict[str, Any]:
    try:
        raw = yaml.safe_load(text)  # the pure-Python parser: libyaml's crashes the process on deep nesting
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise ContentError(label, where, f"not valid YAML: {problem}") from None
    except RecursionError:
        raise ContentError(label, "", f"not valid YAML: nested deeper than {_YAML_DEPTH} levels") from None
    except (ValueError, OverflowError, TypeError) as exc:  # a 5000-digit number, a 13th month …
        why = "a number with too many digits" if "digits" in str(exc) else quote(str(exc))
        raise ContentError(label, "", f"not valid YAML: {why}") from None
    if not isinstance(raw, dict):
        raise ContentError(label, "", f"expected a YAML mapping with name, map and sides, got {quote(raw)}")
    return raw


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except (OSError, ValueError):  # a name too long for the system
        return False


def _resolve(name: str, base: Path, default_dir: Path) -> Path | None:
    """The file a scenario names: beside the scenario, else in `default_dir`; None if in neither."""
    p = Path(name)
    if p.is_absolute():
        return p if _exists(p) else None
    for cand in (base / p, default_dir / p):
        if _exists(cand):
            return cand
    return None


def _load_map(ref: AsciiMap | str, label: str, base: Path, notes: list[str]) -> GridMap:
    if isinstance(ref, AsciiMap):
        return from_ascii(ref.ascii, label, "map.ascii", ref.name, ref.cell_m)
    if Path(ref).suffix not in (".tmj", ".json"):
        raise ContentError(label, "map", f"expected a Tiled JSON map (.tmj), got {quote(ref)}")
    path = _resolve(ref, base, MAPS_DIR)
    if path is None:
        raise ContentError(label, "map", f"map file {quote(ref)} not found beside the scenario or among the "
                           "shipped maps")
    map_notes: list[str] = []
    try:
        grid = load_tmj(path, ref, map_notes)
    except ContentError as exc:
        raise ContentError(label, "map", exc.text) from None
    notes.extend(one_line(f"{label}: map: {n}") for n in map_notes)
    return grid


def load_deck_file(path: Path, label: str) -> list[Card]:
    """A stacked-deck file (C-4): C-2 cards in draw order; ContentError naming `label` and the key path."""
    text = read_text(path, label, DECK_FILE_LIMIT)
    try:
        return load_cards_json(text)
    except CardFileError as exc:
        raise ContentError(label, exc.where, exc.message) from None


def _load_deck(deck: DeckSpec | None, label: str, base: Path) -> list[Card] | None:
    if deck is None:
        return None
    name = deck.cards
    path = _resolve(name, base, base)
    if path is None:
        raise ContentError(label, "deck.cards", f"deck file {quote(name)} not found beside the scenario")
    try:
        return load_deck_file(path, name)
    except ContentError as exc:
        raise ContentError(label, "deck.cards", exc.text) from None


def _check_refs(sides: Sequence[SideSpec | _PartialSide], label: str, grid: GridMap | None, armoury: Armoury,
                errors: list[ContentError], *, partial: bool = False) -> None:
    """Every reference and cross-check pydantic cannot make; each problem found is appended to `errors`.
    `partial`: the sides are what was valid of a file pydantic refused (its limits are reported already)."""

    def bad(where: str, message: str) -> None:
        errors.append(ContentError(label, where, message))

    first: dict[str, int] = {}
    for si, side in enumerate(sides):
        if side.name is None:
            continue
        if side.name in first:
            bad(f"sides[{si}].name", f"duplicate side name {quote(side.name)} (also sides[{first[side.name]}])")
        elif side.name == "draw":
            bad(f"sides[{si}].name", "'draw' cannot name a side: the summary line says winner=draw for a draw")
        first.setdefault(side.name, si)
    total = sum(len(s.units) for s in sides)
    if total > MAX_UNITS and not partial:
        bad("sides", f"{total} units in all; the limit is {MAX_UNITS} (docs/FILES.md)")
    seen: dict[str, str] = {}
    cells: dict[tuple[int, int], str] = {}
    for si, side in enumerate(sides):
        for ui, unit in enumerate(side.units):
            if unit is None:
                continue
            where = f"sides[{si}].units[{ui}]"
            if unit.name in seen:
                bad(f"{where}.name", f"duplicate unit name {quote(unit.name)} (also {seen[unit.name]})")
            seen.setdefault(unit.name, where)
            _check_kit(unit, where, armoury, bad)
            if grid is None:
                continue
            x, y = unit.at
            if not grid.inside((x, y)):
                bad(f"{where}.at", f"cell {quote(x)},{quote(y)} is off the map ({grid.width}x{grid.height})")
            elif not grid.passable((x, y)):
                bad(f"{where}.at", f"cell {x},{y} is {grid.terrain((x, y)).name}, where no one can stand")
            elif (x, y) in cells:
                bad(f"{where}.at", f"cell {x},{y} is taken by {cells[(x, y)]}")
            else:
                cells[(x, y)] = unit.name
        names = {u.name for u in side.units if u is not None}
        for oi, order in enumerate(side.orders):
            try:
                action = parse_action(order)
            except ActionParseError as exc:
                bad(f"sides[{si}].orders[{oi}]", str(exc))
                continue
            if action.unit not in names and None not in side.units:  # (a refused unit may be the one named)
                bad(f"sides[{si}].orders[{oi}]", f"order for {quote(action.unit)}, who is not on side {quote(side.name)}")


def _check_kit(unit: UnitSpec, where: str, armoury: Armoury, bad: Any) -> None:
    for wi, w in enumerate(unit.weapons):
        wid = w if isinstance(w, str) else w.weapon
        if wid not in armoury.weapons:
            bad(f"{where}.weapons[{wi}]", f"unknown weapon {quote(wid)}; known: {', '.join(sorted(armoury.weapons))}")
            continue
        weapon = armoury.weapons[wid]
        limit = MAX_THROWN if weapon.thrown else weapon.magazine
        if isinstance(w, WeaponSpec) and w.ammo is not None and w.ammo > limit:
            bad(f"{where}.weapons[{wi}].ammo", f"a unit carries at most {limit} of a thrown weapon" if weapon.thrown
                else f"{w.ammo} rounds do not fit a magazine of {limit}")
    for ai, a in enumerate(unit.armour):
        if a not in armoury.armour:
            bad(f"{where}.armour[{ai}]", f"unknown armour {quote(a)}; known: {', '.join(sorted(armoury.armour))}")
    if unit.tacpack is not None:
        tp = unit.tacpack
        if tp.type not in armoury.tacpacks:
            bad(f"{where}.tacpack.type", f"unknown tacpack {quote(tp.type)}; known: {', '.join(sorted(armoury.tacpacks))}")
        elif tp.screen_points > armoury.tacpacks[tp.type].generator:
            bad(f"{where}.tacpack.screen_points", f"{tp.screen_points} exceeds the generator's "
                f"{armoury.tacpacks[tp.type].generator} points (R-6.13)")
        if tp.screen != "none" and tp.screen not in SCREEN_TYPES:
            bad(f"{where}.tacpack.screen", "unknown screen type")


def builtin_scenarios() -> list[Path]:
    """Shipped scenario files."""
    found = sorted(SCENARIOS_DIR.glob("*.yaml"))
    return found or [EMBEDDED_DIR / DEFAULT_SCENARIO]


# ----------------------------------------------------------------------------------------------------------
# `skirmish check`: any input file by its kind.


@dataclass
class CheckResult:
    """What `skirmish check` reports for one file: a summary when it is good, else every error; and notes."""

    summary: str | None
    errors: list[ContentError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def check_input(name: str) -> CheckResult:
    """Check one input file as `skirmish check` does: a Tiled map (.tmj), a tileset (.tsj), a stacked deck
    (.json: a list of cards; a .json object is read as a Tiled map), else a scenario."""
    path, label = Path(name), one_line(name)
    suffix = path.suffix.lower()
    try:
        if suffix == ".tsj":
            tiles, glyphs = load_tileset(path, label)
            return CheckResult(f"tileset, {len(tiles)} tiles, glyphs {''.join(sorted(glyphs))}")
        if suffix == ".json" and not isinstance(read_json(path, label, DECK_FILE_LIMIT), dict):
            cards = load_deck_file(path, label)
            return CheckResult(f"stacked deck, {len(cards)} cards")
        if suffix in (".tmj", ".json"):
            notes: list[str] = []
            grid = load_tmj(path, label, notes)
            return CheckResult(f"map {quote(grid.name)} {grid.width}x{grid.height}", notes=notes)
    except ContentError as exc:
        return CheckResult(None, [exc])
    scenario, errors = check_scenario(path)
    if scenario is None:
        more = len(errors) - MAX_ERRORS
        if more > 0:
            errors = [*errors[:MAX_ERRORS], ContentError(label, "", f"{more} more errors not shown")]
        return CheckResult(None, errors)
    units = sum(len(s.units) for s in scenario.spec.sides)
    grid = scenario.grid
    return CheckResult(f"'{scenario.name}', map {grid.name} {grid.width}x{grid.height}, "
                       f"{len(scenario.spec.sides)} sides, {units} units", notes=list(scenario.notes))
