"""The square grid (R-1): terrain arrays, distances, reach fields, line of sight and cover (R-6.6).

Cells are (x, y) with x the column and y the row; arrays are indexed [y, x]. A cell's centre is at
(x + 0.5, y + 0.5) in cell units.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

Cell = tuple[int, int]
COVER_LEVEL = {"none": 0, "low": 1, "high": 2}
COVER_NAME = {v: k for k, v in COVER_LEVEL.items()}
SQRT2 = math.sqrt(2.0)
NEIGHBOURS_8: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_EPS = 1e-9
LEAN = 0.45  # how far a combatant leans out of its cell centre at a corner or doorway (cell units)


@dataclass(frozen=True)
class Terrain:
    """One tile type's rules (R-6.6): move cost (0 = impassable), sight blocking, cover height and AV."""

    name: str
    move_cost: int = 1
    blocks_sight: bool = False
    cover: str = "none"
    cover_av: int = 0


@dataclass(frozen=True, eq=False)
class GridMap:
    """A battle map: terrain per cell as numpy arrays plus the tile table."""

    name: str
    width: int
    height: int
    tiles: tuple[Terrain, ...]
    layout: npt.NDArray[np.int16]  # [y, x] index into tiles
    cell_m: float = 2.0

    def __post_init__(self) -> None:
        layout = self.layout.copy()  # the caller's array stays writable; the map's own copy never changes
        layout.setflags(write=False)  # a map never changes: what is kept about it is keyed by its content
        object.__setattr__(self, "layout", layout)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled or deep-copied (a view sent to another process): the map's fields only. What is derived from them
        (the cached arrays, what is kept about the map, its sight table) is made again on first use where it lands,
        from the state the process keeps for maps of that content (`kept`): it may hold what does not pickle (weak
        references to the views an AI read) and grows with the battles played, and a copy shares it anyway."""
        return {f: self.__dict__[f] for f in self.__dataclass_fields__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.layout.setflags(write=False)  # (an unpickled array is writable)

    @cached_property
    def move_cost(self) -> npt.NDArray[np.float64]:
        """Cost multiplier per cell; 0 where impassable."""
        return np.array([t.move_cost for t in self.tiles], dtype=np.float64)[self.layout]

    @cached_property
    def blocks_sight(self) -> npt.NDArray[np.bool_]:
        """True where a cell blocks line of sight."""
        return np.array([t.blocks_sight for t in self.tiles], dtype=bool)[self.layout]

    @cached_property
    def cover(self) -> npt.NDArray[np.int8]:
        """Cover level per cell: 0 none, 1 low, 2 high."""
        return np.array([COVER_LEVEL[t.cover] for t in self.tiles], dtype=np.int8)[self.layout]

    @cached_property
    def cover_av(self) -> npt.NDArray[np.int16]:
        """Cover armour value per cell."""
        return np.array([t.cover_av for t in self.tiles], dtype=np.int16)[self.layout]

    @cached_property
    def content_key(self) -> tuple[Any, ...]:
        """What the rules read of the map (size, cell size, tiles, layout): maps with equal keys play alike."""
        return (self.width, self.height, self.cell_m, self.tiles, self.layout.shape, self.layout.tobytes())

    @cached_property
    def kept(self) -> dict[str, Any]:
        """What code working on this map keeps about it (routes, reach fields, segments, hit maps), by name:
        shared by every map of the same content in the process (`MapState`: tournaments load a scenario
        afresh per pair), the last MAPS_KEPT of them. Nothing kept may hold the map object itself, so a map
        lives and dies with its scenario."""
        return _ms.map_state(self).kept

    @cached_property
    def sight_table(self) -> _st.SightTable:
        """Sight between this map's cells, kept as it is worked out (skirmish.rules.sight_table), or read from a bake
        of it (`map_state.SIGHT_FINDERS`), shared by the maps of the same content (`kept`)."""
        state = _ms.map_state(self)
        if state.sight is None:
            table = _st.SightTable(self)
            for find in _ms.SIGHT_FINDERS:  # a bake of the map's sight, if one is found (rules/sight_bake.py)
                bake = find(self)
                if bake is not None:
                    table.adopt(bake)
                    break
            state.sight = table
        return state.sight

    def inside(self, cell: Cell) -> bool:
        """True if the cell is on the map."""
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def passable(self, cell: Cell) -> bool:
        """True if a combatant may stand in the cell."""
        return self.inside(cell) and self.move_cost[cell[1], cell[0]] > 0

    def terrain(self, cell: Cell) -> Terrain:
        """The tile at a cell."""
        return self.tiles[int(self.layout[cell[1], cell[0]])]


def distance_cells(a: Cell, b: Cell) -> float:
    """Euclidean distance between cell centres in cells (R-1.1)."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


@lru_cache(maxsize=16)
def hypot_table(width: int, height: int) -> npt.NDArray[np.float64]:
    """`distance_cells` for every offset on a map of this size, indexed [dy, dx] (read-only; the AIs' numpy
    fields look distances up here, so they are the same floats as the scalar rule)."""
    out = np.array([[math.hypot(dx, dy) for dx in range(width)] for dy in range(height)])
    out.flags.writeable = False
    return out


