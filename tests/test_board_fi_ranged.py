"""The Future Imperfect board's rest of ranged combat (issue 14), driven by posted events under SDL_VIDEODRIVER=dummy:
a split burst put together from the attack menu (S, click a second enemy, each target's odds from Battle.odds, Enter
fires), launch mode (L: the burst and its odds under the pointer, a click launches), covering fire (K: the area under
the pointer, K again the volume, a click declares it; the covered area stays drawn while it holds, in the covering
side's view only), the off hand's shots in the attack menu (two weapons), and the story chips in the menu's head."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.rules.actions import Launch, Shoot
from skirmish.ui.app import App
from skirmish.ui.fi_ranged import COVER_C, area_cells, draw_covered
from tests.ui_helpers import acting, cell_px, click, events_of, frames, hover, press

TRAITS = "{strength: III-2, dexterity: V-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
ROWS = ["................", "................", "................", "................", "................"]


pytestmark = pytest.mark.usefixtures("isolated_config")


def _scenario(tmp_path: Path, me: str, options: str = "{}") -> Scenario:
    text = f"""
name: ranged board
seed: 2
ruleset: fi
options: {options}
map: {{ascii: {ROWS!r}}}
victory: {{max_rounds: 3}}
sides:
  - name: Crew
    controller: ai
    units:
      - {{name: Me, at: [1, 2], traits: {TRAITS}, {me}}}
  - name: Kyr
    controller: idle
    units:
      - {{name: Kyr-1, at: [7, 1], traits: {TRAITS}}}
      - {{name: Kyr-2, at: [8, 3], traits: {TRAITS}}}
      - {{name: Kyr-3, at: [12, 2], traits: {TRAITS}}}
