"""A grav car's mount on Future*World's panel (issue 13 item 7; R-9.12, R-9.5, R-9.8), driven by posted events
under SDL's dummy driver with screenshots checked: a passenger of a hauler presses F to fire the support gun, the
panel's mount row shows it chosen and the odds line gives the mounted chance the battle works out (`Battle.odds`),
a click on the enemy aims it, Enter declares it, and the attack is logged from the mount; the driver is refused
the passenger's mount with its rule."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.rulesets.fw import FwIntent
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.fw.panel import FwCommands
from skirmish.ui.widgets import ACCENT
from tests.test_board_fw import _button
from tests.test_board_fw_car import _declaring, _until
from tests.ui_helpers import cell_px, click, events_of, frames, near, press

CHARS = "{STR: 12, CON: 13, SIZ: 12, INT: 12, POW: 12, DEX: %d}"
KIT = "skills: {rifle: 50}, armour: [chitin], weapons: [heavy_rifle], tacpack: {generator: 6, screen: kinetic, screen_points: 4}"
TEXT = f"""
name: Fw mount panel
ruleset: fw
seed: 3
map:
  cell_m: 2.0
  ascii: {["." * 22] * 9!r}
victory: {{eliminate: true, max_rounds: 3}}
sides:
  - name: Blue
    controller: ai
    ai: hold
    cars:
      - {{name: Mule, type: hauler, at: [3, 4], riders: [Rhee, Kade]}}
    units:
      - {{name: Rhee, at: [3, 3], characteristics: {CHARS % 14}, {KIT}}}
      - {{name: Kade, at: [3, 5], characteristics: {CHARS % 13}, {KIT}}}
  - name: Red
    controller: ai
    ai: hold
    units:
      - {{name: Rook, at: [12, 4], characteristics: {CHARS % 10}, {KIT}}}
"""


pytestmark = pytest.mark.usefixtures("isolated_config")


def _scenario(tmp_path: Path) -> Scenario:
    path = tmp_path / "fw_mount.yaml"
    path.write_text(TEXT, encoding="utf-8")
    return parse_scenario(TEXT, str(path), base=tmp_path)


def test_a_passenger_fires_the_haulers_support_gun_from_the_panel(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path), controls={"Blue": "human", "Red": "ai"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen) and isinstance(screen.commands, FwCommands)
    panel = screen.commands
    frames(app, 4)
    _declaring(app, screen, "Rhee")
    press(pygame.K_f, "f")  # the driver may not work the passenger's gun (the data's crew)
    frames(app, 1)
    assert panel.refused == "R-9.12: Rhee has no mount to fire from"
    press(pygame.K_RETURN)
    frames(app, 2)
    _declaring(app, screen, "Kade")
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    press(pygame.K_1 + 1, "2")  # burst: its own heavy rifle fires single shots only
    frames(app, 1)
    assert panel.refused is not None and panel.refused.startswith("R-9.5")
    press(pygame.K_f, "f")  # F: fire from the support gun, which bursts
    frames(app, 1)
    press(pygame.K_1 + 1, "2")
    frames(app, 2)
    d = panel.current()
    assert d is not None and (d.act, d.mount, d.weapon, d.shots, panel.refused) == ("burst", "support_gun",
                                                                                  "semi_portable", 0, None)
    click(cell_px(screen, (12, 4)))  # aim at Rook
    frames(app, 2)
    d = panel.current()
    assert d is not None and d.target == "Rook"
    odds = screen.session.battle.odds(FwIntent("Kade", "burst", "Rook", mount="support_gun"))
    assert odds.chance == 20  # the mounted 20%, not the hand-held 5% (R-9.5)
    lines = panel.odds_lines(d)
    assert any(line.startswith("burst Rook (semi-portable gun from the support gun, mounted, 20%") for line in lines)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "mount.png")))
    label = next(b.label for b in panel.controls if b.label.startswith("support gun"))
    px = shot.get_at(_button(panel, label))[:3]
    assert near(px, (150, 120, 40), 200) and px != before.get_at(_button(panel, label))[:3]  # the chosen mount
    assert sum(near(tuple(shot.get_at((x, y))), ACCENT, 60) for x in range(panel.rect.x, panel.rect.right, 3)
               for y in range(panel.rect.y, panel.rect.bottom, 3)) > 20
    press(pygame.K_RETURN)
    frames(app, 2)
    declared = next(a for a in screen.session.battle.history if a.unit == "Kade")
    assert isinstance(declared, FwIntent) and (declared.act, declared.target, declared.mount) == ("burst", "Rook",
                                                                                                   "support_gun")
    _until(app, screen, lambda: any(e.actor == "Kade" for e in events_of(screen, "fw_attack")))
    (fired,) = [e for e in events_of(screen, "fw_attack") if e.actor == "Kade"]
    assert fired.mount == "Mule's support gun" and fired.base == 20 and fired.weapon == "semi_portable"
    app.close()


def test_the_panel_sets_a_gun_not_a_missile_on_an_empty_mount(tmp_path: Path) -> None:
    """review8b: a missile is a `support` weapon too, but an empty mount takes a gun (rules.fw.mounts.load_refusal):
    F on the explorer hauler's mount picks the rider's semi-portable, listed after its guided missile, and the
    declaration the panel makes is one the battle accepts."""
    from skirmish.battle import Battle
    from skirmish.ui.fw.draft import Draft

    text = (TEXT.replace("type: hauler", "type: explorer_hauler")
            .replace("{name: Kade, at: [3, 5], characteristics: " + CHARS % 13 + ", " + KIT + "}",
                     "{name: Kade, at: [3, 5], characteristics: " + CHARS % 13 + ", skills: {support: 50}, "
                     "weapons: [guided_missile, semi_portable]}"))
    assert "guided_missile, semi_portable" in text
    path = tmp_path / "van.yaml"
    path.write_text(text, encoding="utf-8")
    sc = parse_scenario(text, str(path), base=tmp_path)
    with Battle(sc, seed=3) as b:
        while b.pending is not None and not (b.pending.kind == "intent" and b.pending.unit == "Kade"):
            b.submit(b.sys.fallback(b.pending))
        assert b.pending is not None
        view = b.observe("Blue")
        d = Draft.start("Kade", view.unit("Kade").ext, "Blue", view.unit("Kade").cell)  # type: ignore[arg-type]
        d, why = d.set_act(0, "burst")
        d, why = d.aim("Rook", True)
        d, why = d.set_mount("mount")
        assert why is None and d.weapon == "semi_portable"
        assert d.intent().mount == "mount" and b.check(d.intent()) is None