def distance_m(a: Cell, b: Cell, cell_m: float) -> float:
    """Euclidean distance between cell centres in metres (R-1.1)."""
    return distance_cells(a, b) * cell_m


def adjacent(a: Cell, b: Cell) -> bool:
    """8-neighbourhood adjacency: 'within 1 metre' for melee, close and point-blank (R-1.3)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def step_cost(grid: GridMap, frm: Cell, to: Cell) -> float:
    """Cost of one step in cells: length (1 or √2) times the destination's move cost."""
    length = SQRT2 if frm[0] != to[0] and frm[1] != to[1] else 1.0
    return length * float(grid.move_cost[to[1], to[0]])


def can_step(grid: GridMap, frm: Cell, to: Cell, blocked: npt.NDArray[np.bool_] | None = None) -> bool:
    """A legal single step: onto a passable free cell; diagonals only where no corner is cut (R-5.6)."""
    if not grid.passable(to) or (blocked is not None and blocked[to[1], to[0]]):
        return False
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    if dx and dy:
        side_a, side_b = (frm[0] + dx, frm[1]), (frm[0], frm[1] + dy)
        if not grid.passable(side_a) or not grid.passable(side_b):
            return False
    return True


def path_cost(grid: GridMap, path: list[Cell]) -> float:
    """Cost in cells of walking a path cell by cell."""
    return sum(step_cost(grid, a, b) for a, b in itertools.pairwise(path))


# ----------------------------------------------------------------------------------------------------------
# Line of sight.


def _trace(
    grid: GridMap, p: tuple[float, float], q: tuple[float, float]
) -> tuple[list[Cell], list[tuple[Cell, Cell]]]:
    """Cells whose interior the segment p→q crosses, in order, and corners it passes exactly through.

    A corner passage is returned as the pair of side cells the segment squeezes between.
    """
    x, y = math.floor(p[0]), math.floor(p[1])
    end_x, end_y = math.floor(q[0]), math.floor(q[1])
    dx, dy = q[0] - p[0], q[1] - p[1]
    sx = 1 if dx > 0 else -1
    sy = 1 if dy > 0 else -1
    t_dx = abs(1 / dx) if dx else math.inf
    t_dy = abs(1 / dy) if dy else math.inf
    t_mx = ((x + 1 - p[0]) if dx > 0 else (p[0] - x)) * t_dx if dx else math.inf
    t_my = ((y + 1 - p[1]) if dy > 0 else (p[1] - y)) * t_dy if dy else math.inf
    cells: list[Cell] = [(x, y)]
    corners: list[tuple[Cell, Cell]] = []
    guard = grid.width + grid.height + 4
    while (x, y) != (end_x, end_y) and guard > 0:
        guard -= 1
        if abs(t_mx - t_my) < 1e-9:
            if min(t_mx, t_my) > 1 - 1e-9:
                break
            corners.append(((x + sx, y), (x, y + sy)))
            x += sx
            y += sy
            t_mx += t_dx
            t_my += t_dy
        elif t_mx < t_my:
            if t_mx > 1 - 1e-9:
                break
            x += sx
            t_mx += t_dx
        else:
            if t_my > 1 - 1e-9:
                break
            y += sy
            t_my += t_dy
        cells.append((x, y))
    return cells, corners


def cells_on_segment(grid: GridMap, p: tuple[float, float], q: tuple[float, float]) -> list[Cell]:
    """Cells the segment p→q (in cell units) passes through, in order from p."""
    return _trace(grid, p, q)[0]


def _blocks(grid: GridMap, cell: Cell) -> bool:
    return not grid.inside(cell) or bool(grid.blocks_sight[cell[1], cell[0]])


def clear_line(grid: GridMap, p: tuple[float, float], q: tuple[float, float], ends: tuple[Cell, Cell]) -> bool:
    """True if nothing that blocks sight lies on the segment (a corner shut on both sides blocks)."""
    cells, corners = _trace(grid, p, q)
    for c in cells:
        if c not in ends and _blocks(grid, c):
            return False
    return all(not (_blocks(grid, a) and _blocks(grid, b)) for a, b in corners)


def centre(cell: Cell) -> tuple[float, float]:
    """Centre of a cell in cell units."""
    return (cell[0] + 0.5, cell[1] + 0.5)


def lean_points(grid: GridMap, cell: Cell) -> list[tuple[float, float]]:
    """Points a combatant can lean out to: toward open orthogonal neighbours, if beside a wall."""
    x, y = cell
    if not any(_blocks(grid, (x + dx, y + dy)) for dx, dy in NEIGHBOURS_8):
        return []
    out = []
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if not _blocks(grid, (x + dx, y + dy)):
            out.append((x + 0.5 + dx * LEAN, y + 0.5 + dy * LEAN))
    return out


