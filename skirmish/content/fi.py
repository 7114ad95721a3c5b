"""Future Imperfect's scenario schema parts (skirmish.content.parts): its `options:` block (RULES: R-3.1 the
randomizer and deck, R-3.2 the scope, R-5.1 initiative cards, R-8.2 concussion saves) and its units' traits
(Strength … Acuity as 'III-2': column I..VI, training 1-5) and skills (levels 1-5). Registered as the
built-in ruleset's parts; shared code reaches them through `skirmish.content.parts.schema_parts("fi")`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field, StrictBool, StrictInt, field_validator

from skirmish.content.armoury import shipped
from skirmish.content.errors import quote
from skirmish.content.fi_mind import Fearsome, FiSide, Surprise, fearsome_key, surprise_key
from skirmish.content.limits import Name
from skirmish.content.parts import SchemaParts, register_parts
from skirmish.content.schema import RulesetOptions, UnitSpec
from skirmish.rules.deck import BUILTIN_DECKS
from skirmish.rules.equipment import parse_trait
from skirmish.rules.fi import melee_actions as _melee_actions  # noqa: F401  (registers the melee verbs for orders)
from skirmish.rules.fi import mind as _mind  # noqa: F401  (registers the `contest` verb for scripted orders)

TRAITS = ("strength", "dexterity", "reflexes", "vigor", "acuity")
# Options accepted once but never built: they return with their own issue.
RETIRED_OPTIONS = {"unintended_targets": "R-6.11", "cover_reach": "R-6.6"}


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


FI_PARTS = register_parts(SchemaParts("fi", "Future Imperfect", Options, Unit, RETIRED_OPTIONS, refs=check_melee,
                                      side_base=FiSide))
