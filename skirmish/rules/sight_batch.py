"""Sight codes for many pairs of cells at once (R-6.6), in exact integer arithmetic with numpy.

Why exact arithmetic gives `SightTable`'s answers. The table walks a segment between two points of two cells
(`geometry._trace`'s float steps). The points are a cell's centre or one of its four lean points (`LEAN` = 0.45
= 9/20 of a cell toward an open orthogonal neighbour), so a segment's walk is the same wherever the pair is:

- centres are exact (x + 0.5), so `x + 1 - p0` is exactly 0.5 and every float step is the same for every x;
- lean points are x + 0.95 or x + 0.05 up to a rounding that grows with x, and the walk's times are then off
  the exact rationals (A + 20k) / E by far less than 1e-12 on maps up to MAX_SIDE cells a side, while the
  exact crossing times of a segment (multiples of 1/20 over E, F <= 20 * MAX_SIDE) differ by 0 (a corner) or
  by at least 1 / (E F) >= 9.5e-9, and never equal 1 (the end point is inside its cell): every `_EPS`
  comparison of the walk decides as exact arithmetic does (and whichever way it is walked: a line and its
  reverse pass the same cells and corners, which `SightTable.blind_back` builds on). tests/test_sight_batch.py
  checks the times against the exact ones on every position and offset of a 128-cell side (7e-14 off at most
  on a 512-cell side, measured).

So the cells and corners a line passes are found here from the exact times: in twentieths of a cell, a line
from P to Q crosses its k-th column side at time (A + 20k) / E and its m-th row side at (B + 20m) / F
(E = |Q0 - P0|, F = |Q1 - P1|, A and B the distances to the first sides); the cell entered at a crossing is
found by counting the other axis's crossings not later, and two crossings at the same time are a corner. All
lines of a batch are worked out with a few array operations over all their crossings, with no loop along the
lines.

`codes(...)` answers as `SightTable.work_out` does, coded as `SightTable.column` codes (visible + 2 × lean +
4 × cover level): the centre line, then the firer's lean points in order (the first clear one gives the
cover), then any line to one of the target's lean points (high cover, leaning). tests/test_sight_batch.py
holds it equal to `geometry.sight_reference`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skirmish.rules.geometry import NEIGHBOURS_8

_Ints = npt.NDArray[np.int64]
_Bools = npt.NDArray[np.bool_]
MAX_SIDE = 512  # maps up to this many cells a side are coded here (exact there; see above); larger ones walk
_LEANS = ((1, 0), (-1, 0), (0, 1), (0, -1))  # the order of SightTable.leans
LEAN_TWENTIETHS = 9  # geometry.LEAN = 0.45 = 9/20 of a cell
NEAR = 3  # crossings at each end of a line looked at first (`Batch.lines`; >= 2: the cover is read there)
ONE_WALK_MAX = 1000  # fewer lines than this: every crossing of every line in one pass (`Batch.lines`)
ONE_PASS_MAX = 250  # fewer pairs than this: every line of every pair in one pass (`Batch.codes_one_pass`)


_OFFS = np.array([(0, 0), *_LEANS], dtype=np.int64) * LEAN_TWENTIETHS  # a point's offset from its centre, by kind


def _floor_div(num: _Ints, den: _Ints) -> _Ints:
    """num // den (den > 0) through float64, exactly: |num| < 2^53 and den <= 20 * (MAX_SIDE + 1), so a quotient
    that is not whole is at least 1 / den from the nearest whole number, far beyond float64's rounding."""
    return np.floor(num / den).astype(np.int64)


