"""Grav cars on Future*World's panel (issue 13, item 7; R-9.12), driven by posted events under SDL's dummy driver
with screenshots checked: a rider leaves the car, a figure boards it (a click on the car), the driver sets the
car's split (the metres its rest buys shown) and flies it in the movement segment with its riders, a split above
the car's generator is refused with its reason, and a record of it replays to the same state."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pygame
import pytest

from skirmish import record
from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.rulesets.fw import FwIntent
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.fw.panel import FwCommands
from skirmish.ui.widgets import BAD
from tests.test_board_fw import _button
from tests.ui_helpers import cell_px, click, events_of, frames, near, press

CHARS = "{STR: 12, CON: 13, SIZ: 12, INT: 12, POW: 12, DEX: %d}"
KIT = ("skills: {rifle: 50}, armour: [chitin], weapons: [heavy_rifle], "
       "tacpack: {generator: 6, screen: kinetic, screen_points: 4}")
TEXT = f"""
name: Fw car panel
ruleset: fw
seed: 3
map:
  cell_m: 2.0
  ascii: {["." * 22] * 9!r}
victory: {{eliminate: true, max_rounds: 4}}
sides:
  - name: Blue
    controller: ai
    ai: hold
    cars:
      - {{name: Skiff, type: scout_car, at: [3, 4], riders: [Rhee, Tamm], screen: kinetic, screen_points: 30}}
    units:
      - {{name: Rhee, at: [3, 3], characteristics: {CHARS % 14}, {KIT}}}
      - {{name: Tamm, at: [3, 5], characteristics: {CHARS % 13}, {KIT}}}
      - {{name: Ann, at: [3, 6], characteristics: {CHARS % 12}, {KIT}}}
  - name: Red
    controller: ai
    ai: hold
    units:
      - {{name: Rook, at: [20, 1], characteristics: {CHARS % 10}, {KIT}}}
"""


pytestmark = pytest.mark.usefixtures("isolated_config")


def _scenario(tmp_path: Path) -> Scenario:
    path = tmp_path / "fw_car.yaml"
    path.write_text(TEXT, encoding="utf-8")
    return parse_scenario(TEXT, str(path), base=tmp_path)


def _play(tmp_path: Path) -> tuple[App, BattleScreen, FwCommands]:
    app = App(scenario=_scenario(tmp_path), controls={"Blue": "human", "Red": "ai"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    frames(app, 4)
    return app, screen, screen.commands


def _declaring(app: App, screen: BattleScreen, unit: str) -> None:
    """Declare the usual split for every other figure until `unit` is asked."""
    for _ in range(400):
        req = screen.session.human_request()
        if req is not None and not screen.anim.busy:
            if req.kind == "intent" and req.unit == unit:
                return
            press(pygame.K_RETURN if req.kind == "intent" else pygame.K_e)
        frames(app, 1)
    raise AssertionError(f"{unit} was never asked to declare")


def _until(app: App, screen: BattleScreen, done: Any, stop_at: str | None = None) -> None:
    """Play on (declaring the usual split, staying put) until `done()`; a move asked of `stop_at` stops too."""
    for _ in range(3000):
        if done():
            return
        req = screen.session.human_request()
        if req is not None and not screen.anim.busy:
            if req.kind == "move" and req.unit == stop_at:
                return
            press(pygame.K_RETURN if req.kind == "intent" else pygame.K_e)
        frames(app, 1)
    raise AssertionError("the battle never got there")


def _drag(app: App, frm: tuple[int, int], to: tuple[int, int], shot: Path | None = None) -> pygame.Surface | None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=frm, button=1))
    frames(app, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=to, rel=(1, 1), buttons=(1, 0, 0)))
    frames(app, 2)
    img = pygame.image.load(str(app.screenshot(shot))) if shot is not None else None
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=to, button=1))
    frames(app, 2)
    return img


def _blue(shot: pygame.Surface, at: tuple[int, int]) -> bool:
    """A Blue token drawn round `at` (the floor is grey or green-tinted; the token's letter white)."""
    px = [shot.get_at((at[0] + dx, at[1] + dy)) for dx in range(-8, 9, 2) for dy in range(-8, 9, 2)]
    return sum(p[2] > p[0] + 60 for p in px) > 20


def test_a_rider_dismounts(tmp_path: Path) -> None:
    app, screen, panel = _play(tmp_path)
    _declaring(app, screen, "Tamm")
    d = panel.current()
    assert d is not None and d.car is not None and not d.driver
    press(pygame.K_c, "c")  # only the driver drives: refused, naming the rule
    frames(app, 1)
    assert panel.refused == "R-9.12: Tamm is at no car's controls (the first rider drives)"
    press(pygame.K_l, "l")  # L: dismount
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, panel.refused) == ("dismount", None)
    press(pygame.K_RETURN)
    frames(app, 2)
    assert FwIntent("Tamm", "dismount", screen="kinetic", points=4) in screen.session.battle.history
    _until(app, screen, lambda: events_of(screen, "fw_board"))
    (left,) = events_of(screen, "fw_board")
    assert (left.actor, left.act, left.car, left.driver) == ("Tamm", "dismount", "Skiff", "Rhee")
    cell = tuple(left.cell)
    assert max(abs(cell[0] - 3), abs(cell[1] - 4)) == 1 and screen.session.view().unit("Tamm").cell == cell
    for _ in range(60):
        frames(app, 1)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "left.png")))
    assert _blue(shot, cell_px(screen, cell))  # Tamm's token now stands beside the car
    app.close()


