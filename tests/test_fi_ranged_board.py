"""The board's attack menu offers what the engine offers (issue 14): called shots to hands, feet, the eye and the
heart (C cycles them), and a double tap for a weapon that has it; chosen with a posted key, fired by the engine.
Runs under SDL_VIDEODRIVER=dummy (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.rulesets.fi import CALLED_SHOTS
from tests.test_ui import _play_app, _screen_pos
from tests.ui_helpers import click, frames, press

pytestmark = pytest.mark.usefixtures("isolated_config")


def test_a_called_double_tap_at_the_heart_through_the_menu(tmp_path: Path) -> None:
    app, screen = _play_app(tmp_path)  # Blue-1 with a slug pistol (double tap), Red-1 at 9,0
    click(_screen_pos(screen, (9, 0)))
    frames(app, 2)
    menu = screen.attack
    assert menu is not None
    taps = [o for o in menu.options if getattr(o.action, "double_tap", False)]  # (charges are listed too)
    assert [o.action.mode for o in taps] == ["snap", "prepared"] and all(o.odds is not None for o in taps)
    for _ in range(CALLED_SHOTS.index("heart") + 1):  # C: none -> head -> ... -> heart
        press(pygame.K_c, "c")
        frames(app, 1)
    menu = screen.attack
    assert menu is not None and menu.called == "heart"
    lines, choosable = screen.attack_lines(screen.session.view())
    assert choosable and "called: heart" in lines[0][0]
    tap_line = next(i for i, o in enumerate(menu.options)
                    if getattr(o.action, "double_tap", False) and o.action.mode == "prepared")
    assert "prepared double tap at heart" in lines[tap_line + 1][0]
    shot = pygame.image.load(str(app.screenshot(tmp_path / "menu.png")))
    inside = [shot.get_at((x, y))[:3] for x in range(menu.rect.left + 4, menu.rect.right - 4, 3)
              for y in range(menu.rect.top + 4, menu.rect.bottom - 4, 3)]
    assert len(set(inside)) > 8  # the menu is drawn: text over its panel, not an empty box
    press(pygame.K_1 + tap_line, str(tap_line + 1))
    frames(app, 60)
    attacks = [e for e in screen.session.battle.log if e.type == "attack" and e.actor == "Blue-1"]
    assert [(a.double_tap, a.called) for a in attacks] == [(1, "heart"), (2, "heart")]
    assert any(m["reason"] == "called shot (heart)" and m["value"] == -10 for m in attacks[0].modifiers)
    app.close()
