"""Reach fields kept between questions (an AI's decisions, legality's lists of moves): `geo.reach_field`
answers again only when a cell its search looked at has been blocked or freed since (then the search would go
exactly as before, so the kept field is the answer bit for bit). Units mostly move one at a time and far from
most others, so most fields stand."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.rules import geometry as geo

Field = npt.NDArray[np.float64]


@dataclass
class _Kept:
    """A reach field with the cells it was worked out round: which were blocked, and `near`, every cell the
    search looked at (the reachable ones and the ring around them)."""

    blocked: npt.NDArray[np.bool_]
    field: Field
    near: npt.NDArray[np.bool_]


def ring(inside: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """The cells in `inside` and their eight neighbours."""
    out = inside.copy()
    out[1:, :] |= inside[:-1, :]
    out[:-1, :] |= inside[1:, :]
    grown = out.copy()
    grown[:, 1:] |= out[:, :-1]
    grown[:, :-1] |= out[:, 1:]
    return grown


class ReachCache:
    """Reach fields by start cell and limit, on one map at a time (at most `size` kept)."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._kept: dict[tuple[geo.Cell, float], _Kept] = {}
        # (start, limit) -> (the cells the kept field's search looked at, a byte per cell of the map, the figures
        # among them but the start, the field): `field_among`
        self._among: dict[tuple[geo.Cell, float], tuple[bytes, frozenset[geo.Cell], Field]] = {}
        self._grid: geo.GridMap | None = None

    def field(self, grid: geo.GridMap, start: geo.Cell, limit: float, blocked: npt.NDArray[np.bool_]) -> Field:
        """`geo.reach_field(grid, start, limit, blocked)`, read-only. Whether the start cell itself counts as
        blocked makes no difference to the field (no route comes back to it, and no corner beside it is cut
        on a shortest way), so both forms ask the same question."""
        if self._grid is not grid:
            self._kept.clear()
            self._among.clear()
            self._grid = grid
        elif len(self._kept) > self.size:  # drop the half asked for longest ago
            for key in list(self._kept)[: len(self._kept) // 2]:
                del self._kept[key]
        blocked = blocked.copy()
        blocked[start[1], start[0]] = True
        kept = self._kept.get((start, limit))
        if kept is not None:
            changed = kept.blocked != blocked
            if not (changed & kept.near).any():
                kept.blocked = blocked
                self._kept[(start, limit)] = self._kept.pop((start, limit))  # now the last asked for
                return kept.field
        field = shared_field(grid, start, limit, blocked)
        self._kept[(start, limit)] = _Kept(blocked, field, ring(np.isfinite(field)))
        return field

    def field_among(self, grid: geo.GridMap, start: geo.Cell, limit: float, figures: Collection[geo.Cell]) -> Field:
        """`field(grid, start, limit, blocked)` with `blocked` the cells in `figures` (figures other than the one
        at `start`), answered from the same kept field while the figures among the cells its search looked at
        are the same ones: a set of a few cells compared, where `field` compares whole-map arrays. The cells
        looked at are kept as one byte per cell of the map (`near`, row by row), read per figure.

        A new field is the map's (`shared_field`), its key made from the figures' cells read in `within_reach`'s
        bytes (the same sorted cells as `shared_field` finds in whole-map arrays), so no array is built, copied or
        compared unless the map has not worked the field out yet."""
        key = (start, limit)
        w = grid.width
        if self._grid is grid:
            kept = self._among.get(key)
            if kept is not None:
                near, was, field = kept
                if frozenset(c for c in figures if near[c[1] * w + c[0]] and c != start) == was:
                    self._among[key] = self._among.pop(key)  # now the last asked for
                    return field
        else:
            self._kept.clear()
            self._among.clear()
            self._grid = grid
        reads = within_reach_bytes(grid, start, limit)
        s = start[1] * w + start[0]
        shut = {s}
        for x, y in figures:
            i = y * w + x
            if reads[i]:
                shut.add(i)
        field = shared_field(grid, start, limit, None, tuple(sorted(shut)), figures)
        if len(self._among) > self.size:  # drop the half asked for longest ago
            for old in list(self._among)[: len(self._among) // 2]:
                del self._among[old]
        near = ring_bytes(grid, field)  # C order: cell (x, y) at y * width + x
        self._among[key] = (near, frozenset(c for c in figures if near[c[1] * w + c[0]] and c != start), field)
        return field


def ring_bytes(grid: geo.GridMap, field: Field) -> bytes:
    """`ring(np.isfinite(field)).tobytes()` for a field the map keeps (`shared_field`), kept beside it."""
    rings: dict[int, tuple[Field, bytes]] = grid.kept.setdefault("reach_rings", {})
    k = rings.get(id(field))
    if k is not None and k[0] is field:
        return k[1]
    if len(rings) >= max(16, SHARED_CELLS_KEPT // (grid.width * grid.height)):
        rings.clear()
    near = ring(np.isfinite(field)).tobytes()
    rings[id(field)] = (field, near)
    return near


SHARED_CELLS_KEPT = 1 << 21  # cells of reach fields shared per map (8 bytes each) before they start again


def shared_field(grid: geo.GridMap, start: geo.Cell, limit: float, blocked: npt.NDArray[np.bool_] | None,
                 shut: tuple[int, ...] | None = None, figures: Collection[geo.Cell] = ()) -> Field:
    """`geo.reach_field(grid, start, limit, blocked)`, read-only, kept per map (`GridMap.kept`) for every
    ReachCache, AI and battle on it, by the start, the limit and the blocked cells the search could look at.

    The search only reaches cells within `limit` of the start as the crow flies, over the cheapest ground (a
    step costs its length times the move cost of the cell entered), so it reads the blocks only on those cells
    and the ring around them (`near`, `within_reach`): blocks elsewhere cannot change the field, and the same
    blocks there give the same field bit for bit. Battles on one map start from the same cells, so their first
    moves ask the same questions.

    `shut` (`ReachCache.field_among`): those cells already found (`np.flatnonzero(blocked & near)`, sorted), with
    `blocked` None: then it is made from `figures` and the start only if the field is worked out."""
    kept: dict[str, Any] = grid.kept
    fields: dict[tuple[geo.Cell, float, tuple[int, ...]], Field] = kept.setdefault("reach_fields", {})
    if shut is None:
        assert blocked is not None
        shut = tuple(np.flatnonzero(blocked & within_reach(grid, start, limit)).tolist())
    key = (start, limit, shut)
    field = fields.get(key)
    if field is None:
        if blocked is None:
            blocked = np.zeros((grid.height, grid.width), dtype=bool)
            if figures:
                xs, ys = zip(*figures, strict=True)
                blocked[list(ys), list(xs)] = True
            blocked[start[1], start[0]] = True
        if len(fields) >= max(16, SHARED_CELLS_KEPT // (grid.width * grid.height)):
            fields.clear()
        field = fields[key] = geo.reach_field(grid, start, limit, blocked)
        field.flags.writeable = False
    return field


def within_reach(grid: geo.GridMap, start: geo.Cell, limit: float) -> npt.NDArray[np.bool_]:
    """Every cell a search from `start` within `limit` could read (`shared_field`'s `near`): those no farther
    than limit / (the least move cost) in a straight line, and their ring (a cell's neighbours are within √2;
    1.5 taken). A route's cost is at least its length times the least move cost, and its length at least the
    straight line, so every cell the search reaches is among them. Kept per map by start and limit (no search:
    the distances are the map's table)."""
    nears: dict[tuple[geo.Cell, float], npt.NDArray[np.bool_]] = grid.kept.setdefault("reach_near", {})
    near = nears.get((start, limit))
    if near is None:
        if len(nears) >= max(16, SHARED_CELLS_KEPT // (grid.width * grid.height)):
            nears.clear()
        cheapest = grid.kept.get("least_move_cost")
        if cheapest is None:
            costs = grid.move_cost[grid.move_cost > 0]
            cheapest = grid.kept["least_move_cost"] = float(costs.min()) if len(costs) else 1.0
        ys, xs = np.ogrid[: grid.height, : grid.width]
        d = geo.hypot_table(grid.width, grid.height)[np.abs(ys - start[1]), np.abs(xs - start[0])]
        near = nears[(start, limit)] = d <= limit / cheapest + 1.5
    return near


def within_reach_bytes(grid: geo.GridMap, start: geo.Cell, limit: float) -> bytes:
    """`within_reach(grid, start, limit).tobytes()` (a byte per cell, row by row), kept per map the same way."""
    kept: dict[tuple[geo.Cell, float], bytes] = grid.kept.setdefault("reach_near_bytes", {})
    near = kept.get((start, limit))
    if near is None:
        if len(kept) >= max(16, SHARED_CELLS_KEPT // (grid.width * grid.height)):
            kept.clear()
        near = kept[(start, limit)] = within_reach(grid, start, limit).tobytes()
    return near


WALK_CELLS_KEPT = 1 << 22  # cells of walking fields kept per map (8 bytes each) before they start again
def walk_field(grid: geo.GridMap, start: geo.Cell) -> Field:
    """`geo.reach_field(grid, start, inf)` (walking cost to every cell, figures ignored), read-only and kept per
    map and cell: it depends on nothing else, so every AI and battle on the map shares it."""
    kept: dict[geo.Cell, Field] = grid.kept.setdefault("walk_fields", {})
    field = kept.get(start)
    if field is None:
        if len(kept) >= max(16, WALK_CELLS_KEPT // (grid.width * grid.height)):
            kept.clear()
        field = kept[start] = geo.reach_field(grid, start, math.inf)
        field.flags.writeable = False
    return field
