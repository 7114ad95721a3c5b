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
    """Bake (or with --list, report) each file's map once; a file that does not load, or a map too large to bake,
    is one line on stderr and exit 2, the others still done."""
    from skirmish.content.scenario import default_scenario_path

    if args.shipped and args.files:
        print("skirmish bake: --shipped bakes the shipped scenarios' maps; name no files with it", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.shipped and args.out:
        print("skirmish bake: --shipped writes into the package; --out is for other bakes", file=sys.stderr)
        return EXIT_BAD_INPUT
    paths = shipped_scenarios() if args.shipped else [Path(f) for f in args.files] or [default_scenario_path()]
    folder = sight_bakes.SHIPPED_DIR if args.shipped else Path(args.out) if args.out else sight_bakes.user_dir()
    failed = False
    done: set[str] = set()
    for path in paths:
        try:
            grid = load_map(path)
        except ContentError as exc:
            print(f"skirmish: {exc.text}", file=sys.stderr)
            failed = True
            continue
        label = one_line(str(path))
        cells = grid.width * grid.height
        if cells > BAKE_MAX_CELLS:
            print(f"skirmish bake: {label}: the map has {cells} cells; sight is baked for maps of up to "
                  f"{BAKE_MAX_CELLS}", file=sys.stderr)
            failed = True
            continue
        key = bake_key(grid)
        if key in done:
            print(f"same map: {label} (baked above)")
            continue
        done.add(key)
        got = sight_bakes.find_file(grid)
        have, where = got if got is not None else (None, None)
        if args.list:
            print(f"{'baked' if where else 'not baked'}: {label} ({grid.width}x{grid.height})"
                  + (f": {where}" if where else ""))
            continue
        if where is not None and not args.force and (not args.shipped or where.parent == folder):
            print(f"already baked: {label} ({grid.width}x{grid.height}): {where}")
            continue
        made, seconds = _bake_one(grid, label)
        if have is not None and where is not None and where.parent == folder and sight_bakes.same_bake(have, made):
            print(f"unchanged: {label} ({grid.width}x{grid.height}): {where}")
            continue
        out = sight_bakes.write_bake(made, folder)
        print(f"baked: {label} ({grid.width}x{grid.height}, {cells} cells, {len(made.sights) - 2} distinct "
              f"answers in sight) in {seconds:.1f} s: {out}")
    if args.list:
        for path_text, why in sorted(sight_bakes.problems.items()):
            print(f"skirmish bake: warning: {path_text}: passed over: {why}", file=sys.stderr)
    return EXIT_BAD_INPUT if failed else 0


def _bake_one(grid: GridMap, label: str) -> tuple[SightBake, float]:
    """Bake one map with a progress bar; (the bake, CPU seconds)."""
    from skirmish.cli.sim import progress_bar

    start = time.process_time()
    with progress_bar(f"baking {label}") as show:
        made = bake(grid, progress=show)
    return made, time.process_time() - start
