"""The scenario editor on the board, driven by posted events under SDL's dummy driver with screenshots checked
(issue 15, item 2): paint, rectangle, fill, undo and redo, place and move a unit, an invalid edit shown in the
problems panel, save and load back identical, Save As for a shipped scenario, test play and back, help, and the
start menu's Edit entry and file lists."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.content.tiled import shipped_tileset
from skirmish.ui.app import App
from skirmish.ui.art import tile_surface
from skirmish.ui.battle import BattleScreen
from skirmish.ui.editor import EditorScreen
from skirmish.ui.editor.dialog import PathDialog
from skirmish.ui.layout import layout_problems
from skirmish.ui.screens import MenuScreen
from skirmish.ui.settings import Settings, load_settings
from tests.ui_helpers import click, frames, press, type_text

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
DUEL = f"""
name: Duel
seed: 4
map: {{ascii: ["............",
               "............",
               "....#.......",
               "....#.......",
               "............",
               "............"], name: Yard}}
victory: {{eliminate: true, max_rounds: 3}}
sides:
  - name: Blue
    colour: blue
    units:
      - {{name: Blue-1, at: [1, 1], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}
  - name: Red
    colour: red
    units:
      - {{name: Red-1, at: [9, 4], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}
"""
TILES = shipped_tileset()[0]


def _tile(name: str) -> int:
    return next(i for i, t in enumerate(TILES) if t.name == name)


pytestmark = pytest.mark.usefixtures("isolated_config")


def _down(pos: tuple[int, int], button: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))


def _up(pos: tuple[int, int], button: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def _move(pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 1), buttons=(1, 0, 0)))


def _shot(app: App) -> pygame.Surface:
    return app.window.copy()


def _centre(ed: EditorScreen, cell: tuple[int, int]) -> tuple[int, int]:
    return ed.view.rect_of(cell).center


def _texts(ed: EditorScreen) -> str:
    return "\n".join(t for t, _ in ed.page.lines)


def _tile_pixel(ed: EditorScreen, cell: tuple[int, int], name: str) -> tuple[int, int, int]:
    """The pixel the map shows at a cell's centre when the cell is of terrain `name`."""
    img = tile_surface(TILES[_tile(name)], ed.view.tile, (cell[0] * 7 + cell[1] * 13) % 3)
    c = ed.view.tile // 2
    return tuple(img.get_at((c, c)))[:3]  # type: ignore[return-value]


def _open(app: App, tmp_path: Path, text: str = DUEL) -> EditorScreen:
    path = tmp_path / "duel.yaml"
    path.write_text(text, encoding="utf-8")
    ed = app.open_editor(path)
    frames(app, 2)
    return ed


def test_paint_rectangle_fill_undo_and_redo_show_on_the_map(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    cell = (7, 1)
    at = _centre(ed, cell)
    assert tuple(_shot(app).get_at(at))[:3] == _tile_pixel(ed, cell, "floor")
    press(pygame.K_b)
    click(ed.panels.palette[_tile("water")][0].center)  # a click on the palette picks a tile
    click(at)
    frames(app)
    assert int(ed.doc.layout[1, 7]) == _tile("water")
    assert tuple(_shot(app).get_at(at))[:3] == _tile_pixel(ed, cell, "water")
    # a brush stroke dragged over three cells is one undo step
    _down(_centre(ed, (6, 5)))
    _move(_centre(ed, (7, 5)))
    _move(_centre(ed, (8, 5)))
    _up(_centre(ed, (8, 5)))
    frames(app)
    assert [int(ed.doc.layout[5, x]) for x in (6, 7, 8)] == [_tile("water")] * 3
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert [int(ed.doc.layout[5, x]) for x in (6, 7, 8)] == [_tile("floor")] * 3
    assert int(ed.doc.layout[1, 7]) == _tile("water")
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert tuple(_shot(app).get_at(at))[:3] == _tile_pixel(ed, cell, "floor")
    press(pygame.K_y, mod=pygame.KMOD_CTRL)
    frames(app)
    assert tuple(_shot(app).get_at(at))[:3] == _tile_pixel(ed, cell, "water")
    # rectangle: drag corner to corner
    press(pygame.K_r)
    press(pygame.K_1 + _tile("crate"))  # 1-9: the palette's first nine tiles
    _down(_centre(ed, (0, 4)))
    _move(_centre(ed, (2, 5)))
    _up(_centre(ed, (2, 5)))
    frames(app)
    assert (ed.doc.layout[4:6, 0:3] == _tile("crate")).all() and int(ed.doc.layout[3, 0]) == _tile("floor")
    assert tuple(_shot(app).get_at(_centre(ed, (1, 5))))[:3] == _tile_pixel(ed, (1, 5), "crate")
    # fill: the floor around the wall becomes rubble, the wall and the crates stay
    press(pygame.K_f)
    press(pygame.K_1 + _tile("rubble"))
    click(_centre(ed, (11, 0)))
    frames(app)
    assert int(ed.doc.layout[0, 11]) == _tile("rubble") and int(ed.doc.layout[2, 4]) == _tile("wall")
    assert int(ed.doc.layout[4, 0]) == _tile("crate") and int(ed.doc.layout[1, 7]) == _tile("water")
    assert tuple(_shot(app).get_at(_centre(ed, (11, 0))))[:3] == _tile_pixel(ed, (11, 0), "rubble")
    # right-click picks a cell's tile
    click(_centre(ed, (4, 2)), button=3)
    frames(app)
    assert ed.tile == _tile("wall")
    # the tool and brush are kept in the settings
    press(pygame.K_RIGHTBRACKET)
    frames(app)
    app.close()
    assert load_settings().editor == {"tool": "fill", "brush": 2, "tile": _tile("wall"), "balance_battles": 20}


def test_place_move_and_delete_a_unit_and_an_invalid_edit_is_shown(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    press(pygame.K_u)
    click(_centre(ed, (2, 4)))  # an empty cell: a new unit of the chosen side (Blue), like its last one
    frames(app)
    assert ed.doc.get(("sides", 0, "units", 1)) == {**ed.doc.get(("sides", 0, "units", 0)), "name": "Blue-2",
                                                    "at": [2, 4]}
    blue = tuple(_shot(app).get_at(_centre(ed, (2, 4))))[:3]
    assert blue == tuple(ed.colours()["Blue"]) and ed.selected == (0, 1) and ed.tab == "unit"
    assert "Blue-2" in _texts(ed)
    # drag it to another cell
    _down(_centre(ed, (2, 4)))
    _move(_centre(ed, (3, 5)))
    _up(_centre(ed, (3, 5)))
    frames(app)
    assert ed.doc.get(("sides", 0, "units", 1, "at")) == [3, 5]
    assert tuple(_shot(app).get_at(_centre(ed, (3, 5))))[:3] == blue
    # an unknown weapon typed into the inspector: the loader's message in the problems panel, naming the key
    weapons = next(r for r, f in ed.panels.fields if f.label == "weapons")
    click(weapons.center)
    frames(app)
    assert ed.editing is not None and ed.panels.choices  # the armoury's weapons are offered
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("[lasrifle]")
    press(pygame.K_RETURN)
    frames(app)
    text = _texts(ed)
    assert "Problems (1)" in text and "sides[0].units[1].weapons[0]: unknown weapon 'lasrifle'" in text
    ed.select(None)
    ed.tab = "scenario"
    frames(app)
    click(ed.panels.problems[0][0].center)  # a click on a problem goes to what it names
    frames(app)
    assert ed.selected == (0, 1) and ed.tab == "unit"
    click(next(r for r, f in ed.panels.fields if f.label == "weapons").center)
    frames(app)
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    press(pygame.K_RETURN)  # an empty line unsets it
    frames(app)
    click(next(r for r, f in ed.panels.fields if f.label == "weapons").center)
    frames(app)
    item = next((r, i) for r, i in ed.panels.choices if i == "laser_pistol")
    click(item[0].center)  # a click on the list adds it
    press(pygame.K_ESCAPE)
    frames(app)
    assert ed.doc.get(("sides", 0, "units", 1, "weapons")) == ["laser_pistol"] and "No problems" in _texts(ed)
    # YAML that does not parse stays open with the reason
    click(next(r for r, f in ed.panels.fields if f.label == "skills").center)
    type_text("{oops")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.editing is not None and ed.editing.error and "not valid YAML" in ed.editing.error
    press(pygame.K_ESCAPE)
    # Delete removes the selected unit; Ctrl+Z brings it back
    press(pygame.K_DELETE)
    frames(app)
    assert len(ed.doc.data["sides"][0]["units"]) == 1
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.get(("sides", 0, "units", 1, "name")) == "Blue-2"


def test_save_writes_files_that_load_back_identical(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    click(ed.panels.palette[_tile("door")][0].center)
    click(_centre(ed, (4, 4)))
    frames(app)
    scenario, errors = ed.doc.check()
    assert errors == [] and scenario is not None
    press(pygame.K_s, mod=pygame.KMOD_CTRL)  # a file of the user's: saved in place
    frames(app)
    back = load_scenario(tmp_path / "duel.yaml")
    assert back.spec == scenario.spec and np.array_equal(back.grid.layout, ed.doc.layout)
    assert int(back.grid.layout[4, 4]) == _tile("door") and not ed.doc.dirty


def test_a_shipped_scenario_is_saved_only_as_a_new_file(app: App, tmp_path: Path) -> None:
    path = SCENARIOS_DIR / "depot_breach.yaml"
    before = path.read_bytes()
    ed = app.open_editor(path)
    frames(app, 2)
    click(ed.panels.palette[_tile("water")][0].center)
    click(_centre(ed, (5, 5)))
    press(pygame.K_s, mod=pygame.KMOD_CTRL)
    frames(app, 2)
    assert isinstance(app.screen, PathDialog) and path.read_bytes() == before
    assert app.screen.text == str(tmp_path / "config" / "scenarios" / "depot_breach.yaml")  # the user's folder
    press(pygame.K_RETURN)
    frames(app, 2)
    assert app.screen is ed and path.read_bytes() == before
    mine = tmp_path / "config" / "scenarios"
    assert sorted(p.name for p in mine.iterdir()) == ["depot_breach.yaml", "depot_yard.tmj"]
    saved = load_scenario(mine / "depot_breach.yaml")
    assert int(saved.grid.layout[5, 5]) == _tile("water") and saved.spec == load_scenario(path).spec
    # the menu lists the user's folder
    app.apply(ed.to_menu())
    menu = app.screen
    assert isinstance(menu, MenuScreen)
    assert any(e.group == "mine" and e.path == mine / "depot_breach.yaml" for e in menu.entries)


def test_test_play_opens_the_battle_and_esc_comes_back_to_the_editor(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    press(pygame.K_u)
    click(_centre(ed, (4, 2)))  # on the wall: the scenario does not load, so it cannot be played
    press(pygame.K_t)
    frames(app)
    assert app.screen is ed and "cannot be played" not in _texts(ed)
    assert any("cannot play" in t.text for t in ed.toasts)
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    press(pygame.K_b)
    click(ed.panels.palette[_tile("water")][0].center)
    click(_centre(ed, (6, 5)))  # unsaved: the battle plays it, and a save of the battle records it
    press(pygame.K_t)
    frames(app, 2)
    board = app.screen
    assert isinstance(board, BattleScreen) and board.session.scenario.spec.name == "Duel"
    assert int(board.session.scenario.grid.layout[5, 6]) == _tile("water")
    saved = app.save_battle()
    assert saved is not None
    from skirmish import record

    recorded = record.scenario_of(record.load(saved))
    assert int(recorded.grid.layout[5, 6]) == _tile("water")
    assert int(load_scenario(tmp_path / "duel.yaml").grid.layout[5, 6]) == _tile("floor")  # the file: as it was
    press(pygame.K_ESCAPE)
    frames(app)
    assert app.screen is ed  # the editor as it was
    # H shows the help box over the editor
    plain = _shot(app)
    press(pygame.K_h)
    frames(app)
    assert ed.show_help and _shot(app).get_at(app.window.get_rect().center) != plain.get_at(
        app.window.get_rect().center)


def test_the_menu_lists_subfolders_and_e_opens_the_editor(app: App, tmp_path: Path) -> None:
    menu = app.open_menu(SCENARIOS_DIR / "depot_breach.yaml")
    frames(app)
    groups = {e.group for e in menu.entries}
    assert {"", "fi", "fw", "training"} <= groups and "bench" not in groups
    assert any(e.key == "fi/boarding_action.yaml" for e in menu.entries)
    assert any(b.label.startswith("Edit") for b in menu.buttons.buttons)
    press(pygame.K_e)
    frames(app)
    ed = app.screen
    assert isinstance(ed, EditorScreen) and ed.doc.data["name"] == "Depot breach"
    press(pygame.K_ESCAPE)
    frames(app)
    assert isinstance(app.screen, MenuScreen)
    press(pygame.K_n)  # a new scenario
    frames(app)
    assert isinstance(app.screen, EditorScreen) and app.screen.doc.path is None


def test_zones_drawn_named_and_used_by_an_objective(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    before = _shot(app)
    press(pygame.K_z)
    _down(_centre(ed, (8, 0)))
    _move(_centre(ed, (11, 2)))
    _up(_centre(ed, (11, 2)))
    frames(app)
    assert ed.doc.data["zones"] == {"zone-1": {"rect": [8, 0, 11, 2]}} and ed.zone == "zone-1" and ed.tab == "zones"
    inside = _centre(ed, (10, 1))
    assert _shot(app).get_at(inside) != before.get_at(inside)  # tinted
    assert _shot(app).get_at(_centre(ed, (10, 4))) == before.get_at(_centre(ed, (10, 4)))
    # a polygon: three corners, Enter closes it
    press(pygame.K_p)
    for corner in ((0, 3), (4, 3), (0, 6)):
        x, y = ed.view.origin[0] + corner[0] * ed.view.tile, ed.view.origin[1] + corner[1] * ed.view.tile
        click((x + 1, y + 1))
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.data["zones"]["zone-2"] == {"polygon": [[0, 3], [4, 3], [0, 6]]}
    # an objective naming the zone, then the zone renamed in the zones tab: the objective follows
    ed.doc.set(("sides", 0, "objectives"), [{"kind": "hold", "zone": "zone-1", "rounds": 2}])
    ed.doc.set(("sides", 1, "deployment"), "zone-2")
    ed.select_zone("zone-1")
    frames(app)
    name = next(r for r, f in ed.panels.fields if f.keys == ("@zone", "zone-1"))
    click(name.center)
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("relay")
    press(pygame.K_RETURN)
    frames(app)
    assert list(ed.doc.data["zones"]) == ["relay", "zone-2"]
    assert ed.doc.data["sides"][0]["objectives"] == [{"kind": "hold", "zone": "relay", "rounds": 2}]
    scenario, errors = ed.doc.check()
    assert errors == [] and scenario is not None and (9, 1) in scenario.zones["relay"]
    assert "relay" in _texts(ed)
    # a zone the objective names is deleted: the loader's message names the key
    press(pygame.K_DELETE)
    frames(app)
    assert "sides[0].objectives[0].zone: unknown zone 'relay'" in _texts(ed)
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    press(pygame.K_s, mod=pygame.KMOD_CTRL)
    frames(app)
    back = load_scenario(tmp_path / "duel.yaml")
    assert back.spec == scenario.spec and back.zones == scenario.zones


def test_resize_and_sides_through_the_inspector(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    ed.tab = "scenario"
    frames(app)
    size = next(r for r, f in ed.panels.fields if f.label == "size")
    click(size.center)
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("20x9")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.size == (20, 9) and "20x9" in _texts(ed)
    assert int(ed.doc.layout[8, 19]) == _tile("ground") and int(ed.doc.layout[2, 4]) == _tile("wall")
    click(next(r for r, f in ed.panels.fields if f.label == "size").center)
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("200x9")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.editing is not None and ed.editing.error and "too large" in ed.editing.error
    press(pygame.K_ESCAPE)
    # a third side from the Side tab, named and coloured there
    ed.tab = "side"
    frames(app)
    plus = next(b for b in ed.buttons.buttons if b.label == "+ side")
    click(plus.rect.center)
    frames(app)
    assert len(ed.doc.data["sides"]) == 3 and ed.side == 2
    colour = next(r for r, f in ed.panels.fields if f.label == "colour")
    click(colour.center)
    type_text("green")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.data["sides"][2]["colour"] == "green" and "No problems" in _texts(ed)
    scenario, _ = ed.doc.check()
    assert scenario is not None and [s.name for s in scenario.spec.sides] == ["Blue", "Red", "Side 3"]
    # Shift+T: a person plays the first side
    press(pygame.K_t, mod=pygame.KMOD_SHIFT)
    frames(app)
    board = app.screen
    assert isinstance(board, BattleScreen)
    assert board.session.controls == {"Blue": "human", "Red": "ai", "Side 3": "ai"}


@pytest.mark.parametrize("size", ((900, 600), (1280, 800)))
def test_the_editor_fits_the_window_on_every_tab(size: tuple[int, int]) -> None:
    a = App(size=size, settings=Settings())
    try:
        ed = a.open_editor(SCENARIOS_DIR / "depot_breach.yaml")
        ed.add_zone({"rect": [2, 2, 6, 5]})
        ed.add_trigger()
        ed.select((0, 1))
        for tab in ("scenario", "side", "unit", "zones", "triggers"):
            ed.tab = tab
            frames(a, 1)
            assert layout_problems(ed.page, a.window.get_rect(), ed.buttons.buttons) == [], tab
        ed.tab, ed.side = "side", 0
        ed.add_objective()  # its form unfolded, as the trigger's is
        ed.opened = ("sides", 0, "objectives", len(ed.doc.data["sides"][0]["objectives"]) - 1)
        frames(a, 1)
        assert any(f.label.strip() == "delete this objective" for _, f in ed.panels.fields)
        assert layout_problems(ed.page, a.window.get_rect(), ed.buttons.buttons) == []
        ed.tab = "unit"
        frames(a, 1)
        ed.start_edit(next(f for _, f in ed.panels.fields if f.label == "weapons"))
        frames(a, 1)
        assert len(ed.panels.choices) >= 10  # the equipment list has room
        assert layout_problems(ed.page, a.window.get_rect(), ed.buttons.buttons) == []
    finally:
        a.close()


def test_esc_with_unsaved_changes_asks_twice(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    before = (tmp_path / "duel.yaml").read_bytes()
    press(pygame.K_1 + _tile("wall"))
    click(_centre(ed, (0, 0)))
    frames(app)
    assert ed.doc.dirty and int(ed.doc.layout[0, 0]) == _tile("wall")
    press(pygame.K_ESCAPE)
    frames(app)
    assert app.screen is ed and any("Esc again" in t.text for t in ed.toasts)
    press(pygame.K_ESCAPE)
    frames(app)
    assert isinstance(app.screen, MenuScreen)
    assert (tmp_path / "duel.yaml").read_bytes() == before  # left without saving
