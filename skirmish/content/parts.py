"""A ruleset's scenario schema parts (issue 11 item 1, ARCHITECTURE §5): what a scenario file holds that
differs between rulesets. Here the registry that names them, and the scenario models composed from them.

Each ruleset brings its `options:` model (a RulesetOptions with a default for every option), its unit model (a
UnitSpec that checks `traits` and `skills` its own way) and the options it once accepted and retired; the rest
of the file (name, description, seed, map, deck, sides, units' name/at/size/armour/weapons/tacpack/prone/
wounds, victory) is skirmish.content.schema, shared. A scenario's `ruleset:` picks the parts (`pick`), so a
new ruleset's schema arrives as a new module that calls `register_parts` (as skirmish.content.fi does), and its
binding (skirmish.rulesets.<name>) lists them as `scenario_parts`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import Field, create_model

from skirmish.content.errors import quote
from skirmish.content.limits import MAX_SIDES, MAX_UNITS_PER_SIDE
from skirmish.content.objectives import MAX_TRIGGERS, trigger_model
from skirmish.content.schema import RulesetOptions, ScenarioSpec, SideSpec, UnitSpec

DEFAULT = "fi"  # the ruleset of a scenario that names none
# Rulesets a scenario may name that are not built yet: refused on load with their title. A ruleset's issue
# moves it from here to a parts module of its own, imported at the bottom of this one.
PLANNED: dict[str, str] = {}


@dataclass(frozen=True)
class SchemaParts:
    """One ruleset's scenario schema parts, and the models composed from them and the shared schema:
    `side` (a SideSpec whose units are `unit`) and `scenario` (a ScenarioSpec whose `ruleset` is `name`,
    whose `options` are `options` and whose sides are `side`)."""

    name: str  # the scenario's `ruleset:` value
    title: str  # how people name it
    options: type[RulesetOptions]
    unit: type[UnitSpec]
    retired_options: Mapping[str, str] = field(default_factory=dict)  # option: the rule it returns with
    # The units' kit checked against the ruleset's own tables: (unit, its key path, bad(where, message)).
    # None: the shared check against the scenario's armoury (Future Imperfect's tables, references._check_kit).
    kit: Callable[[UnitSpec, str, Callable[[str, str], None]], None] | None = None
    # The ruleset's own cross-checks of the whole scenario against its map (None: none): (spec, grid or None
    # when the map failed to load, bad(where, message)); e.g. Future*World's grav cars.
    refs: Callable[[Any, Any, Callable[[str, str], None]], None] | None = None
    # Data files `skirmish check` reads as this ruleset's tables rather than a scenario: (a top-level key that
    # marks one, check(parsed YAML, label) -> its summary line, or ContentError), e.g. FI's martial arts.
    data_files: tuple[tuple[str, Callable[[Any, str], str]], ...] = ()
    side_base: type[SideSpec] = SideSpec  # the sides' model, e.g. with the ruleset's own AIs (its `units` are `unit`)
    # The ruleset's own top-level scenario keys: name -> (type, pydantic Field), e.g. FI's `mounts:`.
    fields: Mapping[str, tuple[Any, Any]] = field(default_factory=dict)
    side: type[SideSpec] = field(init=False, repr=False)
    scenario: type[ScenarioSpec] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if any(f.is_required() for f in self.options.model_fields.values()):
            raise ValueError(f"ruleset {self.name!r}: every option needs a default")
        if set(self.options.model_fields) & set(self.retired_options):
            raise ValueError(f"ruleset {self.name!r}: an option is both built and retired")
        units: Any = list[self.unit]  # type: ignore[name-defined]
        side: Any = create_model("SideSpec", __base__=self.side_base, __module__=self.unit.__module__,
                                 units=(units, Field(min_length=1, max_length=MAX_UNITS_PER_SIDE)))
        tag: Any = Literal[self.name]
        triggers: Any = list[trigger_model(self.unit)]  # type: ignore[misc]  # reinforcements are `unit`s
        extra: Any = dict(self.fields)
        scenario: Any = create_model("ScenarioSpec", __base__=ScenarioSpec, __module__=self.unit.__module__,
                                     ruleset=(tag, self.name), options=(self.options, self.options()),
                                     sides=(list[side], Field(min_length=2, max_length=MAX_SIDES)),
                                     triggers=(triggers, Field(default_factory=list, max_length=MAX_TRIGGERS)),
                                     **extra)
        object.__setattr__(self, "side", side)
        object.__setattr__(self, "scenario", scenario)


PARTS: dict[str, SchemaParts] = {}


def register_parts(parts: SchemaParts) -> SchemaParts:
    """Add a ruleset's schema parts under its name (a second one of the same name is a programming error)."""
    if parts.name in PARTS:
        raise ValueError(f"scenario parts for ruleset {parts.name!r} are registered twice")
    PARTS[parts.name] = parts
    return parts


def schema_parts(name: str) -> SchemaParts:
    """The schema parts registered under `name`; KeyError naming the registered ones if none is."""
    try:
        return PARTS[name]
    except KeyError:
        raise KeyError(f"no scenario parts for ruleset {name!r} (registered: {', '.join(sorted(PARTS))})") from None


def data_file_check(raw: Any) -> Callable[[Any, str], str] | None:
    """The check for a ruleset's data file (`SchemaParts.data_files`) that `raw` (parsed YAML) is, else None:
    a mapping without `sides` holding a key some ruleset's data files are marked by."""
    if not isinstance(raw, Mapping) or "sides" in raw:
        return None
    for parts in PARTS.values():
        for key, check in parts.data_files:
            if key in raw:
                return check
    return None


def pick(raw: Mapping[str, Any]) -> tuple[SchemaParts, str | None]:
    """The parts a scenario's `ruleset:` names, and what is wrong with that key (None if nothing). A file
    naming a ruleset that is unknown or not built yet is checked with the default parts, so that its other
    problems are still listed."""
    name = raw.get("ruleset", DEFAULT)
    if isinstance(name, str) and name in PLANNED:  # (its parts may be registered while its binding is built)
        return PARTS[DEFAULT], f"{name!r} ({PLANNED[name]}) is not playable yet; use {DEFAULT!r}"
    if isinstance(name, str) and name in PARTS:
        return PARTS[name], None
    known = [repr(n) for n in sorted(set(PARTS) | set(PLANNED))]
    return PARTS[DEFAULT], f"expected a ruleset ({', '.join(known)}), got {quote(name)}"


from skirmish.content import fi as _fi  # noqa: E402, F401  (registers "fi", the built-in; it imports this module)
from skirmish.content import fw as _fw  # noqa: E402, F401  (registers "fw", Future*World's parts)
