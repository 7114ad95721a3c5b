"""Future Imperfect's scenario schema parts (skirmish.content.parts): its `options:` block (RULES: R-3.1 the
randomizer and deck, R-3.2 the scope, R-5.1 initiative cards, R-8.2 concussion saves, R-6.11
unintended targets) and its units' traits
(Strength … Acuity as 'III-2': column I..VI, training 1-5) and skills (levels 1-5). Registered as the
built-in ruleset's parts; shared code reaches them through `skirmish.content.parts.schema_parts("fi")`."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Literal

import yaml
from pydantic import AfterValidator, Field, StrictBool, StrictInt, field_validator

from skirmish.content.armoury import shipped
from skirmish.content.errors import ContentError, quote
from skirmish.content.fi_mind import Fearsome, FiSide, Surprise, fearsome_key, surprise_key
from skirmish.content.fi_mounts import MOUNT_FIELDS, check_mounts
from skirmish.content.limits import Name, OrderText
from skirmish.content.parts import SchemaParts, register_parts
from skirmish.content.schema import RulesetOptions, UnitSpec
from skirmish.rules.deck import BUILTIN_DECKS
from skirmish.rules.equipment import parse_trait
from skirmish.rules.fi import arts
from skirmish.rules.fi import melee_actions as _melee_actions  # noqa: F401  (registers the melee verbs for orders)
from skirmish.rules.fi import mind as _mind  # noqa: F401  (registers the `contest` verb for scripted orders)
from skirmish.rules.fi.arts_data import parse_levels, parse_martial_arts, skill_discipline
from skirmish.rules.fi.chips import BIN, COLOURS, parse_chip_order
from skirmish.rules.fi.mounts import MOUNT_KINDS  # (and registers the mount and dismount verbs and events)

ARTS_FILE = "fi_martial_arts.yaml"

TRAITS = ("strength", "dexterity", "reflexes", "vigor", "acuity")
# Options accepted once but never built: they return with their own issue.
RETIRED_OPTIONS = {"cover_reach": "R-6.6"}


class Options(RulesetOptions):
    """Future Imperfect's optional rules and switches (RULES: every option has a default)."""

    randomizer: Literal["cards", "dice"] = "cards"
    deck: str = "A"
    scope: Literal["pulp", "gritty"] = "pulp"
    initiative_cards: Literal["one", "per_side", "per_character"] = "one"
    concussion_saves: StrictBool = True
    initiative: Literal["phases", "cards"] = "phases"  # card hands instead of phases
    contests: Literal["opposed", "simple"] = "opposed"  # opposed tests, or the seed's simple contests
    contest_speed: Literal["fast", "normal", "slow"] = "normal"  # auxiliary, hurried (000: speed 1)
    contest_range_m: StrictInt = Field(20, ge=1, le=200)  # how far a contest carries
    martial_arts: StrictBool = False  # practitioners use their maneuver pools in melee
    chips: StrictBool = False  # story chips
    unintended_targets: StrictBool = True  # missed rounds may strike figures on the line of fire

    @field_validator("deck")
    @classmethod
    def _deck(cls, v: str) -> str:
        if v not in BUILTIN_DECKS:
            raise ValueError(f"expected a built-in deck ({', '.join(BUILTIN_DECKS)}), got {quote(v)}")
        return v


class Unit(UnitSpec):
    """A Future Imperfect combatant: five traits as 'III-2' and skills at levels 1-5."""

    traits: dict[str, str]
    skills: dict[Name, StrictInt] = Field(default_factory=dict, max_length=50)
    melee: list[Name] = Field(default_factory=list, max_length=5)  # hand-to-hand weapons carried, first in hand
    surprised: Surprise | None = None  # R-8.3 (skirmish.content.fi_mind)
    fearsome: Fearsome | None = None  # 000 "Fear and Terror"

    @field_validator("surprised", mode="before")
    @classmethod
    def _surprised(cls, v: object) -> object:
        return surprise_key(v)

    @field_validator("fearsome", mode="before")
    @classmethod
    def _fearsome(cls, v: object) -> object:
        return fearsome_key(v)
    # per discipline (id or name, with its `Martial Arts:<discipline>` skill), one entry per level:
    # `basic` or {techniques, dice, extras, effects, external}; checked against fi_martial_arts.yaml on load.
    martial_arts: dict[Name, Annotated[list[Any], Field(min_length=1, max_length=5)]] = \
        Field(default_factory=dict, max_length=5)
    mounted: StrictBool = False  # fires from a mount or a moving vehicle (-2)
    two_weapons: StrictBool = False  # holds its first two fired weapons one in each hand

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


def check_melee(spec: Any, grid: Any, bad: Callable[[str, str], None]) -> None:
    """Every unit's `melee:` names hand-to-hand weapons of the shipped tables (R-7, STYLE 10)."""
    table = shipped().melee
    for si, side in enumerate(spec.sides):
        for ui, unit in enumerate(side.units):
            for mi, mid in enumerate(getattr(unit, "melee", ())):
                if mid not in table:
                    bad(f"sides[{si}].units[{ui}].melee[{mi}]",
                        f"unknown melee weapon {quote(mid)}; known: {', '.join(sorted(table))}")


def _chip_order(text: str) -> str:
    parse_chip_order(text)  # ValueError saying what is wrong
    return text


ChipOrder = Annotated[OrderText, AfterValidator(_chip_order)]


