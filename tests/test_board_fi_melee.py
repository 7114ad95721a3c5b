"""The Future Imperfect board's close fight (R-5.4, R-7.1–R-7.6) and contests (R-8.4), driven by posted events under
SDL_VIDEODRIVER=dummy on the seed's examples (tests/data/melee/*.yaml): clicking an adjacent enemy opens the attack
menu with the blow and its odds from Battle.odds, 1 strikes; P turns the menu to the psychological contests; F opens
the fight menu (active defence); dragging a miniature onto an enemy shows the charge's route and charges it."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import load_scenario, parse_scenario
from skirmish.ui.app import App
from skirmish.ui.board import marks
from skirmish.ui.fi_melee import ENGAGED_C
from skirmish.ui.widgets import ACCENT
from tests.ui_helpers import acting, cell_px, click, events_of, frames, near, press

MELEE = Path(__file__).parent / "data" / "melee"


pytestmark = pytest.mark.usefixtures("isolated_config")


def test_a_blow_from_the_attack_menu_with_its_odds(tmp_path: Path) -> None:
    scenario = load_scenario(str(MELEE / "punch.yaml"))  # Antares punches the Canine at TN 7
    app = App(scenario=scenario, controls={"Crew": "human", "Bar": "ai"}, size=(1280, 800))
    screen = acting(app, who="Crew")
    canine = screen.session.view().unit("Canine")
    # Engaged figures are ticked in red between them.
    shot = pygame.image.load(str(app.screenshot(tmp_path / "engaged.png")))
    a, b = cell_px(screen, screen.session.view().unit("Antares").cell), cell_px(screen, canine.cell)
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    assert any(near(shot.get_at((mid[0] + d, mid[1] + d)), ENGAGED_C) for d in range(-3, 4))
    click(cell_px(screen, canine.cell))
    frames(app, 2)
    m = screen.attack
    assert m is not None and m.target == "Canine"
    lines, choosable = screen.attack_lines(screen.session.view())
    assert choosable and lines[1][0].startswith("1  blow (fists, non-lethal): hit ")  # the blow first, its odds shown
    odds = screen.session.battle.odds(m.options[0].action)
    assert f"hit {odds.hit:.0%}" in lines[1][0]
    shot = pygame.image.load(str(app.screenshot(tmp_path / "menu.png")))
    assert near(shot.get_at((m.rect.x + m.rect.w // 2, m.rect.y)), ACCENT)  # the menu's frame drawn
    press(pygame.K_1)
    frames(app, 4)
    blows = [e for e in screen.session.battle.log.events if e.actor == "Antares" and "R-7.1" in e.rules]
    assert blows, [e.type for e in screen.session.battle.log.events]
    app.close()


def test_contests_on_p_and_active_defence_on_f(tmp_path: Path) -> None:
    scenario = load_scenario(str(MELEE / "punch.yaml"))
    app = App(scenario=scenario, controls={"Crew": "human", "Bar": "ai"}, size=(1280, 800))
    screen = acting(app, who="Crew")
    click(cell_px(screen, screen.session.view().unit("Canine").cell))
    frames(app, 1)
    press(pygame.K_p)
    frames(app, 1)
    lines, _ = screen.attack_lines(screen.session.view())
    assert "contests" in lines[0][0]
    assert [t.split(":")[0] for t, _ in lines[1:]] == [
        "1  bluff, focused", "2  bluff, cautious", "3  intimidate, focused", "4  intimidate, cautious",
        "5  taunt, focused", "6  taunt, cautious"]
    assert "intimidate II+0 vs bravery III+0" in lines[3][0]  # the two skill dice
    press(pygame.K_p)  # back to the attacks
    frames(app, 1)
    assert screen.attack_lines(screen.session.view())[0][1][0].startswith("1  blow")
    press(pygame.K_ESCAPE)
    press(pygame.K_f)  # the fight menu: active defence
    frames(app, 2)
    assert screen.attack is not None and screen.attack.own
    lines, _ = screen.attack_lines(screen.session.view())
    assert lines[1][0].startswith("1  defend: fighting, standing (-4)")
    shot = pygame.image.load(str(app.screenshot(tmp_path / "fight.png")))
    assert near(shot.get_at((screen.attack.rect.centerx, screen.attack.rect.y)), ACCENT)
    press(pygame.K_1)
    frames(app, 4)
    assert [e.actor for e in events_of(screen, "defend")] == ["Antares"]
    app.close()


def test_a_contest_from_the_menu(tmp_path: Path) -> None:
    scenario = load_scenario(str(MELEE / "punch.yaml"))
    app = App(scenario=scenario, controls={"Crew": "human", "Bar": "ai"}, size=(1280, 800))
    screen = acting(app, who="Crew")
    click(cell_px(screen, screen.session.view().unit("Canine").cell))
    frames(app, 1)
    press(pygame.K_p)
    press(pygame.K_5)  # taunt, focused
    frames(app, 4)
    contests = events_of(screen, "contest")
    assert [(e.actor, e.kind) for e in contests] == [("Antares", "taunt")]
    app.close()


def _kayla(tmp_path: Path) -> App:
    text = (MELEE / "charge.yaml").read_text(encoding="utf-8")  # Kayla charges Kyr-2 with her vibro knife
    text = text.replace('orders: ["declare Sid fast", "declare Kayla fast", "charge Sid Kyr-1 at=4,0 ranged=yes",\n'
                        '             "charge Kayla Kyr-2 at=7,2"]', "orders: []")
    start = text.index("      - {name: Sid")
    text = text[:start] + text[text.index("      - {name: Kayla"):]
    scenario = parse_scenario(text, str(tmp_path / "charge.yaml"), base=MELEE)
    return App(scenario=scenario, controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))


def test_a_charge_from_the_menu_shows_its_route(tmp_path: Path) -> None:
    app = _kayla(tmp_path)
    screen = acting(app, pygame.K_1, who="Crew")
    click(cell_px(screen, screen.session.view().unit("Kyr-2").cell))
    frames(app, 2)
    m = screen.attack
    assert m is not None
    i = next(i for i, o in enumerate(m.options) if o.action.verb == "charge")
    assert not any(o.action.verb == "shoot" for o in m.options)  # no gun: the charges alone
    lines, choosable = screen.attack_lines(screen.session.view())
    assert choosable and lines[i + 1][0].startswith(f"{i + 1}  charge to 7,2 (vibro knife, -2): hit ")
    route = screen.session.battle.preview_move((7, 2))[0]
    assert not screen._overlays(screen.view_now()).route  # no line under the pointer: no route
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=m.rows[i].center, rel=(1, 0), buttons=(0, 0, 0)))
    frames(app, 2)
    assert screen._overlays(screen.view_now()).route == [*route, (8, 2)]  # the charge line's route, to the enemy
    press(pygame.K_1 + i)
    frames(app, 6)
    assert screen.session.view().unit("Kayla").cell == (7, 2)
    assert any(e.actor == "Kayla" and "R-5.4" in e.rules for e in screen.session.battle.log.events)
    app.close()


def test_a_charge_by_drag(tmp_path: Path) -> None:
    app = _kayla(tmp_path)
    screen = acting(app, pygame.K_1, who="Crew")  # FAST: a charge
    view = screen.session.view()
    kayla, kyr = view.unit("Kayla"), view.unit("Kyr-2")
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=cell_px(screen, kayla.cell), button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=cell_px(screen, kyr.cell), rel=(1, 0), buttons=(1, 0, 0)))
    frames(app, 2)
    path, ok, label = screen._route_to(kyr.cell)
    assert ok and label.startswith("charge ") and path[-1] == kyr.cell and path[-2] == (7, 2)
    during = pygame.image.load(str(app.screenshot(tmp_path / "drag.png")))
    x, y = cell_px(screen, (4, 2))  # on the charge's route: drawn over
    assert before.get_at((x, y)) != during.get_at((x, y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=cell_px(screen, kyr.cell), button=1))
    frames(app, 6)
    charges = [e for e in screen.session.battle.log.events if e.actor == "Kayla" and "R-5.4" in e.rules]
    assert charges, [(e.type, e.actor) for e in screen.session.battle.log.events]
    assert screen.session.view().unit("Kayla").cell == (7, 2)
    app.close()


def test_entangle_trip_and_the_lethal_choice_in_the_menu(tmp_path: Path) -> None:
    """A net and a staff (R-7.4, R-7.6): the menu offers the staff's blow lethal and non-lethal, Close, entangle
    with the net and trip with the staff, each maneuver with its chance of success; entangling marks the target."""
    text = """name: net and staff