@dataclass(frozen=True)
class Sight:
    """What a firer sees of a target: visibility, cover between them (R-6.6) and whether it leans."""

    visible: bool
    cover: str = "none"
    cover_av: int = 0
    lean: bool = False  # the target is seen only round a corner or doorway
    cover_cell: Cell | None = None
    concealed: bool = False  # fully behind high cover, but its position is known (R-6.1: -4)

    def to_json(self) -> dict[str, object]:
        """JSON form used in events."""
        return {"visible": self.visible, "cover": self.cover, "cover_av": self.cover_av, "lean": self.lean,
                "concealed": self.concealed}


NO_SIGHT = Sight(False)


def _cover_on_line(grid: GridMap, p: tuple[float, float], target: Cell) -> tuple[int, int, Cell | None]:
    """Cover level and AV the segment from p into the target crosses just before reaching it."""
    cells, corners = _trace(grid, p, centre(target))
    level, av, where = 0, 0, None
    candidates: list[Cell] = []
    if len(cells) >= 2:
        candidates.append(cells[-2])
    for a, b in corners:
        for c in (a, b):
            if adjacent(c, target):
                candidates.append(c)
    for c in candidates:
        if not grid.inside(c) or not adjacent(c, target):
            continue
        lv = int(grid.cover[c[1], c[0]])
        cav = int(grid.cover_av[c[1], c[0]])
        if (lv, cav) > (level, av):
            level, av, where = lv, cav, c
    return level, av, where


def sight(grid: GridMap, frm: Cell, to: Cell) -> Sight:
    """Line of sight and cover from one cell to another (R-6.6), as `sight_reference` states it; each pair is
    worked out once per map and kept (skirmish.rules.sight_table), as the map never changes."""
    w, h = grid.width, grid.height
    if not (0 <= frm[0] < w and 0 <= frm[1] < h and 0 <= to[0] < w and 0 <= to[1] < h):
        return sight_reference(grid, frm, to)  # off the map: the rule as stated (the table holds map cells)
    try:
        return grid.sight_table.sight(frm, to)
    except TypeError:  # cells given as lists
        return grid.sight_table.sight((int(frm[0]), int(frm[1])), (int(to[0]), int(to[1])))


def sight_reference(grid: GridMap, frm: Cell, to: Cell) -> Sight:
    """Line of sight and cover from one cell to another (R-6.6): the rule as stated, unkept (`sight` answers
    the same from its table; tests/test_sight_table.py holds them equal).

    Sight runs centre to centre; failing that, either side may lean out of a corner or doorway. A target
    seen only by leaning, or whose line grazes a wall corner beside it, is in high cover.
    """
    if frm == to:
        return Sight(True)
    ends = (frm, to)
    pf, pt = centre(frm), centre(to)
    if clear_line(grid, pf, pt, ends):
        level, av, where = _cover_on_line(grid, pf, to)
        return Sight(True, COVER_NAME[level], av, False, where)
    f_points = [pf, *lean_points(grid, frm)]
    for fp in f_points[1:]:
        if clear_line(grid, fp, pt, ends):
            level, av, where = _cover_on_line(grid, fp, to)
            return Sight(True, COVER_NAME[level], av, False, where)
    for tp in lean_points(grid, to):
        for fp in f_points:
            if clear_line(grid, fp, tp, ends):
                wall = _nearest_wall(grid, to, fp)
                av = int(grid.cover_av[wall[1], wall[0]]) if wall else 6
                return Sight(True, "high", av, True, wall)
    return NO_SIGHT


def unit_sight(grid: GridMap, frm: Cell, to: Cell, firing: bool, known: bool) -> Sight:
    """Sight from one combatant to another (R-6.1, R-6.6).

    A target seen only round a corner is exposed while it fires. Otherwise it is fully concealed: it can
    be shot at (−4, every location behind the cover) if its position is known, and not at all if not.
    """
    s = sight(grid, frm, to)
    if s.visible and s.lean and not firing:
        return replace(s, concealed=True) if known else NO_SIGHT
    return s


def _nearest_wall(grid: GridMap, cell: Cell, toward: tuple[float, float]) -> Cell | None:
    """The sight-blocking neighbour of `cell` that faces the point `toward` most directly."""
    best: tuple[float, Cell] | None = None
    cx, cy = centre(cell)
    vx, vy = toward[0] - cx, toward[1] - cy
    for dx, dy in NEIGHBOURS_8:
        c = (cell[0] + dx, cell[1] + dy)
        if grid.inside(c) and grid.blocks_sight[c[1], c[0]]:
            score = -(dx * vx + dy * vy) / math.hypot(dx, dy)
            if best is None or score < best[0]:
                best = (score, c)
    return best[1] if best else None


import skirmish.rules.map_state as _ms  # noqa: E402  (they build on the definitions above)
import skirmish.rules.sight_table as _st  # noqa: E402
from skirmish.rules.reach_search import reach_field  # noqa: E402,F401  (geo.reach_field; it reads the above)