class Side(FiSide):
    """A Future Imperfect side (`surprised`, R-8.3, from FiSide) and, with option `chips` (R-8.5), the story
    chips it carries over from an earlier session, how many it draws (default: 1 for an `ai` side, else up to 3
    less those held) and the chip orders a scripted side spends them by (`UNIT check COLOUR USE`, `UNIT wounds
    COLOUR…`)."""

    chips: dict[Literal["white", "red", "blue"], Annotated[StrictInt, Field(ge=0, le=50)]] = \
        Field(default_factory=dict)
    chip_draws: StrictInt | None = Field(None, ge=0, le=10)
    chip_orders: list[ChipOrder] = Field(default_factory=list, max_length=100)


def check_chips(spec: Any, bad: Callable[[str, str], None]) -> None:
    """Chips carried over fit in the bin (R-8.5); chip orders name units of their own side."""
    for colour in COLOURS:
        held = sum(getattr(s, "chips", {}).get(colour, 0) for s in spec.sides)
        if held > BIN[colour]:
            bad("sides", f"the sides hold {held} {colour} chips; the bin has {BIN[colour]} (R-8.5)")
    for si, side in enumerate(spec.sides):
        names = {u.name for u in side.units}
        for oi, text in enumerate(getattr(side, "chip_orders", [])):
            unit = parse_chip_order(text)[0]
            if unit not in names:
                bad(f"sides[{si}].chip_orders[{oi}]", f"chip order for {quote(unit)}, who is not on side "
                    f"{quote(side.name)}")


def parse_arts(raw: Any, file: str) -> arts.MartialArts:
    """The martial arts tables (R-7.7) from parsed YAML; ContentError naming the file and key (C-6)."""
    try:
        return parse_martial_arts(raw)
    except arts.ArtsError as exc:
        raise ContentError(file, exc.where, exc.message) from None


@lru_cache(maxsize=1)
def shipped_arts() -> arts.MartialArts:
    """The martial arts disciplines shipped with skirmish (skirmish/data/fi_martial_arts.yaml)."""
    text = resources.files("skirmish.data").joinpath(ARTS_FILE).read_text(encoding="utf-8")
    return parse_arts(yaml.safe_load(text), f"skirmish/data/{ARTS_FILE}")


def check_arts_file(raw: Any, file: str) -> str:
    """`skirmish check` on a martial arts file: its summary, or ContentError naming the key."""
    tables = parse_arts(raw, file)
    return f"martial arts, {len(tables.disciplines)} disciplines ({', '.join(d.name for d in tables.disciplines.values())})"


def check_unit_arts(spec: Any, grid: Any, bad: Callable[[str, str], None]) -> None:
    """Every unit's `Martial Arts:<discipline>` skills and per-level choices against the shipped disciplines
    (R-7.7): a known discipline, one entry per skill level, the customisation rules (points, limits, extras)."""
    tables = shipped_arts()
    names = ", ".join(quote(d.name) for d in tables.disciplines.values())
    for si, side in enumerate(spec.sides):
        for ui, unit in enumerate(side.units):
            where, levels = f"sides[{si}].units[{ui}]", {}
            for skill, level in unit.skills.items():
                name = skill_discipline(skill)
                d = None if name is None else tables.discipline(name)
                if name is not None and d is None:
                    bad(f"{where}.skills", f"{quote(skill)}: unknown martial arts discipline; the shipped ones are {names}")
                elif d is not None:
                    levels[d.id] = level
            for key, raw in unit.martial_arts.items():
                at, d = f"{where}.martial_arts.{key}", tables.discipline(key)
                if d is None:
                    bad(at, f"unknown discipline {quote(key)}; the shipped ones are {names}")
                    continue
                if d.id not in levels:
                    bad(at, f"choices for {quote(d.name)} need the skill 'Martial Arts:{d.name}' (R-7.7)")
                elif len(raw) != levels[d.id]:
                    bad(at, f"{len(raw)} levels of choices for the skill at level {levels[d.id]}; give one per level")
                try:
                    chosen = parse_levels(tables, d, raw)
                except arts.ArtsError as exc:
                    bad(_join(at, exc.where), exc.message)
                    continue
                for w, message in arts.check(tables, d, chosen):
                    bad(_join(at, w), message)


def martial_arts_pools(unit: Any) -> dict[str, tuple[arts.Discipline, int, dict[str, arts.Pool]]]:
    """A checked unit's disciplines with choices: id -> (discipline, level, maneuver pools), for the melee
    engine (R-7.7: `arts.use_maneuver(shipped_arts(), pools, maneuver, effects)`)."""
    tables, out = shipped_arts(), {}
    for key, raw in getattr(unit, "martial_arts", {}).items():
        d = tables.discipline(key)
        if d is not None:
            levels = parse_levels(tables, d, raw)
            out[d.id] = (d, len(levels), arts.pools(tables, d, levels))
    return out


def check_refs(spec: Any, grid: Any, bad: Callable[[str, str], None]) -> None:
    """Future Imperfect's own cross-checks: melee weapons (R-7), martial arts (R-7.7) and story chips (R-8.5)."""
    check_melee(spec, grid, bad)
    check_unit_arts(spec, grid, bad)
    check_chips(spec, bad)
    check_mounts(spec, grid, bad, MOUNT_KINDS)  # mounts in play (R-6.1, skirmish.content.fi_mounts)


def _join(at: str, where: str) -> str:
    return at + where if not where or where.startswith("[") else f"{at}.{where}"


FI_PARTS = register_parts(SchemaParts("fi", "Future Imperfect", Options, Unit, RETIRED_OPTIONS,
                                      refs=check_refs, data_files=(("disciplines", check_arts_file),),
                                      side_base=Side, fields=MOUNT_FIELDS))