seed: 3
map: {ascii: ["......", "......"]}
victory: {max_rounds: 2}
sides:
  - name: Kyr
    controller: ai
    units:
      - {name: Kyr-1, at: [1, 0], traits: {strength: III-2, dexterity: IV-3, reflexes: IV-3, vigor: III-2,
         acuity: II-2}, skills: {"fighting:staves": 3, "fighting:nets": 4}, melee: [staff, net]}
  - name: Crew
    controller: ai
    ai: hold
    units:
      - {name: Chuk, at: [2, 0], traits: {strength: III-2, dexterity: II-2, reflexes: II-2, vigor: III-2,
         acuity: II-2}}
"""
    scenario = parse_scenario(text, str(tmp_path / "net.yaml"), base=tmp_path)
    app = App(scenario=scenario, controls={"Kyr": "human", "Crew": "ai"}, size=(1280, 800))
    screen = acting(app, who="Kyr")
    click(cell_px(screen, screen.session.view().unit("Chuk").cell))
    frames(app, 2)
    m = screen.attack
    assert m is not None
    names = [t.split(":")[0][3:] for t, _ in screen.attack_lines(screen.session.view())[0][1:]]
    for want in ("blow (staff, lethal)", "blow (staff, non-lethal)", "entangle (net)", "trip (staff)"):
        assert want in names, names
    i = names.index("entangle (net)")
    odds = screen.session.battle.odds(m.options[i].action)
    assert f"success {odds.success:.0%}" in screen.attack_lines(screen.session.view())[0][i + 1][0]
    press(pygame.K_1 + i)
    frames(app, 4)
    grapples = [e for e in screen.session.battle.log.events if e.actor == "Kyr-1" and "R-7.6" in e.rules]
    assert grapples
    chuk = screen.session.view().unit("Chuk")
    assert chuk.melee.entangled_by == "Kyr-1" and "N" in marks(chuk)  # seed 3: the net holds
    app.close()
