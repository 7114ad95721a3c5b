"""The board's L launch mode with a launcher in the other hand (R-6.10, R-6.12): the button says the off hand, L
enters launch mode with it (`hand=off`), its odds are the battle's for `launch … hand=off` and a click launches it
(SDL_VIDEODRIVER=dummy, as tests/test_board_fi_ranged.py)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.rules.actions import Launch
from skirmish.ui.app import App
from tests.test_board_fi_ranged import _scenario
from tests.ui_helpers import acting, cell_px, click, events_of, frames, hover, press

pytestmark = pytest.mark.usefixtures("isolated_config")


def test_launch_mode_with_the_off_hands_launcher(tmp_path: Path) -> None:
    me = ("weapons: [slug_pistol, grenade_launcher], two_weapons: true, "
          "skills: {'shooting:launcher': 4, 'shooting:pistol': 2}")
    app = App(scenario=_scenario(tmp_path, me), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    req = screen.session.human_request()
    buttons = screen.commands.act_buttons(req)
    assert [b.label for b in buttons][:1] == ["L launch (off hand)"]
    aim = (8, 2)
    hover(cell_px(screen, aim))
    press(pygame.K_l)
    frames(app, 2)
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    assert modes.mode == "launch" and modes.hand == "off"
    odds = screen.session.battle.odds(Launch("Me", aim, hand="off"))
    lines = modes.lines()
    assert "launch (off hand grenade launcher)" in lines[0][0] and lines[1][0] == f"8,2: {odds.label()}"
    click(cell_px(screen, aim))
    frames(app, 60)
    launches = events_of(screen, "launch")
    assert len(launches) == 1 and launches[0].hand == "off" and modes.mode is None
