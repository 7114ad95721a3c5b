"""The ruleset seam (ARCHITECTURE §5): what a ruleset brings, and the registry that names them.

A ruleset is registered by name (as python-chess registers variants and OpenSpiel registers games); the
battle, the loaders, the log, the AIs and the board find it with `get(name)` and reach its rules only
through it. `skirmish.rulesets` registers the shipped rulesets when it is imported.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Ruleset(Protocol):
    """One ruleset's binding of rules, systems, round table, legality, views and log text."""

    name: str  # the scenario's `ruleset:` value
    title: str  # how people name it

    def systems(self, ctx: Any) -> Any:
        """The systems that apply actions in one battle (over its world, grid, randomizer and log)."""
        ...

    def spawn(self, ctx: Any, unit: Any, side: str, side_index: int, order: int) -> int:
        """Put one unit of the scenario into the battle's world; returns its entity."""
        ...


REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset under its name (a second one of the same name is a programming error)."""
    if ruleset.name in REGISTRY:
        raise ValueError(f"ruleset {ruleset.name!r} is registered twice")
    REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    """The ruleset registered under `name`; KeyError naming the registered ones if none is."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"no ruleset {name!r} (registered: {', '.join(sorted(REGISTRY)) or 'none'})") from None
