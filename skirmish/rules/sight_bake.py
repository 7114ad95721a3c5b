"""Sight baked for a whole map: every pair of cells' answer (R-6.6) worked out ahead of the battles, so battles on
the map read sight and never walk a line (docs/ENGINE.md, "Baked sight").

A map's sight never changes, so the answers `SightTable` works out as battles ask for them can as well be worked out
once for every pair and kept with the map. A bake holds them as the table keeps them: one number per ordered pair
(origin cell, target cell), the place of the answer in a list of the map's distinct answers. `SightTable.adopt`
takes a bake in; from then on every lookup is an index read. The answers are the table's own (`SightTable.work_out`,
and the batch's codes for the pairs not in sight: rules/sight_batch.py), so a battle's events are the same with a
bake or without one; tests/test_sight_bake.py holds a bake equal to `geometry.sight_reference`.

Here: the bake's key (what of a map the answers depend on, `bake_key`), the bake itself (`SightBake`), making one
(`bake`) and its arrays for a file (`to_arrays`, `from_arrays`). Files, where they live and how they are found are
skirmish.content.sight_bakes (rules do no file I/O).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from skirmish.rules.geometry import COVER_LEVEL, COVER_NAME, NO_SIGHT, GridMap, Sight

BAKE_VERSION = 1  # raise when the sight rule's answers change: the key changes with it, so older bakes are not found
BAKE_MAX_CELLS = 4096  # the largest map baked (64 x 64): 2 bytes a pair, 32 MB in memory at most
ORIGINS_AT_ONCE = 64  # origin cells coded together while baking (`SightTable.codes_many`)
_FIELDS = 6  # a distinct answer in a file: visible, cover level, cover AV, lean, cover cell x, y (-1: none)


def bake_key(grid: GridMap) -> str:
    """What a map's sight answers depend on, as a hex digest: the bake format's version, the map's size and, per cell,
    whether it blocks sight, its cover level and its cover's AV. Maps with equal keys see alike (their tiles' names,
    move costs and cell size may differ)."""
    h = hashlib.sha256(f"skirmish sight bake {BAKE_VERSION} {grid.width}x{grid.height}".encode())
    for layer, dtype in ((grid.blocks_sight, np.bool_), (grid.cover, np.int8), (grid.cover_av, np.int16)):
        h.update(np.ascontiguousarray(layer, dtype=np.dtype(dtype).newbyteorder("<")).tobytes())
    return h.hexdigest()[:32]


@dataclass(frozen=True, eq=False)
class SightBake:
    """Every pair's sight on maps of one key: `numbers[origin, target]` (cells as y * width + x) is the answer's place
    in `sights`; `sights[0]` is never used (a table's "not worked out yet") and `sights[1]` is NO_SIGHT."""

    key: str
    width: int
    height: int
    numbers: npt.NDArray[np.uint16]
    sights: tuple[Sight, ...]

    def sight(self, frm: tuple[int, int], to: tuple[int, int]) -> Sight:
        """The baked answer for one pair (for checks; battles read it through `SightTable`)."""
        return self.sights[int(self.numbers[frm[1] * self.width + frm[0], to[1] * self.width + to[0]])]


def bake(grid: GridMap, progress: Callable[[int, int], None] | None = None) -> SightBake:
    """Work out every pair of `grid`'s cells (walls too: a wall's answers are asked for no less than others') as a
    fresh `SightTable` would: pairs the batch codes as not in sight are NO_SIGHT, every other is worked out whole.
    `progress(done, total)` after each block of origin cells. Raises ValueError on a map over BAKE_MAX_CELLS."""
    from skirmish.rules.sight_table import SightTable  # (imported here: sight_table imports geometry, as this does)

    n = grid.width * grid.height
    if n > BAKE_MAX_CELLS:
        raise ValueError(f"the map has {n} cells; sight is baked for maps of up to {BAKE_MAX_CELLS} cells")
    table = SightTable(grid)
    ys, xs = np.divmod(np.arange(n, dtype=np.intp), grid.width)
    cells = [(int(x), int(y)) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)]
    numbers = np.empty((n, n), dtype=np.uint16)
    work_out = table._work_out
    for start in range(0, n, ORIGINS_AT_ONCE):
        block = cells[start:start + ORIGINS_AT_ONCE]
        codes = table.codes_many(tuple(block), xs, ys)
        rows = numbers[start:start + len(block)]
        rows[...] = 1  # NO_SIGHT
        for o, t in np.argwhere(codes != 0).tolist():
            rows[o, t] = work_out(block[o], cells[t])
        if progress is not None:
            progress(start + len(block), n)
    return SightBake(bake_key(grid), grid.width, grid.height, numbers, tuple(table.sights))


def to_arrays(b: SightBake) -> dict[str, npt.NDArray[np.generic]]:
    """The bake as named arrays (for `numpy.savez_compressed`): nothing that needs pickling to read back."""
    sights = np.array([(int(s.visible), COVER_LEVEL[s.cover], s.cover_av, int(s.lean),
                        *(s.cover_cell if s.cover_cell is not None else (-1, -1))) for s in b.sights],
                      dtype=np.int16).reshape(-1, _FIELDS)
    return {"version": np.array(BAKE_VERSION, dtype=np.int64), "key": np.array(b.key),
            "size": np.array((b.width, b.height), dtype=np.int64), "numbers": b.numbers, "sights": sights}


def from_arrays(arrays: Mapping[str, npt.NDArray[np.generic]]) -> SightBake:
    """A bake from `to_arrays`' arrays, checked whole (shapes, types, every number in range); ValueError naming
    what is wrong. Its key is the one stored: the caller compares it with the map's."""
    try:
        version = int(arrays["version"])
        key = str(arrays["key"])
        width, height = (int(v) for v in arrays["size"])
        numbers = np.asarray(arrays["numbers"])
        raw = np.asarray(arrays["sights"])
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not a sight bake ({exc})") from None
    if version != BAKE_VERSION:
        raise ValueError(f"made for bake format {version}, this version reads {BAKE_VERSION}")
    n = width * height
    if width < 1 or height < 1 or not (0 < n <= BAKE_MAX_CELLS) or numbers.shape != (n, n) or numbers.dtype.kind != "u" \
            or numbers.dtype.itemsize != 2:
        raise ValueError(f"its numbers are not {n} x {n} two-byte counts")
    if raw.ndim != 2 or raw.shape[1] != _FIELDS or not 2 <= len(raw) <= 0xFFFF or raw.dtype.kind != "i":
        raise ValueError("its answers are not a list of rows of six whole numbers")
    if n and (int(numbers.min()) < 1 or int(numbers.max()) >= len(raw)):
        raise ValueError("a pair's number is outside its list of answers")
    sights = []
    for k, (visible, level, av, lean, cx, cy) in enumerate(raw.tolist()):
        if visible not in (0, 1) or lean not in (0, 1) or level not in COVER_NAME or not -1 <= cx < width \
                or not -1 <= cy < height or (cx < 0) != (cy < 0):
            raise ValueError(f"answer {k} is not a sight ({[visible, level, av, lean, cx, cy]})")
        sights.append(Sight(bool(visible), COVER_NAME[level], int(av), bool(lean), (cx, cy) if cx >= 0 else None))
    if sights[1] != NO_SIGHT:
        raise ValueError("its second answer is not 'not in sight'")
    sights[0] = NO_SIGHT  # never read (a table's "not worked out yet")
    return SightBake(key, width, height, np.ascontiguousarray(numbers, dtype=np.uint16), tuple(sights))
