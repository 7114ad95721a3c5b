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

`--instructions` counts instructions instead (valgrind's callgrind, if installed): the same bench in each tree with N
battles and with one, the difference over N - 1 (the battles after the first, imports and set-up taken out). A count
does not move with the machine's load or speed, so it settles a ratio that CPU time leaves within its spread; it is
a proxy (the issue's targets are CPU time): a tree whose instructions are cheaper or dearer to run (memory, caches)
reads a different CPU ratio. It gives the battle figures only (no p95), and takes minutes (valgrind runs ~50x
slower).

    python tools/bench_against.py --instructions --ai hold --battles 8
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
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


def instructions(tree: Path, ai: str, battles: int) -> int:
    """Instructions `skirmish bench --ai AI --battles N` runs in `tree` (callgrind's total), with the hash seed fixed."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    with tempfile.NamedTemporaryFile(prefix="callgrind-", suffix=".out") as out:
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", sys.executable,
                              "-m", "skirmish", "bench", "--ai", ai, "--battles", str(battles)], cwd=tree, env=env,
                             capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise SystemExit(f"bench_against: valgrind's run failed in {tree}:\n{run.stderr[-2000:]}")
        for line in Path(out.name).read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise SystemExit(f"bench_against: callgrind wrote no total for {tree}")


def compare_instructions(base: Path, ai: str, battles: int, rev: str,
                         count: Callable[[Path, str, int], int] = instructions) -> list[str]:
    """Instructions per battle after the first in each tree (`instructions` with `battles` and with one), their
    ratio and the issue's target ratio."""
    per: dict[str, float] = {}
    for name, tree in (("base", base), ("this", ROOT)):
        per[name] = (count(tree, ai, battles) - count(tree, ai, 1)) / (battles - 1)
        print(f"  ({ai}, {name}: {per[name] / 1e6:,.0f} M instructions a battle)", file=sys.stderr, flush=True)
    start, target = TARGETS[(ai, "battle")]
    ratio, want = per["this"] / per["base"], target / start
    mark = "met" if ratio <= want else "not met"
    return [f"{ai}, battles 2..{battles} on each tree's own default scenario, instructions (callgrind):",
            f"  battle: {rev} {per['base'] / 1e6:,.0f} M, this tree {per['this'] / 1e6:,.0f} M: x{ratio:.3f} "
            f"(x{1 / ratio:.1f} as few); issue 12's target {target:g} / {start:g} ms = x{want:.3f}: {mark} "
            "(by instructions: the issue's targets are CPU time)"]


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
    ap.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead of CPU time: "
                    "battles 2..N of one run per tree (default N: hold 8, utility 4)")
    args = ap.parse_args(argv)
    if args.rounds < 1 or (args.battles is not None and args.battles < (2 if args.instructions else 1)):
        ap.error("--rounds takes a whole number of at least 1, --battles of at least 1 (2 with --instructions)")
    if args.instructions and shutil.which("valgrind") is None:
        ap.error("--instructions needs valgrind (callgrind) on the PATH")
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        base = Path(tmp)
        checkout(args.rev, base)
        for ai in (("hold", "utility") if args.ai == "both" else (args.ai,)):
            if args.instructions:
                lines = compare_instructions(base, ai, args.battles or (8 if ai == "hold" else 4), args.rev)
            else:
                lines = compare(base, ai, args.battles or (20 if ai == "hold" else 10), args.rounds, args.rev)
            print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
