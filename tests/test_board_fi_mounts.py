"""The board and mounts (R-6.1; issue 14 item 6), driven by posted events under SDL_VIDEODRIVER=dummy: a riderless
bike is drawn on its cell; J outlines the cells the rules list; a click on the bike mounts it (the `mount` event),
the bike is then drawn as a saddle band under its rider; J again and a click on an outlined cell dismounts."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.ui.app import App
from skirmish.ui.fi_mount import LEGAL_C, MOUNT_C
from tests.ui_helpers import acting, cell_px, click, frames, near, press

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
ROWS = ["................", "................", "................", "................", "................"]


pytestmark = pytest.mark.usefixtures("isolated_config")


def _scenario(tmp_path: Path) -> Scenario:
    text = f"""
name: mounts board
seed: 2
ruleset: fi
map: {{ascii: {ROWS!r}}}
victory: {{max_rounds: 3}}
mounts:
  - {{name: Bike-1, kind: bike, at: [2, 2]}}
sides:
  - name: Crew
    controller: ai
    units:
      - {{name: Me, at: [1, 2], traits: {TRAITS}, weapons: [blast_carbine], skills: {{'shooting:rifle': 2}}}}
  - name: Kyr
    controller: idle
    units:
      - {{name: Kyr-1, at: [14, 0], traits: {TRAITS}}}
"""
    return parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)


def _has(shot: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> bool:
    return any(near(shot.get_at((x, y)), colour, 30) for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom))


def test_mount_mode_outlines_the_bike_and_a_click_mounts_it(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    t = screen.board.cam.tile
    bx, by = cell_px(screen, (2, 2))
    cell = pygame.Rect(bx - t // 2, by - t // 2, t, t)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    assert _has(shot, cell, MOUNT_C["bike"])  # the riderless bike on its cell
    assert not _has(shot, cell, LEGAL_C)
    press(pygame.K_j)
    frames(app, 2)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "mode.png")))
    assert _has(shot, cell, LEGAL_C)  # the legal cell outlined
    mx, my = cell_px(screen, (1, 2))
    assert not _has(shot, pygame.Rect(mx - t // 2, my - t // 2, t, t), LEGAL_C)
    click((bx, by))
    frames(app, 30)
    battle = screen.session.battle
    mounts = [e for e in battle.log.events if e.type == "mount"]
    assert len(mounts) == 1 and mounts[0].actor == "Me" and mounts[0].mount == "Bike-1"  # type: ignore[attr-defined]
    assert battle.view().unit("Me").cell == (2, 2)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "after.png")))
    band = pygame.Rect(bx - t // 2, by + t // 4, t, t // 4)
    assert _has(shot, band, MOUNT_C["bike"])  # the saddle band under the rider
    assert not screen.commands.mounting.on  # type: ignore[attr-defined]


def test_j_with_nothing_to_mount_says_so(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    battle = screen.session.battle
    battle.world.mounts["Bike-1"].cell = (9, 4)  # (moved out of reach: nothing listed)
    press(pygame.K_j)
    frames(app, 2)
    assert not screen.commands.mounting.on  # type: ignore[attr-defined]
