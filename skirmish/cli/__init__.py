"""The `skirmish` command (C-1, C-2, C-6): run, deck, check, bench, tournament, sim, balance, watch, play, menu,
edit.

Bad input (a file, a value, an output path) exits 2 with one line naming it; output files are checked before
any battle is played and written whole or not at all (skirmish.fileio); Ctrl-C prints one line and exits 130.

The package: `arguments` (the parser), `common` (what the commands share: exit codes, UserError, loading a
scenario named on the command line), `battles` (run, replay, check), `bench` (bench, tournament), `sim` (sim,
balance: docs/SIM.md), `deck`, `board` (watch, play, menu and their headless fallback) and `display` (whether a
window can be opened; patch `skirmish.cli.display.display_problem` in tests, where the commands look it up).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from skirmish.cli.arguments import build_parser
from skirmish.cli.board import play_headless
from skirmish.cli.common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, UserError
from skirmish.cli.display import display_problem, has_display
from skirmish.content.errors import ContentError
from skirmish.fileio import OutputError

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERRUPTED", "UserError", "build_parser", "display_problem", "has_display",
           "main", "play_headless"]


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: exit 0 on success, 2 on bad input or an output file that cannot be written (C-6),
    130 on Ctrl-C (one line, worker processes stopped, no partial output file)."""
    command = "skirmish"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            args = parser.parse_args(["watch"])
        command = f"skirmish {args.command}"
        code = args.func(args)
    except KeyboardInterrupt:
        print("skirmish: interrupted", file=sys.stderr)
        code = EXIT_INTERRUPTED
    except ContentError as exc:
        print(f"skirmish: {exc.text}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except UserError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except BrokenPipeError:
        code = 0
    except OutputError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except OSError as exc:  # anything else the system refused (a file, a process): one line, never a traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"{command}{where}: {exc.strerror or exc}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    sys.exit(code)
