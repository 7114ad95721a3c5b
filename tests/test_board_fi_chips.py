"""Story chips on the Future Imperfect board (R-8.5, option `chips`), driven by posted events under
SDL_VIDEODRIVER=dummy: the chips of the person's side are drawn (white, red, blue with their counts); X switches
between spending them as the AI does and keeping them (remembered in the settings); with "spend" a white chip
turns the attack's miss into a hit (the entry above, 4 -> 7), with "keep" the miss stands and the chip stays."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from skirmish import record
from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.rulesets import fi
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.fi_board import CHIP_C, FiCommands
from skirmish.ui.frame import TOP_H
from tests.conftest import cli
from tests.test_fi_chips import INIT, SAVE, scenario, shot_card
from tests.ui_helpers import acting, frames, near, press

pytestmark = pytest.mark.usefixtures("isolated_config")


def _scenario(tmp_path: Path) -> Scenario:
    # Xenes holds a white and a blue chip; its burst reads 4 with 7 on the entry above (tests/test_fi_chips.py).
    path = scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT], x_orders="[]", t_orders="[]")
    text = path.read_text(encoding="utf-8").replace("controller: scripted\n    chips: {white",
                                                    "controller: ai\n    chips: {white")
    path.write_text(text, encoding="utf-8")  # the file a saved record captures
    return parse_scenario(text, str(path), base=tmp_path)


def _shoot(app: App, screen: BattleScreen) -> None:
    x, y = screen.board.cam.centre(screen.session.view().unit("Thug").cell)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y + TOP_H), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y + TOP_H), button=1))
    frames(app, 2)
    m = screen.attack
    assert m is not None
    i = next(i for i, o in enumerate(m.options)
             if getattr(o.action, "mode", "") == "prepared" and getattr(o.action, "burst", 0) == 3)
    press(pygame.K_1 + i)
    frames(app, 4)


@pytest.mark.parametrize("keep", [False, True])
def test_chips_shown_and_spent_or_kept(tmp_path: Path, keep: bool) -> None:
    app = App(scenario=_scenario(tmp_path), controls={"Xenes": "human", "Thugs": "ai"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FiCommands)
    acting(app, who="Xenes")
    cmd = screen.commands
    shot = pygame.image.load(str(app.screenshot(tmp_path / "chips.png")))
    br = screen.board_rect()
    for colour in ("white", "blue", "red"):
        c = cmd.chip_rects[colour].move(br.x, br.y).center
        assert near(shot.get_at(c), CHIP_C[colour]), colour
    battle = screen.session.battle
    assert fi.chips_of(battle, "Xenes") == {"hand": {"white": 1, "red": 0, "blue": 1}, "policy": "spend"}
    press(pygame.K_x)  # keep: a `chips` action in the turn, which goes on
    frames(app, 2)
    assert fi.chips_of(battle, "Xenes")["policy"] == "keep"
    if not keep:
        press(pygame.K_x)
        frames(app, 2)
    choice = "keep" if keep else "spend"
    assert fi.chips_of(battle, "Xenes")["policy"] == choice
    assert json.loads((tmp_path / "config" / "settings.json").read_text())["chips"] == choice
    assert [e.policy for e in battle.log.events if e.type == "chip_policy"] == ["keep"] + ([] if keep else ["spend"])
    req = screen.session.human_request()
    assert req is not None and (req.kind, req.unit) == ("act", "Xenes")
    _shoot(app, screen)
    chips = [e for e in battle.log.events if e.type == "chip"]
    attack = next(e for e in battle.log.events if e.type == "attack")
    hand = fi.chips_of(battle, "Xenes")["hand"]
    if keep:
        assert not chips and attack.hit is False and hand["white"] == 1
    else:
        assert [(e.colour, e.use, e.before, e.after) for e in chips] == [("white", "up", 4, 7)]
        assert attack.hit is True and hand["white"] == 0
    # The choice is in the battle's history: a saved record replays it to the same events.
    rec = screen.session.save(tmp_path / "saved.json")
    again = record.replay(rec)
    assert [e.describe() for e in again.log.events] == [e.describe() for e in battle.log.events]
    app.close()


def test_a_chip_policy_is_refused_for_scripted_sides_and_without_chips(tmp_path: Path) -> None:
    path = scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT], x_orders="[]", t_orders="[]")
    text = path.read_text(encoding="utf-8").replace('"declare Xenes normal", ',
                                                    '"declare Xenes normal", "chips Xenes keep", ')
    path.write_text(text, encoding="utf-8")
    code, out, _ = cli("run", str(path))
    assert code == 0 and "REFUSED 'chips Xenes policy=keep': R-8.5: Xenes is scripted: its chip_orders decide" in out
    path.write_text(text.replace("options: {chips: true}", "options: {}"), encoding="utf-8")
    code, out, _ = cli("run", str(path))
    assert code == 0 and "R-8.5: this battle plays without story chips (option chips)" in out
