"""A board people can read (issue 10): legible miniatures, a clean font, side colours, the unit card as a card
with the rules' words explained, a layout that follows the window, the attack menu beside its target, and
screenshots at 1280x800 and 900x600 checked. Driven by posted events under SDL's dummy driver."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pygame
import pytest

from skirmish.content.scenario import Scenario, SideSpec, default_scenario_path, load_scenario, parse_scenario
from skirmish.ecs.view import UnitView
from skirmish.ui.app import App
from skirmish.ui.art import CT_BLUE, PAPER, WOUND, side_colour_map
from skirmish.ui.battle import BattleScreen
from skirmish.ui.board import LABEL_MIN, MARKS, Board, Overlays, marks
from skirmish.ui.camera import LEGIBLE_TILE, Camera
from skirmish.ui.frame import PANEL_MAX, PANEL_MIN, TOP_H, panel_width
from skirmish.ui.panels import GLOSSARY, GLOSSARY_SHORT, draw_unit_card, glossary_tip
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import ACCENT, ELLIPSIS, PANEL_BG, PANEL_EDGE, Fonts, elide, fit_parts, place_beside
from tests.test_ui import DUEL, TRAITS, _screen_pos
from tests.ui_helpers import click, frames, near, press

ROOT = Path(__file__).resolve().parents[1]
BLUE = (60, 120, 210)
RED = (206, 70, 60)


pytestmark = pytest.mark.usefixtures("isolated_config")


def _duel(tmp_path: Path, text: str = DUEL) -> Scenario:
    return parse_scenario(text, str(tmp_path / "duel.yaml"), base=tmp_path)


def _watch(size: tuple[int, int], scenario: Scenario | None = None) -> tuple[App, BattleScreen]:
    app = App(scenario=scenario or load_scenario(default_scenario_path()), settings=Settings(speed=8.0), size=size)
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    return app, screen


def _shot(app: App, path: Path) -> pygame.Surface:
    return pygame.image.load(str(app.screenshot(path)))


def _edges_clean(shot: pygame.Surface, screen: BattleScreen) -> None:
    """No text runs into the header's right end (where the side panel starts) or off the window's right edge."""
    panel = screen.panel_rect()
    for x in range(panel.x - 6, panel.x):
        for y in range(1, TOP_H - 2):
            assert shot.get_at((x, y))[:3] == PANEL_BG, ("header text runs into the panel", x, y)
    w = shot.get_width()
    for y in range(shot.get_height()):
        for x in (w - 3, w - 2):
            assert shot.get_at((x, y))[:3] in (PANEL_BG, PANEL_EDGE), ("text clipped at the window's edge", x, y)


# ---------------------------------------------------------------------------------------------- 1. miniatures
def test_miniatures_are_legible_at_the_default_zoom(tmp_path: Path) -> None:
    """On the 40x30 depot at 1280x800 a cell is at least 28 px, tokens 24 px across with labels of 11 px or
    more, every miniature of both squads is in view, and each shows its side's colour, its label and the
    white facing wedge."""
    app, screen = _watch((1280, 800))
    frames(app, 2)
    board = screen.board
    assert board.cam.tile >= LEGIBLE_TILE
    r = board.token_radius()
    assert 2 * r >= 24 and board.label_px() >= LABEL_MIN >= 11
    shot = _shot(app, tmp_path / "start.png")
    view = screen.session.view()
    for u in view.units:
        x, y = _screen_pos(screen, u.cell)
        assert screen.board_rect().collidepoint(x, y + r) and screen.board_rect().collidepoint(x, y - r), u.name
        colour = board.colour_of(u)
        dx = 1 if u.facing[0] < 0 else -1  # the lower corner away from the facing wedge (south-west: lower left)
        assert near(shot.get_at((x + dx * r * 47 // 100, y + r * 47 // 100)), colour, 60), (u.name, "side colour")
        whites = sum(min(shot.get_at((x + dx, y + dy))[:3]) > 225 for dx in range(-r // 2, r // 2 + 1)
                     for dy in range(-r // 3, r // 3 + 1))
        assert whites >= 8, (u.name, "label")
        fx, fy = u.facing
        n = (fx * fx + fy * fy) ** 0.5
        tip = (round(x + fx / n * r * 1.3), round(y + fy / n * r * 1.3))
        if screen.board_rect().collidepoint(tip):  # (a wedge pointing off the board is under the bars)
            assert near(shot.get_at(tip), PAPER, 40), (u.name, "facing wedge", shot.get_at(tip))
    app.close()


def _board_with(view_units: list[UnitView], tmp_path: Path) -> tuple[Board, pygame.Surface]:
    scen = load_scenario(default_scenario_path())
    fonts = Fonts()
    board = Board(scen.grid, fonts, 600, 400, colours={"Raiders": RED, "Guards": BLUE})
    board.cam.tile = 32
    board.cam.look_at(view_units[0].cell)
    surf = pygame.Surface((600, 400))
    from skirmish.battle import Battle

    view = Battle(scen, 7).view()
    view = dataclasses.replace(view, units=tuple(view_units))
    board.draw(surf, view, Overlays(), {})
    return board, surf


def test_fallen_miniatures_lie_down_without_status_letters(tmp_path: Path) -> None:
    """Out of action: no "P" (or any letter) beside it; it lies on its side, greyed; a dead one carries a red
    badge with a cross. A standing wounded one carries a red badge with its wounds and a CT bar."""
    from skirmish.battle import Battle

    scen = load_scenario(default_scenario_path())
    units = list(Battle(scen, 7).view().units)
    standing = dataclasses.replace(units[0], cell=(6, 4), wounds=2, ct=units[0].ct_max - 5, facing=(1, 0))
    down = dataclasses.replace(units[1], cell=(9, 4), out_of_action=True, prone=True)
    dead = dataclasses.replace(units[2], cell=(12, 4), out_of_action=True, prone=True, dead=True)
    assert marks(down) == "" and marks(dead) == ""
    assert marks(dataclasses.replace(units[1], prone=True)) == "P"
    board, surf = _board_with([standing, down, dead], tmp_path)
    r = board.token_radius()

    def at(cell: tuple[int, int], dx: float, dy: float) -> tuple[int, int, int]:
        x, y = board.cam.centre(cell)
        return tuple(surf.get_at((round(x + dx), round(y + dy)))[:3])  # type: ignore[return-value]

    # standing: facing right, the wedge on the right rim; wounds badge on the other shoulder; CT bar below
    assert near(at((6, 4), r * 1.3, 0), PAPER, 40)
    assert near(at((6, 4), -r * 0.78, -r * 0.78), WOUND, 40) or near(at((6, 4), -r * 0.78, -r * 0.95), WOUND, 40)
    assert any(near(at((6, 4), dx, r + 4), CT_BLUE, 40) for dx in range(-r, 0))
    # fallen: the upper part of where a standing disc would be is bare ground, and nothing sits to its right
    ground = at((9, 5), 0, 0)
    for cell in ((9, 4), (12, 4)):
        assert not near(at(cell, 0, -r * 0.8), BLUE if cell == (9, 4) else RED, 80)
        assert not any(at(cell, r + 6 + dx, 0) == (10, 10, 14) for dx in range(12)), "a status plate"
    assert ground != (10, 10, 14)
    # the dead one has a dark red badge, the one merely out of action has none
    x, y = board.cam.centre((12, 4))
    reds = sum(near(tuple(surf.get_at((x + dx, y + dy))[:3]), (120, 22, 22), 30)
               for dx in range(-r, 2 * r) for dy in range(-r, r))
    x, y = board.cam.centre((9, 4))
    reds_down = sum(near(tuple(surf.get_at((x + dx, y + dy))[:3]), (120, 22, 22), 30)
                    for dx in range(-r, 2 * r) for dy in range(-r, r))
    assert reds >= 10 and reds_down == 0


def test_help_overlay_explains_the_marks_and_abbreviations(tmp_path: Path) -> None:
    app, screen = _watch((900, 600))
    frames(app, 1)
    press(pygame.K_h, "h")
    frames(app, 1)
    assert screen.show_help
    text = " ".join(" ".join(t for col in screen.help_columns(860, 2) for _, t, _ in col).split())
    for letter, meaning in MARKS:
        assert f"{letter} {meaning}" in text
    for abbr, short in GLOSSARY_SHORT:
        assert f"{abbr} {short}" in text
    assert {a for a, _ in GLOSSARY} == {a for a, _ in GLOSSARY_SHORT} == {"TN", "CT", "PN", "AV", "CF", "RD", "W"}
    assert "out of action" in text and "dead" in text and "wedge" in text
    shot = _shot(app, tmp_path / "help.png")
    assert sum(shot.get_at((x, y))[:3] == ACCENT for x in range(0, 900, 3) for y in range(0, 600, 3)) > 50
    app.close()


# ---------------------------------------------------------------------------------------------- 2. the font
def _largest_gap(img: pygame.Surface) -> int:
    """The widest run of blank pixel columns between the first and last inked column."""
    w, h = img.get_size()
    ink = [any(img.get_at((x, y))[3] > 60 for y in range(h)) for x in range(w)]
    xs = [x for x, v in enumerate(ink) if v]
    best = run = 0
    for x in range(xs[0], xs[-1] + 1):
        run = 0 if ink[x] else run + 1
        best = max(best, run)
    return best


def test_the_font_renders_small_words_without_gaps() -> None:
    """Source Sans Pro from its package (not pygame's fallback), and at the smallest sizes the board uses no
    word breaks apart ("ac tion", "Raid er"): no blank run wider than 2 px inside a word."""
    fonts = Fonts()
    assert fonts.bundled and fonts.paths[False] and "SourceSansPro" in fonts.paths[False]
    for font in (fonts.small, fonts.normal, fonts.font(LABEL_MIN, bold=True)):
        for word in ("action", "Raider", "declared", "Initiative", "waiting"):
            gap = _largest_gap(font.render(word, True, (255, 255, 255)))
            assert gap <= 2, (word, font.get_height(), gap)
    assert fonts.fix("→ − …") == "→ − …"  # the font has these signs: no ASCII stand-ins
    assert fonts.fix("▸") == "+"  # one it lacks


# ---------------------------------------------------------------------------------------------- 3. colours
def test_a_side_named_blue_listed_first_is_drawn_blue(tmp_path: Path) -> None:
    app, screen = _watch((1100, 700), _duel(tmp_path))
    frames(app, 2)
    shot = _shot(app, tmp_path / "duel.png")
    r = screen.board.token_radius()
    for name, colour in (("Blue-1", BLUE), ("Red-1", RED)):
        x, y = _screen_pos(screen, screen.session.view().unit(name).cell)
        assert near(shot.get_at((x - r * 47 // 100, y + r * 47 // 100)), colour, 60), name
    panel = screen.panel_rect()  # the tracker's swatches, in file order
    from skirmish.ui.panels import TITLE_H, TRACKER_LINE

    assert near(shot.get_at((panel.x + 12, TITLE_H + 9)), BLUE, 60)
    assert near(shot.get_at((panel.x + 12, TITLE_H + TRACKER_LINE + 9)), RED, 60)
    app.close()
    named = side_colour_map([SimpleNamespace(name="Alpha", colour="green"), SimpleNamespace(name="Blue Team"), "Red"])
    assert named == {"Alpha": (90, 170, 90), "Blue Team": BLUE, "Red": RED}
    if "colour" in SideSpec.model_fields:  # once scenarios carry `colour:`
        text = DUEL.replace("  - name: Red\n", "  - name: Red\n    colour: green\n")
        scen = _duel(tmp_path, text)
        assert side_colour_map(scen.spec.sides)["Red"] == (90, 170, 90)


# ---------------------------------------------------------------------------------------------- 4. unit card
def test_unit_card_is_a_card_with_the_rules_words(tmp_path: Path) -> None:
    """Portrait token in the side's colour, wound boxes (taken ones red), the weapon, armour on a body diagram
    with each location's AV, and tooltips with the rules' words on the card and on log lines."""
    from skirmish.battle import Battle

    scen = load_scenario(default_scenario_path())
    u = Battle(scen, 7).view().unit("Guard-4")  # hardshell and greaves
    u = dataclasses.replace(u, wounds=2)
    fonts = Fonts()
    surf = pygame.Surface((300, 260))
    rect = pygame.Rect(0, 0, 300, 244)
    tips = draw_unit_card(surf, fonts, rect, u, BLUE)
    assert near(surf.get_at((8 + 16 - 8, 8 + 16 + 6)), BLUE, 60)  # portrait
    texts = [t for _, t in tips]
    for loc, _, av in u.armour:
        assert any(t.startswith(f"{loc.replace('_', ' ')}: AV {av}") for t in texts), loc
    assert any("no armour" in t for t in texts) or len(u.armour) == 8
    wound_tip = next(r for r, t in tips if "of 6 wounds" in t)
    boxes = [surf.get_at((wound_tip.x + 5 + 13 * i + (4 if i >= 4 else 0), wound_tip.y + 5))[:3] for i in range(6)]
    assert [b == WOUND for b in boxes] == [True, True, False, False, False, False]
    assert any("concussion track" in t for t in texts) and any("penetration" in t for t in texts)
    assert glossary_tip("Raider-3 → Guard-4: 21 vs TN 6 HIT 2W 1CT") is not None
    tip = glossary_tip("Raider-3 → Guard-4: 21 vs TN 6 HIT 2W 1CT") or ""
    assert "target number" in tip and "wounds" in tip and "concussion" in tip
    assert glossary_tip("Raider-2 waits: enemy_in_view") is None

    # on the board: hovering the card's armour shows its tooltip
    app, screen = _watch((1280, 800))
    frames(app, 2)
    click(_screen_pos(screen, screen.session.view().unit("Guard-4").cell))
    frames(app, 2)
    assert screen.selected == "Guard-4"
    chest = next(r for r, t in screen._tips if t.startswith("chest"))
    panel = screen.panel_rect()

    def accent(shot: pygame.Surface) -> int:
        return sum(shot.get_at((x, y))[:3] == ACCENT for x in range(panel.x - 300, panel.right, 2)
                   for y in range(0, 800, 2))

    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(100, 100), rel=(0, 0), buttons=(0, 0, 0)))
    frames(app, 1)
    before = accent(_shot(app, tmp_path / "no_tip.png"))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=chest.center, rel=(0, 0), buttons=(0, 0, 0)))
    frames(app, 1)
    assert accent(_shot(app, tmp_path / "tip.png")) > before + 60
    app.close()


# ---------------------------------------------------------------------------------------------- 5. layout
def test_window_resize_refits_panel_header_and_board(tmp_path: Path) -> None:
    """A resize to 900x600: the panel takes its share (not 40%), the header is fitted without cutting a word,
    and the board frames the action again at a legible zoom even after zooming out."""
    app, screen = _watch((1280, 800))
    frames(app, 2)
    assert screen.panel_rect().w == panel_width(1280) <= PANEL_MAX
    for _ in range(8):  # zoom all the way out first
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    frames(app, 1)
    assert screen.board.cam.tile < LEGIBLE_TILE
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=900, h=600, size=(900, 600)))
    frames(app, 2)
    assert app.window.get_size() == (900, 600) and screen.size == (900, 600)
    panel = screen.panel_rect()
    assert panel.w == PANEL_MIN and panel.w / 900 < 0.34
    cam = screen.board.cam
    assert (cam.view_w, cam.view_h) == (900 - panel.w, 600 - TOP_H - 40)
    assert cam.tile >= LEGIBLE_TILE
    acting = screen.acting or screen.session.view().units[0].name
    assert cam.shows(screen.session.view().unit(acting).cell, 0.0) or screen.acting is None
    shot = _shot(app, tmp_path / "small.png")
    _edges_clean(shot, screen)
    view = screen.session.view()
    full = screen.header_text(view, 10_000)
    fitted = screen.header_text(view, 250)
    assert screen.fonts.width(screen.fonts.normal, fitted) <= 250
    assert fitted.endswith(ELLIPSIS) and fitted[:-1].split()[-1] in full.split()  # cut after a whole word
    app.close()


def test_elide_never_cuts_a_word() -> None:
    fonts = Fonts()
    f = fonts.normal
    text = "Depot breach · seed 7 · round 12 · phase III · Raider-3 acting · 8x playing"
    for width in range(60, 600, 7):
        out = elide(f, text, width)
        assert fonts.width(f, out) <= width
        if out != text:
            assert out.endswith(ELLIPSIS)
            words = out[:-1].split()
            assert not words or words == text.split()[:len(words)] or words[-1] in text.split()
    assert "seed" not in fit_parts(f, ["Depot breach", "seed 7", "round 12", "8x playing"], 260, drop=(1,))


def test_camera_frames_the_action_and_keeps_the_acting_miniature_in_view() -> None:
    cam = Camera(40, 30, 620, 532)
    cam.fit_cells([(6, 2), (33, 27)])
    assert cam.tile >= LEGIBLE_TILE
    assert cam.bring_into_view((35, 27)) and cam.shows((35, 27), 0.0)
    assert not cam.bring_into_view((35, 27))
    small = Camera(12, 6, 792, 632)
    small.fit_cells([(1, 1), (9, 0)])
    assert small.tile * 12 <= 792 and small.tile >= LEGIBLE_TILE  # a small map is shown whole


def test_attack_menu_opens_beside_the_target_inside_the_window(tmp_path: Path) -> None:
    app = App(scenario=_duel(tmp_path), controls={"Blue": "human", "Red": "ai"}, size=(1100, 700))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    frames(app, 3)
    press(pygame.K_2, "2")
    frames(app, 5)
    target = _screen_pos(screen, (9, 0))
    click(target)
    frames(app, 2)
    m = screen.attack
    assert m is not None and m.target == "Red-1" and m.rows
    r = screen.board.token_radius()
    token = pygame.Rect(target[0] - r, target[1] - r, 2 * r, 2 * r)
    assert not m.rect.colliderect(token), (m.rect, token)
    assert pygame.Rect(0, 0, 1100, 700).contains(m.rect) and screen.board_rect().contains(m.rect)
    app.close()
    # place_beside falls back to the other sides of the target near the edges
    bounds = pygame.Rect(0, 0, 800, 600)
    for tgt in (pygame.Rect(770, 300, 20, 20), pygame.Rect(10, 300, 20, 20), pygame.Rect(390, 5, 20, 20)):
        placed = place_beside((400, 200), tgt, bounds)
        assert bounds.contains(placed) and not placed.colliderect(tgt)


def test_without_line_of_sight_the_attack_menu_shows_one_refusal(tmp_path: Path) -> None:
    blocked = DUEL.replace('''map: {ascii: ["............",
               "............",
               "....#.......",
               "....#.......",
               "............",
               "............"]}''', '''map: {ascii: ["......#.....",
               "......#.....",
               "......#.....",
               "......#.....",
               "......#.....",
               "......#....."]}''')
    assert blocked != DUEL and TRAITS in blocked
    app = App(scenario=_duel(tmp_path, blocked), controls={"Blue": "human", "Red": "ai"}, size=(1100, 700))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    frames(app, 3)
    press(pygame.K_2, "2")
    frames(app, 5)
    click(_screen_pos(screen, (9, 0)))
    frames(app, 2)
    # Out of sight the enemy is a ghost on Blue's board (at its known cell): no target, so no menu of refusals,
    # one line saying so (fix9: a ghost is not a target).
    assert [u.ghost for u in screen.view_now().units if u.side == "Red"] == [True]
    assert screen.attack is None
    assert sum("not in sight" in t.text for t in screen.toasts) == 1
    app.close()


# ---------------------------------------------------------------------------------------------- 6. screenshots
def _screenshots_tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "tools" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("size", [(1280, 800), (900, 600)])
def test_board_screenshots_read_well(tmp_path: Path, size: tuple[int, int]) -> None:
    """The docs' pictures, taken by tools/screenshots.py into a temporary folder: tokens at least 24 px, no text
    cut at the header's end or the window's edge, the selected miniature's card drawn."""
    tool = _screenshots_tool()
    app = tool.board_app(size, steps=12, more=0)
    try:
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        shot = _shot(app, tmp_path / f"board-{size[0]}x{size[1]}.png")
        assert shot.get_size() == size
        assert screen.board.cam.tile >= LEGIBLE_TILE and 2 * screen.board.token_radius() >= 24
        _edges_clean(shot, screen)
        assert screen.selected is not None and screen._tips  # the card is drawn with its tooltips
        shown = [u for u in screen.session.view().units if screen.board.cam.shows(u.cell, 0.0)]
        assert shown
        for u in shown:
            if u.out_of_action:
                continue
            x, y = _screen_pos(screen, u.cell)
            r = screen.board.token_radius()
            dx = 1 if u.facing[0] < 0 else -1  # the lower corner away from the facing wedge (south-west: lower left)
            assert near(shot.get_at((x + dx * r * 47 // 100, y + r * 47 // 100)), screen.board.colour_of(u), 60), u.name
    finally:
        app.close()
