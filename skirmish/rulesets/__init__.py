"""The shipped rulesets, registered on import (ARCHITECTURE §5). Code above `rules/` reaches a ruleset's
rules only through here: `get(name)` for the binding, or a ruleset's facade module (`skirmish.rulesets.fi`)
for the ruleset-specific names that AIs and the board use."""

from __future__ import annotations

from skirmish.core.ruleset import REGISTRY, Ruleset, get
from skirmish.rulesets import fi as _fi  # noqa: F401  (registers "fi")
from skirmish.rulesets import fw as _fw  # noqa: F401  (registers "fw")

__all__ = ["REGISTRY", "Ruleset", "get"]
