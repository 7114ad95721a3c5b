"""md5 of the event log of every shipped scenario (scenarios/**/*.yaml) with `hold` on both sides, seeds 6-13:
a speed change that means to keep behaviour must keep every line of this output.

    python tools/hold_md5.py > before.txt      # ... change the engine ...
    python tools/hold_md5.py | diff before.txt -
    python tools/hold_md5.py --seeds 6-8 --ai utility   # other seeds or AI
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import Scenario, load_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="6-13", help="first-last (default 6-13)")
    ap.add_argument("--ai", default="hold")
    args = ap.parse_args(argv)
    first, _, last = args.seeds.partition("-")
    seeds = range(int(first), int(last or first) + 1)
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        sc = load_scenario(path)
        for seed in seeds:
            digest = hashlib.md5(play(sc, seed, args.ai).encode("utf-8")).hexdigest()
            print(f"{path.relative_to(SCENARIOS)} s{seed} {digest}", flush=True)
    return 0


def play(sc: Scenario, seed: int, ai: str) -> str:
    """The event log of one battle with `ai` of the scenario's ruleset on every side (fw's own hold for fw)."""
    with Battle(sc, seed=seed, controllers={s.name: make_ai(ai, sc.spec.ruleset) for s in sc.spec.sides}) as b:
        b.run()
        return b.log.jsonl()


if __name__ == "__main__":
    sys.exit(main())
