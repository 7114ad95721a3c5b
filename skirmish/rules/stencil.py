"""Sight stencils (R-6.6): what the walk of a sight line visits, by the shape of the line only.

`SightTable` walks a segment between two points of two cells (`geometry._trace`'s steps: `_clear`, and `_walk`
for the cover) to learn whether it is clear. The points are a cell's centre or one of its four lean points
(`LEAN` = 0.45 toward an open orthogonal neighbour), so a segment is given by the two points' kinds (`KINDS`)
and the offset (dx, dy) between the two cells. The walk is the same wherever the pair is on the map:

- centres are exact (x + 0.5), so `x + 1 - p0` is exactly 0.5 and every float step is the same for every x;
- lean points are x + 0.95 or x + 0.05 up to a rounding that grows with x, and the walk's times are
  then off the exact rationals (A + 20k) / E by far less than 1e-12 on maps up to MAX_SIDE cells a side, while
  the exact crossing times of a segment (multiples of 1/20 over E, F <= 20 * MAX_SIDE) differ by 0 (a corner)
  or by at least 1 / (E F) >= 9.5e-9, and never equal 1 (the end point is inside its cell): every `_EPS`
  comparison of the walk decides as exact arithmetic does, wherever the pair is (and whichever way it is
  walked: a line and its reverse pass the same cells and corners; `SightTable.blind_back` and
  rules/sight_batch.py build on this). tests/test_stencil.py checks the times against the exact ones on every
  position and offset of a 128-cell side (7e-14 off at most on a 512-cell side, measured), and the answers
  against `geometry.sight_reference`.

A stencil holds, for one shape, what the walk tests: the cells it enters (without the two end cells, which
never block) and the corners it passes exactly (shut when both side cells block), as a mask over a map's
`sight_bits` read from the origin's padded index; and for a line ending at a centre, the cells its cover is
read from (`_cover_on_line`: the cell before the last, then the corners' side cells, beside the target).
Stencils depend on the map's padded width only (flat offsets), not on its content: they are kept for the
process (`stencils(pw)`), bounded by STENCIL_BITS_KEPT bits of masks per width (past it the oldest made are
dropped, down to half). A line is tested by one shift and mask of the map's bits (~0.3 us against ~2 us for a
walk), but making a stencil costs ~15 us (a full walk and the mask), and a process's battles ask most shapes
only a few times before the table keeps the pairs themselves: on recorded battle questions stencils made at a
shape's 8th use were 20-25% slower than walking. So they are off (MAKE_AT = 0) and `SightTable.work_out`
walks; set MAKE_AT > 0 to use them (docs/ENGINE.md, "Sight").
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from skirmish.rules.geometry import COVER_NAME, LEAN, NEIGHBOURS_8, NO_SIGHT, Cell, GridMap, Sight

if TYPE_CHECKING:
    from skirmish.rules.sight_table import SightTable

_EPS = 1e-9
MAX_SIDE = 512  # maps up to this many cells a side use stencils (exact there; see above); larger ones walk
KINDS: tuple[tuple[int, int], ...] = ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))  # 0 the centre; 1-4 leans
MAKE_AT = 0  # a shape's stencil is made at its MAKE_AT-th use (a make costs ~7 walks); 0: never (measured
# slower in battles, docs/ENGINE.md: SightTable.work_out walks)
ASKED_KEPT = 1 << 20  # shapes counted (per width) before the counts start again
STENCIL_BITS_KEPT = 1 << 27  # mask bits kept (16 MB, and ~150 bytes an entry: ~200 k stencils on 40x30 maps)

Point = tuple[float, float]
Stencil = tuple[int, int, tuple[int, ...]]  # (lowest bit, mask from it, cover cells as offsets from the origin)


def point(cell: Cell, kind: int) -> Point:
    """The point of `kind` in `cell`: its centre (0) or a lean point (`SightTable.leans`' arithmetic)."""
    kx, ky = KINDS[kind]
    return (cell[0] + 0.5 + kx * LEAN, cell[1] + 0.5 + ky * LEAN)


def sight_bits(grid: GridMap) -> int:
    """The map's walls and shut corners as one int, 3 bits per padded cell j (padded width pw = width + 2, a
    blocking ring round the map): bit 3j the cell blocks sight, 3j + 1 it and cell j + pw - 1 both do, 3j + 2 it
    and cell j + pw + 1 both do (the two pairs of side cells a corner can have)."""
    w, h = grid.width, grid.height
    pw = w + 2
    pad = np.ones((h + 2, pw), dtype=bool)
    pad[1:-1, 1:-1] = grid.blocks_sight
    b = pad.ravel()
    n = len(b)
    d1 = np.zeros(n, dtype=bool)
    d1[: n - pw + 1] = b[: n - pw + 1] & b[pw - 1:]
    d2 = np.zeros(n, dtype=bool)
    d2[: n - pw - 1] = b[: n - pw - 1] & b[pw + 1:]
    bits = np.stack([b, d1, d2], axis=1).ravel()
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


class Stencils:
    """The stencils of maps `pw` padded cells wide, made when first asked for (`get`)."""

    def __init__(self, pw: int) -> None:
        self.pw = pw
        self.kept: dict[int, Stencil] = {}  # by `key`
        self.bits = 0  # mask bits kept
        self.asked: dict[int, int] = {}  # by key: times a shape not kept has been asked for

    @staticmethod
    def key(start: int, end: int, dx: int, dy: int) -> int:
        """The key of a shape: the kinds of the start and end points, the offset of the end cell."""
        return (((start * 5 + end) << 10 | (dy + MAX_SIDE)) << 10) | (dx + MAX_SIDE)

    def get(self, start: int, end: int, dx: int, dy: int) -> Stencil:
        """The stencil of the line from a `start` point of a cell to an `end` point of the cell (dx, dy) on."""
        k = self.key(start, end, dx, dy)
        s = self.kept.get(k)
        if s is None:
            self.asked.pop(k, None)
            s = self.make(start, end, dx, dy)
            if self.bits > STENCIL_BITS_KEPT:  # the oldest made go first, down to half the bound
                for o in list(self.kept):
                    self.bits -= self.kept.pop(o)[1].bit_length()
                    if self.bits <= STENCIL_BITS_KEPT // 2:
                        break
            self.kept[k] = s
            self.bits += s[1].bit_length()
        return s

    def make(self, start: int, end: int, dx: int, dy: int) -> Stencil:
        """Walk the line as `SightTable._clear` and `_walk` do (the same float steps and tests) and note what
        they test, as offsets from the origin cell."""
        pw = self.pw
        ox, oy = max(0, -dx), max(0, -dy)  # the origin cell: the pair's box from (0, 0), a pair on a map
        p0, p1 = point((ox, oy), start)
        q0, q1 = point((ox + dx, oy + dy), end)
        x, y = math.floor(p0), math.floor(p1)
        end_x, end_y = math.floor(q0), math.floor(q1)
        ddx, ddy = q0 - p0, q1 - p1
        sx = 1 if ddx > 0 else -1
        sy = 1 if ddy > 0 else -1
        t_dx = abs(1 / ddx) if ddx else math.inf
        t_dy = abs(1 / ddy) if ddy else math.inf
        t_mx = ((x + 1 - p0) if ddx > 0 else (p0 - x)) * t_dx if ddx else math.inf
        t_my = ((y + 1 - p1) if ddy > 0 else (p1 - y)) * t_dy if ddy else math.inf
        i = 0  # the cell's flat offset from the origin cell
        spw = sy * pw
        corner_bit = 1 if sx * sy > 0 else 2  # sides i + sx and i + sy * pw: pw - 1 or pw + 1 apart
        low = min(sx, spw)  # the lower side's offset
        bits: list[int] = []
        cover: list[int] = []  # cells cover is read from (a line to a centre): corners' sides beside the target
        prev: int | None = None
        lim = 1 - _EPS
        guard = abs(dx) + abs(dy) + 4
        while (x != end_x or y != end_y) and guard > 0:
            guard -= 1
            prev = i
            if abs(t_mx - t_my) < _EPS:
                if min(t_mx, t_my) > lim:
                    break
                bits.append(3 * (i + low) + corner_bit)
                if end == 0:
                    if abs(x + sx - end_x) <= 1 and abs(y - end_y) <= 1 and (x + sx != end_x or y != end_y):
                        cover.append(i + sx)
                    if abs(x - end_x) <= 1 and abs(y + sy - end_y) <= 1 and (x != end_x or y + sy != end_y):
                        cover.append(i + spw)
                x += sx
                y += sy
                i += sx + spw
                t_mx += t_dx
                t_my += t_dy
            elif t_mx < t_my:
                if t_mx > lim:
                    break
                x += sx
                i += sx
                t_mx += t_dx
            else:
                if t_my > lim:
                    break
                y += sy
                i += spw
                t_my += t_dy
            if x != end_x or y != end_y:
                bits.append(3 * i)
        # The walk reaches the end cell (its decisions are exact arithmetic's: no early stop), in at most
        # |dx| + |dy| steps; so the cell before the last is beside the target, and read first for cover.
        assert guard > 0 and x == end_x and y == end_y and prev is not None, (start, end, dx, dy)
        if end == 0:
            cover.insert(0, prev)
        if not bits:
            return 0, 0, tuple(cover)
        lo = min(bits)
        buf = bytearray((max(bits) - lo) // 8 + 1)
        for b in bits:
            b -= lo
            buf[b >> 3] |= 1 << (b & 7)
        return lo, int.from_bytes(buf, "little"), tuple(cover)


_KEPT: dict[int, Stencils] = {}


def stencils(pw: int) -> Stencils:
    """The process's stencils for maps `pw` padded cells wide."""
    s = _KEPT.get(pw)
    if s is None:
        s = _KEPT[pw] = Stencils(pw)
    return s


def point_kinds(table: SightTable, cell: Cell) -> tuple[tuple[int, Point], ...]:
    """The points sight leaves or reaches `cell` from, with their kinds (`stencil.KINDS`): its centre (0),
    then its lean points, in `leans`' order."""
    out = table._kinds.get(cell)
    if out is None:
        x, y = cell
        kinds = [0]
        if any(table._blocked(x + dx, y + dy) for dx, dy in NEIGHBOURS_8):
            kinds += [n for n, (dx, dy) in enumerate(KINDS) if n and not table._blocked(x + dx, y + dy)]
        out = table._kinds[cell] = tuple((k, point(cell, k)) for k in kinds)
    return out

def work_out(table: SightTable, frm: Cell, to: Cell) -> Sight:
    """`geometry.sight_reference(grid, frm, to)` for `table` (frm != to): each line tested by its stencil (the
    cells and corners the walk would test, by the line's shape) once its shape has been asked for MAKE_AT
    times (> 0), walked until then; in `SightTable.work_out_walked`'s order."""
    st = table._st
    assert st is not None
    pw, bits, kept, asked, make_at = table.pw, table._bits, st.kept, st.asked, MAKE_AT
    if len(asked) >= ASKED_KEPT:
        asked.clear()
    fx, fy = frm
    tx, ty = to
    fi, ti = (fy + 1) * pw + fx + 1, (ty + 1) * pw + tx + 1
    f3 = 3 * fi
    shape = (ty - fy + MAX_SIDE) << 10 | (tx - fx + MAX_SIDE)  # `Stencils.key`, no kinds
    f_points = table._kinds.get(frm) or point_kinds(table, frm)
    pt = (tx + 0.5, ty + 0.5)
    for k, fp in f_points:  # centre to centre, then leaning out of the firer's cell
        key = (k * 5) << 20 | shape
        s = kept.get(key)
        if s is None:
            n = asked.get(key, 0) + 1
            if n < make_at:  # a shape not asked for often yet: walked
                asked[key] = n
                if table._clear(fp, pt, fi, ti):
                    _, level, av, at = table._walk(fp, pt, frm, to, True)
                    return table._share(True, COVER_NAME[level], av, False, at)
                continue
            s = st.get(k, 0, tx - fx, ty - fy)
        if not (bits >> (f3 + s[0])) & s[1]:
            best, where = (0, 0), -1  # _cover_on_line: the first of the highest (level, AV) beside the target
            cover_at = table._cover_at
            for o in s[2]:
                c = cover_at[fi + o]
                if c > best:
                    best, where = c, fi + o
            cell = None if where < 0 else (where % pw - 1, where // pw - 1)
            return table._share(True, COVER_NAME[best[0]], best[1], False, cell)
    t_points = table._kinds.get(to) or point_kinds(table, to)
    for t, tp in t_points[1:]:
        for k, fp in f_points:
            key = (k * 5 + t) << 20 | shape
            s = kept.get(key)
            if s is None:
                n = asked.get(key, 0) + 1
                if n < make_at:
                    asked[key] = n
                    clear = table._clear(fp, tp, fi, ti)
                else:
                    s = st.get(k, t, tx - fx, ty - fy)
            if s is not None:
                clear = not (bits >> (f3 + s[0])) & s[1]
            if clear:
                wall = table._nearest_wall(to, fp)
                av = table.cover_av[wall[1]][wall[0]] if wall else 6
                return table._share(True, "high", av, True, wall)
    return NO_SIGHT

