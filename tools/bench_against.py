"""Issue 12's speed targets as ratios against the issue's start, measured in one sitting: `skirmish bench --ai AI`
run alternately in a tree of an earlier commit and in this one, each on its own default scenario, and the medians'
ratio set beside the issue's targets over the issue's own start figures.

Why ratios: the machines are shared virtual ones, and their speed is not the same from one session to the next.
The issue's start tree (55de5dc, the first with `skirmish bench --ai`) read a `hold` battle at 145 ms on
2026-11-22 and at 262 ms on 2026-11-24 with the load under 1.3, so an absolute figure from one session is not
comparable with another's; the ratio of two trees measured side by side is (within the runs' spread).

    python tools/bench_against.py                      # hold and utility, 55de5dc against this tree
    python tools/bench_against.py --ai hold --rounds 5 --battles 20
    python tools/bench_against.py --rev c1a7900 --ai utility

The issue's start figures (issue 12: "a 4 v 4 utility battle costs about 1.1 s of CPU, a hold battle 135 ms;
decisions p95 16.6 ms") over its targets (100 ms, 20 ms, 5 ms) give the ratios to reach: x0.091, x0.148, x0.301.
The earlier tree is taken from git (`git archive REV`): run it in a clone of the project's repository.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START = "55de5dc"  # issue 12's start: the bench merged, before any of the issue's speed work
# Issue 12's own start figures and its targets (ms): the ratio to reach is target / start.
TARGETS = {
    ("hold", "battle"): (135.0, 20.0),
    ("utility", "battle"): (1100.0, 100.0),
    ("utility", "p95"): (16.6, 5.0),
}
BATTLE = re.compile(r"battle: median ([\d.]+) ms CPU")
P95 = re.compile(r"p95 ([\d.]+) ms")


def bench(tree: Path, ai: str, battles: int) -> dict[str, float]:
    """One `skirmish bench --ai AI` in `tree` (its own default scenario): the battle median and decision p95."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-m", "skirmish", "bench", "--ai", ai, "--battles", str(battles)],
                         cwd=tree, env=env, capture_output=True, text=True, check=False)
    battle, p95 = BATTLE.search(out.stdout), P95.search(out.stdout)
    if out.returncode != 0 or battle is None or p95 is None:
        raise SystemExit(f"bench_against: `skirmish bench --ai {ai}` failed in {tree}:\n{out.stdout}{out.stderr}")
    return {"battle": float(battle.group(1)), "p95": float(p95.group(1))}


def checkout(rev: str, into: Path) -> None:
    """The tree of `rev` (git archive) extracted into `into`."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"bench_against: no commit {rev!r} here ({archive.stderr.decode().strip()}): run it in a "
                         "clone of the project's repository")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def compare(base: Path, ai: str, battles: int, rounds: int, rev: str) -> list[str]:
    """Alternate the two trees `rounds` times; lines of the medians, their ratio and the issue's target ratio."""
    runs: dict[str, list[dict[str, float]]] = {"base": [], "this": []}
    for i in range(rounds):
        order = [("base", base), ("this", ROOT)] if i % 2 == 0 else [("this", ROOT), ("base", base)]
        for name, tree in order:
            runs[name].append(bench(tree, ai, battles))
            print(f"  ({ai} round {i + 1}/{rounds}, {name}: {runs[name][-1]['battle']:.1f} ms a battle)",
                  file=sys.stderr, flush=True)
    lines = [f"{ai}, {battles} battle(s) a run on each tree's own default scenario, {rounds} alternated run(s), "
             "medians of the runs (CPU):"]
    for figure in ("battle", "p95"):
        target = TARGETS.get((ai, figure))
        if target is None:
            continue
        b = statistics.median(r[figure] for r in runs["base"])
        t = statistics.median(r[figure] for r in runs["this"])
        ratio, want = t / b, target[1] / target[0]
        label = "battle median" if figure == "battle" else "decision p95"
        mark = "met" if ratio <= want else "not met"
        lines.append(f"  {label}: {rev} {b:.1f} ms, this tree {t:.1f} ms: x{ratio:.3f} (x{1 / ratio:.1f} as fast); "
                     f"issue 12's target {target[1]:g} / {target[0]:g} ms = x{want:.3f}: {mark}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default=START, help=f"the earlier commit (default {START}, issue 12's start)")
    ap.add_argument("--ai", choices=("hold", "utility", "both"), default="both")
    ap.add_argument("--battles", type=int, default=None, help="battles a run (default: hold 20, utility 10)")
    ap.add_argument("--rounds", type=int, default=3, help="alternated runs of each tree (default 3)")
    args = ap.parse_args(argv)
    if args.rounds < 1 or (args.battles is not None and args.battles < 1):
        ap.error("--rounds and --battles take a whole number of at least 1")
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        base = Path(tmp)
        checkout(args.rev, base)
        for ai in (("hold", "utility") if args.ai == "both" else (args.ai,)):
            battles = args.battles or (20 if ai == "hold" else 10)
            print("\n".join(compare(base, ai, battles, args.rounds, args.rev)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
