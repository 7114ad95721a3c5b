"""Baked sight on disk (skirmish.rules.sight_bake): where bakes live, finding a map's, writing one.

A bake is a file named by its map's key (`<key>.npz`: numpy's compressed arrays, read with no pickling). A map's
sight table looks for one when it is made (once per map content and process, `map_state.SIGHT_FINDERS`): first
among the bakes shipped with skirmish (skirmish/data/sight/, every shipped scenario's map, made by `skirmish bake
--shipped`), then in the person's cache folder, where `skirmish bake` writes them. Without one, sight is worked out as
battles ask for it, as before; the answers are the same either way.

A file that cannot be read, or is not the bake its name says, is passed over (it is a cache: the battle goes on
without it), and why is kept in `problems` for `skirmish bake --list` and the bench's "sight:" line to show.
SKIRMISH_SIGHT_BAKES=off turns finding off (the bench's --no-bake).
"""

from __future__ import annotations

import io
import math
import os
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt
from numpy.lib import format as npformat

from skirmish.fileio import OutputError, atomic_path
from skirmish.rules import map_state
from skirmish.rules.geometry import GridMap
from skirmish.rules.sight_bake import BAKE_MAX_CELLS, SightBake, bake_key, from_arrays, to_arrays

CACHE_ENV = "SKIRMISH_CACHE_DIR"
OFF_ENV = "SKIRMISH_SIGHT_BAKES"
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data" / "sight"
BAKE_FILE_LIMIT = 64 << 20  # bytes: a bake file larger than this is not read (the largest map's is under 4 MB)
problems: dict[str, str] = {}  # a bake file passed over -> why
found: dict[str, Path] = {}  # a map's key -> the file its bake was read from, in this process


def cache_dir() -> Path:
    """The person's cache folder: $SKIRMISH_CACHE_DIR, else $XDG_CACHE_HOME/skirmish, else ~/.cache/skirmish."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "skirmish"


def user_dir() -> Path:
    """Where `skirmish bake` writes bakes: the cache folder's `sight`."""
    return cache_dir() / "sight"


def search_dirs() -> tuple[Path, ...]:
    """The folders a bake is looked for in, in order: the shipped ones, then the person's."""
    return SHIPPED_DIR, user_dir()


def enabled() -> bool:
    """False when $SKIRMISH_SIGHT_BAKES says off (off, 0, no, false)."""
    return os.environ.get(OFF_ENV, "").strip().lower() not in ("off", "0", "no", "false")


@contextmanager
def bakes_off() -> Iterator[None]:
    """Within the block, maps made within work their sight out as battles ask for it: finding bakes is off, for this
    process and the ones it starts, and what the process keeps about maps by content is dropped on entering and on
    leaving. A map object keeps the sight table it first used (`GridMap.sight_table` is cached on it), so load the
    scenarios to measure or play within the block (as the bench does), and do not carry their maps out of it."""
    before = os.environ.get(OFF_ENV)
    os.environ[OFF_ENV] = "off"
    map_state.forget_all()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(OFF_ENV, None)
        else:
            os.environ[OFF_ENV] = before
        map_state.forget_all()


def read_bake(path: Path) -> SightBake:
    """The bake in `path`, checked whole; ValueError saying what is wrong with it (the caller names the file). Only
    the bake's five arrays are read, each only after its size and its header (shape and type) are found to fit a bake
    (`_member`): a damaged or hostile file is refused before it can take much memory or time."""
    try:
        if path.stat().st_size > BAKE_FILE_LIMIT:
            raise ValueError(f"larger than {BAKE_FILE_LIMIT >> 20} MB")
        with zipfile.ZipFile(path) as z:
            arrays = {name: _member(z, name, limit) for name, limit in _MEMBERS.items()}
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error, MemoryError) as exc:
        raise ValueError(f"cannot be read ({getattr(exc, 'strerror', None) or exc or type(exc).__name__})") from None
    return from_arrays(arrays)


