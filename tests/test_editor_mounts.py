"""Mounts in the editor (issue 14's leftover, editor10; RULES-NOTES "Mounts"), driven by posted events under SDL's
dummy driver with screenshots checked: the scenario's mounts drawn as the board draws them; M places, drags and
selects mounts, the Mounts tab names them and picks their kind from the rules' table; a rider moves with its mount;
Delete removes one (its rider set down); the loader's check names a bad mount live; what is saved loads back."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.rulesets.fi import MOUNT_KINDS
from skirmish.ui.app import App
from skirmish.ui.editor import EditorDoc, EditorScreen
from skirmish.ui.editor.pieces import MOUNT_KINDS as EDITOR_KINDS
from skirmish.ui.fi_mount import MOUNT_C
from tests.test_editor_board import DUEL, _centre, _down, _move, _open, _texts, _up
from tests.test_editor_forms import _choice, _press, _row
from tests.ui_helpers import click, frames, press, type_text

OUTRIDERS = SCENARIOS_DIR / "fi" / "outriders.yaml"


pytestmark = [pytest.mark.usefixtures("isolated_config"), pytest.mark.app(size=(1280, 900))]


def _cell_pixels(app: App, ed: EditorScreen, cell: tuple[int, int]) -> set[tuple[int, int, int]]:
    r = ed.view.rect_of(cell)
    shot = app.window.copy()
    return {tuple(shot.get_at((x, y)))[:3] for x in range(r.x, r.right) for y in range(r.y, r.bottom)}  # type: ignore[misc]


def _drag(app: App, a: tuple[int, int], b: tuple[int, int]) -> None:
    _down(a)
    _move(b)
    _up(b)
    frames(app)


def test_the_kinds_are_the_rules_table() -> None:
    assert EDITOR_KINDS == tuple(MOUNT_KINDS) == ("horse", "beast", "bike")


def test_the_editor_draws_the_scenarios_mounts_as_the_board_does(app: App) -> None:
    ed = app.open_editor(OUTRIDERS)
    frames(app, 2)
    assert [m["name"] for m in ed.doc.mounts()] == ["Bike-1", "Bike-2", "Horse"]
    assert tuple(app.window.get_at(_centre(ed, (2, 3))))[:3] == MOUNT_C["bike"]  # a riderless bike, whole
    assert MOUNT_C["horse"] in _cell_pixels(app, ed, (4, 5))  # the Sergeant's horse: a saddle band under him
    assert MOUNT_C["bike"] not in _cell_pixels(app, ed, (5, 5)) and MOUNT_C["horse"] not in _cell_pixels(app, ed, (3, 3))
    # the Mounts tab lists them, the selected one first
    ed.tab, ed.mount = "mounts", 2
    frames(app)
    labels = [(f.label.strip(), ed.value_of(f)) for _, f in ed.panels.fields]
    assert labels[:4] == [("mount", "Horse"), ("kind", "horse"), ("at", "[4, 5]"), ("move_m", "")]
    assert "the horse's 16 m" in _texts(ed)


def test_mounts_placed_moved_picked_and_deleted_with_the_m_tool(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, "ruleset: fi\n" + DUEL)
    press(pygame.K_m, "m")
    frames(app)
    assert ed.tool == "mount" and ed.tab == "mounts"
    # a click on an empty cell: a horse there
    click(_centre(ed, (3, 1)))
    frames(app)
    assert ed.doc.data["mounts"] == [{"name": "Horse-1", "kind": "horse", "at": [3, 1]}] and ed.mount == 0
    assert tuple(app.window.get_at(_centre(ed, (3, 1))))[:3] == MOUNT_C["horse"]
    assert ed.doc.check()[1] == []
    # its kind picked from the rules' table: a bike, drawn as one
    _press(app, _row(ed, "kind"))
    assert [v for _, v in ed.panels.choices] == ["horse", "beast", "bike"]
    _press(app, _choice(ed, "bike"))
    assert ed.doc.data["mounts"][0]["kind"] == "bike"
    assert tuple(app.window.get_at(_centre(ed, (3, 1))))[:3] == MOUNT_C["bike"]
    # dragged to another cell
    _drag(app, _centre(ed, (3, 1)), _centre(ed, (6, 4)))
    assert ed.doc.data["mounts"][0]["at"] == [6, 4]
    assert tuple(app.window.get_at(_centre(ed, (6, 4))))[:3] == MOUNT_C["bike"]
    assert MOUNT_C["bike"] not in _cell_pixels(app, ed, (3, 1))
    # a click under a unit: a second mount (the selected one's kind), ridden by the unit
    click(_centre(ed, (1, 1)))
    frames(app)
    assert ed.doc.data["mounts"][1] == {"name": "Bike-1", "kind": "bike", "at": [1, 1]} and ed.mount == 1
    assert ed.doc.data["sides"][0]["units"][0]["mounted"] is True and ed.doc.check()[1] == []
    assert any("Blue-1 rides it" in t.text for t in ed.toasts)
    # the ridden mount dragged: its rider goes with it
    _drag(app, _centre(ed, (1, 1)), _centre(ed, (2, 4)))
    assert ed.doc.data["mounts"][1]["at"] == [2, 4] and ed.doc.data["sides"][0]["units"][0]["at"] == [2, 4]
    # onto another mount: refused
    _drag(app, _centre(ed, (2, 4)), _centre(ed, (6, 4)))
    assert ed.doc.data["mounts"][1]["at"] == [2, 4] and any("stands there" in t.text for t in ed.toasts)
    # a bad cell typed: the loader's check names the mount live; a click on the problem selects it
    _press(app, _row(ed, "at"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("[4, 2]")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.data["mounts"][1]["at"] == [4, 2]
    assert "mounts[1].at" in _texts(ed) and "where no mount can stand" in _texts(ed)
    ed.mount, ed.tab = None, "scenario"
    frames(app)
    problem = next(r for r, where in ed.panels.problems if where == "mounts[1].at")
    _press(app, problem)
    assert (ed.tab, ed.mount) == ("mounts", 1)
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data["mounts"][1]["at"] == [2, 4] and ed.doc.check()[1] == []
    # renamed: a unit's name is refused, a new one taken
    _press(app, _row(ed, "mount"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("Red-1")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.editing is not None and "not a unit's" in (ed.editing.error or "")
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("Thunder")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.data["mounts"][1]["name"] == "Thunder"
    # Delete: the ridden one goes, its rider is set down; undo brings both back
    press(pygame.K_DELETE)
    frames(app)
    assert [m["name"] for m in ed.doc.data["mounts"]] == ["Horse-1"]  # named when placed; a bike since
    assert "mounted" not in ed.doc.data["sides"][0]["units"][0]
    assert MOUNT_C["bike"] not in _cell_pixels(app, ed, (2, 4))
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data["mounts"][1]["name"] == "Thunder" and ed.doc.data["sides"][0]["units"][0]["mounted"] is True
    # saved and loaded back
    press(pygame.K_s, mod=pygame.KMOD_CTRL)
    frames(app)
    back = load_scenario(tmp_path / "duel.yaml")
    assert [(m.name, m.kind, m.at) for m in back.spec.mounts] == [("Horse-1", "bike", (6, 4)), ("Thunder", "bike", (2, 4))]
    assert back.spec.sides[0].units[0].mounted and back.spec.sides[0].units[0].at == (2, 4)


def test_a_unit_moved_onto_a_mount_rides_it_and_a_rider_takes_its_mount_along(tmp_path: Path) -> None:
    doc = EditorDoc.open(OUTRIDERS)
    # the Sergeant rides the horse at 4,5: moved, the horse goes with him
    doc.move_unit(0, 0, (6, 5))
    assert doc.data["mounts"][2]["at"] == [6, 5] and doc.check()[1] == []
    # Rider-1 moved onto Bike-1's cell: it rides it
    doc.move_unit(0, 1, (2, 3))
    assert doc.data["sides"][0]["units"][1]["mounted"] is True and doc.check()[1] == []
    # a copy of a rider placed on an empty cell is no rider
    index = doc.place_unit(0, (8, 8))
    assert "mounted" not in doc.data["sides"][0]["units"][index]
    doc.undo()
    doc.undo()
    doc.undo()
    assert doc.data["mounts"][2]["at"] == [4, 5] and "mounted" not in doc.data["sides"][0]["units"][1]


def test_mount_edits_round_trip_edit_save_load(tmp_path: Path) -> None:
    """The round trip of tests/test_editor.py with mounts edited: what is saved loads back as edited, and saving
    what was written gives the same bytes."""
    doc = EditorDoc.open(OUTRIDERS)
    doc.delete_mount(0)  # Bike-1
    doc.place_mount((6, 2), "beast")
    doc.move_mount(0, (3, 7))  # Bike-2
    doc.set(("mounts", 1, "move_m"), 20)  # the horse walks 20 m
    doc.set(("mounts", 2, "kind"), "horse")
    scenario, errors = doc.check()
    assert errors == [] and scenario is not None
    doc.save(tmp_path / "outriders.yaml")
    back = load_scenario(tmp_path / "outriders.yaml")
    assert back.spec == scenario.spec
    assert [(m.name, m.kind, m.at, m.move_m) for m in back.spec.mounts] == [
        ("Bike-2", "bike", (3, 7), None), ("Horse", "horse", (4, 5), 20), ("Beast-1", "horse", (6, 2), None)]
    again = EditorDoc.open(tmp_path / "outriders.yaml")
    again.save(tmp_path / "again.yaml")
    assert (tmp_path / "again.yaml").read_text(encoding="utf-8") == (tmp_path / "outriders.yaml").read_text(
        encoding="utf-8")


def test_a_future_world_scenario_has_no_mounts_to_place(app: App) -> None:
    ed = app.open_editor(SCENARIOS_DIR / "fw" / "scout_run.yaml")
    frames(app, 2)
    press(pygame.K_m, "m")
    frames(app)
    click(_centre(ed, (1, 1)))
    frames(app)
    assert "mounts" not in ed.doc.data and any("Future Imperfect's" in t.text for t in ed.toasts)
    assert "grav cars" in _texts(ed)
