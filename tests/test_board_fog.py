"""Fog of war on the board (issue 11, item 4), driven by posted events under SDL's dummy driver: watching is
all-seeing, V looks through each side's eyes (unseen cells darker, a ghost at the last known cell), and a
person's side is always fogged."""

from __future__ import annotations

import math
from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.ecs.knowledge import seen_cells
from skirmish.rules.actions import Move
from skirmish.ui.app import App
from skirmish.ui.battle import HELP, BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.settings import Settings
from tests.ui_helpers import frames, press, rgb_dist

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
FOGGY = f"""
name: Foggy yard
seed: 2
map: {{ascii: ["............",
               "............",
               "#########.##",
               "............",
               "............",
               "............"]}}
victory: {{max_rounds: 3}}
sides:
  - name: Watch
    colour: gold
    controller: scripted
    units:
      - {{name: Gunner, at: [9, 0], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}
  - name: Raid
    colour: blue
    controller: scripted
    orders: ["declare Sneak speed=normal", "move Sneak to=0,5"]
    units:
      - {{name: Sneak, at: [2, 4], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}
"""


pytestmark = pytest.mark.usefixtures("isolated_config")


def _scenario(tmp_path: Path) -> Scenario:
    return parse_scenario(FOGGY, str(tmp_path / "foggy.yaml"), base=tmp_path)


def _shot(app: App, path: Path) -> pygame.Surface:
    """A screenshot once the toasts (drawn over the board's lower left) have gone."""
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(1200):
        if not screen.toasts:
            break
        app.tick(1 / 60)
    return pygame.image.load(str(app.screenshot(path)))


def _disc(screen: BattleScreen, cell: tuple[int, int], facing: tuple[int, int]) -> tuple[int, int]:
    """A point inside a token at `cell`, off its label and away from its facing wedge."""
    x, y = screen.board.cam.centre(cell)
    k = screen.board.cam.tile * 0.4 * 0.75 / math.hypot(*facing)
    return x - round(facing[0] * k), y + TOP_H - round(facing[1] * k)


def _floor(screen: BattleScreen, cell: tuple[int, int]) -> tuple[int, int]:
    """A point of the cell's ground, off the grid lines."""
    x, y = screen.board.cam.to_screen(cell)
    return x + screen.board.cam.tile // 3, y + TOP_H + screen.board.cam.tile // 3


