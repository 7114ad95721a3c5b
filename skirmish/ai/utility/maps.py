"""The utility AI's tactical maps: for every cell near a side's units, how many enemies see it, how well it
is covered from them and how much fire it draws (threat), and the walking distance to the nearest enemy.
Built with numpy once per side and situation, and kept (with the sight, reach and walking fields they are
made of) by `MapCache`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.ai.estimate import pool_hit_chance
from skirmish.ai.reach import Field, ReachCache, walk_field
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo
from skirmish.rules.checks import skill_pool, tn
from skirmish.rules.deck import SIDES
from skirmish.rules.sight_table import table as sight_table

COVER_VALUE = {"none": 0.0, "low": 0.6, "high": 0.9}
FIELDS_KEPT = 512  # fields kept per kind (sight and walking distance from a cell) before a cache starts again


@dataclass
class TacticalMaps:
    """Per phase and side: for every cell near the side's units, how many enemies see it, how well it is
    covered from them, and how much fire it draws (threat)."""

    key: tuple[Any, ...]
    seen_by: npt.NDArray[np.float64]
    cover: npt.NDArray[np.float64]  # mean cover value against the enemies that see the cell (1 if none)
    threat: npt.NDArray[np.float64]  # expected hits per enemy action on a man standing there, summed
    mask: npt.NDArray[np.bool_]
    walk_m: npt.NDArray[np.float64]  # walking distance to the nearest enemy in metres (inf: no way there)

    def threat_at(self, cell: geo.Cell) -> float:
        """The threat on one cell."""
        return float(self.threat[cell[1], cell[0]])


def _enemy_hit_by_range(e: UnitView, view: BattleView, dist_m: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """A rough chance an enemy hits a standing man at each distance (its skill pool against the range TN)."""
    w = e.weapon
    if w is None:
        return np.zeros_like(dist_m)
    pool = skill_pool(e.trait("dexterity"), dict(e.skills), w.skill)
    mod = sum(m.value for m in pool.modifiers)
    base = tn("standard", view.scope)  # type: ignore[arg-type]
    steps = np.floor(dist_m / w.range_inc_m + 1e-9).astype(int)
    out = np.zeros_like(dist_m)
    for s in np.unique(steps):
        out[steps == s] = pool_hit_chance(pool.column, pool.row, int(base + s), mod, pool.halve)
    out[dist_m > w.max_range_m] = 0.0
    return out


HIT_CELLS_KEPT = 1 << 22  # cells of enemy hit maps kept per map (8 bytes each) before they start again
SEGMENTS_KEPT = 1 << 14  # straight lines kept per map (`_segment`)


def _hit_map(e: UnitView, view: BattleView) -> npt.NDArray[np.float64]:
    """`_enemy_hit_by_range` from the enemy's cell to every cell of the map, kept: it reads only the map, the
    cell, the weapon, the enemy's Dexterity and skills and the scope, and each cell's value only its own
    distance (so a map's cells, indexed, are the same numbers as the function on those cells alone)."""
    grid = view.grid
    hit_maps: dict[tuple[Any, ...], tuple[object, npt.NDArray[np.float64]]] = grid.kept.setdefault("hit_maps", {})
    key = (e.cell, id(e.weapon), e.trait("dexterity"), e.skills, view.scope)
    kept = hit_maps.get(key)
    if kept is not None and kept[0] is e.weapon:
        return kept[1]
    if len(hit_maps) >= max(16, HIT_CELLS_KEPT // (grid.width * grid.height)):
        hit_maps.clear()
    yy, xx = np.mgrid[0:grid.height, 0:grid.width]
    out = _enemy_hit_by_range(e, view, np.hypot(xx - e.cell[0], yy - e.cell[1]) * grid.cell_m)
    out.flags.writeable = False
    hit_maps[key] = (e.weapon, out)
    return out


_SIGHT_CODE = {name: i + 1 for i, name in enumerate(COVER_VALUE)}  # 0: not in sight, else 1 + the cover level
_CODE_COVER = np.array([0.0, *COVER_VALUE.values()])


@dataclass
class Viewshed:
    """What one cell sees (R-6.6), worked out cell by cell as maps need it: `known` cells are done, and
    `code` is 0 where a cell is out of sight, else 1 + its cover level from here (one byte a cell)."""

    known: npt.NDArray[np.bool_]
    code: npt.NDArray[np.uint8]

    @staticmethod
    def empty(grid: geo.GridMap) -> Viewshed:
        """Nothing worked out yet."""
        shape = (grid.height, grid.width)
        return Viewshed(np.zeros(shape, dtype=bool), np.zeros(shape, dtype=np.uint8))

    def over(self, grid: geo.GridMap, frm: geo.Cell, mask: npt.NDArray[np.bool_]) -> Viewshed:
        """Work out the masked cells not yet known (the map never changes, so the rest stand)."""
        ys, xs = np.nonzero(mask & ~self.known)
        seen_from = sight_table(grid)  # geo.sight, from its table
        here = (int(frm[0]), int(frm[1]))
        codes = []
        for x, y in zip(xs.tolist(), ys.tolist(), strict=True):
            s = seen_from.sight(here, (x, y))
            codes.append(_SIGHT_CODE[s.cover] if s.visible else 0)
        self.code[ys, xs] = codes
        self.known |= mask
        return self

    def at(self, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> tuple[npt.NDArray[np.bool_], Field]:
        """(in sight, cover value: 0 where not in sight) at those cells."""
        code = self.code[ys, xs]
        return code > 0, _CODE_COVER[code]


def build_maps(view: BattleView, me: UnitView, key: tuple[Any, ...], mask: npt.NDArray[np.bool_],
               walk_from: dict[geo.Cell, Field] | None = None,
               sight_from: dict[geo.Cell, Viewshed] | None = None) -> TacticalMaps:
    """Sight, cover and threat over the masked cells, against every enemy in action, and the walking
    distance to the nearest enemy over the whole map (`walk_from` and `sight_from` cache a field and a
    viewshed per enemy cell)."""
    grid = view.grid
    h, w = grid.height, grid.width
    seen = np.zeros((h, w))
    cover_sum = np.zeros((h, w))
    threat = np.zeros((h, w))
    ys, xs = np.nonzero(mask)
    sights = sight_from if sight_from is not None else {}
    for e in view.enemies(me):
        shed = sights.get(e.cell)
        if shed is None:
            shed = sights[e.cell] = Viewshed.empty(grid)
        shed.over(grid, e.cell, mask)
        vis, cov = shed.at(ys, xs)
        p = _hit_map(e, view)[ys, xs]  # _enemy_hit_by_range at those cells' distances
        seen[ys[vis], xs[vis]] += 1
        cover_sum[ys[vis], xs[vis]] += cov[vis]
        threat[ys[vis], xs[vis]] += (p * (1 - cov))[vis]
    with np.errstate(invalid="ignore", divide="ignore"):
        cover = np.where(seen > 0, cover_sum / np.maximum(seen, 1), 1.0)
    cache = walk_from if walk_from is not None else {}
    walk = np.full((h, w), np.inf)
    for e in view.enemies(me):
        field_ = cache.get(e.cell)
        if field_ is None:
            field_ = cache[e.cell] = walk_field(grid, (int(e.cell[0]), int(e.cell[1])))  # geo.reach_field, to inf
        walk = np.minimum(walk, field_)
    return TacticalMaps(key, seen, cover, threat, mask, walk * grid.cell_m)


def route_threat(grid: geo.GridMap, maps: TacticalMaps, frm: geo.Cell, to: geo.Cell) -> float:
    """The threat a move meets on the way (the mean over the cells its straight line crosses), in [0, 1]."""
    ys, xs = _segment(grid, frm, to)
    keep = maps.mask[ys, xs]
    if not keep.any():
        return 0.0
    vals = maps.threat[ys[keep], xs[keep]]  # in the segment's order, as a list of them would be
    return float(1 - np.exp(-np.mean(vals)))


def _segment(grid: geo.GridMap, frm: geo.Cell, to: geo.Cell) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """(ys, xs) of the map's cells the straight line between two cell centres crosses, in order (kept on the
    map)."""
    segments: dict[tuple[geo.Cell, geo.Cell], tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]] = \
        grid.kept.setdefault("segments", {})
    line = segments.get((frm, to))
    if line is None:
        if len(segments) >= SEGMENTS_KEPT:
            segments.clear()
        line = segments[(frm, to)] = _work_out_segment(grid, frm, to)
    return line


def _work_out_segment(grid: geo.GridMap, frm: geo.Cell, to: geo.Cell
                      ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    cells = [c for c in geo.cells_on_segment(grid, geo.centre(frm), geo.centre(to)) if grid.inside(c)]
    ys = np.array([c[1] for c in cells], dtype=np.intp)
    xs = np.array([c[0] for c in cells], dtype=np.intp)
    ys.flags.writeable = xs.flags.writeable = False
    return ys, xs


class MapCache:
    """One AI's maps, a side's at a time, rebuilt when anyone has moved or fallen, and what they are made of:
    the sight from and the walking distance to enemy cells (the map never changes, so these are kept), and the
    reach of each unit (kept while nobody it could meet on its way has moved)."""

    def __init__(self) -> None:
        self._maps: dict[str, TacticalMaps] = {}
        self._walk_from: dict[geo.Cell, Field] = {}  # walking-distance field per enemy cell
        self._sight_from: dict[geo.Cell, Viewshed] = {}  # what each enemy cell sees
        self._reach = ReachCache(FIELDS_KEPT)
        self._grid: geo.GridMap | None = None

    def _on(self, grid: geo.GridMap) -> None:
        """Start again on another map, or when the caches have grown large."""
        if self._grid is not grid or len(self._walk_from) > FIELDS_KEPT or len(self._sight_from) > FIELDS_KEPT:
            self._walk_from.clear()
            self._sight_from.clear()
            self._grid = grid

    def reach_field(self, grid: geo.GridMap, start: geo.Cell, limit: float, blocked: npt.NDArray[np.bool_]) -> Field:
        """`geo.reach_field`, read-only, kept while nobody near the reach has moved (skirmish.ai.reach)."""
        return self._reach.field(grid, start, limit, blocked)

    def maps_for(self, view: BattleView, me: UnitView) -> TacticalMaps:
        """The side's maps (rebuilt when anyone has moved or fallen: nothing else they read changes)."""
        key = tuple((u.name, u.cell, u.out_of_action) for u in view.units)
        m = self._maps.get(me.side)
        if m is not None and m.key == key:
            return m
        grid = view.grid
        self._on(grid)
        mask = np.zeros((grid.height, grid.width), dtype=bool)
        blocked = np.zeros_like(mask)
        for x, y in view.occupied():
            blocked[y, x] = True
        for f in [me, *view.friends(me)]:
            col, _ = f.trait("dexterity")
            reach = self.reach_field(grid, f.cell, 2 * SIDES[col] / grid.cell_m, blocked)
            mask |= np.isfinite(reach)
            mask[f.cell[1], f.cell[0]] = True
        m = build_maps(view, me, key, mask, self._walk_from, self._sight_from)
        self._maps[me.side] = m
        return m
