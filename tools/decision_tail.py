"""The utility AI's slowest decisions (issue 12 item 6: decision p95): per AI call of `skirmish bench --ai AI`'s
loop, its CPU time, what kind of decision it was, and (with --split) the time of the AI's main phases in it, then
what the slowest 5% have in common that the rest have not.

    PYTHONPATH=. python tools/decision_tail.py --battles 20              # CPU per decision, the tail's summary
    PYTHONPATH=. python tools/decision_tail.py --battles 20 --split      # and the phases (wrapped: ~10% slower)
    PYTHONPATH=. python tools/decision_tail.py --battles 20 --out d.jsonl   # one JSON line per decision

Instruction counts per decision (load-independent): --marks calls os.getppid() before each AI call and
os.getpgrp() after it, so callgrind zeroes and dumps round each one (one file per decision, `summary:` line):

    valgrind --tool=callgrind --zero-before=getppid --dump-before=getpgrp --dump-instr=no \
        --callgrind-out-file=/tmp/cg/cg.out python tools/decision_tail.py --battles 6 --marks --out d.jsonl
    (the dumps /tmp/cg/cg.out.1, .2, ... are the decisions in d.jsonl's order)
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import time
from typing import Any

SPLIT = {  # module: functions timed inclusive, per decision (`--split`)
    "skirmish.ai.utility.reasoner": ["side_intent", "act_options", "material_pick", "declare_options"],
    "skirmish.ai.utility.options": ["plan_cells", "move_options", "shoot_options", "extra_options", "score_cells"],
    "skirmish.ai.utility.attacks": ["_plan", "candidate_cells"],
    "skirmish.ai.utility.maps": ["nearest_walk_m"],
    "skirmish.ai.utility.cell_scoring": ["fire_rows"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--battles", type=int, default=20)
    ap.add_argument("--ai", default="utility")
    ap.add_argument("--split", action="store_true", help="time the AI's main phases in each decision")
    ap.add_argument("--marks", action="store_true", help="os.getppid() / os.getpgrp() round each AI call (callgrind)")
    ap.add_argument("--out", help="write one JSON line per decision here")
    args = ap.parse_args()
    recs = play(args.battles, args.ai, args.split, args.marks)
    if args.out:
        with open(args.out, "w") as f:
            for r in recs:
                f.write(json.dumps(r) + "\n")
    if not args.marks:
        summary(recs)


def play(battles: int, ai: str, split: bool, marks: bool) -> list[dict[str, Any]]:
    import importlib

    import skirmish.ai.search.model  # noqa: F401  (imported on first use otherwise: as the bench does)
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle, consult
    from skirmish.cli.common import scenario_arg
    from skirmish.core.batch_gc import batch_gc

    cur: dict[str, Any] = {}
    clock = time.process_time
    if split:
        for mod, names in SPLIT.items():
            m = importlib.import_module(mod)
            for name in names:
                setattr(m, name, _timed(getattr(m, name), name, cur))
    sc = scenario_arg(None)
    out = []
    with batch_gc():
        for seed in range(battles):
            ctrl = {s.name: make_ai(ai, sc.spec.ruleset) for s in sc.spec.sides}
            with Battle(sc, seed=seed, controllers=ctrl) as b:
                while b.pending is not None:
                    req = b.pending
                    view = b.observe(req.side)  # made as the AI reads it: timed with its call, as in the bench
                    cur.clear()
                    if marks:
                        os.getppid()
                    t = clock()
                    action, trace = consult(ctrl[req.side], view, req)
                    t = clock() - t
                    if marks:
                        os.getpgrp()
                    me = view.unit(req.unit)
                    out.append(dict(seed=seed, t=t, kind=req.kind, unit=req.unit, round=view.round,
                                    first=not me.turn_parts, enemies=len(view.enemies(me)),
                                    seen=sum(not e.ghost for e in view.enemies(me)), action=type(action).__name__,
                                    **cur))
                    del view
                    b.answer(req, action, trace)
    return out


def _timed(f: Any, name: str, cur: dict[str, Any]) -> Any:
    @functools.wraps(f)
    def g(*a: Any, **k: Any) -> Any:
        t = time.process_time()
        try:
            return f(*a, **k)
        finally:
            cur[name] = cur.get(name, 0.0) + time.process_time() - t
    return g


def summary(recs: list[dict[str, Any]]) -> None:
    ts = sorted(r["t"] for r in recs)
    p95 = ts[int(0.95 * len(ts))]
    print(f"{len(recs)} decisions: median {statistics.median(ts) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms CPU")
    slow = [r for r in recs if r["t"] >= p95]
    rest = [r for r in recs if r["t"] < p95]
    acts = [r for r in rest if r["kind"] == "act"]
    tests = {"an act": lambda r: r["kind"] == "act", "its unit's first act of the turn": lambda r: r["kind"] == "act"
             and r["first"], "an enemy in sight": lambda r: r["seen"] > 0, "moves weighed": lambda r: "move_options" in r,
             "a throw plan": lambda r: "_plan" in r}
    split = any("act_options" in r for r in recs)
    for name, f in tests.items():
        if name in ("moves weighed", "a throw plan") and not split:
            continue
        print(f"  {name:34s} slowest 5%: {sum(map(f, slow)) / len(slow):4.0%}   the rest: {sum(map(f, rest)) / len(rest):4.0%}")
    names = sorted({k for r in recs for k, v in r.items() if isinstance(v, float) and k != "t"})
    if names:
        print("  ms per decision, slowest 5% / the rest's acts:")
        for k in names:
            print(f"    {k:18s} {sum(r.get(k, 0.0) for r in slow) / len(slow) * 1000:6.2f} "
                  f"{sum(r.get(k, 0.0) for r in acts) / max(1, len(acts)) * 1000:6.2f}")


if __name__ == "__main__":
    main()
