"""The board under `initiative: cards` (R-5.8), driven by posted events under SDL_VIDEODRIVER=dummy: a person's
hand is drawn as cards (BONUS marked), picked with the keys and kept with Enter; the tracker counts the steps
down with the called step lit; under the default phases FI's own tracker and keys are untouched."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.hand import BONUS_C, CARD_C, HandCommands
from skirmish.ui.widgets import ACCENT
from tests.conftest import make_card, write_deck
from tests.ui_helpers import frames, near, press


def at(step: int, fragment: int):
    return make_card((step - 1) * 4 + fragment + 1)


TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"


pytestmark = pytest.mark.usefixtures("isolated_config")


def _scenario(tmp_path: Path, options: str = "{initiative: cards}") -> Scenario:
    # Me reads 8 (three cards: BONUS, 9, 4); the foe reads CF (no cards) every round.
    me_read = make_card(2, upper={("III", 2): 8})
    foe_read = make_card(3, upper={("II", 2): "CF"})
    deck = write_deck(tmp_path / "deck.json", [me_read, make_card(54, special="bonus"), at(9, 2), at(4, 1), foe_read,
                                               *[make_card(30)] * 6])
    text = f"""name: hand board
ruleset: fi
seed: 2
options: {options}
map: {{ascii: ["..........", "..........", ".........."]}}
deck: {{cards: {deck.name}, shuffle: false}}
victory: {{max_rounds: 3}}
sides:
  - name: Blue
    controller: ai
    units: [{{name: Me, at: [0, 1], traits: {TRAITS}, skills: {{"shooting:pistol": 2}}, weapons: [blast_pistol]}}]
  - name: Red
    controller: ai
    ai: hold
    units: [{{name: Foe, at: [9, 1], traits: {{strength: III-2, dexterity: III-2, reflexes: II-2, vigor: III-2,
             acuity: II-2}}}}]
"""
    path = tmp_path / "hand_board.yaml"
    path.write_text(text, encoding="utf-8")
    return parse_scenario(text, str(path), base=tmp_path)


def _playing(tmp_path: Path, options: str = "{initiative: cards}") -> tuple[App, BattleScreen]:
    app = App(scenario=_scenario(tmp_path, options), controls={"Blue": "human", "Red": "ai"}, size=(1280, 800))
    assert isinstance(app.screen, BattleScreen)
    frames(app, 4)
    return app, app.screen


def test_the_hand_is_drawn_as_cards_and_kept_with_the_keys(tmp_path: Path) -> None:
    app, screen = _playing(tmp_path)
    panel = screen.commands
    assert isinstance(panel, HandCommands)
    req = screen.session.human_request()
    assert req is not None and (req.kind, req.unit) == ("declare", "Me")
    assert "keep two cards" in screen.prompt()
    # three cards drawn: the BONUS (kept anyway, not pickable), then 9 and 4 to pick from
    assert len(panel.card_rects) == 2
    surf = app.window
    first = panel.card_rects[0]
    assert near(surf.get_at((first.right - 8, first.centery)), CARD_C)
    bonus = first.move(-(first.w + 10), 0)  # the BONUS card is drawn first, left of the keepable ones
    assert near(surf.get_at((bonus.right - 8, bonus.centery)), BONUS_C)
    press(pygame.K_2)  # pick the 4
    frames(app, 2)
    second = panel.card_rects[1]
    assert near(surf.get_at((second.x + 1, second.centery)), ACCENT)  # the picked card is edged
    assert not near(surf.get_at((first.x + 1, first.centery)), ACCENT)
    press(pygame.K_RETURN)
    frames(app, 3)
    keeps = [e for e in screen.session.battle.log.events if e.type == "hand_keep" and e.actor == "Me"]
    assert len(keeps) == 1 and keeps[0].kept == ["4.1"] and keeps[0].bonus == ["14.5 BONUS"]
    assert "9.2" in keeps[0].discarded
    assert panel.secret(keeps[0]) and not panel.secret(screen.session.battle.log.events[0])  # a hand stays own
    app.close()


def test_the_tracker_counts_the_steps_down(tmp_path: Path) -> None:
    app, screen = _playing(tmp_path)
    panel = screen.commands
    assert isinstance(panel, HandCommands)
    press(pygame.K_RETURN)  # the default keep: 9 and 4, the BONUS besides
    for _ in range(60):
        frames(app, 1)
        req = screen.session.human_request()
        if req is not None and req.kind == "act":
            break
    req = screen.session.human_request()
    assert req is not None and req.kind == "act" and req.unit == "Me"
    frames(app, 2)
    assert "step 14" in screen.header_text(screen.session.view(), 2000)
    box = panel.step_boxes[14]
    assert near(app.window.get_at((box.x + 1, box.y + 1)), ACCENT)  # the called step is lit
    later = panel.step_boxes[9]
    assert not near(app.window.get_at((later.x + 1, later.y + 1)), ACCENT)
    app.close()


def test_phases_keep_the_fi_board(tmp_path: Path) -> None:
    app, screen = _playing(tmp_path, "{}")
    panel = screen.commands
    assert isinstance(panel, HandCommands)
    req = screen.session.human_request()
    assert req is not None and req.kind == "declare"
    assert panel.buttons(req) is None and panel.prompt(req) is None and not panel.card_rects
    assert screen.prompt() == "Me: declare"
    press(pygame.K_2)  # NORMAL, FI's own key
    frames(app, 3)
    declared = [e for e in screen.session.battle.log.events if e.type == "declare" and e.actor == "Me"]
    assert declared and declared[0].speed == "normal"
    app.close()
