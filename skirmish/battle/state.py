"""The battle's state hash in canonical JSON (docs/RECORDS.md; `Battle.state_hash` gathers the state)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import is_dataclass
from operator import attrgetter
from typing import Any

from skirmish.ecs import components as ecs_components

# Every component type, for state_hash (found once: a new component is hashed without being listed).
COMPONENT_TYPES = tuple(t for t in vars(ecs_components).values()
                        if isinstance(t, type) and is_dataclass(t) and t.__module__ == ecs_components.__name__)


def _plain(value: Any) -> Any:
    if is_dataclass(value):
        return attrgetter(*value.__dataclass_fields__)(value)  # the fields' values in their order
    if isinstance(value, set | frozenset):
        return sorted(value)
    if hasattr(value, "item"):  # a numpy scalar
        return value.item()
    raise TypeError(f"state_hash: cannot write {type(value).__name__}")


def state_digest(state: dict[str, Any]) -> str:
    """sha256 of `state` as canonical JSON: keys sorted, no spaces, dataclasses as their fields' values in order,
    sets sorted, numpy scalars as plain numbers."""
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
