"""Scenarios: YAML files naming ruleset, options, map, sides, units, orders and victory; checked on load
with messages naming the file and key path (C-6, STYLE 10). Every size is bounded (docs/FILES.md).

Here: loading and checking (load_scenario, check_scenario, parse_scenario, check_text, check_input) and the
loaded `Scenario`. The shared schema is skirmish.content.schema, a ruleset's own parts (options, unit traits
and skills) skirmish.content.parts, picked by the file's `ruleset:`; the limits skirmish.content.limits, the
cross-checks skirmish.content.references. The schema's models and the limits are importable from here too
(`Options` is the default ruleset's, Future Imperfect's)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from skirmish.content.armoury import shipped
from skirmish.content.errors import ContentError, check_tree, one_line, quote, read_text
from skirmish.content.limits import (
    DECK_FILE_LIMIT,
    MAX_ERRORS,
    MAX_ORDER_LENGTH,
    MAX_ROUNDS,
    MAX_SIDES,
    MAX_UNITS,
    MAX_UNITS_PER_SIDE,
    SCENARIO_FILE_LIMIT,
    YAML_DEPTH,
    YAML_NODES,
    single_line,
)
from skirmish.content.parts import DEFAULT, SchemaParts, data_file_check, pick, schema_parts
from skirmish.content.references import PartialSide, check_refs
from skirmish.content.schema import (
    AsciiMap,
    DeckSpec,
    MapRef,
    RulesetOptions,
    ScenarioSpec,
    SideSpec,
    TacpackSpec,
    UnitSpec,
    Victory,
    WeaponSpec,
    validation_errors,
)
from skirmish.content.tiled import EMBEDDED_DIR, MAPS_DIR, from_ascii, load_tileset, load_tmj, read_json
from skirmish.content.zones import Cells, check_zone_refs, scenario_zones, tmj_zones
from skirmish.rules.deck import Card, CardFileError, load_cards_json
from skirmish.rules.equipment import Armoury
from skirmish.rules.geometry import GridMap

__all__ = [  # the schema's models and the limits were always imported from here too
    "DECK_FILE_LIMIT", "DEFAULT_SCENARIO", "MAX_ROUNDS", "MAX_SIDES", "MAX_UNITS", "MAX_UNITS_PER_SIDE",
    "SCENARIOS_DIR", "SCENARIO_FILE_LIMIT", "AsciiMap", "CheckResult", "DeckSpec", "Options", "Scenario",
    "ScenarioSpec", "SideSpec", "TacpackSpec", "UnitSpec", "Victory", "WeaponSpec", "builtin_scenarios",
    "check_input", "check_scenario", "check_text", "default_scenario_path", "load_deck_file", "load_scenario",
    "parse_scenario", "scenario_title",
]

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS_DIR = ROOT / "scenarios"
DEFAULT_SCENARIO = "depot_breach.yaml"
Options: type[RulesetOptions] = schema_parts(DEFAULT).options  # the default ruleset's (Future Imperfect's)


class Scenario:
    """A loaded, checked scenario: the spec plus the resolved map, deck and equipment, and `notes`: remarks
    for the user that are not errors (one line each, naming the file), e.g. a missing tileset replaced by
    the shipped one. Loaders have no logger: callers print them."""

    def __init__(self, spec: ScenarioSpec, grid: GridMap, armoury: Armoury, source: str,
                 stacked: list[Card] | None, notes: Sequence[str] = (), zones: Mapping[str, Cells] | None = None) -> None:
        self.spec = spec
        self.grid = grid
        self.armoury = armoury
        self.source = source
        self.stacked = stacked
        self.notes: tuple[str, ...] = tuple(notes)
        # Every zone by name as cells (the map's object layers', then the file's `zones:`), for objectives,
        # triggers and deployment (skirmish.content.zones).
        self.zones: dict[str, Cells] = dict(zones or {})

    def with_options(self, **changes: object) -> Scenario:
        """The same scenario with some options changed (checked like the file's own options, by its
        ruleset's options model)."""
        try:
            opts = type(self.spec.options).model_validate({**self.spec.options.model_dump(), **changes})
        except ValidationError as exc:
            retired = schema_parts(self.spec.ruleset).retired_options
            raise validation_errors(exc, self.source, ("options",), retired=retired)[0] from None
        spec = self.spec.model_copy(update={"options": opts})
        return Scenario(spec, self.grid, self.armoury, self.source, self.stacked, self.notes, self.zones)

    @property
    def name(self) -> str:
        """The scenario's display name."""
        return self.spec.name


def default_scenario_path() -> Path:
    """The scenario used when none is named: scenarios/ in a checkout, else the copy inside the package."""
    repo = SCENARIOS_DIR / DEFAULT_SCENARIO
    return repo if repo.exists() else EMBEDDED_DIR / DEFAULT_SCENARIO


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
        check_tree(raw, label, max_depth=YAML_DEPTH, max_nodes=YAML_NODES)
    except ContentError as exc:
        return None, [exc]
    armoury = armoury or shipped()
    base = base or SCENARIOS_DIR
    parts, problem = pick(raw)  # the ruleset's schema parts (skirmish.content.parts)
    errors = [] if problem is None else [ContentError(label, "ruleset", problem)]
    try:
        spec = parts.scenario.model_validate(raw if problem is None else {**raw, "ruleset": parts.name})
    except ValidationError as exc:
        errors += validation_errors(exc, label, retired=parts.retired_options)
        _check_partial(raw, label, base, armoury, parts, errors)
        return None, errors
    notes: list[str] = []
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
    check_refs(spec.sides, label, grid, armoury, errors, kit=parts.kit)

    def bad(where: str, message: str) -> None:
        errors.append(ContentError(label, where, message))

    if parts.refs is not None:
        parts.refs(spec, grid, bad)
    zones: dict[str, Cells] = {}
    if grid is not None:
        try:
            zones = scenario_zones(spec, grid, _map_zones(spec.map, label, base, grid), bad)
        except ContentError as exc:
            errors.append(exc)
    check_zone_refs(spec, zones, grid, bad)
    if errors or grid is None:
        return None, errors
    return Scenario(spec, grid, armoury, label, stacked, notes, zones), []


def _map_zones(ref: AsciiMap | str, label: str, base: Path, grid: GridMap) -> dict[str, Cells]:
    """The zones of a Tiled map file's object layers (none for an inline map)."""
    if isinstance(ref, AsciiMap):
        return {}
    path = _resolve(ref, base, MAPS_DIR)
    if path is None:
        return {}
    try:
        return tmj_zones(path, ref, grid)
    except ContentError as exc:
        raise ContentError(label, "map", exc.text) from None


def scenario_title(path: str | Path) -> str | None:
    """A scenario file's `name:` read with the loader's bounds (regular file, size, depth), without loading
    its map and deck; None if the file cannot be read or has no usable name (for lists such as the menu's)."""
    label = str(path)
    try:
        raw = _parse_yaml(read_text(Path(path), label, SCENARIO_FILE_LIMIT), label)
        check_tree(raw, label, max_depth=YAML_DEPTH, max_nodes=YAML_NODES)
        name = raw.get("name")
        return single_line(name).strip() or None if isinstance(name, str) else None
    except (ContentError, ValueError):
        return None


def _check_partial(raw: dict[str, Any], label: str, base: Path, armoury: Armoury, parts: SchemaParts,
                   errors: list[ContentError]) -> None:
    """After pydantic's errors, the reference errors in the parts that are valid on their own (the map, the
    deck, each unit by its ruleset's unit model), so one `check` lists every problem in the file."""
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
    sides: list[PartialSide] = []
    raw_sides = raw.get("sides")
    for side in raw_sides if isinstance(raw_sides, list) else []:
        if not isinstance(side, dict):
            continue
        units: list[UnitSpec | None] = []
        raw_units = side.get("units")
        for unit in raw_units if isinstance(raw_units, list) else []:
            try:
                units.append(parts.unit.model_validate(unit))
            except ValidationError:
                units.append(None)  # keeps the indices; already reported
        name = side.get("name")
        raw_orders = side.get("orders")
        orders = [o for o in raw_orders if isinstance(o, str) and len(o) <= MAX_ORDER_LENGTH] \
            if isinstance(raw_orders, list) else []
        sides.append(PartialSide(name if isinstance(name, str) else None, units, orders))
    check_refs(sides, label, grid, armoury, errors, partial=True, kit=parts.kit)


def _parse_yaml(text: str, label: str) -> dict[str, Any]:
    try:
        raw = yaml.safe_load(text)  # the pure-Python parser: libyaml's crashes the process on deep nesting
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise ContentError(label, where, f"not valid YAML: {problem}") from None
    except RecursionError:
        raise ContentError(label, "", f"not valid YAML: nested deeper than {YAML_DEPTH} levels") from None
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
        if suffix in (".yaml", ".yml"):  # a ruleset's data file (e.g. fi_martial_arts.yaml) rather than a scenario
            raw = _parse_yaml(read_text(path, label, SCENARIO_FILE_LIMIT), label)
            check_tree(raw, label, max_depth=YAML_DEPTH, max_nodes=YAML_NODES)
            data_check = data_file_check(raw)
            if data_check is not None:
                return CheckResult(data_check(raw, label))
    except ContentError as exc:
        return CheckResult(None, [exc])
    scenario, errors = check_scenario(path)
    if scenario is None:
        more = len(errors) - MAX_ERRORS
        if more > 0:
            errors = [*errors[:MAX_ERRORS], ContentError(label, "", f"{more} more errors not shown")]
        return CheckResult(None, errors)
    spec = scenario.spec
    units = sum(len(s.units) for s in spec.sides)
    grid = scenario.grid
    extra = [f"{n} {what}" for n, what in ((len(scenario.zones), "zones"),
                                            (sum(len(s.objectives) for s in spec.sides), "objectives"),
                                            (len(spec.triggers), "triggers")) if n]  # issue 15
    return CheckResult(f"'{scenario.name}', map {grid.name} {grid.width}x{grid.height}, "
                       f"{len(spec.sides)} sides, {units} units" + "".join(f", {e}" for e in extra),
                       notes=list(scenario.notes))
