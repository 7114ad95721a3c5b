"""Line of sight and cover between cells (R-6.6), worked out once per pair of cells and kept per map.

`geometry.sight` answers from here. The answer for a pair is exactly what `geometry.sight_reference` (the
plain statement of the rule: trace the segment cell by cell, `clear_line`, `_cover_on_line`) gives: the same
float arithmetic in the same order, with differences that change no answer and only save work:

- the segment is walked once, and the walk stops at the first cell (or corner shut on both sides) that blocks;
- walls are read from a flat list padded with one blocking ring (off the map blocks, as `_blocks` says);
- the answer is kept: a map never changes, so a pair's sight never does. Answers live in one row per origin
  cell (an array indexed by the target cell, holding the answer's number in `sights`), so a lookup is three
  index operations; equal answers share one `Sight` object. Rows are arrays of numbers, not lists of
  objects, so the garbage collector's full collections do not walk them (docs/ENGINE.md, "Sight");
- sight is symmetric in visibility (`blind_back`): a pair kept as not seen one way is not seen the other way,
  with no walk (most pairs are not in sight, and those cost the most: every line is walked);
- many pairs asked at once (`column`, `codes_from`, `codes_many`, from BATCH_MIN pairs not coded yet) are
  coded together in exact integer arithmetic (rules/sight_batch.py).

tests/test_sight_table.py and tests/test_sight_batch.py compare this with the reference over random maps
(every pair of cells on small ones, sampled pairs up to 128x128), and the batch paths with the scalar one.
"""

from __future__ import annotations

import math
from array import array
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from skirmish.rules import sight_batch as _sight_batch
from skirmish.rules.geometry import COVER_LEVEL, COVER_NAME, LEAN, NEIGHBOURS_8, NO_SIGHT, Cell, GridMap, Sight

if TYPE_CHECKING:
    from skirmish.rules.sight_bake import SightBake

_EPS = 1e-9
ANSWERS_KEPT = 1 << 24  # row entries kept per map (2 bytes each: 32 MB) before the rows start again; codes: 4x
_Point = tuple[float, float]
BATCH_MIN = 40  # pairs not coded yet from which `column`, `codes_from` and `codes_many` code them at once


