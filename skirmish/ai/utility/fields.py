"""Per-cell fields of the utility AI's cell considerations that cost the most: from each cell a move may end
in, the best shot the unit would have (line of fire) and the share of the enemies it sees that stand in the
open there (flanking). Worked out with numpy over all the cells at once."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from skirmish.ai.estimate import hit_probability
from skirmish.ai.utility.maps import COVER_BY_LEVEL
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules import geometry as geo


def fire_fields(view: BattleView, me: UnitView, ok: npt.NDArray[np.bool_], enemies: list[UnitView],
                dists: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(line of fire, flanking) over the cells in `ok`: the best prepared shot after a walk, its hit chance
    discounted by the target's cover, and the share of the enemies seen that stand in the open (R-6.6);
    `dists[k]` is the distance in metres from every cell to enemy k (or, 2-d, from the cells in `ok` in
    reading order: all a decision reads).

    Per cell and enemy this is: the sight `view.sight(me, e, cell)` (R-6.1's concealment worked in as
    `unit_sight` does: seen only round a corner while not firing, the enemy is concealed if its position is
    known and unseen if not); skip it if unseen or beyond the weapon's reach; count it as seen, and as in the
    open if its cover is none; and take `hit_probability(..., at=cell)` × (1 − 0.7 × cover value), the best
    over the enemies. The hit chance reads the cell only through whether the target is concealed and the
    distance, and the distance only through the range increments it spans (R-6.1) and an area weapon's row
    shift (R-6.9): so it is asked once per enemy and such kind of cell. The float arithmetic is the per-cell
    arithmetic, element by element (tests/test_fields.py holds the fields equal to working each cell out)."""
    h, wd = ok.shape
    fire = np.zeros((h, wd))
    flank = np.zeros((h, wd))
    ys, xs = np.nonzero(ok)
    if me.weapon is None or not enemies or not len(ys):
        return fire, flank
    fire[ys, xs], flank[ys, xs] = fire_rows(view, me, ys, xs, enemies, dists[:, ys, xs] if dists.ndim == 3 else dists)
    return fire, flank


