"""The menu's folders on a second reading (issue 15 item 6): a scenario reached twice in a folder (a link) is
listed once, a folder over the cap says the list is cut, and `skirmish menu FOLDER` without a display does not
name the folder as the scenario to `skirmish run`."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.ui.app import App
from skirmish.ui.screens import menu_state
from skirmish.ui.screens.menu_state import menu_entries
from skirmish.ui.settings import Settings, load_settings
from tests.conftest import cli
from tests.test_editor_board import DUEL
from tests.ui_helpers import frames

pytestmark = pytest.mark.usefixtures("isolated_config")


def test_a_scenario_reached_twice_in_a_folder_is_listed_once(tmp_path: Path) -> None:
    root = tmp_path / "mine"
    (root / "sub").mkdir(parents=True)
    (root / "a.yaml").write_text(DUEL, encoding="utf-8")
    (root / "b.yaml").symlink_to(root / "a.yaml")
    (root / "sub" / "c.yaml").symlink_to(root / "a.yaml")
    (root / "sub" / "loop").symlink_to(root)  # a link back up: not walked into
    (root / "d.yaml").write_text(DUEL.replace("name: Duel", "name: Other"), encoding="utf-8")
    listed = [e for e in menu_entries(Settings(folders=[str(root)])) if e.group == "folder"]
    assert sorted(e.name for e in listed) == ["Duel", "Other"]


def test_a_folder_over_the_cap_says_the_list_is_cut(app: App, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(menu_state, "MAX_FOLDER_FILES", 3)
    full, over = tmp_path / "full", tmp_path / "over"
    for folder, n in ((full, 3), (over, 4)):
        folder.mkdir()
        for i in range(n):
            (folder / f"s{i}.yaml").write_text(DUEL.replace("name: Duel", f"name: Duel {folder.name} {i}"),
                                               encoding="utf-8")
    menu = app.open_menu(full)
    frames(app, 1)
    assert menu.field.error is None and len([e for e in menu.entries if e.group == "folder"]) == 3
    menu = app.open_menu(over)
    frames(app, 1)
    assert len([e for e in menu.entries if e.where == "over"]) == 3
    assert menu.field.error is not None and "first 3" in menu.field.error
    assert menu.entry.where == "over" and load_settings().folders[0] == str(over.resolve())


def test_cli_menu_folder_without_a_display(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "mine"
    root.mkdir()
    (root / "a.yaml").write_text(DUEL, encoding="utf-8")
    monkeypatch.setattr("skirmish.cli.display.display_problem", lambda *a, **k: "no display here")
    code, out, err = cli("menu", str(root), timeout=300)
    assert code == 0 and "no display" in err
    told = next(line for line in out.splitlines() if line.startswith("the whole explaining log: "))
    assert str(root) not in told and told.startswith("the whole explaining log: skirmish run --seed ")


def test_a_link_to_itself_in_a_folder_does_not_break_the_menu(app: App, tmp_path: Path) -> None:
    """`x.yaml -> x.yaml` (a symlink loop): Path.resolve raises RuntimeError on Python 3.11; the folder is
    remembered, so a crash here would come back at every start."""
    root = tmp_path / "mine"
    root.mkdir()
    (root / "a.yaml").write_text(DUEL, encoding="utf-8")
    (root / "loop.yaml").symlink_to(root / "loop.yaml")
    menu = app.open_menu(root)
    frames(app, 1)
    names = [e.path.name for e in menu.entries if e.group == "folder"]
    assert names == ["a.yaml", "loop.yaml"] and menu.entry.path.name == "a.yaml"
    again = App(size=(1280, 800), settings=load_settings())  # the next start: the folder read from the settings
    try:
        again.open_menu(root / "a.yaml")
        frames(again, 1)
        menu = again.screen  # type: ignore[assignment]
        loop = next(i for i, e in enumerate(menu.entries) if e.path.name == "loop.yaml")
        menu._select(loop)
        frames(again, 1)
        assert menu.scenario is None and menu.error is not None and "loop.yaml" in menu.error
    finally:
        again.close()


def test_a_remembered_folder_since_removed_is_left_out_at_start(app: App, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "mine"
    root.mkdir()
    (root / "a.yaml").write_text(DUEL.replace("name: Duel", "name: Gone duel"), encoding="utf-8")
    menu = app.open_menu(root)
    frames(app, 1)
    assert menu.entry.name == "Gone duel"
    menu.settings.scenario = menu.entry.key
    menu.settings.save()
    shutil.rmtree(root)
    again = App(size=(1280, 800), settings=load_settings())
    try:
        frames(again, 2)
        from skirmish.ui.screens import MenuScreen

        assert isinstance(again.screen, MenuScreen) and again.screen.scenario is not None
        entries = menu_entries(again.settings)
        assert again.settings.folders == [str(root.resolve())] and not any(e.group == "folder" for e in entries)
    finally:
        again.close()


def test_a_deep_subfolders_tag_leaves_room_for_the_name(tmp_path: Path) -> None:
    """The row's tag (the folder and subfolder a file lies in) is cut to the row, its end kept: the name is
    drawn and nothing leaves the window."""
    from skirmish.ui.layout import layout_problems

    deep = tmp_path / "missions" / "a_rather_long_folder_name" / "another_long_subfolder_name" / "and_one_more"
    deep.mkdir(parents=True)
    (deep / "x.yaml").write_text(DUEL.replace("name: Duel", "name: Deep duel"), encoding="utf-8")
    a = App(size=(1024, 700), settings=Settings())
    try:
        menu = a.open_menu(tmp_path / "missions")
        frames(a, 2)
        assert menu.entry.name == "Deep duel" and menu.page is not None
        assert layout_problems(menu.page, a.window.get_rect(), menu.buttons.buttons) == []
        row = next(r.rect for r in menu.rows if r.index == menu.index)
        drawn = [(t, r) for t, r in menu.page.lines if row.contains(r)]
        assert any(t.startswith("Deep") for t, _ in drawn)
        assert any(t.endswith("and_one_more") for t, _ in drawn)
    finally:
        a.close()
