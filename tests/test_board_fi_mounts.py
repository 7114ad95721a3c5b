"""The board and mounts (R-6.1; issue 14 item 6), driven by posted events under SDL_VIDEODRIVER=dummy: a riderless
bike is drawn on its cell; J outlines the cells the rules list; a click on the bike mounts it (the `mount` event),
the bike is then drawn as a saddle band under its rider; J again and a click on an outlined cell dismounts."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.fi_mount import LEGAL_C, MOUNT_C
from skirmish.ui.frame import TOP_H

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
ROWS = ["................", "................", "................", "................", "................"]


@pytest.fixture(autouse=True)
def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))


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


def _key(key: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))


def _click(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))


def _frames(app: App, n: int) -> None:
    for _ in range(n):
        assert app.tick(1 / 60)


def _at(screen: BattleScreen, cell: tuple[int, int]) -> tuple[int, int]:
    x, y = screen.board.cam.centre(cell)
    return x, y + TOP_H


def _acting(app: App) -> BattleScreen:
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(400):
        _frames(app, 1)
        req = screen.session.human_request()
        if req is not None and req.kind == "act" and not screen.anim.busy:
            return screen
        if req is not None and req.kind == "declare":
            _key(pygame.K_2)
    raise AssertionError("Me never acted")


def _near(px: tuple[int, ...], colour: tuple[int, int, int], tol: int = 30) -> bool:
    return sum(abs(a - b) for a, b in zip(px[:3], colour, strict=True)) < tol


def _has(shot: pygame.Surface, rect: pygame.Rect, colour: tuple[int, int, int]) -> bool:
    return any(_near(shot.get_at((x, y)), colour) for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom))


def test_mount_mode_outlines_the_bike_and_a_click_mounts_it(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = _acting(app)
    t = screen.board.cam.tile
    bx, by = _at(screen, (2, 2))
    cell = pygame.Rect(bx - t // 2, by - t // 2, t, t)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    assert _has(shot, cell, MOUNT_C["bike"])  # the riderless bike on its cell
    assert not _has(shot, cell, LEGAL_C)
    _key(pygame.K_j)
    _frames(app, 2)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "mode.png")))
    assert _has(shot, cell, LEGAL_C)  # the legal cell outlined
    mx, my = _at(screen, (1, 2))
    assert not _has(shot, pygame.Rect(mx - t // 2, my - t // 2, t, t), LEGAL_C)
    _click((bx, by))
    _frames(app, 30)
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
    screen = _acting(app)
    battle = screen.session.battle
    battle.world.mounts["Bike-1"].cell = (9, 4)  # (moved out of reach: nothing listed)
    _key(pygame.K_j)
    _frames(app, 2)
    assert not screen.commands.mounting.on  # type: ignore[attr-defined]