"""
    return parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)


def _tint(px: tuple[int, ...], base: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    """`px` has moved from `base` towards `colour` (a translucent shade drawn over it)."""
    before = sum(abs(a - b) for a, b in zip(base[:3], colour, strict=True))
    after = sum(abs(a - b) for a, b in zip(px[:3], colour, strict=True))
    return after < before - 15


def test_a_split_burst_from_the_attack_menu_with_each_targets_odds(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path, "weapons: [blast_rifle], skills: {'shooting:rifle': 5}"),
              controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    view = screen.session.view()
    click(cell_px(screen, view.unit("Kyr-1").cell))
    frames(app, 2)
    assert screen.attack is not None and "S split" in screen.attack_lines(screen.view_now())[0][0][0]
    press(pygame.K_s)
    frames(app, 2)
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    assert modes.mode == "split" and screen.attack is None and modes.split.targets == ["Kyr-1"]
    k2 = cell_px(screen, view.unit("Kyr-2").cell)
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    click(k2)
    frames(app, 2)
    assert modes.split.targets == ["Kyr-1", "Kyr-2"] and modes.split.burst == 5
    odds = screen.session.battle.odds(Shoot("Me", "Kyr-1", mode="prepared", burst=5, also=("Kyr-2",)))
    single = screen.session.battle.odds(Shoot("Me", "Kyr-2", mode="prepared", burst=3))
    assert [name for name, _ in odds.per] == ["Kyr-1", "Kyr-2"]
    assert odds.per[1][1].hit < single.hit  # the second target +2 TN and fewer dice
    lines = [text for text, _ in modes.lines()]
    assert lines[1] == f"1 Kyr-1: {odds.per[0][1].label()}" and lines[2] == f"2 Kyr-2: {odds.per[1][1].label()}"
    shot = pygame.image.load(str(app.screenshot(tmp_path / "split.png")))
    r = max(6, screen.board.cam.tile // 2)  # the second target is ringed in the accent colour
    assert any(_tint(shot.get_at((k2[0] + d, k2[1])), before.get_at((k2[0] + d, k2[1])), (255, 210, 90))
               for d in range(r - 4, r + 2))
    press(pygame.K_b)  # burst 3 (the blast rifle's 3 and 5)
    frames(app, 1)
    assert modes.split.burst == 3
    press(pygame.K_RETURN)
    frames(app, 40)
    attacks = [e for e in screen.session.battle.log.events if e.type == "attack" and e.actor == "Me"]
    assert [e.target for e in attacks] == ["Kyr-1", "Kyr-2"] and modes.mode is None


def test_launch_mode_shows_the_burst_and_its_odds_and_a_click_launches(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path, "weapons: [grenade_launcher], skills: {'shooting:launcher': 3}"),
              controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    aim = (8, 2)
    hover(cell_px(screen, aim))
    frames(app, 2)
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    press(pygame.K_l)
    frames(app, 2)
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    assert modes.mode == "launch"
    odds = screen.session.battle.odds(Launch("Me", aim))
    assert modes.lines()[1][0] == f"8,2: {odds.label()}" and 0 < odds.on_target < 1
    shot = pygame.image.load(str(app.screenshot(tmp_path / "launch.png")))
    x, y = cell_px(screen, aim)
    x -= screen.board.cam.tile // 2 + 2  # inside the burst's shaded radius, off the cell's outline
    assert _tint(shot.get_at((x, y)), before.get_at((x, y)), (255, 150, 40))
    click(cell_px(screen, aim))
    frames(app, 60)
    launches = events_of(screen, "launch")
    assert len(launches) == 1 and launches[0].actor == "Me" and launches[0].at == [8, 2] and modes.mode is None
    assert events_of(screen, "blast")


def test_covering_fire_is_chosen_declared_and_drawn_while_it_holds_in_its_sides_view_only(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path, "weapons: [blast_rifle], skills: {'shooting:rifle': 5}"),
              controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    centre = (4, 2)
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png")))
    press(pygame.K_k)
    frames(app, 1)
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    assert (modes.mode, modes.cover_burst) == ("cover", 0)
    press(pygame.K_k)
    frames(app, 1)
    assert modes.cover_burst == 3  # the volume: single shots, then the blast rifle's bursts
    hover(cell_px(screen, centre))
    frames(app, 2)
    assert "II-2" in modes.lines()[1][0]  # burst 3 is volume 2: read at II-2
    shot = pygame.image.load(str(app.screenshot(tmp_path / "area.png")))
    cells = area_cells(centre, 2.0, screen.session.scenario.grid.cell_m)
    assert sorted(cells) == sorted([centre, (3, 2), (5, 2), (4, 1), (4, 3)])
    x, y = cell_px(screen, (4, 1))
    assert _tint(shot.get_at((x + 3, y + 3)), before.get_at((x + 3, y + 3)), COVER_C)
    x, y = cell_px(screen, (3, 1))  # the corner cell is not in the 2 m area
    assert not _tint(shot.get_at((x + 3, y + 3)), before.get_at((x + 3, y + 3)), COVER_C)
    click(cell_px(screen, centre))
    frames(app, 5)
    assert events_of(screen, "cover")[0].at == [4, 2] and modes.mode is None
    battle = screen.session.battle
    assert battle.view().unit("Me").covering == (4, 2, 3)
    assert battle.observe("Crew").unit("Me").covering == (4, 2, 3)
    assert battle.observe("Kyr").unit("Me").covering is None  # an intention: not in the enemy's view
    press(pygame.K_e)
    frames(app, 3)
    hover(cell_px(screen, (15, 4)))
    frames(app, 2)
    held = pygame.image.load(str(app.screenshot(tmp_path / "held.png")))
    colour = screen.board.colours["Crew"]
    x, y = cell_px(screen, (4, 3))
    assert _tint(held.get_at((x + 3, y + 3)), before.get_at((x + 3, y + 3)), colour)
    blank = pygame.Surface(screen.board_rect().size)  # drawn from the enemy's view: nothing
    modes.draw_board(blank, battle.observe("Kyr"), screen.board.colours)
    assert pygame.transform.average_color(blank)[:3] == (0, 0, 0)
    own = pygame.Surface(screen.board_rect().size)  # from its own side's (as the replay viewer draws it): the area
    draw_covered(own, screen.board.cam, screen.fonts, battle.observe("Crew"), screen.board.colours)
    x, y = screen.board.cam.centre((4, 3))
    assert _tint(own.get_at((x + 3, y + 3)), (0, 0, 0), colour)


def test_the_off_hands_shots_are_in_the_attack_menu_of_a_unit_with_two_weapons(tmp_path: Path) -> None:
    me = "weapons: [blast_pistol, slug_pistol], skills: {'shooting:pistol': 3}, two_weapons: true"
    app = App(scenario=_scenario(tmp_path, me), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    click(cell_px(screen, screen.session.view().unit("Kyr-1").cell))
    frames(app, 2)
    assert screen.attack is not None
    opts = screen.attack.options
    off = [i for i, o in enumerate(opts) if isinstance(o.action, Shoot) and o.action.hand == "off"]
    main = next(o for o in opts if isinstance(o.action, Shoot) and o.action.mode == "snap" and not o.action.hand
                and not o.action.burst and not o.action.double_tap)
    assert len(off) == 5 and opts[off[0]].odds is not None and main.odds is not None  # 3 modes, 2 double taps
    assert opts[off[0]].odds.hit < main.odds.hit  # the off hand: -4 more
    lines = [text for text, _ in screen.attack_lines(screen.view_now())[0]]
    assert any(text.startswith(f"{off[0] + 1}  off hand snap: hit") for text in lines)
    press(pygame.K_1 + off[0])
    frames(app, 40)
    attack = next(e for e in screen.session.battle.log.events if e.type == "attack" and e.actor == "Me")
    assert attack.weapon == "slug_pistol"  # fired from the other hand


def test_two_guns_absent_no_off_hand_lines_and_the_chips_show_in_the_menus_head(tmp_path: Path) -> None:
    app = App(scenario=_scenario(tmp_path, "weapons: [blast_rifle], skills: {'shooting:rifle': 5}",
                                 options="{chips: true}"),
              controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = acting(app)
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    seen = []
    for _ in range(4):  # K: single shots, burst 3, burst 5 (the blast rifle's), then off
        press(pygame.K_k)
        frames(app, 1)
        seen.append((modes.mode, modes.cover_burst) if modes.mode else None)
    assert seen == [("cover", 0), ("cover", 3), ("cover", 5), None]
    press(pygame.K_l)  # no launcher in hand: launch mode is refused
    frames(app, 1)
    assert modes.mode is None
    click(cell_px(screen, screen.session.view().unit("Kyr-1").cell))
    frames(app, 2)
    assert screen.attack is not None
    assert not any(isinstance(o.action, Shoot) and o.action.hand for o in screen.attack.options)
    head = screen.attack_lines(screen.view_now())[0][0][0]
    assert "chips" in head and ": spend (X)" in head
    press(pygame.K_x)  # X in the menu: this side keeps its chips; the menu stays open and says so
    frames(app, 2)
    assert screen.attack is not None and ": keep (X)" in screen.attack_lines(screen.view_now())[0][0][0]
    assert [e.policy for e in events_of(screen, "chip_policy")] == ["keep"]
