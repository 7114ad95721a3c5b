"""What the commands share: exit codes, the bounds of numbers on the command line, UserError, and a scenario,
its controllers and an output file as the command line names them."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from skirmish.content.scenario import Scenario, default_scenario_path, load_scenario
from skirmish.fileio import check_output

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
MAX_SEED = 2**63 - 1
MAX_COUNT = 1_000_000


class UserError(Exception):
    """A bad command-line value: printed with exit status 2 (C-6)."""


def scenario_arg(path: str | None) -> Scenario:
    """The scenario a command names (a path), or the default scenario; ContentError if it is bad."""
    return load_scenario(Path(path) if path else default_scenario_path())


def ai_overrides(scenario: Scenario, overrides: Sequence[str] = ()) -> dict[str, str]:
    """{side: AI spec} from `SIDE=AI` values given to `--ai`, each side and AI checked."""
    from skirmish.ai.controllers import make_ai

    sides = [s.name for s in scenario.spec.sides]
    out: dict[str, str] = {}
    for item in overrides:
        side, sep, spec = item.partition("=")
        if not sep or side not in sides:
            raise UserError(f"--ai {item!r}: expected SIDE=AI with SIDE one of {', '.join(sides)}")
        try:
            make_ai(spec, scenario.spec.ruleset)
        except ValueError as exc:
            raise UserError(f"--ai {item!r}: {exc}") from None
        out[side] = spec
    return out


def controllers_for(scenario: Scenario, overrides: Sequence[str] = ()) -> dict[str, object]:
    """Each side's controller from the scenario; `overrides` are `SIDE=AI` values from `--ai`."""
    from skirmish.ai.controllers import make_ai, make_controller

    ai = ai_overrides(scenario, overrides)
    rules = scenario.spec.ruleset
    try:
        return {s.name: make_ai(ai[s.name], rules) if s.name in ai else make_controller(s.controller, s.orders, s.ai, rules)
                for s in scenario.spec.sides}
    except ValueError as exc:  # a side's AI that its ruleset has not (e.g. utility for Future*World, for now)
        raise UserError(f"{scenario.source}: {exc}") from None


def output_path(path: str | None) -> Path | None:
    """An output file named on the command line, checked before any work is done (C-6)."""
    return check_output(path) if path else None


def warn_notes(scenario: Scenario) -> None:
    """The loader's warnings (e.g. a missing tileset replaced by the shipped one), one line each on stderr."""
    for note in scenario.notes:
        print(f"skirmish: warning: {note}", file=sys.stderr)
