"""Scenario limits (docs/FILES.md) and the text checks the schema's names and texts share: what a battle can
honour at interactive speed, far above any shipped scenario."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, StringConstraints

from skirmish.content.errors import KIB, MIB, quote, unprintable

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
YAML_DEPTH = 16
YAML_NODES = 50_000
MAX_THROWN = 10  # grenades one combatant may carry (ammo of a thrown weapon)


def single_line(v: str) -> str:
    """A name or value on one line: no control characters or line breaks (ValueError, the value quoted)."""
    if unprintable(v) is not None:
        raise ValueError(f"may not contain control characters or line breaks, got {quote(v)}")
    return v


def plain_text(v: str) -> str:
    """A free text (a description): line breaks and tabs, but no other control characters."""
    bad = unprintable(v, allow="\n\t")
    if bad is not None:
        raise ValueError(f"may not contain control characters, got {quote(bad)}")
    return v


Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME), AfterValidator(single_line)]
FileName = Annotated[str, StringConstraints(min_length=1, max_length=MAX_FILE_NAME), AfterValidator(single_line)]
OrderText = Annotated[str, StringConstraints(max_length=MAX_ORDER_LENGTH), AfterValidator(single_line)]
