"""`skirmish sim` (batch simulation into a folder of CSV, JSON and plots) and `skirmish balance` (a scenario's
calibration against the AI levels): docs/SIM.md. Both run on the backend seam (skirmish.sim.backend)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from skirmish import rulesets
from skirmish.cli.common import MAX_SEED, UserError
from skirmish.content.scenario import default_scenario_path

SIM_BATTLES = 100  # default battles per scenario
BALANCE_BATTLES = 20  # default battles per opponent (and in the mirror)


@contextmanager
def progress_bar(what: str) -> Iterator[Callable[[int, int], None]]:
    """A progress bar with the time left on stderr (rich), nothing when stderr is not a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    console = Console(stderr=True)
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("elapsed"),
                   TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(), console=console,
                   disable=not sys.stderr.isatty(), transient=False)
    task = bar.add_task(what, total=None)
    with bar:
        yield lambda done, total: bar.update(task, completed=done, total=total)


def _workers(value: int) -> int:
    return value or os.cpu_count() or 1


def _seeds(first: int, count: int) -> None:
    if first + count - 1 > MAX_SEED:
        raise UserError(f"--seed {first} with {count} battles: the last seed would pass {MAX_SEED}")


def _backend(args: argparse.Namespace) -> None:
    """Ray asked for but missing, or --address without Ray: one line before any work (exit 2)."""
    from skirmish.sim.backend import RAY_MISSING

    if args.address and args.backend != "ray":
        raise UserError("--address: only with --backend ray")
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise UserError(f"--backend ray: {RAY_MISSING}") from None


def cmd_sim(args: argparse.Namespace) -> int:
    """Play every scenario's battles and write the folder; a scenario that does not load is reported and
    skipped (exit 2 at the end); bad options and an unwritable folder exit 2 before any battle."""
    from skirmish.sim import runner
    from skirmish.sim.backend import BackendError

    _backend(args)
    try:
        ais = runner.parse_ais(args.ai)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    from skirmish.ai.controllers import make_ai

    for side, spec in ais.items():  # the AI's name at least (its ruleset is checked per scenario)
        if not any(_known(spec, r, make_ai) for r in rulesets.REGISTRY):
            raise UserError(f"--ai {side}={spec}: unknown AI {spec!r}" if side != runner.EVERY_SIDE
                            else f"--ai {spec}: unknown AI {spec!r}")
    folder = runner.check_folder(args.out)
    _seeds(args.seed, args.battles)
    files = args.scenarios or [str(default_scenario_path())]
    entries, failed = runner.load(files, ais)
    for message in failed:
        print(f"skirmish sim: {message} (skipped)", file=sys.stderr)
    missing = runner.unknown_sides(entries, ais)
    if missing and entries:
        raise UserError(f"--ai: no scenario has a side {missing[0]!r} (sides: "
                        f"{', '.join(sorted({s for e in entries for s in e.sides}))})")
    if not entries:
        print("skirmish sim: no scenario to play", file=sys.stderr)
        return 2
    runner.check_folder(args.out, runner.outputs(entries))  # a heat map's name taken by a folder too
    workers = _workers(args.workers)
    t0 = time.perf_counter()
    try:
        with progress_bar("battles") as show:
            rows = runner.run(entries, args.battles, args.seed, workers=workers, backend=args.backend,
                              address=args.address, progress=show)
    except BackendError as exc:
        raise UserError(str(exc)) from None
    wall = time.perf_counter() - t0
    written = runner.write(folder, rows, entries)
    where = f"Ray at {args.address}" if args.address else \
        (f"local Ray, {workers} CPU(s)" if args.backend == "ray" else f"local, {workers} process(es)")
    print(f"{len(rows)} battles: {len(entries)} scenario(s) x {args.battles} (seeds {args.seed}.."
          f"{args.seed + args.battles - 1}) in {wall:.1f} s, {len(rows) / max(wall, 1e-9):.1f} battles/s "
          f"({where})")
    for entry, summary in zip(entries, _summaries(written[1]), strict=True):
        wins = ", ".join(f"{s} {summary['wins'][s]['rate']:.0%}" for s in entry.sides)
        print(f"  {summary['scenario']}: {wins}, draws {summary['draws']['rate']:.0%}, "
              f"rounds {summary['rounds']['mean']:.1f}")
    print(f"written to {folder}: {', '.join(p.name for p in written)}")
    return 2 if failed else 0


def _known(spec: str, ruleset: str, make_ai: Callable[[str, str], object]) -> bool:
    try:
        make_ai(spec, ruleset)
    except ValueError:
        return False
    return True


def _summaries(path: os.PathLike[str]) -> list[dict[str, Any]]:
    import json

    with open(path, encoding="utf-8") as f:
        return list(json.load(f)["scenarios"])


def cmd_balance(args: argparse.Namespace) -> int:
    """Print the scenario's calibration table, the opponent for the target and the mirror's verdict."""
    from skirmish.sim.backend import BackendError
    from skirmish.sim.balance import OPPONENTS, balance, report

    _backend(args)
    if not 0.0 <= args.target <= 1.0:
        raise UserError(f"--target {args.target}: expected a share from 0 to 1")
    _seeds(args.seed, args.battles)
    path = args.scenario or str(default_scenario_path())
    opponents = [v.strip() for v in args.vs.split(",") if v.strip()] if args.vs else list(OPPONENTS)
    from skirmish.ai.controllers import make_ai

    for spec in opponents:  # a name no ruleset has (one its scenario's ruleset has not is left out of the table)
        if not any(_known(spec, r, make_ai) for r in rulesets.REGISTRY):
            raise UserError(f"--vs: unknown AI {spec!r}")
    try:
        with progress_bar("balance") as show:
            b = balance(path, args.side, ai=args.ai, target=args.target, battles=args.battles, first_seed=args.seed,
                        opponents=opponents, workers=_workers(args.workers), backend=args.backend,
                        address=args.address, progress=show)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    except BackendError as exc:
        raise UserError(str(exc)) from None
    print("\n".join(report(b)))
    return 0