def _watch_until_sneak_moved(tmp_path: Path) -> tuple[App, BattleScreen]:
    app = App(scenario=_scenario(tmp_path), controls={"Watch": "ai", "Raid": "ai"}, settings=Settings(speed=8.0),
              size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(3000):
        app.tick(1 / 60)
        moved = any(isinstance(a, Move) and a.unit == "Sneak" for a in screen.session.battle.history)
        if moved and not screen.anim.busy:
            break
    press(pygame.K_SPACE, " ")  # pause where the move left things
    frames(app, 2)
    assert screen.paused and screen.session.view().unit("Sneak").cell == (0, 5)
    return app, screen


def test_v_looks_through_each_sides_eyes(tmp_path: Path) -> None:
    app, screen = _watch_until_sneak_moved(tmp_path)
    try:
        assert screen.eyes is None  # watching: all-seeing by default
        raid = screen.board.colours["Raid"]
        now, was = screen.session.view().unit("Sneak").facing, (1, -1)  # it faced the Gunner before its move
        seeing = _shot(app, tmp_path / "all.png")
        assert rgb_dist(seeing.get_at(_disc(screen, (0, 5), now)), raid) < 60  # Sneak where it really is
        assert rgb_dist(seeing.get_at(_disc(screen, (2, 4), was)), raid) > 150  # nothing where it was

        press(pygame.K_v, "v")
        frames(app, 2)
        assert screen.eyes == "Watch" and screen.view_now().viewer == "Watch"
        ghost = screen.view_now().unit("Sneak")
        assert ghost.ghost and ghost.cell == (2, 4) and ghost.last_seen == 1 and ghost.facing == was
        fogged = _shot(app, tmp_path / "watch-eyes.png")
        # The ghost is drawn, faint, at the last known cell; nothing shows where Sneak really is.
        at_ghost = fogged.get_at(_disc(screen, (2, 4), was))
        assert rgb_dist(at_ghost, raid) < rgb_dist(seeing.get_at(_disc(screen, (2, 4), was)), raid) - 60, at_ghost
        assert rgb_dist(fogged.get_at(_disc(screen, (0, 5), now)), raid) > 150
        # Cells the Gunner cannot see are darker than all-seeing; cells it sees are not.
        clear = seen_cells(screen.session.scenario.grid, [(9, 0)])
        assert not clear[5, 6] and clear[1, 3]
        dark, light = fogged.get_at(_floor(screen, (6, 5))), seeing.get_at(_floor(screen, (6, 5)))
        assert sum(dark[:3]) < sum(light[:3]) - 60, (dark, light)
        assert rgb_dist(fogged.get_at(_floor(screen, (3, 1))), seeing.get_at(_floor(screen, (3, 1)))) < 10

        press(pygame.K_v, "v")
        frames(app, 2)
        assert screen.eyes == "Raid"
        raid_eyes = _shot(app, tmp_path / "raid-eyes.png")
        assert rgb_dist(raid_eyes.get_at(_disc(screen, (0, 5), now)), raid) < 60  # its own miniature, in full
        assert screen.view_now().unit("Gunner").ghost  # known where it stands, not seen

        press(pygame.K_v, "v")
        frames(app, 2)
        assert screen.eyes is None
        again = _shot(app, tmp_path / "all-again.png")
        assert rgb_dist(again.get_at(_floor(screen, (6, 5))), light) < 10
    finally:
        app.close()


def test_a_persons_side_is_always_fogged(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path), controls={"Watch": "human", "Raid": "ai"}, size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    try:
        frames(app, 3)
        assert screen.eyes == "Watch" and screen.view_now().viewer == "Watch"
        press(pygame.K_v, "v")  # no all-seeing for a player
        frames(app, 2)
        assert screen.eyes == "Watch" and any("Watch sees" in t.text for t in screen.toasts)
        assert screen.paused is False and not screen.session.is_over()
        shot = _shot(app, tmp_path / "human.png")
        dark = shot.get_at(_floor(screen, (6, 5)))
        lit = shot.get_at(_floor(screen, (6, 1)))  # the same ground, in the Gunner's sight
        assert sum(dark[:3]) < sum(lit[:3]) - 60, (dark, lit)
    finally:
        app.close()


def test_the_key_is_in_the_help() -> None:
    assert any("V all-seeing, or each side's eyes" in line for line in HELP)


def test_the_log_hides_what_a_side_did_not_see(tmp_path: Path) -> None:
    app, screen = _watch_until_sneak_moved(tmp_path)
    try:
        events = screen.session.battle.log.events
        move = next(i for i, e in enumerate(events) if e.type == "move" and e.actor == "Sneak")
        sides_of = {"Gunner": "Watch", "Sneak": "Raid"}
        assert move in screen.log_fog.hidden_for("Watch", events, sides_of)  # it walked where the Gunner cannot see
        assert move not in screen.log_fog.hidden_for("Raid", events, sides_of)
        assert not screen.log_fog.hidden_for(None, events, sides_of)
        press(pygame.K_v, "v")
        frames(app, 2)
        _shot(app, tmp_path / "watch.png")
        assert not any("Sneak walks" in text for _, _, text in screen.log_panel._rows)
        press(pygame.K_v, "v")
        frames(app, 2)
        assert screen.eyes == "Raid"
        _shot(app, tmp_path / "raid.png")
        assert any("Sneak walks" in text for _, _, text in screen.log_panel._rows), (screen.eyes, screen.log_panel._rows)
    finally:
        app.close()


def test_a_click_finds_no_enemy_the_persons_side_does_not_see(tmp_path: Path) -> None:
    """A person's click is hit-tested on what the board shows (the side's view), never on the all-seeing battle:
    once Sneak has slipped away unseen, clicking the ground where it really stands selects nothing and opens no
    attack (which would tell where it is); its ghost, where the board draws it, and a unit of one's own are
    selected as before."""
    from skirmish.rules.actions import Declare, EndTurn

    app = App(scenario=_scenario(tmp_path), controls={"Watch": "human", "Raid": "ai"}, size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    try:
        frames(app, 3)
        screen.session.submit(Declare("Gunner", "normal"))
        for _ in range(3000):
            app.tick(1 / 60)
            req = screen.session.human_request()
            if req is not None and req.kind == "act" and not screen.anim.busy:
                break
        screen.session.submit(EndTurn("Gunner"))  # Watch wins the tie: Sneak moves after
        for _ in range(3000):
            app.tick(1 / 60)
            if screen.session.view().unit("Sneak").cell == (0, 5) and screen.session.human_request() is not None \
                    and not screen.anim.busy:
                break
        ghost = screen.view_now().unit("Sneak")
        assert screen.session.view().unit("Sneak").cell == (0, 5) and ghost.ghost and ghost.cell == (2, 4)

        def click(cell: tuple[int, int]) -> None:
            x, y = _floor(screen, cell)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(x, y)))
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(x, y)))
            frames(app, 2)

        click((0, 5))
        assert screen.selected != "Sneak" and screen.attack is None
        click((2, 4))
        assert screen.selected == "Sneak"  # the ghost, where it is drawn
        click((9, 0))
        assert screen.selected == "Gunner"
    finally:
        app.close()
