"""The board's commands registry (skirmish/ui/commands.py): a ruleset's commands are found whichever ruleset's
board module was imported first. `commands_for` imported the boards only when the registry was empty, so with
Future*World's board imported first (a test module importing skirmish.ui.fw.panel) a Future Imperfect battle got
the base Commands: no J mount mode, no chips (tests/test_board_fi_mounts.py failed after test_board_fw_mount.py)."""

from __future__ import annotations

import pytest

import skirmish.ui.commands as commands


def test_a_rulesets_commands_are_found_when_another_registered_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from skirmish.ui.fi_board import FiCommands
    from skirmish.ui.fw.panel import FwCommands

    monkeypatch.setattr(commands, "REGISTRY", {"fw": commands.REGISTRY.get("fw", FwCommands)})
    assert "fi" not in commands.REGISTRY
    import sys

    monkeypatch.delitem(sys.modules, "skirmish.ui.fi_board")  # as if only Future*World's board were imported
    made = commands.commands_for("fi", None)
    assert type(made).__name__ == FiCommands.__name__ and hasattr(made, "mounting")