class Batch:
    """What the batch needs of one map: padded blocking cells, cover levels and each cell's lean points."""

    def __init__(self, blocks: _Bools, cover: npt.NDArray[np.int8]) -> None:
        h, w = blocks.shape
        self.w, self.h, self.pw = w, h, w + 2
        pad = np.ones((h + 2, w + 2), dtype=bool)
        pad[1:-1, 1:-1] = blocks
        self.blocks = pad.ravel()
        cov = np.zeros((h + 2, w + 2), dtype=np.int64)
        cov[1:-1, 1:-1] = cover
        self.cover = cov.ravel()
        near = np.zeros((h, w), dtype=bool)  # any of the eight neighbours blocks
        for dx, dy in NEIGHBOURS_8:
            near |= pad[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx]
        # leans[y, x, j]: the cell leans toward _LEANS[j] (an open orthogonal neighbour beside a wall)
        self.leans = np.stack([near & ~pad[1 + dy:h + 1 + dy, 1 + dx:w + 1 + dx] for dx, dy in _LEANS], axis=2)

    def lines(self, p0: _Ints, p1: _Ints, q0: _Ints, q1: _Ints, cover: bool) -> tuple[_Bools, _Ints]:
        """For lines from P to Q (in twentieths of a cell, inside their cells), whether each is clear as
        `SightTable._clear` answers (the end cells never block), and, if `cover`, the cover level
        `_cover_on_line` reads for it (Q a cell centre; 0 where not clear). Lines are first tested on the
        NEAR crossings at each end (where the walls that stop most lines are: a unit's own doorway or corner),
        and only those still clear on all of theirs. Fewer than ONE_WALK_MAX lines are tested on every crossing
        at once: there the second pass's fixed cost (some sixty array operations) is more than the crossings it
        saves (x0.75-0.85 CPU on the batches of 24 v 24 and 4 v 4 battles, docs/results/bench.txt)."""
        if len(p0) < ONE_WALK_MAX:
            return self._lines(p0, p1, q0, q1, cover, 0)
        clear, level = self._lines(p0, p1, q0, q1, cover, NEAR)  # the cover is read beside the target: here
        long = np.flatnonzero(clear & ((np.abs(q0 // 20 - p0 // 20) > 2 * NEAR) | (np.abs(q1 // 20 - p1 // 20) > 2 * NEAR)))
        if len(long):  # the crossings between the ends
            mid, _ = self._lines(p0[long], p1[long], q0[long], q1[long], False, NEAR, True)
            clear[long] = mid
            level[long[~mid]] = 0
        return clear, level

    def _lines(self, p0: _Ints, p1: _Ints, q0: _Ints, q1: _Ints, cover: bool, near: int,
               middle: bool = False) -> tuple[_Bools, _Ints]:
        """`lines` on every crossing, or (`near` > 0) on the first and last `near` crossings of each axis only
        (then a line found clear may not be), or (`middle`) on the others only (no cover). The cover read
        beside the target (the cell before the last, the side cells of corners within one cell of it: at the
        last two column crossings) is read right on the ends' crossings when `near` >= 2.

        Both axes' crossings are worked out as one list: a column crossing (the k-th) enters the cell one column
        step on and as many row steps as row crossings come not later (q + 1, q = floor((c0 + 20 F k) / 20 E));
        a row crossing (the m-th) the same with the axes' roles swapped (-c0, E and F, the steps) — one formula
        over "this axis" and "the other", so the per-crossing arrays are built once for both."""
        n = len(p0)
        pw, blocks = self.pw, self.blocks
        fx, fy, tx, ty = p0 // 20, p1 // 20, q0 // 20, q1 // 20
        right, down = q0 > p0, q1 > p1
        sx = np.where(right, 1, -1)
        spw = np.where(down, pw, -pw)  # a step along y, on padded indices
        e, f = np.abs(q0 - p0), np.abs(q1 - p1)
        a = np.where(right, 20 * (fx + 1) - p0, p0 - 20 * fx)
        b = np.where(down, 20 * (fy + 1) - p1, p1 - 20 * fy)
        nx, ny = np.abs(tx - fx), np.abs(ty - fy)
        fi, ti = (fy + 1) * pw + fx + 1, (ty + 1) * pw + tx + 1
        c0 = a * f - b * e  # (time_x(k) - time_y(m)) * E * F = c0 + 20 F k - 20 E m
        # Per line and axis (columns first, then rows): the crossings looked at, and what a crossing's cell needs.
        n_all = np.concatenate([nx, ny])
        if not near:
            looked = n_all
        elif middle:
            looked = np.maximum(n_all - 2 * near, 0)
        else:
            looked = np.minimum(n_all, 2 * near)
        lines = np.arange(n)
        per = np.stack([np.concatenate([c0, -c0]), 20 * np.concatenate([f, e]), 20 * np.concatenate([e, f]),
                        np.concatenate([ny, nx]), np.concatenate([sx, spw]), np.concatenate([spw, sx]),
                        np.concatenate([fi + sx, fi + spw]), np.cumsum(looked) - looked, n_all - looked,
                        np.concatenate([lines, lines])]).astype(np.int32)
        # Each crossing's: numerator at k = 0 and its step, denominator, the other axis's crossings, this axis's
        # step and the other's (padded indices), the cell one step on, where its line's list begins, the
        # crossings skipped in the middle (`near`), and its line.
        num0, step_num, den, other_n, step, other_step, first, begin, skipped, line_of = np.repeat(per, looked, axis=1)
        k = np.arange(len(line_of), dtype=np.int32) - begin  # the crossing's number along its axis
        if middle:
            k += near
        elif near:  # the first `near`, then the last ones
            k += np.where(k < near, 0, skipped)
        num = num0 + step_num * k
        # The other axis's crossings before this one (`_floor_div`, exactly; q >= -1: |c0| <= 20 E F at k = 0).
        q = np.floor(num / den).astype(np.int32)
        cells_at = first + step * k + other_step * np.minimum(q + 1, other_n)
        hit = blocks.take(cells_at)  # (take: far quicker than [] with 32-bit indices)
        if blocks[ti].any():  # a line may end in a blocking cell: its own end never blocks it
            hit &= cells_at != ti[line_of]
        # Corners (from the column crossings: a row crossing at the same time is the same corner): side cells
        # (x after the column step, y before) and (x before, y after).
        n_x = int(looked[:n].sum())
        qx, nyx = q[:n_x], other_n[:n_x]
        corner = np.flatnonzero((num[:n_x] == qx * den[:n_x]) & (qx >= 0) & (qx < nyx))
        ci = line_of[corner]
        kc, mc, sxc, spwc, fic = k[corner], q[corner], step[corner], other_step[corner], first[corner]
        side_a = fic + sxc * kc + spwc * mc  # (`first` is one step on)
        side_b = side_a - sxc + spwc
        shut = blocks.take(side_a) & blocks.take(side_b)
        bad = np.bincount(line_of[hit], minlength=n) + np.bincount(ci[shut], minlength=n)
        clear = bad == 0
        if not cover:
            return clear, np.zeros(n, dtype=np.int64)
        # The cell before the last: back along the last step (the later of the last crossings, both if equal).
        last = (a + 20 * (nx - 1)) * f - (b + 20 * (ny - 1)) * e
        back_x = (nx > 0) & ((ny == 0) | (last >= 0))
        back_y = (ny > 0) & ((nx == 0) | (last <= 0))
        prev = ti - spw * back_y - sx * back_x
        level = np.where(clear, self.cover[prev], 0)
        for side in (side_a, side_b):  # corners' side cells beside the target
            sx_, sy_ = side % pw - 1, side // pw - 1
            beside = (np.abs(sx_ - tx[ci]) <= 1) & (np.abs(sy_ - ty[ci]) <= 1) & (side != ti[ci]) & clear[ci]
            np.maximum.at(level, ci[beside], self.cover[side[beside]])
        return clear, level

    def codes(self, fx: _Ints, fy: _Ints, tx: _Ints, ty: _Ints) -> npt.NDArray[np.int8]:
        """`SightTable.work_out(frm, to)` coded (visible + 2 × lean + 4 × cover level) for each pair: below
        ONE_PASS_MAX pairs by `codes_one_pass`, else by `codes_two_passes` (every line is tested on the NEAR
        crossings at each end first, `lines`)."""
        if len(fx) < ONE_PASS_MAX:
            return self.codes_one_pass(fx, fy, tx, ty)
        return self.codes_two_passes(fx, fy, tx, ty)

    def codes_two_passes(self, fx: _Ints, fy: _Ints, tx: _Ints, ty: _Ints) -> npt.NDArray[np.int8]:
        """`codes`: the centre lines first, then the other lines of the pairs they leave unseen."""
        out = np.zeros(len(fx), dtype=np.int8)
        same = (fx == tx) & (fy == ty)
        out[same] = 1
        todo = np.flatnonzero(~same)
        clear, level = self.lines(20 * fx[todo] + 10, 20 * fy[todo] + 10, 20 * tx[todo] + 10, 20 * ty[todo] + 10,
                                  True)  # the centre line
        out[todo[clear]] = 1 + 4 * level[clear]
        todo = todo[~clear]
        if not len(todo):
            return out
        # The rest at once: from the firer's lean points to the target's centre (the first clear one, in order,
        # gives the cover), and from any firer point to one of the target's lean points (high cover, leaning).
        f_leans = self.leans[fy[todo], fx[todo]]  # [pair, lean]
        t_leans = self.leans[ty[todo], tx[todo]]
        a_rows, a_cols = np.nonzero(f_leans)  # pair-major, leans in order
        f_points = np.concatenate([np.ones((len(todo), 1), dtype=bool), f_leans], axis=1)
        b_rows, b_tl, b_fp = np.nonzero(t_leans[:, :, None] & f_points[:, None, :])
        offs = np.array([(0, 0), *_LEANS], dtype=np.int64) * LEAN_TWENTIETHS  # by point kind
        rows = np.concatenate([a_rows, b_rows])
        f_kind = np.concatenate([a_cols + 1, b_fp])
        t_kind = np.concatenate([np.zeros(len(a_rows), dtype=np.int64), b_tl + 1])
        pairs = todo[rows]
        clear, level = self.lines(20 * fx[pairs] + 10 + offs[f_kind, 0], 20 * fy[pairs] + 10 + offs[f_kind, 1],
                                  20 * tx[pairs] + 10 + offs[t_kind, 0], 20 * ty[pairs] + 10 + offs[t_kind, 1], True)
        n_a = len(a_rows)
        b_seen = np.unique(pairs[n_a:][clear[n_a:]])
        out[b_seen] = 1 + 2 + 4 * 2
        first_pairs, first = np.unique(pairs[:n_a][clear[:n_a]], return_index=True)  # the first clear lean of each
        out[first_pairs] = 1 + 4 * level[:n_a][clear[:n_a]][first]  # before any lean line to the target's leans
        return out

    def codes_one_pass(self, fx: _Ints, fy: _Ints, tx: _Ints, ty: _Ints) -> npt.NDArray[np.int8]:
        """`codes`, with every line of every pair tested at once (no second pass for the pairs the centre line
        leaves unseen): more lines, half the array operations, which is what costs on small batches (~130 us a
        call, fixed, against ~450 us for two passes; a pair walked costs about 8 us, docs/ENGINE.md). The first
        clear line from the firer's centre or lean points (in order) to the target's centre gives the cover;
        else any clear line to one of the target's lean points gives high cover, leaning."""
        n = len(fx)
        out = np.zeros(n, dtype=np.int8)
        f_points = np.concatenate([np.ones((n, 1), dtype=bool), self.leans[fy, fx]], axis=1)  # [pair, kind]
        f_points[(fx == tx) & (fy == ty)] = False  # the same cell: seen, no line
        t_leans = self.leans[ty, tx]
        a_rows, a_kind = np.nonzero(f_points)  # pair-major, the centre then the leans in order
        b_rows, b_tl, b_fp = np.nonzero(t_leans[:, :, None] & f_points[:, None, :])
        rows = np.concatenate([a_rows, b_rows])
        f_kind = np.concatenate([a_kind, b_fp])
        t_kind = np.concatenate([np.zeros(len(a_rows), dtype=np.int64), b_tl + 1])
        offs = _OFFS[f_kind], _OFFS[t_kind]
        clear, level = self.lines(20 * fx[rows] + 10 + offs[0][:, 0], 20 * fy[rows] + 10 + offs[0][:, 1],
                                  20 * tx[rows] + 10 + offs[1][:, 0], 20 * ty[rows] + 10 + offs[1][:, 1], True)
        n_a = len(a_rows)
        out[b_rows[clear[n_a:]]] = 1 + 2 + 4 * 2
        first_pairs, first = np.unique(a_rows[clear[:n_a]], return_index=True)  # the first clear line of each
        out[first_pairs] = 1 + 4 * level[:n_a][clear[:n_a]][first]  # before any line to the target's leans
        out[(fx == tx) & (fy == ty)] = 1
        return out