def test_a_figure_mounts_by_clicking_the_car(tmp_path: Path) -> None:
    app, screen, panel = _play(tmp_path)
    _declaring(app, screen, "Ann")
    press(pygame.K_b, "b")  # B: mount, aimed at the nearest own car with a seat free
    frames(app, 1)
    d = panel.current()
    assert d is not None and (d.act, d.target) == ("mount", "Skiff")
    panel.draft = replace(d, target=None)  # forget it: a click on the car aims it
    click(cell_px(screen, (3, 4)))
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.target, panel.refused) == ("mount", "Skiff", None)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "mount.png")))
    assert near(shot.get_at(_button(panel, "mount"))[:3], (150, 120, 40), 200)  # the chosen button drawn
    press(pygame.K_RETURN)
    frames(app, 2)
    assert FwIntent("Ann", "mount", "Skiff", screen="kinetic", points=4) in screen.session.battle.history
    _until(app, screen, lambda: False, stop_at="Ann")  # the movement segment: walk up beside the car
    _drag(app, cell_px(screen, (3, 6)), cell_px(screen, (3, 5)))
    _until(app, screen, lambda: events_of(screen, "fw_board"))
    (board,) = events_of(screen, "fw_board")
    assert (board.actor, board.act, board.car) == ("Ann", "mount", "Skiff")
    view = screen.session.view()
    assert view.unit("Ann").cell == (3, 4) and view.unit("Ann").ext.aboard == "Skiff"
    for _ in range(60):
        frames(app, 1)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "aboard.png")))
    assert not _blue(shot, cell_px(screen, (3, 5)))  # nobody stands where Ann walked up to
    app.close()


