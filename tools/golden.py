"""Golden event logs: every shipped scenario, seeds 1-5, with `hold` and with `utility` on both sides.

    python tools/golden.py record      # (re)write tests/data/golden/*.jsonl.gz from the current engine
    python tools/golden.py record canal_crossing rubble_run   # re-record only these scenarios' logs (file stems)
    python tools/golden.py check       # compare the current engine with them; the first differing event each
    python tools/golden.py check unintended_targets=false   # the same with options forced (key=value ...)

A refactor keeps behaviour when `check` finds nothing (tests/test_golden.py runs it). A change that means to
alter events re-records them, and its commit says which logs changed and why.
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Iterator
from pathlib import Path

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import builtin_scenarios, load_scenario

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "data" / "golden"
AIS = ("hold", "utility")
SEEDS = range(1, 6)


def cases() -> Iterator[tuple[Path, str, int]]:
    """(scenario, AI on both sides, seed) for every golden log."""
    for path in builtin_scenarios():
        for ai in AIS:
            for seed in SEEDS:
                yield path, ai, seed


def golden_file(path: Path, ai: str, seed: int) -> Path:
    """Where one case's log is kept."""
    return GOLDEN / f"{path.stem}-{ai}-s{seed}.jsonl.gz"


def play(path: Path, ai: str, seed: int, options: dict[str, object] | None = None) -> str:
    """The events of one case as JSON lines; `options` forces scenario options (those its ruleset has)."""
    sc = load_scenario(path)
    if options:
        fields = type(sc.spec.options).model_fields
        sc = sc.with_options(**{k: v for k, v in options.items() if k in fields})
    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
        b.run()
        return b.log.jsonl()


def first_difference(old: str, new: str) -> str | None:
    """None if the logs are the same, else where they part: the line number and both lines (shortened)."""
    if old == new:
        return None
    a, b = old.splitlines(), new.splitlines()
    for i, (x, y) in enumerate(zip(a, b, strict=False), 1):
        if x != y:
            return f"event {i} differs:\n  was: {x[:300]}\n  now: {y[:300]}"
    return f"the logs differ in length: {len(a)} events were recorded, {len(b)} now"


def record(only: list[str] | None = None) -> int:
    """Write the golden logs (gzip without a timestamp, so the bytes depend only on the events): every one, or only
    those of the scenarios whose file stems are in `only` (the others are left as they are)."""
    known = {path.stem for path, _, _ in cases()}
    unknown = sorted(set(only or ()) - known)
    if unknown:
        print(f"unknown scenario {', '.join(unknown)}; known: {', '.join(sorted(known))}", file=sys.stderr)
        return 2
    GOLDEN.mkdir(parents=True, exist_ok=True)
    if not only:
        for old in GOLDEN.glob("*.jsonl.gz"):
            old.unlink()
    n = 0
    for path, ai, seed in cases():
        if only and path.stem not in only:
            continue
        golden_file(path, ai, seed).write_bytes(gzip.compress(play(path, ai, seed).encode("utf-8"), 9, mtime=0))
        n += 1
    print(f"recorded {n} logs in {GOLDEN}")
    return 0


def check(options: dict[str, object] | None = None) -> list[str]:
    """Every case whose events differ from its golden log, with the first difference (`options` forced, e.g.
    a new rule turned off to show it is the only change)."""
    problems = []
    for path, ai, seed in cases():
        f = golden_file(path, ai, seed)
        if not f.exists():
            problems.append(f"{f.name}: no golden log (run: python tools/golden.py record)")
            continue
        diff = first_difference(gzip.decompress(f.read_bytes()).decode("utf-8"), play(path, ai, seed, options))
        if diff is not None:
            problems.append(f"{f.name}: {diff}")
    return problems


def parse_options(args: list[str]) -> dict[str, object]:
    """`key=value` words as options: true/false, whole numbers, else text."""
    out: dict[str, object] = {}
    for a in args:
        key, eq, raw = a.partition("=")
        if not eq or not key:
            raise ValueError(f"expected option=value, got {a!r}")
        low = raw.lower()
        out[key] = (low in ("true", "yes", "on")) if low in ("true", "false", "yes", "no", "on", "off") else (
            int(raw) if raw.lstrip("-").isdigit() else raw)
    return out


def main(argv: list[str]) -> int:
    """`record [stem ...]` or `check [key=value ...]`; `-h`/`--help` prints the usage (and nothing is written)."""
    if any(a in ("-h", "--help") for a in argv):
        print(__doc__)
        return 0
    if argv[:1] == ["record"]:
        if any(a.startswith("-") for a in argv[1:]):
            print(f"unknown option {next(a for a in argv[1:] if a.startswith('-'))}\n{__doc__}", file=sys.stderr)
            return 2
        return record(argv[1:])
    if argv[:1] == ["check"]:
        try:
            options = parse_options(argv[1:])
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        problems = check(options)
        print("\n".join(problems) or "every golden log is byte-identical")
        return 1 if problems else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
