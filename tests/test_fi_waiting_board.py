"""The board's wait menu (W, R-5.7), driven by posted events under SDL_VIDEODRIVER=dummy: hovering a cell and pressing
W opens a menu of the triggers the rules list, `enemy_enters` for the hovered cell second; choosing it submits the
wait, and the enemy's run into that cell sets it off (the trigger event and the shot)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import parse_scenario
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.widgets import ACCENT
from tests.conftest import make_card, write_deck
from tests.test_fi_waiting import GUN, INIT, MISS, _unit
from tests.ui_helpers import frames, press

pytestmark = pytest.mark.usefixtures("isolated_config")


def test_w_opens_the_wait_menu_and_enemy_enters_the_hovered_cell(tmp_path: Path) -> None:
    deck = write_deck(tmp_path / "deck.json", [INIT, make_card(5, upper={("III", 2): 8}),
                                               make_card(6, upper={("III", 2): 2}), MISS, INIT, INIT])
    text = f"""
name: wait board
seed: 1
map: {{ascii: ['............', '............', '............']}}
deck: {{cards: {deck.name}, shuffle: false}}
victory: {{max_rounds: 1}}
sides:
  - name: Alpha
    controller: idle
    units: [{_unit('Watch', (4, 0), GUN)}]
  - name: Beta
    controller: scripted
    orders: ["declare Runner normal", "move Runner 8,2"]
    units: [{_unit('Runner', (0, 2))}]
"""
    sc = parse_scenario(text, str(tmp_path / "s.yaml"), base=tmp_path)
    app = App(scenario=sc, controls={"Alpha": "human", "Beta": "ai"}, size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(300):
        frames(app, 1)
        req = screen.session.human_request()
        if req is not None and req.kind == "declare":
            press(pygame.K_2)
        if req is not None and req.kind == "act" and not screen.anim.busy:
            break
    else:
        raise AssertionError("Watch never acted")
    x, y = screen.board.cam.centre((4, 2))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(x, y + TOP_H), rel=(0, 0), buttons=(0, 0, 0)))
    frames(app, 1)
    press(pygame.K_w)
    frames(app, 2)
    m = screen.attack
    assert m is not None and m.page == "waits"
    triggers = [o.action.trigger for o in m.options]  # type: ignore[attr-defined]
    assert triggers[:2] == ["enemy_in_view", "enemy_enters:4,2"]
    assert {"enemy_moves", "enemy_in_range", "later"} <= set(triggers)
    lines, choosable = screen.attack_lines(screen.session.view())
    assert choosable and "wait (W)" in lines[0][0] and "enter 4,2" in lines[2][0]
    shot = pygame.image.load(str(app.screenshot(tmp_path / "wait.png")))
    edge = m.rect.topleft
    assert sum(abs(a - b) for a, b in zip(shot.get_at((edge[0] + m.rect.w // 2, edge[1]))[:3], ACCENT,
                                          strict=True)) < 60  # the menu is drawn (its accent frame)
    press(pygame.K_2)
    for _ in range(600):
        frames(app, 1)
        if screen.session.is_over():
            break
    events = screen.session.battle.log.events
    wait = next(e for e in events if e.type == "wait")
    assert wait.trigger == "enemy_enters:4,2"
    trig = next(e for e in events if e.type == "trigger")
    attack = next(e for e in events if e.type == "attack")
    assert trig.trigger == "enemy_enters:4,2" and attack.actor == "Watch" and attack.distance_m == pytest.approx(4.0)
    app.close()