def test_the_driver_sets_a_split_and_flies_the_car_with_its_riders(tmp_path: Path) -> None:
    app, screen, panel = _play(tmp_path)
    _declaring(app, screen, "Rhee")
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    press(pygame.K_c, "c")  # C: drive; the car's split row shows with the car's usual screen
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.car_screen, d.car_points, d.car_metres()) == ("drive", "kinetic", 30, 200)
    assert "screen 30" in [b.label for b in panel.controls]
    click(_button(panel, "-5", 0))  # the car's screen 30 -> 25: the rest, 25 points, buys 250 m
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.car_points, d.car_metres()) == (25, 250)
    assert "screen 25" in [b.label for b in panel.controls]
    press(pygame.K_RETURN)
    frames(app, 2)
    assert screen.session.battle.history[0] == FwIntent("Rhee", "drive", screen="kinetic", points=4,
                                                        car_screen="kinetic", car_points=25)
    (split,) = events_of(screen, "fw_car_split")
    assert "250 m" in split.describe()
    _until(app, screen, lambda: False, stop_at="Rhee")
    far = cell_px(screen, (19, 7))  # 32 m off: beyond a walk (24 m), within the car's 250 m: shaded as reach
    shot = _drag(app, cell_px(screen, (3, 4)), cell_px(screen, (12, 4)), tmp_path / "fly.png")
    assert shot is not None and shot.get_at(far)[:3] != before.get_at(far)[:3]
    assert shot.get_at(far)[1] > shot.get_at(far)[0]  # the reach's green tint
    (flight,) = events_of(screen, "fw_drive")
    assert (flight.actor, flight.car, flight.path, flight.riders) == ("Rhee", "Skiff", [[3, 4], [12, 4]],
                                                                      ["Rhee", "Tamm"])
    view = screen.session.view()
    assert view.unit("Rhee").cell == view.unit("Tamm").cell == (12, 4)
    for _ in range(90):
        frames(app, 1)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "flown.png")))
    assert _blue(shot, cell_px(screen, (12, 4))) and not _blue(shot, cell_px(screen, (3, 4)))
    path = tmp_path / "car.json"  # a record of it replays to the same state
    screen.session.save(path)
    with record.resume(record.load(path)) as again:
        assert again.history == screen.session.battle.history and again.state_hash() == screen.session.battle.state_hash()
        assert [getattr(e, "path", None) for e in again.log.events if e.type == "fw_drive"] == [[[3, 4], [12, 4]]]
    app.close()


def test_a_split_above_the_cars_generator_shows_its_reason(tmp_path: Path) -> None:
    app, screen, panel = _play(tmp_path)
    _declaring(app, screen, "Rhee")
    press(pygame.K_c, "c")
    frames(app, 2)
    for _ in range(4):  # weapons 20: 30 + 20 = 50 of G 50
        click(_button(panel, "+5", 1))
        frames(app, 1)
    d = panel.current()
    assert d is not None and (d.car_weapons, d.car_metres(), panel.refused) == (20, 0, None)
    click(_button(panel, "+1", 1))  # 51 of 50: refused, the split kept
    frames(app, 2)
    d = panel.current()
    assert d is not None and d.car_weapons == 20
    assert panel.refused == "R-9.12: 51 points split, the scout car's generator gives 50"
    click(_button(panel, "+5", 0))  # the scout car's screen takes at most 30
    frames(app, 2)
    assert panel.refused == "R-9.12: the scout car's screen takes at most 30 points"
    shot = pygame.image.load(str(app.screenshot(tmp_path / "refused.png")))
    reds = sum(near(tuple(shot.get_at((x, y))), BAD, 60) for x in range(panel.rect.x, panel.rect.right, 2)
               for y in range(panel.rect.bottom - 30, panel.rect.bottom, 2))
    assert reds > 20  # the refusal's line, in red, at the panel's foot
    app.close()


def test_watching_a_car_the_board_follows_its_riders_and_hides_its_split_from_the_other_side(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """On Scout run watched with the Picket's eyes: a car's split (fw_car_split, declared like the figures'
    declarations) stays with its own side in the log; after a flight and after a rider leaves, the board's cells
    of the riders are where the battle has them (review7c: they stayed at the car's first cell, so tracers and the
    camera started there)."""
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path))
    from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
    from skirmish.ui.settings import Settings

    app = App(scenario=load_scenario(SCENARIOS_DIR / "fw" / "scout_run.yaml"),
              controls={"Scouts": "ai", "Picket": "ai"}, settings=Settings(speed=50.0), size=(1280, 800))
    s = app.screen
    assert isinstance(s, BattleScreen)
    s.watch_eyes = "Picket"  # V while watching: the Picket's fog of war
    b = s.session.battle
    for _ in range(4000):
        app.tick(1 / 60)
        if any(e.type == "fw_drive" for e in b.log.events) and not s.anim.busy:
            break
    events = b.log.events
    splits = [i for i, e in enumerate(events) if e.type == "fw_car_split"]
    assert splits and all(i in s.log_fog.hidden.get("Picket", set()) for i in splits)
    drive = next(e for e in events if e.type == "fw_drive")
    end = tuple(drive.path[-1])
    truth = b.view()
    for r in drive.riders:
        assert s._cells[r] in (end, truth.unit(r).cell)
