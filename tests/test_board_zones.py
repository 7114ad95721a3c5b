"""Issue 15 item 1 on the board, driven under SDL's dummy driver: a scenario's zones drawn (outline in the
owning side's colour, name), the objectives panel with their state, trigger messages as toasts, and a door that
closes redrawn as wall."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import parse_scenario
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import PANEL_BG
from tests.ui_helpers import rgb_dist

T = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"
RELAY = f"""name: relay test
seed: 3
map: {{ascii: ['........', '........', '........', '........']}}
victory: {{max_rounds: 4}}
zones:
  relay: {{rect: [3, 1, 4, 2]}}
  north: {{rect: [6, 0, 7, 0]}}
  gate: {{rect: [0, 3, 1, 3]}}
sides:
  - name: Blue
    colour: blue
    controller: scripted
    orders: ["declare B1 normal", "move B1 to=3,1"]
    objectives: [{{kind: hold, zone: relay, rounds: 2, points: 3}}]
    units: [{{name: B1, at: [0, 1], traits: {T}}}]
  - name: Red
    colour: red
    controller: scripted
    objectives: [{{kind: survive, rounds: 4}}]
    units: [{{name: R1, at: [7, 3], traits: {T}}}]
triggers:
  - name: wave
    when: {{round: 2}}
    then:
      - {{reinforce: {{side: Red, zone: north, units: [{{name: R2, at: [6, 0], traits: {T}}}]}}}}
      - {{message: "Red's second wave arrives"}}
  - when: {{enters: relay, side: Blue}}
    then: [{{door: {{zone: gate, open: false}}}}]
"""


pytestmark = pytest.mark.usefixtures("isolated_config")


def _screen_px(screen: BattleScreen, cell_corner: tuple[float, float]) -> tuple[int, int]:
    cam = screen.board.cam
    return round(cell_corner[0] * cam.tile - cam.x), round(cell_corner[1] * cam.tile - cam.y) + TOP_H


def test_zones_objectives_and_messages_on_the_board(tmp_path: Path) -> None:
    sc = parse_scenario(RELAY, str(tmp_path / "relay.yaml"), base=tmp_path)
    app = App(scenario=sc, controls={"Blue": "ai", "Red": "ai"}, settings=Settings(speed=8.0), size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    try:
        app.tick(1 / 60)
        first = pygame.image.load(str(app.screenshot(tmp_path / "start.png")))
        blue = screen.board.colours["Blue"]
        # the relay's outline in Blue's colour (its hold objective), on the left side of cell 3,1
        edge = first.get_at(_screen_px(screen, (3.0, 1.5)))
        assert rgb_dist(edge, blue) < 60, edge
        gate_before = first.get_at(_screen_px(screen, (0.5, 3.5)))
        # the objectives panel at the board's top left: its background, and both objectives listed open
        panel = first.get_at((14, TOP_H + 30))
        assert rgb_dist(panel, PANEL_BG) < 40, panel
        for _ in range(3000):
            app.tick(1 / 60)
            if screen.session.battle.ctx.round >= 2 and any("second wave" in t.text for t in screen.toasts):
                break
        texts = [t.text for t in screen.toasts]
        assert "Red's second wave arrives" in texts and "gate closes" in texts
        later = pygame.image.load(str(app.screenshot(tmp_path / "round2.png")))
        gate_after = later.get_at(_screen_px(screen, (0.5, 3.5)))
        assert rgb_dist(gate_before, gate_after) > 60, (gate_before, gate_after)  # the door is a wall now
        view = screen.session.view()
        assert not view.grid.passable((0, 3)) and screen.board.grid is view.grid
        red = screen.board.colours["Red"]
        x0, y0 = _screen_px(screen, (6.0, 0.0))
        px = screen.board.cam.tile
        reds = sum(1 for x in range(x0, x0 + px, 2) for y in range(y0, y0 + px, 2) if rgb_dist(later.get_at((x, y)), red) < 60)
        assert reds > (px // 2) ** 2 // 8, reds  # the reinforcement's token, in Red's colour, on its cell
    finally:
        app.close()


def test_objective_lines_say_state_and_progress() -> None:
    from skirmish.ecs.view import ObjectiveView
    from skirmish.ui.zones import objective_line

    hold = ObjectiveView("Blue:hold", "Blue", "hold", "open", 3, "relay", None, 2, "any", False, False, 1)
    assert objective_line(hold) == "· Blue:hold hold relay (1/2 rounds) 3 pts"
    theirs = ObjectiveView("Blue:hold", "Blue", "hold", "open", 3, "relay", None, 2, "any", True, False, None)
    assert objective_line(theirs) == "· Blue:hold hold relay (2 rounds) 3 pts WINS"
    done = ObjectiveView("x", "Red", "protect", "done", 1, None, "Medic", None, "any", False, True, 0)
    assert objective_line(done) == "✓ x protect Medic 1 pts MUST"
