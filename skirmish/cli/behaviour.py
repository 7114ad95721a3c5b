"""`skirmish tournament --behaviour`: the AIs' behaviour figures (skirmish.ai.behaviour, docs/AI.md) over the
tournament's mirrored pairs, as a table or JSON."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from skirmish.cli.common import MAX_SEED, UserError

BEHAVIOUR_BATTLES = 100  # default battles per opponent, shared out over the scenarios


def cmd_behaviour(args: argparse.Namespace, paths: Sequence[Path], opponents: Sequence[str]) -> int:
    """Play the pairs and print the figures per AI (and per AI and scenario with --by-scenario)."""
    from skirmish.ai import behaviour_run, tournament

    if args.csv:
        raise UserError("--csv: not with --behaviour (use --json)")
    pairs = args.pairs or max(1, math.ceil(BEHAVIOUR_BATTLES / 2 / len(paths)))
    if args.seed + pairs - 1 > MAX_SEED:
        raise UserError(f"--seed {args.seed} with {pairs} pairs: the last seed would pass {MAX_SEED}")
    jobs = len(opponents) * len(paths) * pairs
    workers = max(1, min(args.workers or os.cpu_count() or 1, jobs))
    t0 = time.perf_counter()
    played = behaviour_run.run(paths, args.ai, opponents, pairs, workers=workers, first_seed=args.seed,
                               progress=None if args.json else tournament.progress_bar())
    figures = behaviour_run.per_ai(played)
    by_scenario = behaviour_run.per_ai(played, by_scenario=True) if args.by_scenario else None
    if args.json:
        sys.stdout.write(behaviour_run.to_json(figures, by_scenario) + "\n")
        return 0
    print(f"{len(played)} battles: {len(opponents)} opponent(s) x {len(paths)} scenario(s) x {pairs} mirrored "
          f"pair(s) (seeds {args.seed}..{args.seed + pairs - 1}, sides swapped), in "
          f"{time.perf_counter() - t0:.1f} s with {workers} process(es); an AI on both sides counts each side")
    print("\nby AI")
    behaviour_run.print_table(figures)
    if by_scenario is not None:
        print("\nby AI and scenario")
        behaviour_run.print_table(by_scenario)
    return 0
