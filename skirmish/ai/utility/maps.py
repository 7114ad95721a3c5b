"""The utility AI's tactical maps: for every cell near a side's units, how many enemies see it, how well it
is covered from them and how much fire it draws (threat), and the walking distance to the nearest enemy.
Built with numpy once per side and situation, and kept (with the sight, reach and walking fields they are
made of) by `MapCache`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
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
FEW_CELLS = 2  # pieces this small are worked out cell by cell (`TacticalMaps._fill_cells`)
FIELDS_KEPT = 512  # fields kept per kind (sight and walking distance from a cell) before a cache starts again


class TacticalMaps:
    """Per phase and side: for every cell near the side's units (`mask`), how many enemies see it, how well it
    is covered from them, and how much fire it draws (threat); and the walking distance to the nearest enemy
    over the whole map.

    Sight, cover and threat are worked out cell by cell as a decision needs them (`need`, `need_at`): each
    cell's numbers read only that cell (the enemies' sight of it and their hit chance at its distance), so the
    cells a decision reads are the numbers building the whole mask at once gives, bit for bit, and a side's
    units share what is already done while nobody moves. Cells outside the mask keep 0 seen, cover 1, threat 0.
    """

    def __init__(self, view: BattleView, me: UnitView, key: tuple[Any, ...], near: SideMask,
                 walk_m: npt.NDArray[np.float64]) -> None:
        grid = view.grid
        shape = (grid.height, grid.width)
        self.key = key
        self.near = near  # the mask: the cells near the side's units
        self.walk_m = walk_m  # walking distance to the nearest enemy in metres (inf: no way there)
        self.seen_by = np.zeros(shape)
        self.cover = np.ones(shape)  # mean cover value against the enemies that see the cell (1 if none)
        self.threat = np.zeros(shape)  # expected hits per enemy action on a man standing there, summed
        self._done = np.zeros(shape, dtype=bool)
        self._grid = grid
        self._enemies = [((int(e.cell[0]), int(e.cell[1])), _hit_map(e, view)) for e in view.enemies(me)]
        self._cells = tuple(cell for cell, _ in self._enemies)
        self._hits: npt.NDArray[np.float64] | None = None  # the enemies' hit maps stacked (made on first use)
        self.routes: dict[tuple[geo.Cell, geo.Cell], float] = {}  # route_threat by (from, to), kept (`need_routes`)

    @property
    def grid(self) -> geo.GridMap:
        """The map they were made on."""
        return self._grid

    @property
    def mask(self) -> npt.NDArray[np.bool_]:
        """The cells near the side's units (every unit's run reach worked out)."""
        return self.near.full()

    def threat_at(self, cell: geo.Cell) -> float:
        """The threat on one cell."""
        self.need_at(np.array([cell[1]], dtype=np.intp), np.array([cell[0]], dtype=np.intp))
        return float(self.threat[cell[1], cell[0]])

    def need(self, cells: npt.NDArray[np.bool_]) -> TacticalMaps:
        """Work out sight, cover and threat on these cells (those not done yet; outside the mask they keep the
        defaults)."""
        ys, xs = np.nonzero(cells & ~self._done)
        if len(ys):
            inside = self.near.at(ys, xs)
            self._done[ys[~inside], xs[~inside]] = True
            if inside.any():
                self._fill(ys[inside], xs[inside])
        return self

    def need_at(self, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> TacticalMaps:
        """`need` on the cells (xs, ys), which may repeat."""
        todo = ~self._done[ys, xs]
        if todo.any():
            self.need(_cells_mask(self._done.shape, ys[todo], xs[todo]))
        return self

    def _fill(self, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> None:
        """Each enemy in the view's order adds to the cells it sees: one seen, its cover value, and its hit
        chance there times (1 - cover) to the threat (the same additions, cell by cell, as over the whole
        mask). All enemies at once (one row each); a few cells one by one (`_fill_cells`)."""
        n = len(ys)
        if n <= FEW_CELLS or not self._enemies:
            self._fill_cells(ys, xs)
            return
        table = sight_table(self._grid)
        if self._hits is None:
            self._hits = np.stack([hit for _, hit in self._enemies])
        codes = table.codes_many(self._cells, xs, ys)  # geo.sight from each enemy (a row each), kept by the table
        vis = (codes & 1).astype(bool)  # codes: visible + 2 lean + 4 cover level
        cov = np.where(vis, COVER_BY_LEVEL[codes >> 2], 0.0)
        drawn = np.where(vis, self._hits[:, ys, xs] * (1 - cov), 0.0)  # hit: _enemy_hit_by_range at the distance
        seen = vis.sum(axis=0).astype(np.float64)  # whole numbers: exact in any order
        # The sums in the enemies' order (+ 0.0 where one does not see): add.accumulate adds row after row, as a
        # loop over the enemies would (its last row is the total; the first row is 0.0 + the first enemy's, as
        # every term is >= 0, not -0.0)
        cover_sum = np.add.accumulate(cov, axis=0)[-1]
        threat = np.add.accumulate(drawn, axis=0)[-1]
        self.seen_by[ys, xs] = seen
        self.cover[ys, xs] = np.where(seen > 0, cover_sum / np.maximum(seen, 1), 1.0)  # (over at least 1)
        self.threat[ys, xs] = threat
        self._done[ys, xs] = True

    def _fill_cells(self, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> None:
        """`_fill` cell by cell, in plain floats (the same IEEE additions, products and quotient)."""
        table = sight_table(self._grid)
        for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
            seen = cover_sum = threat = 0.0
            for cell, hit in self._enemies:
                s = table.sight(cell, (x, y))
                if s.visible:
                    cov = COVER_VALUE[s.cover]
                    seen += 1.0
                    cover_sum += cov
                    threat += float(hit[y, x]) * (1 - cov)
            self.seen_by[y, x] = seen
            self.cover[y, x] = cover_sum / max(seen, 1.0) if seen > 0 else 1.0
            self.threat[y, x] = threat
            self._done[y, x] = True


class SideMask:
    """The cells near a side's units: each unit's cell and the cells it reaches at a run with every figure in
    the way (`MapCache.reach_field`), worked out unit by unit as they are asked about. A cell no unit stands on
    and no move can enter (a wall) is in no reach, so a question about the others only works out the reach of
    units not yet added."""

    def __init__(self, grid: geo.GridMap, units: list[tuple[str, geo.Cell, float]],
                 blocked: npt.NDArray[np.bool_] | None = None,
                 reach: Callable[[geo.Cell, float, npt.NDArray[np.bool_]], Field] | None = None) -> None:
        self.known = np.zeros((grid.height, grid.width), dtype=bool)  # in the mask, of the reaches added so far
        for _, cell, _ in units:
            self.known[cell[1], cell[0]] = True
        self._pending = {name: (cell, limit) for name, cell, limit in units}
        self._blocked = blocked if blocked is not None else np.zeros_like(self.known)
        self._reach = reach
        self._open, self._cheapest = _open_cells(grid)  # passable cells, and a step's least cost

    def within(self, name: str, cell: geo.Cell, limit: float, blocked: npt.NDArray[np.bool_], field: Field) -> bool:
        """Mark the cells of `field`, a reach from the unit's cell within `limit` round `blocked`, as in the mask
        when that reach lies inside the unit's own (a limit no longer and no figure fewer in the way, its own
        cell aside: reach only grows as the limit does and as cells are freed) and say whether it did."""
        got = self._pending.get(name)
        if got is None or got[0] != cell or not limit <= got[1]:
            return False
        freed = self._blocked & ~blocked
        freed[cell[1], cell[0]] = False
        if freed.any():
            return False
        self.known |= np.isfinite(field)
        return True

    @staticmethod
    def fixed(grid: geo.GridMap, mask: npt.NDArray[np.bool_]) -> SideMask:
        """A mask given whole."""
        out = SideMask(grid, [])
        out.known = mask
        return out

    def add(self, name: str) -> SideMask:
        """Add one unit's reach (once)."""
        got = self._pending.pop(name, None)
        if got is not None and self._reach is not None:
            self.known |= np.isfinite(self._reach(got[0], got[1], self._blocked))
        return self

    def full(self) -> npt.NDArray[np.bool_]:
        """The whole mask."""
        for name in list(self._pending):
            self.add(name)
        return self.known

    def at(self, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
        """Whether each cell (xs, ys) is in the mask. A cell not yet known to be in it is looked for in the
        reaches of the units not added yet that could reach it, nearest first, until every such cell is found:
        a reach costs at least the straight distance times the cheapest move cost, so a unit farther than its
        limit allows adds nothing there (and which units are added changes no answer, only the work)."""
        inside = self.known[ys, xs]
        unknown = ~inside & self._open[ys, xs]
        if self._pending and unknown.any():
            qx, qy = xs[unknown], ys[unknown]
            near = []
            for name, (cell, limit) in self._pending.items():
                d = float(np.hypot(qx - cell[0], qy - cell[1]).min())
                if d <= (limit + 1e-6) / self._cheapest + 1e-6:
                    near.append((d, name))
            for _, name in sorted(near):
                self.add(name)
                if self.known[qy, qx].all():
                    break
            inside = self.known[ys, xs]
        return inside


def _open_cells(grid: geo.GridMap) -> tuple[npt.NDArray[np.bool_], float]:
    """The map's passable cells and the least cost of a step, kept with the map (they read nothing else)."""
    got: tuple[npt.NDArray[np.bool_], float] | None = grid.kept.get("ai_open_cells")
    if got is None:
        passable = grid.move_cost > 0
        passable.flags.writeable = False
        got = grid.kept["ai_open_cells"] = (passable, float(grid.move_cost[passable].min()) if passable.any() else 1.0)
    return got


def _cells_mask(shape: tuple[int, ...], ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
    out = np.zeros(shape, dtype=bool)
    out[ys, xs] = True
    return out


def _enemy_hit_by_range(e: UnitView, view: BattleView, dist_m: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """A rough chance an enemy hits a standing man at each distance (its skill pool against the range TN): each
    range step's chance worked out once and read back by the step (one look-up per cell, not a pass per step)."""
    w = e.weapon
    if w is None or not dist_m.size:
        return np.zeros_like(dist_m)
    pool = skill_pool(e.trait("dexterity"), dict(e.skills), w.skill)
    mod = sum(m.value for m in pool.modifiers)
    base = tn("standard", view.scope)  # type: ignore[arg-type]
    steps = np.floor(dist_m / w.range_inc_m + 1e-9).astype(int)
    present = np.zeros(int(steps.max()) + 1, dtype=bool)  # (steps >= 0: distances are)
    present[steps] = True
    chance = np.zeros(len(present))
    for s in np.flatnonzero(present).tolist():
        chance[s] = pool_hit_chance(pool.column, pool.row, int(base + s), mod, pool.halve)
    out = chance[steps]
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


COVER_BY_LEVEL = np.array([COVER_VALUE[geo.COVER_NAME[lv]] for lv in range(3)])  # by the sight codes' level


def build_maps(view: BattleView, me: UnitView, key: tuple[Any, ...], mask: npt.NDArray[np.bool_] | SideMask,
               walk_from: dict[geo.Cell, Field] | None = None,
               lazy: bool = False, nearest: dict[tuple[geo.Cell, ...], Field] | None = None) -> TacticalMaps:
    """Sight, cover and threat over the masked cells, against every enemy in action (worked out now, or as
    they are needed when `lazy`), and the walking distance to the nearest enemy over the whole map
    (`walk_from` caches a field per enemy cell; sight is the map's table's, `SightTable.codes_from`)."""
    grid = view.grid
    near = mask if isinstance(mask, SideMask) else SideMask.fixed(grid, mask)
    maps = TacticalMaps(view, me, key, near, nearest_walk_m(view, me, walk_from, nearest))
    return maps if lazy else maps.need(near.full())


NEAREST_KEPT = 64  # nearest-enemy walking fields a MapCache keeps (by the enemies' cells) before it starts again


def nearest_walk_m(view: BattleView, me: UnitView, walk_from: dict[geo.Cell, Field] | None = None,
                   nearest: dict[tuple[geo.Cell, ...], Field] | None = None) -> Field:
    """The walking distance in metres from every cell to the nearest of `me`'s enemies (`walk_field` from each
    enemy's cell, the least at each cell, times the cell size); `walk_from` keeps the fields by enemy cell and
    `nearest` (a MapCache's) the answer by the enemies' cells in the view's order, read-only: a side's units
    move one after another while the enemies stand, and each rebuild of its maps asks the same again."""
    grid = view.grid
    cache = walk_from if walk_from is not None else {}
    cells = tuple((int(e.cell[0]), int(e.cell[1])) for e in view.enemies(me))
    kept = nearest.get(cells) if nearest is not None else None
    if kept is not None:
        return kept
    walk = np.full((grid.height, grid.width), np.inf)
    for cell in cells:
        field_ = cache.get(cell)
        if field_ is None:
            field_ = cache[cell] = walk_field(grid, cell)  # geo.reach_field, to inf
        walk = np.minimum(walk, field_)
    out: Field = walk * grid.cell_m
    if nearest is not None:
        if len(nearest) >= NEAREST_KEPT:
            nearest.clear()
        out.flags.writeable = False
        nearest[cells] = out
    return out


def route_threat(grid: geo.GridMap, maps: TacticalMaps, frm: geo.Cell, to: geo.Cell) -> float:
    """The threat a move meets on the way (the mean over the cells its straight line crosses), in [0, 1]
    (worked out by `need_routes` when it was given this route, and kept with the maps)."""
    kept = maps.routes.get((frm, to))
    if kept is not None:
        return kept
    ys, xs = _segment(grid, frm, to)
    keep = maps.near.at(ys, xs)
    if not keep.any():
        return 0.0
    maps.need_at(ys[keep], xs[keep])
    vals = maps.threat[ys[keep], xs[keep]]  # in the segment's order, as a list of them would be
    return float(1 - np.exp(-np.mean(vals)))


def need_routes(grid: geo.GridMap, maps: TacticalMaps, frm: geo.Cell, cells: list[geo.Cell]) -> None:
    """Work out the maps on the cells the routes to `cells` cross, in one piece, and each route's
    `route_threat` (kept with the maps: the same cells, the same mean in the same order, the same numbers)."""
    if not cells:
        return
    lines = [_segment(grid, frm, c) for c in cells]
    ys = np.concatenate([ln[0] for ln in lines])
    xs = np.concatenate([ln[1] for ln in lines])
    keep = maps.near.at(ys, xs)
    maps.need_at(ys[keep], xs[keep])
    threat = maps.threat[ys, xs]
    inside = keep.tolist()
    start = 0
    for c, (line, _) in zip(cells, lines, strict=True):
        end = start + len(line)
        if any(inside[start:end]):
            vals = threat[start:end][keep[start:end]]  # the cells route_threat reads, in the segment's order
            mean = np.add.reduce(vals) / len(vals)  # np.mean(vals): the same sum (numpy's), over the count
            maps.routes[(frm, c)] = float(1 - np.exp(-mean))
        else:
            maps.routes[(frm, c)] = 0.0
        start = end


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
    the walking distance from enemy cells (the map never changes, so these are kept; sight is kept by the map's
    table), and the
    reach of each unit (kept while nobody it could meet on its way has moved)."""

    def __init__(self) -> None:
        self._maps: dict[str, TacticalMaps] = {}
        self._walk_from: dict[geo.Cell, Field] = {}  # walking-distance field per enemy cell
        self._nearest: dict[tuple[geo.Cell, ...], Field] = {}  # to the nearest enemy, by the enemies' cells
        self._reach = ReachCache(FIELDS_KEPT)  # (a ReachCache holds its map: not kept with the map)
        self._grid: geo.GridMap | None = None

    def _on(self, grid: geo.GridMap) -> None:
        """Start again on another map, or when the caches have grown large."""
        if self._grid is not grid or len(self._walk_from) > FIELDS_KEPT:
            self._walk_from.clear()
            self._nearest.clear()
            self._grid = grid

    def reach_field(self, grid: geo.GridMap, start: geo.Cell, limit: float, blocked: npt.NDArray[np.bool_]) -> Field:
        """`geo.reach_field`, read-only, kept while nobody near the reach has moved (skirmish.ai.reach)."""
        return self._reach.field(grid, start, limit, blocked)

    def maps_for(self, view: BattleView, me: UnitView) -> TacticalMaps:
        """The side's maps (rebuilt when anyone has moved or fallen: nothing else they read changes)."""
        key = tuple((u.name, u.cell, u.out_of_action) for u in view.units)
        m = self._maps.get(me.side)
        if m is None or m.key != key or m.grid is not view.grid:  # anyone moved or fell, or a door changed the map
            grid = view.grid
            self._on(grid)
            blocked = np.zeros((grid.height, grid.width), dtype=bool)
            for x, y in view.occupied():
                blocked[y, x] = True
            units = [(f.name, f.cell, 2 * SIDES[f.trait("dexterity")[0]] / grid.cell_m) for f in [me, *view.friends(me)]]
            # the kept reach fields, not the cache itself: the side's maps hold this function, and a function
            # holding the cache that holds them would free a finished battle's AI only at a full collection
            near = SideMask(grid, units, blocked, partial(_kept_field, self._reach, grid))
            m = self._maps[me.side] = build_maps(view, me, key, near, self._walk_from, lazy=True,
                                                     nearest=self._nearest)
        x, y = me.cell
        return m if m._done[y, x] else m.need_at(*_here(me))  # (its own cell: worked out once)


def _kept_field(reach: ReachCache, grid: geo.GridMap, cell: geo.Cell, limit: float,
                blocked: npt.NDArray[np.bool_]) -> Field:
    """`MapCache.reach_field` through its ReachCache (SideMask's reach fields)."""
    return reach.field(grid, cell, limit, blocked)


def _here(me: UnitView) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """(ys, xs) of the unit's own cell."""
    return np.array([me.cell[1]], dtype=np.intp), np.array([me.cell[0]], dtype=np.intp)
