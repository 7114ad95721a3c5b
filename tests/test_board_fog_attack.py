"""The board's attack menu under fog (session 8's "noticed and left"): a ghost, a last-known position, is not a
target; clicking it opens no attack menu, and what the board says names only what the side could know."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.rules.actions import Declare, EndTurn
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from tests.test_board_fog import _floor, _scenario
from tests.ui_helpers import frames

pytestmark = pytest.mark.usefixtures("isolated_config")


def _until(app: App, screen: BattleScreen, done: object) -> None:
    for _ in range(3000):
        app.tick(1 / 60)
        if callable(done) and done() and not screen.anim.busy:
            return
    raise AssertionError("never got there")


def test_a_ghost_opens_no_attack_menu(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path), controls={"Watch": "human", "Raid": "ai"}, size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    try:
        frames(app, 3)
        screen.session.submit(Declare("Gunner", "normal"))
        _until(app, screen, lambda: (r := screen.session.human_request()) is not None and r.kind == "act")
        screen.session.submit(EndTurn("Gunner"))  # Sneak slips away unseen to (0, 5); its ghost stays at (2, 4)
        _until(app, screen, lambda: (r := screen.session.human_request()) is not None and r.kind == "declare")
        screen.session.submit(Declare("Gunner", "normal"))
        _until(app, screen, lambda: (r := screen.session.human_request()) is not None and r.kind == "act")
        ghost = screen.view_now().unit("Sneak")
        assert ghost.ghost and ghost.cell == (2, 4)
        x, y = _floor(screen, (2, 4))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(x, y)))
        frames(app, 2)
        assert screen.selected == "Sneak"  # the ghost is still selected (its card: last seen)
        assert screen.attack is None  # but it is no target
        said = " ".join(t.text for t in screen.toasts)
        assert "Sneak is not in sight: last seen there in round 1" in said, said
        assert "(0, 5)" not in said and "out of action" not in said
    finally:
        app.close()
