"""`skirmish bake`: bake the sight of scenarios' maps (skirmish.rules.sight_bake), so battles on them read every
pair's line of sight and cover instead of working it out (docs/ENGINE.md, "Baked sight"). The bakes go into the
person's cache folder (skirmish.content.sight_bakes), or with --shipped into the package (the developers' step after a
shipped map changes); --list says which maps are baked and where, and bakes nothing."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from skirmish.cli.common import EXIT_BAD_INPUT
from skirmish.content import sight_bakes
from skirmish.content.errors import ContentError, one_line
from skirmish.fileio import OutputError, check_output
from skirmish.rules.geometry import GridMap
from skirmish.rules.sight_bake import BAKE_MAX_CELLS, SightBake, bake, bake_key

SHIPPED_SUBFOLDERS = ("fi", "fw", "training", "bench")  # besides scenarios/ itself


def shipped_scenarios() -> list[Path]:
    """Every shipped scenario file: scenarios/ and its subfolders (the default scenario's embedded copy when the
    folder is missing)."""
    from skirmish.content.scenario import SCENARIOS_DIR, builtin_scenarios

    return [*builtin_scenarios(), *(p for sub in SHIPPED_SUBFOLDERS for p in sorted((SCENARIOS_DIR / sub).glob("*.yaml")))]


def load_map(path: Path) -> GridMap:
    """The map a file names: a map (.tmj) itself, or a scenario's (.yaml); ContentError when it does not load."""
    from skirmish.content.scenario import load_scenario
    from skirmish.content.tiled import load_tmj

    if path.suffix.lower() == ".tmj":
        return load_tmj(path)
    if path.suffix.lower() in (".yaml", ".yml"):
        return load_scenario(path).grid
    raise ContentError(str(path), "", "expected a scenario (.yaml) or a map (.tmj) file")


def cmd_bake(args: argparse.Namespace) -> int:
    """Bake (or with --list, report) each file's map once; a file that does not load, a map too large to bake or a
    bake that cannot be written is one line on stderr and exit 2, the other files still done."""
    from skirmish.content.scenario import default_scenario_path

    if args.shipped and args.files:
        return _refuse("--shipped bakes the shipped scenarios' maps; name no files with it")
    if args.shipped and args.out:
        return _refuse("--shipped writes into the package; --out is for other bakes")
    paths = shipped_scenarios() if args.shipped else [Path(f) for f in args.files] or [default_scenario_path()]
    folder = sight_bakes.SHIPPED_DIR if args.shipped else Path(args.out) if args.out else sight_bakes.user_dir()
    failed = False
    done: set[str] = set()
    for path in paths:
        label = one_line(str(path))
        try:
            grid = load_map(path)
        except ContentError as exc:
            failed = _refuse(exc.text) > 0
            continue
        cells = grid.width * grid.height
        if cells > BAKE_MAX_CELLS:
            failed = _refuse(f"{label}: the map has {cells} cells; sight is baked for maps of up to {BAKE_MAX_CELLS}") > 0
            continue
        key = bake_key(grid)
        if key in done:
            print(f"same map: {label} (done above)")
            continue
        done.add(key)
        if args.list:
            got = sight_bakes.find_file(grid)
            print(f"baked: {label} ({grid.width}x{grid.height}): {got[1]}" if got is not None
                  else f"not baked: {label} ({grid.width}x{grid.height})")
            continue
        try:
            _bake_into(grid, key, label, folder, args.force)
        except OutputError as exc:
            failed = _refuse(str(exc)) > 0
    if args.list:
        for path_text, why in sorted(sight_bakes.problems.items()):
            print(f"skirmish bake: warning: {path_text}: passed over: {why}", file=sys.stderr)
    return EXIT_BAD_INPUT if failed else 0


def _refuse(text: str) -> int:
    """One line on stderr; the exit status for it."""
    print(f"skirmish bake: {text}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _bake_into(grid: GridMap, key: str, label: str, folder: Path, force: bool) -> None:
    """Put the bake of `grid`'s sight into `folder`: kept if a good one is there already (for the cache folder:
    anywhere battles look for one) unless `force`, copied from where one is found, else baked. The file is checked
    writable before any work; OutputError when it is not."""
    size = f"{grid.width}x{grid.height}"
    target = folder / f"{key}.npz"
    got = sight_bakes.find_file(grid)
    have, where = got if got is not None else (None, None)
    # Into the cache folder, a bake found anywhere battles look will do; into a named folder or the package, only one
    # in that folder.
    if not force and have is not None and where is not None and folder == sight_bakes.user_dir():
        print(f"already baked: {label} ({size}): {where}")
        return
    if not force and _good(target, key):
        print(f"already baked: {label} ({size}): {target}")
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None
    check_output(target)
    if have is not None and where != target and not force:
        print(f"copied: {label} ({size}): {sight_bakes.write_bake(have, folder)} (from {where})")
        return
    made, seconds = _bake_one(grid, label)
    if have is not None and where == target and sight_bakes.same_bake(have, made):
        print(f"unchanged: {label} ({size}): {target}")
        return
    out = sight_bakes.write_bake(made, folder)
    print(f"baked: {label} ({size}, {grid.width * grid.height} cells, {len(made.sights) - 2} distinct answers in "
          f"sight) in {seconds:.1f} s: {out}")


def _good(path: Path, key: str) -> bool:
    """True if `path` holds a good bake of the map with this key."""
    try:
        return path.is_file() and sight_bakes.read_bake(path).key == key
    except ValueError:
        return False


def _bake_one(grid: GridMap, label: str) -> tuple[SightBake, float]:
    """Bake one map with a progress bar; (the bake, CPU seconds)."""
    from skirmish.cli.sim import progress_bar

    start = time.process_time()
    with progress_bar(f"baking {label}") as show:
        made = bake(grid, progress=show)
    return made, time.process_time() - start
