"""What is kept about a map, by its content (`GridMap.content_key`), for the whole process: `GridMap.kept` and
the sight table of every map with that content come from here, so a scenario loaded again (a tournament loads
one per pair) finds what battles on the same map kept before. The last MAPS_KEPT contents are kept. Nothing
kept may refer to a map object (docs/ENGINE.md "What is kept")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from skirmish.rules.geometry import GridMap
    from skirmish.rules.sight_bake import SightBake
    from skirmish.rules.sight_table import SightTable

MAPS_KEPT = 4  # maps (by content) whose kept state a process keeps, the last used
# Where a map's sight table looks for a bake of its sight when it is made (rules/sight_bake.py), in order; the first
# to give one wins. The rules read no files: skirmish.content.sight_bakes adds the finder that does.
SIGHT_FINDERS: list[Callable[[GridMap], SightBake | None]] = []


@dataclass
class MapState:
    """What is kept about one map's content: `GridMap.kept` and its sight table."""

    kept: dict[str, Any]
    sight: SightTable | None = None


_MAP_STATES: dict[tuple[Any, ...], MapState] = {}  # by GridMap.content_key, oldest used first


def map_state(grid: GridMap) -> MapState:
    """The state kept for maps with `grid`'s content, made on first use; beyond MAPS_KEPT contents the one
    asked for least recently is dropped (maps already holding it keep it as long as they live). A map asks once,
    on first use (`GridMap.kept` and its sight table are cached properties), so "recently" means "recently
    loaded"."""
    key = grid.content_key
    state = _MAP_STATES.pop(key, None)
    if state is None:
        state = MapState({})
        while len(_MAP_STATES) >= MAPS_KEPT:
            del _MAP_STATES[next(iter(_MAP_STATES))]
    _MAP_STATES[key] = state
    return state


def forget_all() -> None:
    """Drop what is kept about every map (their sight tables with it): maps first used after this start afresh, and
    look for a bake of their sight again (the bench's --no-bake)."""
    _MAP_STATES.clear()