class SightTable:
    """Every pair's `Sight` on one map, worked out when first asked for."""

    def __init__(self, grid: GridMap) -> None:
        # Nothing here refers to `grid` itself: the table is shared by every map of the same content.
        self.w, self.h = grid.width, grid.height
        self.pw = grid.width + 2  # padded width: one blocking ring round the map
        bl = grid.blocks_sight.tolist()
        pad = [True] * (self.pw * (grid.height + 2))
        for y in range(grid.height):
            for x in range(grid.width):
                pad[(y + 1) * self.pw + x + 1] = bool(bl[y][x])
        self.blocks = pad
        self.cover = grid.cover.tolist()
        self.cover_av = grid.cover_av.tolist()
        # A row holds, per target cell, the number of the pair's answer in `sights` (0: not worked out yet; 1:
        # NO_SIGHT, the only answer not in sight): an array, which the garbage collector does not walk. Equal
        # answers share one number; there are at most two per cell (a cover cell or wall as `where`, leaning
        # or not) and three more, so two bytes a number on maps up to 32,766 cells.
        self.rows: dict[Cell, array[int]] = {}
        self.sights: list[Sight] = [NO_SIGHT, NO_SIGHT]
        self._blank = array("H" if 2 * self.w * self.h + 3 <= 0xFFFF else "I", [0]) * (self.w * self.h)
        self.rows_kept = max(64, ANSWERS_KEPT // (self.w * self.h))  # 13,981 rows on a 40x30 map, 1,024 on 128x128
        self.cols: dict[Cell, npt.NDArray[np.int8]] = {}  # codes by origin cell, per target cell (`column`)
        self.outs: dict[Cell, npt.NDArray[np.int8]] = {}  # codes by target cell, per origin cell (`codes_from`)
        self._shared: dict[tuple[bool, str, int, bool, Cell | None], int] = {(False, "none", 0, False, None): 1}
        self._leans: dict[Cell, list[_Point]] = {}
        small = max(self.w, self.h) <= _sight_batch.MAX_SIDE  # exact there (rules/sight_batch.py)
        self._batch = _sight_batch.Batch(grid.blocks_sight, grid.cover) if small else None
        self.baked: SightBake | None = None  # every pair's answer, when a bake was adopted (`adopt`)
        self._baked_codes: npt.NDArray[np.int8] | None = None  # the code (`column`'s) of each answer's number

    def adopt(self, bake: SightBake) -> None:
        """Take every pair's answer from a bake of this map's sight (rules/sight_bake.py; its key is the caller's to
        check): rows and codes are then read from it as they are first asked for, and no line is walked again."""
        if (bake.width, bake.height) != (self.w, self.h):
            raise ValueError(f"a bake of a {bake.width}x{bake.height} map adopted by a {self.w}x{self.h} one")
        self.rows.clear()
        self.cols.clear()
        self.outs.clear()
        self.sights = list(bake.sights)
        self._shared = {(s.visible, s.cover, s.cover_av, s.lean, s.cover_cell): k
                        for k, s in enumerate(self.sights) if k}
        self._baked_codes = np.array([int(s.visible) + 2 * int(s.lean) + 4 * COVER_LEVEL[s.cover]
                                      for s in self.sights], dtype=np.int8)
        self.baked = bake

    def row(self, frm: Cell) -> array[int]:
        """The answers kept from `frm`, as numbers in `sights` indexed y * width + x (0: not worked out yet)."""
        r = self.rows.get(frm)
        if r is None:
            if len(self.rows) >= self.rows_kept:
                self.rows.clear()
                self.cols.clear()
                self.outs.clear()
            if self.baked is not None:  # the bake's row (numbers of the same width: a bake's map is small)
                r = array("H")
                r.frombytes(self.baked.numbers[frm[1] * self.w + frm[0]].tobytes())
                self.rows[frm] = r
            else:
                r = self.rows[frm] = self._blank[:]
        return r

    def sight(self, frm: Cell, to: Cell) -> Sight:
        """Sight from `frm` to `to` (both on the map)."""
        r = self.rows.get(frm)
        if r is None:
            r = self.row(frm)
        i = to[1] * self.w + to[0]
        k = r[i]
        if k:
            return self.sights[k]
        frm, to = (int(frm[0]), int(frm[1])), (int(to[0]), int(to[1]))
        k = r[i] = 1 if self.blind_back(frm, to) else self._work_out(frm, to)
        return self.sights[k]

    def blind_back(self, frm: Cell, to: Cell) -> bool:
        """True if the pair is kept as not in sight: coded so (codes from `frm` or to `to`), or `to` kept as not
        seeing `frm` (a row, or codes from `to` or to `frm`), as then `frm` does not see `to` either. Sight is
        symmetric: `work_out(a, b)` finds no sight only when every line between a
        point of a (centre or lean) and a point of b is blocked, and `work_out(b, a)` tests the same lines
        reversed; a line and its reverse pass the same cells and corners (the walk decides as exact arithmetic
        does: rules/sight_batch.py), and neither counts its two end cells."""
        i, j = frm[1] * self.w + frm[0], to[1] * self.w + to[0]
        c = self.outs.get(frm)  # first the pair itself, coded by a numpy caller (`codes_from`, `column`)
        if c is not None and c[j] >= 0:
            return bool(c[j] == 0)
        c = self.cols.get(to)
        if c is not None and c[i] >= 0:
            return bool(c[i] == 0)
        r = self.rows.get(to)
        if r is not None and (k := r[i]):
            return k == 1
        c = self.outs.get(to)
        if c is not None and c[i] >= 0:
            return bool(c[i] == 0)
        c = self.cols.get(frm)
        return c is not None and bool(c[j] == 0)

    def column(self, to: Cell, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """Sight to `to` from each cell (xs, ys), as codes: visible + 2 × lean + 4 × cover level (0 none, 1 low,
        2 high), from a column kept per target cell (each pair is worked out once, as `sight` does)."""
        return self._many((to,), xs, ys, False)[0]

    def codes_from(self, frm: Cell, xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """Sight from `frm` to each cell (xs, ys), coded as `column` codes, from an array kept per origin cell
        (each pair is worked out once, as `sight` does)."""
        return self._many((frm,), xs, ys, True)[0]

    def codes_many(self, origins: tuple[Cell, ...], xs: npt.NDArray[np.intp],
                   ys: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """`codes_from(frm, xs, ys)` for each origin in `origins`, a row each ([origin, cell]), with one look for
        pairs not coded yet over all of them."""
        return self._many(origins, xs, ys, True)

    def columns_many(self, targets: tuple[Cell, ...], xs: npt.NDArray[np.intp],
                     ys: npt.NDArray[np.intp]) -> npt.NDArray[np.int8]:
        """`column(to, xs, ys)` for each target in `targets`, a row each ([target, cell]), with one look for pairs
        not coded yet over all of them (one batch for every target, not one each)."""
        return self._many(targets, xs, ys, False)

    def _many(self, cells: tuple[Cell, ...], xs: npt.NDArray[np.intp], ys: npt.NDArray[np.intp],
              origin: bool) -> npt.NDArray[np.int8]:
        """`codes_many` (`cells` are the pairs' origins) or `columns_many` (their targets), and `codes_from` or
        `column` for one cell: the codes from the arrays kept per cell (`outs` or `cols`; -1: not coded yet), which
        start again when full; pairs kept as not seen the other way are not seen (`blind_back`), and from
        BATCH_MIN pairs not coded yet on they are coded at once (rules/sight_batch.py), else one by one."""
        kept, back_of = (self.outs, self.cols) if origin else (self.cols, self.outs)
        if len(kept) + len(cells) > 4 * self.rows_kept:
            kept.clear()
        rows = []
        baked = self._baked_codes
        for c in cells:
            r = kept.get(c)
            if r is None:
                if baked is not None and self.baked is not None:  # every pair coded: the bake's row or column
                    flat = c[1] * self.w + c[0]
                    numbers = self.baked.numbers
                    r = kept[c] = baked[numbers[flat] if origin else numbers[:, flat]]
                else:
                    r = kept[c] = np.full(self.w * self.h, -1, dtype=np.int8)
            rows.append(r)
        idx = ys * self.w + xs
        # (a new array, written below; each row's cells picked before stacking: not every row stacked whole)
        codes = rows[0][idx][None, :] if len(rows) == 1 else np.array([r[idx] for r in rows])
        if not len(idx) or codes.min() >= 0:  # every pair coded already (most calls)
            return codes
        todo = np.flatnonzero(codes < 0)
        if len(todo) >= BATCH_MIN and self._batch is not None:
            for j, c in enumerate(cells):  # kept as not seen the other way: not seen (`blind_back`)
                back = back_of.get(c)
                if back is not None:
                    blind = (codes[j] < 0) & (back[idx] == 0)
                    codes[j, blind] = rows[j][idx[blind]] = 0
            todo = np.flatnonzero(codes < 0)
            if not len(todo):
                return codes
            on, at = np.divmod(todo, len(idx))
            ends = np.array(cells, dtype=np.int64).reshape(-1, 2)
            ex, ey, ox, oy = ends[on, 0], ends[on, 1], xs[at].astype(np.int64), ys[at].astype(np.int64)
            got = self._batch.codes(ex, ey, ox, oy) if origin else self._batch.codes(ox, oy, ex, ey)
            codes[on, at] = got
            for j in np.unique(on).tolist():
                mine = on == j
                rows[j][idx[at[mine]]] = got[mine]
        elif len(todo):
            k = len(idx)
            cover_level = COVER_LEVEL
            for n in todo.tolist():
                o, i = divmod(n, k)
                c, other = cells[o], (int(xs[i]), int(ys[i]))
                s = self.sight(c, other) if origin else self.sight(other, c)
                codes[o, i] = rows[o][idx[i]] = int(s.visible) + 2 * int(s.lean) + 4 * cover_level[s.cover]
        return codes

    # ------------------------------------------------------------------ working one pair out
    def _blocked(self, x: int, y: int) -> bool:
        return self.blocks[(y + 1) * self.pw + x + 1]

    def leans(self, cell: Cell) -> list[_Point]:
        """`geometry.lean_points`: toward open orthogonal neighbours, if any of the eight neighbours blocks."""
        out = self._leans.get(cell)
        if out is None:
            x, y = cell
            out = []
            if any(self._blocked(x + dx, y + dy) for dx, dy in NEIGHBOURS_8):
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    if not self._blocked(x + dx, y + dy):
                        out.append((x + 0.5 + dx * LEAN, y + 0.5 + dy * LEAN))
            self._leans[cell] = out
        return out

    def _clear(self, p: _Point, q: _Point, fi: int, ti: int) -> bool:
        """`clear_line(grid, p, q, (frm, to))`, with frm and to given as padded indices: `geometry._trace`'s walk
        (the same float steps and tests), on padded cell indices, stopping at the first cell or shut corner
        that blocks."""
        blocks, pw = self.blocks, self.pw
        p0, p1 = p
        q0, q1 = q
        x, y = math.floor(p0), math.floor(p1)
        i = (y + 1) * pw + x + 1
        end = (math.floor(q1) + 1) * pw + math.floor(q0) + 1
        dx, dy = q0 - p0, q1 - p1
        if dx:
            t_dx = abs(1 / dx)
            t_mx = ((x + 1 - p0) if dx > 0 else (p0 - x)) * t_dx
        else:
            t_dx = t_mx = math.inf
        if dy:
            t_dy = abs(1 / dy)
            t_my = ((y + 1 - p1) if dy > 0 else (p1 - y)) * t_dy
        else:
            t_dy = t_my = math.inf
        sx = 1 if dx > 0 else -1
        sy = pw if dy > 0 else -pw
        if blocks[i] and i != fi and i != ti:
            return False
        guard = self.w + self.h + 4
        lim = 1 - _EPS
        # No NaN below: t_mx - t_my is NaN only when both are infinite (p == q), and then the walk never starts;
        # so d <= -_EPS is `t_mx < t_my` off a corner, d >= _EPS the other way, and anything else a corner.
        while i != end and guard > 0:
            guard -= 1
            d = t_mx - t_my
            if d <= -_EPS:
                if t_mx > lim:
                    break
                i += sx
                t_mx += t_dx
            elif d >= _EPS:
                if t_my > lim:
                    break
                i += sy
                t_my += t_dy
            else:  # abs(d) < _EPS: a corner
                if min(t_mx, t_my) > lim:
                    break
                if blocks[i + sx] and blocks[i + sy]:
                    return False
                i += sx + sy
                t_mx += t_dx
                t_my += t_dy
            if blocks[i] and i != fi and i != ti:
                return False
        return True

    def _clear_cover(self, p: _Point, q: _Point, fi: int, ti: int, to: Cell) -> tuple[int, int, Cell | None] | None:
        """None where the line p→q is not clear (`_clear`'s walk, step for step), else `_cover_on_line(grid, p, to)`
        (q the target's centre: the cell before the last one, then the corners' side cells, beside the target), read
        from the cells noted as padded indices on the same walk (the line was walked twice: once to find it clear,
        once more for its cover; x0.76 CPU on the pairs 24 v 24 hold battles work out)."""
        blocks, pw = self.blocks, self.pw
        p0, p1 = p
        q0, q1 = q
        x, y = math.floor(p0), math.floor(p1)
        i = (y + 1) * pw + x + 1
        end = (math.floor(q1) + 1) * pw + math.floor(q0) + 1
        dx, dy = q0 - p0, q1 - p1
        if dx:
            t_dx = abs(1 / dx)
            t_mx = ((x + 1 - p0) if dx > 0 else (p0 - x)) * t_dx
        else:
            t_dx = t_mx = math.inf
        if dy:
            t_dy = abs(1 / dy)
            t_my = ((y + 1 - p1) if dy > 0 else (p1 - y)) * t_dy
        else:
            t_dy = t_my = math.inf
        sx = 1 if dx > 0 else -1
        sy = pw if dy > 0 else -pw
        if blocks[i] and i != fi and i != ti:
            return None
        guard = self.w + self.h + 4
        lim = 1 - _EPS
        prev = -1  # the cell before the last step (none yet)
        corners: list[int] = []  # side cells of corners passed, in order
        while i != end and guard > 0:
            guard -= 1
            d = t_mx - t_my
            if d <= -_EPS:
                if t_mx > lim:
                    break
                prev = i
                i += sx
                t_mx += t_dx
            elif d >= _EPS:
                if t_my > lim:
                    break
                prev = i
                i += sy
                t_my += t_dy
            else:  # a corner
                if min(t_mx, t_my) > lim:
                    break
                if blocks[i + sx] and blocks[i + sy]:
                    return None
                corners.append(i + sx)
                corners.append(i + sy)
                prev = i
                i += sx + sy
                t_mx += t_dx
                t_my += t_dy
            if blocks[i] and i != fi and i != ti:
                return None
        level, av, where = 0, 0, None
        tx, ty = to
        w, h = self.w, self.h
        for c in ([prev] if prev >= 0 else []) + corners:
            cx, cy = c % pw - 1, c // pw - 1
            if not (0 <= cx < w and 0 <= cy < h) or c == ti or abs(cx - tx) > 1 or abs(cy - ty) > 1:
                continue
            lv, cav = self.cover[cy][cx], self.cover_av[cy][cx]
            if (lv, cav) > (level, av):
                level, av, where = lv, cav, (cx, cy)
        return level, av, where

    def _nearest_wall(self, cell: Cell, toward: _Point) -> Cell | None:
        """`geometry._nearest_wall`."""
        best: tuple[float, Cell] | None = None
        cx, cy = cell[0] + 0.5, cell[1] + 0.5
        vx, vy = toward[0] - cx, toward[1] - cy
        for dx, dy in NEIGHBOURS_8:
            c = (cell[0] + dx, cell[1] + dy)
            if 0 <= c[0] < self.w and 0 <= c[1] < self.h and self._blocked(c[0], c[1]):
                score = -(dx * vx + dy * vy) / math.hypot(dx, dy)
                if best is None or score < best[0]:
                    best = (score, c)
        return best[1] if best else None

    def _share(self, visible: bool, cover: str, av: int, lean: bool, where: Cell | None) -> int:
        """The number in `sights` of the answer (visible, cover, av, lean, where), made on first use."""
        key = (visible, cover, av, lean, where)
        k = self._shared.get(key)
        if k is None:
            k = self._shared[key] = len(self.sights)
            self.sights.append(Sight(visible, cover, av, lean, where))
        return k

    def work_out(self, frm: Cell, to: Cell) -> Sight:
        """`geometry.sight_reference(grid, frm, to)`, walked once (see the module's docstring), not kept."""
        return self.sights[self._work_out(frm, to)]

    def _work_out(self, frm: Cell, to: Cell) -> int:
        """`work_out`, as the answer's number in `sights`."""
        if frm == to:
            return self._share(True, "none", 0, False, None)
        pf = (frm[0] + 0.5, frm[1] + 0.5)
        pt = (to[0] + 0.5, to[1] + 0.5)
        fi, ti = (frm[1] + 1) * self.pw + frm[0] + 1, (to[1] + 1) * self.pw + to[0] + 1
        for fp in (pf, *self.leans(frm)):  # centre to centre, then leaning out of the firer's cell
            got = self._clear_cover(fp, pt, fi, ti, to)
            if got is not None:
                level, av, where = got
                return self._share(True, COVER_NAME[level], av, False, where)
        t_leans = self.leans(to)
        if not t_leans:
            return 1
        f_points = [pf, *self.leans(frm)]
        for tp in t_leans:
            for fp in f_points:
                if self._clear(fp, tp, fi, ti):
                    wall = self._nearest_wall(to, fp)
                    av = self.cover_av[wall[1]][wall[0]] if wall else 6
                    return self._share(True, "high", av, True, wall)
        return 1


def table(grid: GridMap) -> SightTable:
    """The map's sight table (made on first use, kept with the map: `GridMap.sight_table`)."""
    return grid.sight_table