# The arrays of a bake file and the most bytes each may hold once inflated (header and data): a map's numbers, two
# bytes a pair up to BAKE_MAX_CELLS cells; up to 65,535 answers of six two-byte numbers; three small values.
_HEADER = 4096
_MEMBERS = {"version": _HEADER + 8, "key": _HEADER + 4 * 64, "size": _HEADER + 16,
            "numbers": _HEADER + 2 * BAKE_MAX_CELLS ** 2, "sights": _HEADER + 12 * 0xFFFF}


def _member(z: zipfile.ZipFile, name: str, limit: int) -> npt.NDArray[np.generic]:
    """One array of a bake file (`<name>.npy` in the zip), read only if its inflated size is at most `limit` bytes and
    its header names a plain type and a shape that its bytes fill exactly; ValueError otherwise."""
    try:
        info = z.getinfo(f"{name}.npy")
    except KeyError:
        raise ValueError(f"it has no {name!r} array") from None
    if info.file_size > limit:
        raise ValueError(f"its {name!r} array is larger than a bake's can be")
    with z.open(info) as f:
        data = f.read(limit + 1)  # (the zip's own size may lie: never more than the limit is inflated)
    if len(data) > limit:
        raise ValueError(f"its {name!r} array is larger than a bake's can be")
    head = io.BytesIO(data)
    try:
        major, _ = npformat.read_magic(head)
        shape, fortran, dtype = (npformat.read_array_header_1_0(head) if major == 1
                                 else npformat.read_array_header_2_0(head))
    except ValueError as exc:
        raise ValueError(f"its {name!r} array is not a numpy array ({exc})") from None
    count = math.prod(shape)
    if dtype.hasobject or fortran or count * dtype.itemsize != len(data) - head.tell():
        raise ValueError(f"its {name!r} array is not one a bake holds ({dtype}, {shape})")
    return np.frombuffer(data, dtype=dtype, count=count, offset=head.tell()).reshape(shape)


def find(grid: GridMap) -> SightBake | None:
    """The bake of `grid`'s sight, from the first search folder holding a good one; None when there is none (or
    finding is off, or the map is too large to bake). The finder maps' sight tables call (`map_state.SIGHT_FINDERS`)."""
    got = find_file(grid)
    return got[0] if got is not None else None


def find_file(grid: GridMap) -> tuple[SightBake, Path] | None:
    """`find`, with the file the bake was read from."""
    if not enabled() or grid.width * grid.height > BAKE_MAX_CELLS:
        return None
    key = bake_key(grid)
    for folder in search_dirs():
        path = folder / f"{key}.npz"
        if not path.is_file():
            continue
        try:
            bake = read_bake(path)
        except ValueError as exc:
            problems[str(path)] = str(exc)
            continue
        if bake.key != key or (bake.width, bake.height) != (grid.width, grid.height):
            problems[str(path)] = f"holds the bake of another map ({bake.key})"
            continue
        found[key] = path
        return bake, path
    return None


def passed_over(grid: GridMap) -> list[str]:
    """The bake files of `grid`'s key passed over in this process, each with why."""
    name = f"{bake_key(grid)}.npz"
    return [f"{p}: {why}" for p, why in sorted(problems.items()) if Path(p).name == name]


def found_for(grid: GridMap) -> Path | None:
    """The file `grid`'s sight table read its answers from, if it took a bake (the table is made if it was not)."""
    return found.get(bake_key(grid)) if grid.sight_table.baked is not None else None


def same_bake(a: SightBake, b: SightBake) -> bool:
    """True when two bakes hold the same answers (so a file need not be written again)."""
    return a.key == b.key and a.sights == b.sights and np.array_equal(a.numbers, b.numbers)


def write_bake(bake: SightBake, folder: Path) -> Path:
    """Write `bake` into `folder` (made if missing) as `<key>.npz`, whole or not at all; the path written. Raises
    OutputError naming the folder when it cannot be written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None
    path = folder / f"{bake.key}.npz"
    with atomic_path(path) as tmp:
        np.savez_compressed(tmp, **to_arrays(bake))  # type: ignore[arg-type]
    return path


if find not in map_state.SIGHT_FINDERS:
    map_state.SIGHT_FINDERS.append(find)
