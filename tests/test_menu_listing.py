"""A folder listed by the start menu is bounded (issue 15, editor10): `skirmish menu /` walked the whole tree and
read every file found whole (about 3.5 s of CPU here; docs/results/menu-listing.txt). Now: the nearest files
first, MAX_DEPTH levels, MAX_DIRS folders, MAX_ENTRIES entries a folder, unreadable folders and links to folders
skipped; a file's name read from its first `name:` line when plain; and the menu says when a listing was cut."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import skirmish.ui.screens.folder_list as folder_list
from skirmish.content.scenario import SCENARIOS_DIR, scenario_title
from skirmish.ui.app import App
from skirmish.ui.screens import MenuScreen
from skirmish.ui.screens.folder_list import quick_title, scan_folder
from skirmish.ui.screens.menu_state import menu_listing
from skirmish.ui.settings import Settings
from tests.test_editor_board import DUEL
from tests.ui_helpers import frames

pytestmark = pytest.mark.usefixtures("isolated_config")


def _texts(menu: MenuScreen) -> str:
    assert menu.page is not None
    return "\n".join(t for t, _ in menu.page.lines)


def _deep(root: Path, levels: int) -> Path:
    """A chain of `levels` subfolders under root with a scenario at each level."""
    here = root
    for i in range(levels + 1):
        here.mkdir(parents=True, exist_ok=True)
        (here / f"s{i}.yaml").write_text(DUEL.replace("name: Duel", f"name: Level {i}"), encoding="utf-8")
        here = here / f"d{i}"
    return root


def test_a_deep_folder_is_listed_to_the_depth_bound_and_the_menu_says_it_was_cut(app: App, tmp_path: Path) -> None:
    root = _deep(tmp_path / "deep", 7)
    menu = app.open_menu(root)
    frames(app, 2)
    names = sorted(e.name for e in menu.entries if e.group == "folder")
    assert names == [f"Level {i}" for i in range(folder_list.MAX_DEPTH + 1)]  # the folder and 4 levels below
    assert menu.field.error is not None and "cut short" in menu.field.error and "deeper than 4" in menu.field.error
    assert "listing cut short" in _texts(menu) and "deeper than 4 levels" in _texts(menu)
    # the note stays while the folder is listed (a new menu from the settings)
    entries, cuts = menu_listing(menu.settings)
    assert str(root.resolve()) in cuts and len([e for e in entries if e.group == "folder"]) == 5


def test_the_listing_reads_a_bounded_number_of_folders_nearest_first(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "wide"
    for i in range(6):
        (root / f"f{i}" / "inner").mkdir(parents=True)
        (root / f"f{i}" / "a.yaml").write_text(DUEL, encoding="utf-8")
        (root / f"f{i}" / "inner" / "b.yaml").write_text(DUEL, encoding="utf-8")
    (root / "top.yaml").write_text(DUEL, encoding="utf-8")
    monkeypatch.setattr(folder_list, "MAX_DIRS", 4)
    listing = scan_folder(root, 500)
    assert [p.relative_to(root).as_posix() for p in listing.files] == ["top.yaml", "f0/a.yaml", "f1/a.yaml",
                                                                      "f2/a.yaml"]
    assert listing.unread_dirs == 6 and "4 folders read, 6 more left unread" in listing.cut(500)  # f3-f5, 3 inner
    # the file bound: the nearest first
    monkeypatch.setattr(folder_list, "MAX_DIRS", 300)
    listing = scan_folder(root, 3)
    assert listing.more_files and [p.name for p in listing.files] == ["top.yaml", "a.yaml", "a.yaml"]
    assert "the first 3" in listing.cut(3)


def test_huge_unreadable_and_linked_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "odd"
    (root / "huge").mkdir(parents=True)
    for i in range(8):
        (root / "huge" / f"x{i}.txt").write_text("x", encoding="utf-8")
    (root / "huge" / "zz.yaml").write_text(DUEL, encoding="utf-8")
    (root / "locked").mkdir()
    (root / "locked" / "l.yaml").write_text(DUEL, encoding="utf-8")
    (root / "ok.yaml").write_text(DUEL, encoding="utf-8")
    (root / "up").symlink_to(root)  # a link loop: never walked
    (root / "elsewhere").symlink_to(SCENARIOS_DIR)  # a link to a folder: not followed either
    real = os.scandir

    def scandir(path: str | Path) -> object:
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(folder_list.os, "scandir", scandir)
    monkeypatch.setattr(folder_list, "MAX_ENTRIES", 5)
    listing = scan_folder(root, 500)
    found = [p.relative_to(root).as_posix() for p in listing.files]
    assert found[0] == "ok.yaml" and set(found) <= {"ok.yaml", "huge/zz.yaml"}  # the huge one: as far as read
    assert (listing.huge, listing.unreadable) == (1, 1)
    cut = listing.cut(500)
    assert "1 folder of more than 5 entries read in part" in cut and "1 folder could not be read" in cut


def test_the_quick_name_is_the_loaders_or_leaves_it_to_the_loader(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = sorted(SCENARIOS_DIR.rglob("*.yaml"))
    assert shipped and all(quick_title(p) == scenario_title(p) for p in shipped)
    assert all(quick_title(p) is not None for p in shipped)  # the shipped files are all read the quick way
    cases = {"plain": ("name: Plain one  # a comment\nsides: []\n", "Plain one"),
             "quoted": ("name: 'Quoted: yes'\nsides: []\n", None), "flow": ("{name: Flow}\n", None),
             "folded": ("name: >\n  Folded\nsides: []\n", None), "continued": ("name: Two\n  lines\nx: 1\n", None),
             "none": ("sides: []\n", None)}
    for stem, (text, want) in cases.items():
        (tmp_path / f"{stem}.yaml").write_text(text, encoding="utf-8")
        assert quick_title(tmp_path / f"{stem}.yaml") == want, stem
    os.mkfifo(tmp_path / "fifo.yaml")
    assert quick_title(tmp_path / "fifo.yaml") is None  # never opened: nothing blocks
    # the menu's names: a folder of plain-named scenarios is listed without reading any file whole
    calls: list[Path] = []
    monkeypatch.setattr(folder_list, "scenario_title", lambda p: calls.append(p) or None)
    many = tmp_path / "many"
    many.mkdir()
    for i in range(40):
        (many / f"s{i}.yaml").write_text(DUEL.replace("name: Duel", f"name: Duel {i}"), encoding="utf-8")
    entries, cuts = menu_listing(Settings(folders=[str(many)]))
    assert sorted(e.name for e in entries if e.group == "folder") == sorted(f"Duel {i}" for i in range(40))
    assert calls == [] and cuts == {}
