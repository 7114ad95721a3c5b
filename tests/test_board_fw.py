"""Future*World on the board (issue 13, item 6), driven by posted events under SDL's dummy driver with
screenshots checked: the declaration panel (actions, targets clicked on the map, the tacpack split that never
goes above G, R-9.8, the exact odds), the movement segment by drag, an fw battle watched to the end, and an fw
record on the replay viewer."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish import record
from skirmish.cli.board import _board_refusal
from skirmish.content.scenario import Scenario, load_scenario, parse_scenario
from skirmish.rulesets.fw import FwIntent
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.fw.draw import hp_colour
from skirmish.ui.fw.panel import FwCommands
from skirmish.ui.replay import ReplayScreen
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.screens import ResultsScreen
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import ACCENT, BAD
from tests.conftest import ROOT, cli
from tests.ui_helpers import cell_px, click, frames, near, press

RELAY = ROOT / "scenarios" / "fw" / "relay_station.yaml"
DUEL = """
name: Fw duel
ruleset: fw
seed: 5
map:
  cell_m: 2.0
  ascii: ["............",
          "............",
          "....#.......",
          "............",
          "............"]
victory: {eliminate: true, max_rounds: 4}
sides:
  - name: Blue
    controller: ai
    ai: hold
    units:
      - {name: Ash, at: [1, 1], characteristics: {STR: 12, CON: 12, SIZ: 11, INT: 12, POW: 13, DEX: 15},
         skills: {rifle: 60}, armour: [chitin], weapons: [blaster_light_rifle],
         tacpack: {generator: 8, screen: diffusion, screen_points: 4}}
  - name: Red
    controller: ai
    ai: hold
    units:
      - {name: Rook, at: [9, 3], characteristics: {STR: 13, CON: 14, SIZ: 12, INT: 11, POW: 10, DEX: 12},
         skills: {rifle: 45}, armour: [tinsel], weapons: [heavy_rifle],
         tacpack: {generator: 4, screen: kinetic, screen_points: 4}}
