"""`skirmish deck`: a built-in action deck as a table, as C-2 JSON, or its statistics beside the model."""

from __future__ import annotations

import argparse
import json


def cmd_deck(args: argparse.Namespace) -> int:
    """Print a built-in deck as C-2 JSON, or its statistics beside the model."""
    from skirmish.rules.deck import builtin, deck_stats

    cards = builtin(args.name)
    if args.stats:
        rows = deck_stats(cards)
        if args.json:
            print(json.dumps(rows, indent=1))
            return 0
        print(f"deck {args.name}: per column/row deck mean beside the model mean (R-4.2, R-4.3)")
        print(f"{'grid':6}{'col':>4}{'row':>4}{'deck':>9}{'model':>9}{'diff%':>8}{'CF':>4}")
        for r in rows:
            diff = 100 * (r["deck"] - r["model"]) / r["model"]
            print(f"{r['grid']:6}{r['column']:>4}{r['row']:>4}{r['deck']:9.3f}{r['model']:9.3f}{diff:8.2f}{r['cf']:4}")
        return 0
    if args.json:
        print(json.dumps([c.to_json() for c in cards], indent=None))
        return 0
    for c in cards:
        print(f"#{c.number:2} impulse {c.impulse:2} step {c.step:2} frag {c.fragment} {c.poker:12} "
              f"toggle {'YES' if c.toggle else 'no '} std {c.standard_location:9} clock {c.clock:2}"
              f"{' ' + c.special.upper() if c.special else ''}")
    return 0
