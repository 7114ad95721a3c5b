"""Future Imperfect's scenario schema parts (skirmish.content.parts): its `options:` block (RULES: R-3.1 the
randomizer and deck, R-3.2 the scope, R-5.1 initiative cards, R-8.2 concussion saves, R-6.11
unintended targets) and its units' traits
(Strength … Acuity as 'III-2': column I..VI, training 1-5) and skills (levels 1-5). Registered as the
built-in ruleset's parts; shared code reaches them through `skirmish.content.parts.schema_parts("fi")`."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool, StrictInt, field_validator

from skirmish.content.errors import quote
from skirmish.content.limits import Name
from skirmish.content.parts import SchemaParts, register_parts
from skirmish.content.schema import RulesetOptions, UnitSpec
from skirmish.rules.deck import BUILTIN_DECKS
from skirmish.rules.equipment import parse_trait

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


FI_PARTS = register_parts(SchemaParts("fi", "Future Imperfect", Options, Unit, RETIRED_OPTIONS))
