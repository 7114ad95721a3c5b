"""`skirmish watch`, `play` and `menu`: the board, a saved battle continued on it (`--load`), and the headless
fallback without a display (a short summary and the C-1 result line)."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from skirmish.cli import display
from skirmish.cli.common import UserError, ai_overrides, controllers_for, scenario_arg, warn_notes
from skirmish.content.scenario import Scenario

if TYPE_CHECKING:
    from skirmish.ui.session import Session

BOARD_RULESETS = ("fi", "fw")  # the rulesets the board has command panels for (Future*World's: issue 13, item 6)


def _board_refusal(scenario: Scenario) -> UserError | None:
    """Why the board cannot open this scenario (its ruleset has no command panels yet), or None."""
    if scenario.spec.ruleset in BOARD_RULESETS:
        return None
    from skirmish import rulesets

    title = rulesets.get(scenario.spec.ruleset).title
    return UserError(f"{scenario.source}: the board does not play {title} yet; "
                     f"{shlex.join(['skirmish', 'run', scenario.source])} plays it headless")


def _controls(args: argparse.Namespace, scenario: Scenario) -> dict[str, str]:
    """Who plays each side: watch = all AI; play = the chosen side (default the first) human, or all (hot-seat)."""
    sides = [s.name for s in scenario.spec.sides]
    if args.command != "play":
        return {s: "ai" for s in sides}
    if args.hotseat:
        return {s: "human" for s in sides}
    side = args.side or sides[0]
    if side not in sides:
        raise UserError(f"--side {side!r}: no side of that name in '{scenario.name}' (sides: {', '.join(sides)})")
    return {s: ("human" if s == side else "ai") for s in sides}


def _menu_folder(args: argparse.Namespace) -> str | None:
    """`skirmish menu FOLDER`: the folder whose scenarios the menu lists (None for a file or nothing); a path
    that does not exist exits 2."""
    if args.command != "menu" or not args.scenario:
        return None
    path = Path(args.scenario).expanduser()
    if not path.exists():
        raise UserError(f"{args.scenario}: no such file or folder (give a scenario file or a folder of them)")
    return str(path) if path.is_dir() else None


def cmd_board(args: argparse.Namespace) -> int:
    """The board: watch (all AI), play (you against the AI, or hot-seat), or the start menu."""
    if getattr(args, "load", None):
        return board_load(args)
    folder = _menu_folder(args)
    scenario = scenario_arg(None if folder else args.scenario)  # a bad file exits 2 before any window opens (C-6)
    warn_notes(scenario)
    overrides = getattr(args, "ai", [])
    ai = ai_overrides(scenario, overrides)
    controls = _controls(args, scenario)
    people = [side for side in ai if controls[side] == "human"]
    if people:
        raise UserError(f"--ai {people[0]}=...: {people[0]} is played by a person here"
                        + (" (--hotseat)" if args.hotseat else " (choose another side with --side)"))
    problem = display.display_problem()
    if problem is not None:
        print(f"skirmish: no display ({problem}); playing the battle headless instead.", file=sys.stderr)
        return play_headless(scenario, args.seed, overrides, name=None if folder else getattr(args, "scenario", None))
    refused = _board_refusal(scenario)
    if refused is not None:
        raise refused
    from skirmish.ui.app import App

    if args.command == "menu":
        app = App()
        if args.scenario:
            app.open_menu(args.scenario)  # preselected and kept under the menu's recent files
    else:
        app = App(scenario=scenario, seed=args.seed, controls=controls, ai=ai)
    return app.run(max_frames=args.frames)


def board_load(args: argparse.Namespace) -> int:
    """`play --load FILE` / `watch --load FILE`: continue a saved battle on the board. The record is read,
    replayed and checked before any window opens (a bad or drifted one exits 2, one line); without a display
    the battle is finished headless, AI on every side, with the fallback's summary."""
    from skirmish import record
    from skirmish.ui.session import Session

    if args.scenario or args.seed is not None:
        raise UserError("--load continues a saved battle: give no SCENARIO or --seed with it")
    rec = record.load(args.load)
    scenario = record.scenario_of(rec)
    warn_notes(scenario)
    overrides = getattr(args, "ai", [])
    ai = ai_overrides(scenario, overrides)
    sides = [s.name for s in scenario.spec.sides]
    controls: dict[str, str] | None = {s: "ai" for s in sides}
    if args.command == "play" and (args.hotseat or args.side):
        controls = _controls(args, scenario)
    elif args.command == "play":  # who played each side in the record, else the first side
        controls = None if any(rec.controllers.get(s) == "human" for s in sides) else _controls(args, scenario)
    problem = display.display_problem()
    if problem is not None:
        print(f"skirmish: no display ({problem}); finishing the loaded battle headless instead.", file=sys.stderr)
        controls = {s: "ai" for s in sides}
    session = Session.from_record(rec, controls, ai=ai, scenario=scenario)
    people = [side for side in ai if session.controls[side] == "human"]
    if people:
        session.close()
        raise UserError(f"--ai {people[0]}=...: {people[0]} is played by a person here")
    if problem is not None:
        return _finish_headless(session, rec.label)
    refused = _board_refusal(scenario)
    if refused is not None:
        session.close()
        raise refused
    from skirmish.ui.app import App

    app = App(session=session)
    return app.run(max_frames=args.frames)


def _finish_headless(session: Session, label: str) -> int:
    """Play a loaded battle to its end with its AIs and print the fallback's summary and result line."""
    from skirmish.summary import summarize, unit_sides

    try:
        outcome = session.battle.run()
        events = list(session.battle.log.events)
    finally:
        session.close()
    sides = unit_sides((s.name, [u.name for u in s.units]) for s in session.scenario.spec.sides)
    for line in summarize(events, sides).lines():
        print(line)
    print(f"the whole explaining log of the saved part: {shlex.join(['skirmish', 'replay', label])}")
    print(outcome.summary())
    return 0


def play_headless(scenario: Scenario, seed: int | None, overrides: Sequence[str] = (), name: str | None = None) -> int:
    """The board's fallback without a display: play the battle, AI on every side, and print a short summary
    (who won, casualties, the telling moments), where to read the whole log, and the C-1 result line."""
    from skirmish.battle import Battle
    from skirmish.summary import summarize, unit_sides

    controllers = controllers_for(scenario, overrides)
    with Battle(scenario, seed=seed, controllers=controllers) as battle:  # type: ignore[arg-type]
        outcome = battle.run()
        events = list(battle.log.events)
    sides = unit_sides((s.name, [u.name for u in s.units]) for s in scenario.spec.sides)
    for line in summarize(events, sides).lines():
        print(line)
    command = ["skirmish", "run", *([name] if name else []), "--seed", str(outcome.seed)]
    for item in overrides:
        command += ["--ai", item]
    print(f"the whole explaining log: {shlex.join(command)}")
    print(outcome.summary())
    return 0
