"""`skirmish edit [SCENARIO]`: the scenario editor on the board (skirmish/ui/editor, docs/EDITOR.md). The file is
checked before any window opens: a scenario that does not load exits 2 with the loader's one line (C-6), as
`skirmish check` prints it; without a scenario a new one is started (`--ruleset` picks its rules)."""

from __future__ import annotations

import argparse
from pathlib import Path

from skirmish.cli import display
from skirmish.cli.common import UserError, warn_notes
from skirmish.content.parts import PARTS
from skirmish.content.scenario import load_scenario


def cmd_edit(args: argparse.Namespace) -> int:
    """Open the editor on a scenario file, or on a new scenario."""
    scenario = None
    if args.scenario:
        if args.ruleset:
            raise UserError("--ruleset is for a new scenario: give no SCENARIO with it (the file names its own)")
        scenario = load_scenario(Path(args.scenario))  # a bad file: ContentError, exit 2, one line
        warn_notes(scenario)
    ruleset = args.ruleset or "fi"
    if ruleset not in PARTS:
        raise UserError(f"--ruleset {ruleset!r}: expected one of {', '.join(sorted(PARTS))}")
    problem = display.display_problem()
    if problem is not None and args.frames is None:
        raise UserError(f"no display ({problem}): the editor needs a window; `skirmish check FILE` checks a "
                        "scenario without one")
    from skirmish.ui.app import App
    from skirmish.ui.editor import EditorDoc

    app = App()
    doc = EditorDoc.from_scenario(scenario, Path(args.scenario)) if scenario is not None else EditorDoc.new(ruleset)
    app.apply(app.edit_doc_transition(doc))
    return app.run(max_frames=args.frames)
