"""Two weapons on the board (R-6.12; skirmish/ui/fi_ranged.py `off_hand_shots`), driven by posted events under
SDL_VIDEODRIVER=dummy: the attack menu of a unit holding a pistol in each hand lists the off hand's shots from the
weapon its view shows there (each mode and its double taps) with the battle's odds, drawn as choosable lines (the
row's pixels in the text colour, not the refusals' dim one); a click on the off-hand double tap fires both of its
shots from the other hand (-6, R-6.12)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.rules.actions import Shoot
from skirmish.ui.app import App
from skirmish.ui.widgets import TEXT
from tests.test_board_fi_ranged import _scenario
from tests.ui_helpers import acting, cell_px, click, frames

pytestmark = pytest.mark.usefixtures("isolated_config")


def _texty(surf: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    """How many pixels of `rect` are within 30 of `colour` (anti-aliased text's core)."""
    return sum(1 for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
               if sum(abs(a - b) for a, b in zip(surf.get_at((x, y))[:3], colour, strict=True)) < 30)


def test_the_off_hands_double_tap_from_the_attack_menu(tmp_path: Path) -> None:
    me = "weapons: [blast_pistol, slug_pistol], skills: {'shooting:pistol': 3}, two_weapons: true"
    app = App(scenario=_scenario(tmp_path, me), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    assert screen.session.view().unit("Me").off_hand is not None
    click(cell_px(screen, screen.session.view().unit("Kyr-1").cell))
    frames(app, 2)
    assert screen.attack is not None
    opts = screen.attack.options
    offs = [(i, o) for i, o in enumerate(opts) if isinstance(o.action, Shoot) and o.action.hand == "off"]
    assert {(o.action.mode, o.action.double_tap) for _, o in offs} >= {("snap", False), ("prepared", False),
                                                                      ("snap", True), ("prepared", True)}
    tap_i, tap = next((i, o) for i, o in offs if o.action.double_tap and o.action.mode == "snap")
    assert tap.odds is not None and tap.refusal is None
    legal = screen.session.battle.legal_actions("Me")
    assert all(legal.allows(o.action) for _, o in offs if o.refusal is None)  # the menu's lines are the list's
    shot = pygame.image.load(str(app.screenshot(tmp_path / "menu.png")))
    row = screen.attack.rows[tap_i]
    assert _texty(shot, row, TEXT) > 20  # drawn as a choosable line
    lines = [text for text, _ in screen.attack_lines(screen.view_now())[0]]
    assert any("off hand snap double tap: hit" in text for text in lines)
    click(row.center)
    frames(app, 60)
    attacks = [e for e in screen.session.battle.log.events if e.type == "attack" and e.actor == "Me"]
    assert [(e.weapon, e.double_tap) for e in attacks[:2]] == [("slug_pistol", 1), ("slug_pistol", 2)]
    assert any(m["reason"] == "off hand (R-6.12)" and m["value"] == -4 for m in attacks[0].modifiers)


def test_one_weapon_in_hand_no_off_hand_lines(tmp_path: Path) -> None:
    me = "weapons: [blast_pistol, slug_pistol], skills: {'shooting:pistol': 3}"  # two carried, not one in each hand
    app = App(scenario=_scenario(tmp_path, me), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    click(cell_px(screen, screen.session.view().unit("Kyr-1").cell))
    frames(app, 2)
    assert screen.attack is not None and screen.attack.options
    assert not [o for o in screen.attack.options if isinstance(o.action, Shoot) and o.action.hand]
    lines = [text for text, _ in screen.attack_lines(screen.view_now())[0]]
    assert not [t for t in lines if "off hand" in t]
