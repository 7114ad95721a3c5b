"""`skirmish run`, `replay` and `check`: one battle headless (C-1), a battle record replayed and checked, and
input files validated (C-6)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from skirmish.cli import display
from skirmish.cli.common import EXIT_BAD_INPUT, ai_overrides, controllers_for, output_path, scenario_arg, warn_notes
from skirmish.content.scenario import Scenario, builtin_scenarios, default_scenario_path

if TYPE_CHECKING:
    from skirmish.record import Record


def cmd_run(args: argparse.Namespace) -> int:
    """Play one battle headless and print the explaining log and the summary line (C-1)."""
    from skirmish import record
    from skirmish.battle import Battle
    from skirmish.log import describe

    scenario = scenario_arg(args.scenario)
    warn_notes(scenario)
    events_path = output_path(args.events)
    record_path = output_path(args.record)
    sources = None
    if record_path is not None:
        source = Path(args.scenario) if args.scenario else default_scenario_path()
        sources = record.capture(scenario, source, file=args.scenario or source.name)
    out = sys.stdout

    def show(event: object) -> None:
        from skirmish.core.events import Event

        assert isinstance(event, Event)
        if args.json:
            out.write(event.to_line() + "\n")
        elif not args.quiet:
            out.write(describe(event) + "\n")

    controllers = controllers_for(scenario, args.ai)
    with Battle(scenario, seed=args.seed, controllers=controllers,  # type: ignore[arg-type]
                on_event=show, hashes=record_path is not None) as battle:
        outcome = battle.run()
        if events_path is not None:
            battle.log.write(events_path)
        if record_path is not None:
            record.save(battle, record_path, sources, record.controller_labels(scenario, ai_overrides(scenario, args.ai)))
    if not args.json:
        bounty = None if args.quiet else outcome.bounty_line()  # --quiet: the result line alone (C-1)
        out.write((f"{bounty}\n" if bounty else "") + outcome.summary() + "\n")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a battle record headless (no AI is asked): the same log as `skirmish run` and the summary line,
    after checking every round's state hash; a changed or drifted record exits 2 naming the first round
    that differs, and nothing of its log is printed. `--board`: the replay viewer, once the record is checked
    (headless as above without a display)."""
    from skirmish import record
    from skirmish.log import describe

    rec = record.load(args.file)
    scenario = record.scenario_of(rec)
    battle = record.resume(rec, scenario=scenario)  # the whole record checked, before any window opens (C-6)
    if args.board:
        problem = display.display_problem()
        if problem is None:
            battle.close()
            return replay_board(rec, scenario, args.frames)
        print(f"skirmish: no display ({problem}); replaying the record headless instead.", file=sys.stderr)
    with battle:
        out = sys.stdout
        if args.json:
            out.writelines(event.to_line() + "\n" for event in battle.log.events)
        elif not args.quiet:
            out.writelines(describe(event) + "\n" for event in battle.log.events)
        outcome = battle.outcome
    if outcome is None:
        print(f"skirmish replay: {rec.label}: saved in round {battle.ctx.round}, before the battle's end", file=sys.stderr)
    elif not args.json:
        bounty = None if args.quiet else outcome.bounty_line()  # --quiet: the result line alone (C-1)
        out.write((f"{bounty}\n" if bounty else "") + outcome.summary() + "\n")
    return 0


def replay_board(rec: Record, scenario: Scenario, frames: int | None = None) -> int:
    """The replay viewer on the board for a record already checked."""
    from skirmish.ui.app import App
    from skirmish.ui.replay_session import ReplaySession

    app = App(replay=ReplaySession(rec, scenario, checked=True))
    return app.run(max_frames=frames)


def cmd_check(args: argparse.Namespace) -> int:
    """Validate scenario, map (.tmj), tileset (.tsj) and stacked-deck (.json) files (C-6): every file, and
    every error in each, one line each on stderr; `ok:` lines for good files; exit 2 if any failed."""
    from skirmish.content.errors import one_line
    from skirmish.content.scenario import SCENARIOS_DIR, check_input

    # No files named: every shipped scenario, the Future Imperfect variants (scenarios/fi/) and Future*World's
    # (scenarios/fw/) too, and the training scenarios (scenarios/training/, issue 15).
    extra = [p for sub in ("fi", "fw", "training") for p in sorted((SCENARIOS_DIR / sub).glob("*.yaml"))]
    paths = args.scenarios or [str(p) for p in [*builtin_scenarios(), *extra]]
    failed = False
    for p in paths:
        result = check_input(p)
        for note in result.notes:
            print(f"skirmish: warning: {note}", file=sys.stderr)
        for err in result.errors:
            print(f"skirmish: {err.text}", file=sys.stderr)
        if result.summary is None:
            failed = True
        else:
            print(f"ok: {one_line(p)}: {result.summary}")
    return EXIT_BAD_INPUT if failed else 0
