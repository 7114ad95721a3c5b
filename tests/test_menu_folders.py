"""The start menu lists a folder given as a path (issue 15 item 6): `skirmish menu FOLDER` and the Open field
list its scenarios and its subfolders' by name, a bad file listed with its problem shown when selected, the
folder remembered in the settings; a folder with no scenario says so; a path that does not exist exits 2."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.ui.app import App
from skirmish.ui.screens import MenuScreen
from skirmish.ui.screens.menu_state import folder_files, menu_entries
from skirmish.ui.settings import load_settings
from tests.conftest import cli, one_line
from tests.test_editor_board import DUEL
from tests.ui_helpers import frames, press, type_text

pytestmark = pytest.mark.usefixtures("isolated_config")


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "training"
    (root / "hard").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "a_duel.yaml").write_text(DUEL.replace("name: Duel", "name: Alpha duel"), encoding="utf-8")
    (root / "hard" / "z.yml").write_text(DUEL.replace("name: Duel", "name: Zulu duel"), encoding="utf-8")
    (root / "broken.yaml").write_text("name: Broken one\nmap: nowhere.tmj\nsides: []\n", encoding="utf-8")
    (root / ".hidden" / "x.yaml").write_text(DUEL, encoding="utf-8")
    (root / "notes.txt").write_text("not a scenario", encoding="utf-8")
    return root


def _texts(menu: MenuScreen) -> str:
    assert menu.page is not None
    return "\n".join(t for t, _ in menu.page.lines)


def test_menu_folder_lists_its_scenarios_recursively_by_name(app: App, tmp_path: Path) -> None:
    root = _folder(tmp_path)
    assert [p.relative_to(root).as_posix() for p in folder_files(root)] == ["a_duel.yaml", "broken.yaml", "hard/z.yml"]
    menu = app.open_menu(root)
    frames(app, 2)
    mine = [(e.name, e.tag) for e in menu.entries if e.group == "folder"]
    assert mine == [("Alpha duel", "training"), ("Broken one", "training"), ("Zulu duel", "training/hard")]
    assert menu.entry.name == "Alpha duel" and menu.scenario is not None and menu.field.error is None
    assert load_settings().folders == [str(root.resolve())]
    text = _texts(menu)
    assert "Alpha duel" in text and "training/hard" in text
    # the bad file is listed, and selected it shows its problem
    bad = next(i for i, e in enumerate(menu.entries) if e.name == "Broken one")
    press(pygame.K_DOWN)
    frames(app, 2)
    assert menu.index == bad and menu.scenario is None
    assert menu.error is not None and "broken.yaml" in menu.error and "broken.yaml" in _texts(menu)
    # a new menu (the settings read back) lists the folder; a scenario chosen there is remembered by its path
    press(pygame.K_DOWN)
    frames(app, 1)
    assert menu.entry.name == "Zulu duel"
    assert menu.entry.key == str(root / "hard" / "z.yml")
    again = menu_entries(load_settings())
    assert [e.name for e in again if e.group == "folder"] == ["Alpha duel", "Broken one", "Zulu duel"]


def test_the_open_field_takes_a_folder_and_an_empty_one_says_so(app: App, tmp_path: Path) -> None:
    root = _folder(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    menu = app.open_menu(tmp_path / "training" / "a_duel.yaml")
    frames(app, 1)
    assert not any(e.group == "folder" for e in menu.entries)
    press(pygame.K_o, "o")
    type_text(str(empty))
    press(pygame.K_RETURN, "\r")
    frames(app, 1)
    assert menu.field.error is not None and "no scenario files" in menu.field.error
    assert "no scenario files" in _texts(menu) and load_settings().folders == []
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text(str(root / "hard"))
    press(pygame.K_RETURN, "\r")
    frames(app, 1)
    assert menu.field.error is None and menu.entry.name == "Zulu duel" and menu.entry.tag == "hard"
    assert load_settings().folders == [str((root / "hard").resolve())]


def test_cli_menu_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = cli("menu", str(tmp_path / "nowhere"))
    assert code == 2 and "nowhere: no such file or folder" in one_line(err)
    root = _folder(tmp_path)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr("skirmish.cli.display.display_problem", lambda *a, **k: None)
    code, _, err = cli("menu", str(root), "--frames", "2")
    assert (code, err) == (0, "")
    assert load_settings().folders == [str(root.resolve())]
