"""`skirmish schema [--ruleset NAME] [--out FILE]`: the JSON Schema of the scenario format, for editors
(docs/FILES.md "JSON Schema for editors")."""

from __future__ import annotations

import argparse
import json

from skirmish.cli.common import UserError, output_path
from skirmish.content.json_schema import scenario_schema
from skirmish.fileio import write_text


def cmd_schema(args: argparse.Namespace) -> int:
    """Print the schema, or write it to --out (checked first, written whole or not at all)."""
    out = output_path(args.out)
    try:
        schema = scenario_schema(args.ruleset)
    except KeyError as exc:
        raise UserError(f"--ruleset: {exc.args[0]}") from None
    text = json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    if out is None:
        print(text, end="")
    else:
        write_text(out, text)
        print(f"wrote {out}")
    return 0