def fire_rows(view: BattleView, me: UnitView, ys: npt.NDArray[np.intp], xs: npt.NDArray[np.intp],
              enemies: list[UnitView], near: npt.NDArray[np.float64]
              ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """`fire_fields` at the cells (xs, ys) only, as two vectors in their order (`near[k, i]`: the metres from cell i
    to enemy k): the same numbers, element by element, without the maps round them (`score_cells`)."""
    n = len(ys)
    w = me.weapon
    if w is None or not enemies or not n:
        return np.zeros(n), np.zeros(n)
    grid = view.grid
    table = grid.sight_table
    # Every enemy (rows) against every cell (columns) at once.
    at = np.array([(int(e.cell[0]), int(e.cell[1])) for e in enemies], dtype=np.intp)
    code = table.columns_many(tuple((x, y) for x, y in at.tolist()), xs, ys)  # one look for every enemy
    if n == 1:  # one cell (the unit's own: most decisions): the same arithmetic in plain floats
        one = _one_cell(view, me, enemies, code[:, 0].tolist(), near[:, 0].tolist(), (int(xs[0]), int(ys[0])))
        return np.array([one[0]]), np.array([one[1]])
    visible = (code & 1).astype(bool) & (near <= w.max_range_m)
    lean = (code & 2).astype(bool)
    level = code >> 2
    exposed = np.array([e.firing for e in enemies])[:, None]
    known = np.array([me.side in e.known_to for e in enemies])[:, None]
    concealed = visible & lean & ~exposed
    visible &= ~concealed | known  # seen only round a corner, not firing, position unknown: unseen
    hit = np.zeros(visible.shape)
    ks, cells = np.nonzero(visible)
    if len(ks):
        hyp = geo.hypot_table(grid.width, grid.height)
        dist = hyp[np.abs(ys[cells] - at[ks, 1]), np.abs(xs[cells] - at[ks, 0])] * grid.cell_m  # geo.distance_m
        steps = np.floor(dist / w.range_inc_m + 1e-9)
        shift = _ae_shift(w.ae, dist)
        kinds = (((ks.astype(np.int64) * 4096 + steps.astype(np.int64)) * 256 + shift.astype(np.int64)) * 2
                 + concealed[ks, cells])  # one integer per enemy and kind of cell (steps < 4096, shift < 256)
        if len(kinds) <= SMALL:  # a few pairs (most decisions weigh one cell): no sort, a dict of the kinds
            ki, ci, kl = ks.tolist(), cells.tolist(), kinds.tolist()
            first: dict[int, int] = {}
            for i, kind in enumerate(kl):
                first.setdefault(kind, i)
            got = {kind: hit_probability(view, me, enemies[ki[i]], mode="prepared", moved="walked",
                                         at=(int(xs[ci[i]]), int(ys[ci[i]])))[0] for kind, i in first.items()}
            hit[ks, cells] = [got[kind] for kind in kl]
        else:
            _, firsts, back = np.unique(kinds, return_index=True, return_inverse=True)
            chances = np.array([hit_probability(view, me, enemies[int(ks[i])], mode="prepared", moved="walked",
                                                at=(int(xs[cells[i]]), int(ys[cells[i]])))[0] for i in firsts.tolist()])
            hit[ks, cells] = chances[back.ravel()]
    value = hit * (1 - COVER_BY_LEVEL[level] * 0.7)
    fire = np.where(visible, value, 0.0).max(axis=0)  # the best over the enemies seen, else 0
    seen = visible.sum(axis=0)
    open_ = (visible & (level == 0)).sum(axis=0)
    return fire, np.where(seen > 0, open_ / np.maximum(seen, 1), 0.0)  # (over at least 1: nothing to silence)


def fire_at(view: BattleView, me: UnitView, cell: geo.Cell, enemies: list[UnitView], near: list[float]
            ) -> tuple[float, float]:
    """`fire_fields` at one cell, (line of fire, flanking) as floats: `near[k]` the metres from the cell to enemy k
    (the numbers `fire_fields` gives there, bit for bit: the same sight look and `_one_cell`)."""
    if me.weapon is None or not enemies:
        return 0.0, 0.0
    at = tuple((int(e.cell[0]), int(e.cell[1])) for e in enemies)
    code = view.grid.sight_table.columns_many(at, np.array([cell[0]], dtype=np.intp), np.array([cell[1]], dtype=np.intp))
    return _one_cell(view, me, enemies, code[:, 0].tolist(), near, cell)


def _one_cell(view: BattleView, me: UnitView, enemies: list[UnitView], codes: list[int], near: list[float],
              cell: geo.Cell) -> tuple[float, float]:
    """`fire_fields` at one cell, enemy by enemy in plain floats (each enemy its own kind of cell: one hit chance
    each; the same products, maximum and quotient as the arrays')."""
    w = me.weapon
    assert w is not None
    best, seen, open_ = 0.0, 0, 0
    for e, code, d in zip(enemies, codes, near, strict=True):
        if not (code & 1 and d <= w.max_range_m):
            continue
        concealed = bool(code & 2) and not e.firing
        if concealed and me.side not in e.known_to:
            continue  # seen only round a corner, not firing, position unknown: unseen
        level = code >> 2
        hit = hit_probability(view, me, e, mode="prepared", moved="walked", at=cell)[0]
        best = max(best, hit * (1 - _COVER[level] * 0.7))
        seen += 1
        open_ += level == 0
    return best, (open_ / max(seen, 1) if seen > 0 else 0.0)


_COVER = COVER_BY_LEVEL.tolist()  # by the sight codes' level, as floats
SMALL = 64  # pairs (enemy, cell) seen up to which the kinds are told apart with a dict, not np.unique


def _ae_shift(ae: int, dist: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`shot_numbers.ae_shift` over an array of distances (0 for a weapon with no area effect)."""
    if not ae:
        return np.zeros_like(dist)
    return np.maximum(0, ae - np.maximum(0, np.ceil(dist / 10 - 1e-9) - 1))