"""


pytestmark = pytest.mark.usefixtures("isolated_config")


def _duel(tmp_path: Path) -> Scenario:
    path = tmp_path / "fw_duel.yaml"  # on disk too: a save reads the scenario's files again
    path.write_text(DUEL, encoding="utf-8")
    return parse_scenario(DUEL, str(path), base=tmp_path)


def _button(commands: FwCommands, label: str, nth: int = 0) -> tuple[int, int]:
    """Where the panel drew the `nth` button labelled `label` last frame."""
    found = [b for b in commands.controls if b.label == label]
    assert len(found) > nth, (label, [b.label for b in commands.controls])
    return found[nth].rect.center


def _playing(tmp_path: Path) -> tuple[App, BattleScreen, FwCommands]:
    app = App(scenario=_duel(tmp_path), controls={"Blue": "human", "Red": "ai"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    frames(app, 4)
    req = screen.session.human_request()
    assert req is not None and (req.kind, req.unit) == ("intent", "Ash")
    return app, screen, screen.commands


def test_a_declaration_made_in_the_panel_reaches_the_battle_as_shown(tmp_path: Path) -> None:
    app, screen, panel = _playing(tmp_path)
    d = panel.current()
    assert d is not None and (d.screen, d.points, d.total) == ("diffusion", 4, 4)  # the kit's usual split
    click(_button(panel, "shoot"))  # a blaster shot draws 4 points: 8 of G 8
    frames(app, 2)
    click(cell_px(screen, (9, 3)))  # the target, clicked on the map
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.target, d.shots, d.total) == ("shoot", "Rook", 4, 8)
    # the exact odds are shown before committing, as the battle gives them (one odds path with the AIs'): the
    # rules' chance, through Rook's armour and usual screen
    p = screen.session.battle.odds(FwIntent("Ash", "shoot", "Rook"))
    lines = panel.odds_lines(d)
    assert len(lines) == 1 and p.text in lines[0] and f"hit {p.chance}.0%" in lines[0]
    assert "its screen kinetic 4" in lines[0]  # Rook's usual split (Blue cannot see its declaration)
    press(pygame.K_RETURN)  # declare (the bottom bar's "Enter declare")
    frames(app, 3)
    assert screen.session.battle.history[0] == d.intent()
    declared = [e for e in screen.session.battle.log.events if e.type == "fw_declare" and e.actor == "Ash"]
    assert len(declared) == 1 and declared[0].acts[0]["act"] == "shoot" and declared[0].acts[0]["target"] == "Rook"
    assert (declared[0].split["screen"], declared[0].split["screen_points"], declared[0].split["shots"]) == \
        ("diffusion", 4, 4)
    app.close()


def test_the_split_is_never_set_above_g_and_the_panel_says_why(tmp_path: Path) -> None:
    app, _screen, panel = _playing(tmp_path)
    for _ in range(4):  # 4 of 8 -> 8 of 8
        click(_button(panel, "+"))
        frames(app, 1)
    d = panel.current()
    assert d is not None and (d.points, d.total) == (8, 8) and panel.refused is None
    click(_button(panel, "+"))  # a ninth point
    frames(app, 1)
    d = panel.current()
    assert d is not None and (d.points, d.total) == (8, 8)
    assert panel.refused == "R-9.8: 9 points allocated, the generator gives 8"
    click(_button(panel, "shoot"))  # a shot's 4 points on top of a full screen: refused too
    frames(app, 1)
    d = panel.current()
    assert d is not None and d.act == "none" and panel.refused is not None and panel.refused.startswith("R-9.8")
    shot = pygame.image.load(str(app.screenshot(tmp_path / "refused.png")))
    rect = panel.rect
    assert rect.w > 200 and near(shot.get_at((rect.x + rect.w // 2, rect.y))[:3], ACCENT)  # the panel's frame
    reds = sum(1 for x in range(rect.x, rect.right, 2) for y in range(rect.bottom - 40, rect.bottom, 2)
               if near(shot.get_at((x, y))[:3], BAD, 60))
    assert reds > 10  # the refusal, in red at the panel's foot
    press(pygame.K_1, "1")  # shoot by key: refused the same way, the split unchanged
    frames(app, 1)
    assert panel.current() == d
    app.close()


def test_the_movement_segment_by_drag(tmp_path: Path) -> None:
    app, screen, _panel = _playing(tmp_path)
    press(pygame.K_RETURN)  # declare no action, the usual screen
    for _ in range(60):
        frames(app, 1)
        req = screen.session.human_request()
        if req is not None and req.kind == "move" and not screen.anim.busy:  # Rook's move has played
            break
    req = screen.session.human_request()
    assert req is not None and (req.kind, req.unit) == ("move", "Ash")
    start, dest = (1, 1), (4, 4)
    assert dest in screen.session.battle.legal_actions("Ash").walk
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=cell_px(screen, start), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=cell_px(screen, dest), rel=(1, 1), buttons=(1, 0, 0)))
    frames(app, 2)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "drag.png")))
    x, y = cell_px(screen, (3, 0))  # a free cell in reach: shaded green
    r, g, b = shot.get_at((x, y))[:3]
    assert g > r and g > b
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=cell_px(screen, dest), button=1))
    frames(app, 3)
    moves = [e for e in screen.session.battle.log.events if e.type == "fw_move" and e.actor == "Ash"]
    assert len(moves) == 1 and tuple(moves[0].path[-1]) == dest
    app.close()


def test_an_fw_battle_watched_to_the_end(tmp_path: Path) -> None:
    sc = load_scenario(str(RELAY))
    app = App(scenario=sc, controls={"Guards": "ai", "Raiders": "ai"}, ai={"Raiders": "random"},
              settings=Settings(speed=8.0), size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    frames(app, 2)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "start.png")))
    view = screen.session.view()
    for u in view.units:  # an HP bar under every token, in the colour of its HP (all whole: green)
        x, y = screen.board.cam.centre(u.cell)
        r = screen.board.token_radius()
        assert near(shot.get_at((x - r + 2, y + r + 2 + TOP_H + 1))[:3], hp_colour(u.ext)), u.name
    for _ in range(20000):
        app.tick(1 / 60)
        if isinstance(app.screen, ResultsScreen):
            break
    assert isinstance(app.screen, ResultsScreen)
    events = screen.session.battle.log.events
    assert events[-1].type == "result" and any(e.type == "fw_attack" for e in events)
    # the results' chart counts the figures down at 0 HP (R-9.7), each once, as the end's view has them
    results = app.screen
    final = screen.session.view()
    for side in ("Guards", "Raiders"):
        up = sum(1 for u in final.units if u.side == side and not (u.ext.unconscious or u.ext.dead))
        assert results.standing[side][-1] == up, side
    assert any(results.standing[s][-1] < 3 for s in ("Guards", "Raiders")), "nobody went down: pick another seed"
    app.close()


def test_an_fw_record_on_the_replay_viewer(tmp_path: Path) -> None:
    path = tmp_path / "fw.json"
    code, _, err = cli("run", str(RELAY), "--ai", "Raiders=random", "--record", str(path), "--quiet", timeout=120)
    assert code == 0, err
    rec = record.load(path)
    app = App(replay=ReplaySession(rec), settings=Settings(speed=8.0, reasons=False), size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, ReplayScreen) and isinstance(screen.commands, FwCommands)
    press(pygame.K_SPACE, " ")  # pause
    frames(app, 1)
    press(pygame.K_END)
    frames(app, 2)
    with record.resume(rec) as battle:
        final = battle.view()
    shown = screen.replay.view()
    assert {u.name: (u.cell, u.ext.hp) for u in shown.units} == {u.name: (u.cell, u.ext.hp) for u in final.units}
    shot = pygame.image.load(str(app.screenshot(tmp_path / "replay.png")))
    hurt = [u for u in shown.units if u.ext.hp < u.ext.CON and not u.ext.dead]
    assert hurt, "the record's battle hurt nobody: pick another seed"
    u = hurt[0]
    x, y = screen.board.cam.centre(u.cell)
    r = screen.board.token_radius()
    assert near(shot.get_at((x - r + 1, y + r + 2 + TOP_H + 1))[:3], hp_colour(u.ext))
    app.close()


def test_the_board_takes_future_world() -> None:
    assert _board_refusal(load_scenario(str(RELAY))) is None


def test_hot_seat_hands_over_and_keeps_each_sides_declaration_from_the_other(tmp_path: Path) -> None:
    app = App(scenario=_duel(tmp_path), controls={"Blue": "human", "Red": "human"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    frames(app, 3)
    press(pygame.K_RETURN)  # Ash declares its usual split
    frames(app, 3)
    assert screen.handover == "Red"  # the board is covered until it is passed on
    press(pygame.K_SPACE)
    frames(app, 2)
    assert screen.handover is None and screen.viewer == "Red"
    d = screen.commands.current()
    assert d is not None and d.unit == "Rook"
    assert screen.view_now().unit("Ash").ext.full is False  # Red does not see Ash's split
    press(pygame.K_RETURN)
    frames(app, 3)
    events = screen.session.battle.log.events
    sides = {"Ash": "Blue", "Rook": "Red"}
    hidden_blue = screen.log_fog.hidden_for("Blue", events, sides)
    hidden_red = screen.log_fog.hidden_for("Red", events, sides)
    declared = {e.actor: i for i, e in enumerate(events) if e.type == "fw_declare"}
    assert declared["Rook"] in hidden_blue and declared["Rook"] not in hidden_red
    assert declared["Ash"] in hidden_red and declared["Ash"] not in hidden_blue
    app.close()


def test_an_fw_battle_saved_on_the_board_continues_from_its_record(tmp_path: Path) -> None:
    from skirmish.ui.session import Session

    app, screen, panel = _playing(tmp_path)
    click(_button(panel, "react"))
    frames(app, 2)
    press(pygame.K_RETURN)
    frames(app, 3)
    path = tmp_path / "fw_save.json"
    screen.session.save(path)
    again = Session.from_record(record.load(path), ai={"Red": "hold"})
    try:
        assert again.controls == {"Blue": "human", "Red": "ai"}
        assert again.battle.history == screen.session.battle.history
        assert again.battle.state_hash() == screen.session.battle.state_hash()
    finally:
        again.close()
        app.close()
