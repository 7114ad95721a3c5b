"""The scenario schema shared by every ruleset (pydantic models: units, sides, map, deck, victory), and
pydantic's errors read as one line each at the key path the file uses (C-6, STYLE 10). A ruleset's own parts
(its options, its units' traits and skills) are in skirmish.content.parts; loading is skirmish.content.scenario."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

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
    ValidationError,
    field_validator,
)

from skirmish.content.colours import parse_colour
from skirmish.content.errors import ContentError, key_path, one_line, quote
from skirmish.content.limits import (
    MAX_DESCRIPTION,
    MAX_ORDERS,
    MAX_ROUNDS,
    MAX_SIDES,
    MAX_UNITS_PER_SIDE,
    FileName,
    Name,
    OrderText,
    plain_text,
)
from skirmish.content.objectives import MAX_OBJECTIVES, MAX_TRIGGERS, MAX_ZONES, Objective, Trigger, Zone
from skirmish.content.tiled import MAX_MAP_SIDE

CONTROLLERS = ("scripted", "ai", "idle")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class RulesetOptions(_Strict):
    """A ruleset's `options:` block: each ruleset's schema parts (skirmish.content.parts) subclass it with
    their own optional rules and switches, every one with a default (RULES)."""


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
    """One combatant: what every ruleset's units share. A ruleset's schema parts subclass it to check the
    unit's `traits` and `skills` their own way (skirmish.content.fi for Future Imperfect)."""

    name: Name
    at: tuple[StrictInt, StrictInt]
    traits: dict[str, Any]
    skills: dict[Name, Any] = Field(default_factory=dict, max_length=50)
    size: StrictInt = Field(6, ge=1, le=36)
    armour: list[Name] = Field(default_factory=list, max_length=10)
    weapons: list[WeaponRef] = Field(default_factory=list, max_length=10)
    tacpack: TacpackSpec | None = None
    prone: StrictBool = False
    wounds: StrictInt = Field(0, ge=0, le=5)


# The AIs a side may name (skirmish.ai.controllers.make_ai); utility takes an optional personality.
AI_PATTERN = (r"^(baseline|hold|random|rush|focus|spread|(utility|search)(:(easy|normal|hard|aggressive|cautious))?)$")


class SideSpec(_Strict):
    """A side, its controller, its colour on the board (a name or #rrggbb; optional) and its units."""

    name: Name
    colour: str | None = Field(None, max_length=32)
    controller: Literal["scripted", "ai", "idle"] = "ai"
    ai: str = Field("utility", max_length=40)
    orders: list[OrderText] = Field(default_factory=list, max_length=MAX_ORDERS)
    units: list[UnitSpec] = Field(min_length=1, max_length=MAX_UNITS_PER_SIDE)
    objectives: list[Objective] = Field(default_factory=list, max_length=MAX_OBJECTIVES,
                                        description="what the side plays for (docs/FILES.md)")
    deployment: Name | None = Field(None, description="a zone: the side's units are placed inside it before "
                                    "round 1 (by a person on the board; an AI side keeps `at` if inside, else the "
                                    "nearest free cells)")

    @field_validator("ai")
    @classmethod
    def _ai(cls, v: str) -> str:
        if not re.match(AI_PATTERN, v):
            raise ValueError("expected an AI: baseline, hold, random, rush, focus, spread, utility or search, "
                             f"optionally utility:easy|normal|hard|aggressive|cautious (search: too); got {quote(v)}")
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
    """A whole scenario file: the shared part. Each ruleset's scenario model (skirmish.content.parts) narrows
    `ruleset` to its name, `options` to its options model and the sides' units to its unit model."""

    name: Name
    description: Annotated[str, StringConstraints(max_length=MAX_DESCRIPTION), AfterValidator(plain_text)] = ""
    ruleset: str = Field("fi", max_length=40)
    seed: StrictInt = Field(1, ge=0, le=2**63 - 1)
    options: RulesetOptions = RulesetOptions()
    map: MapRef
    deck: DeckSpec | None = None
    sides: list[SideSpec] = Field(min_length=2, max_length=MAX_SIDES)
    victory: Victory = Victory()
    zones: dict[Name, Zone] = Field(default_factory=dict, max_length=MAX_ZONES,
                                    description="named areas (cells); a Tiled map's object layers add more")
    triggers: list[Trigger] = Field(default_factory=list, max_length=MAX_TRIGGERS,
                                    description="when a condition becomes true, do the effects in order")


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


def _message(err: dict[str, Any], loc: Sequence[Any], retired: Mapping[str, str]) -> str:
    kind = err.get("type")
    if kind == "extra_forbidden":
        if len(loc) == 2 and loc[0] == "options" and loc[1] in retired:
            return f"not built yet ({retired[str(loc[1])]}); remove it"
        return "unknown key"
    if kind == "model_type":  # pydantic names the model class; the file knows only mappings
        return f"Input should be a valid dictionary, got {quote(err.get('input'))}"
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


def validation_errors(exc: ValidationError, label: str, prefix: tuple[str, ...] = (), *,
                      retired: Mapping[str, str] | None = None) -> list[ContentError]:
    """pydantic's errors as ContentErrors, one a problem, at the file's key paths (`prefix` first).
    `retired`: the ruleset's options that were accepted once and return with their own issue (name: rule)."""
    out = []
    for err in exc.errors():
        loc = [*prefix, *_clean_loc(tuple(err.get("loc", ())))]
        out.append(ContentError(label, key_path(loc), _message(dict(err), loc, retired or {})))
    return out
