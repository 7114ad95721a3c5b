"""Issue 15's editor leftovers (editor10): a unit renamed in the Unit tab is followed by everything that names it
(objectives, `falls` triggers, `ai` orders, scripted orders, chip orders, fw cars' riders), in one undo step and
checked live; a yes/no row whose key is left out shows the loader's default (a door's `open` has none: it says it
is not set), and flipping a key back to its default leaves it out of the file."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
import yaml

from skirmish.content.scenario import load_scenario
from skirmish.ui.app import App
from skirmish.ui.editor import EditorScreen
from skirmish.ui.editor.basics import unit_renamed
from tests.test_editor_board import _texts
from tests.test_editor_forms import WITH_ZONES, _open, _press, _row
from tests.ui_helpers import frames, press, type_text

pytestmark = [pytest.mark.usefixtures("isolated_config"), pytest.mark.app(size=(1280, 900))]


NAMED = (WITH_ZONES
         .replace("    colour: blue\n", "    colour: blue\n    controller: scripted\n"
                  "    orders: [\"declare Blue-1 normal\", \"aim Blue-1 Red-1\", \"shoot Blue-1 target=Red-1\"]\n"
                  "    objectives: [{kind: protect, unit: Blue-1}]\n")
         .replace("    colour: red\n", "    colour: red\n    objectives: [{kind: kill, unit: Blue-1, wins: true}]\n")
         + "triggers:\n"
           "  - {name: down, when: {falls: Blue-1}, then: [{ai: {side: Red, orders: [kill Blue-1, hold relay]}}]}\n"
           "  - {when: {round: 2}, then: [{ai: {side: Red, orders: [protect Red-1]}}]}\n")


def _rename(app: App, ed: EditorScreen, unit: tuple[int, int], name: str) -> None:
    ed.select(unit)
    frames(app)
    _press(app, _row(ed, "name"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text(name)
    press(pygame.K_RETURN)
    frames(app)


def test_a_renamed_unit_is_followed_by_what_names_it(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, NAMED)
    assert ed.doc.check()[1] == []
    before = ed.doc.data
    _rename(app, ed, (0, 0), "Alpha")
    d = ed.doc.data
    assert d["sides"][0]["units"][0]["name"] == "Alpha"
    assert d["sides"][0]["objectives"] == [{"kind": "protect", "unit": "Alpha"}]
    assert d["sides"][1]["objectives"] == [{"kind": "kill", "unit": "Alpha", "wins": True}]
    assert d["triggers"][0]["when"] == {"falls": "Alpha"}
    assert d["triggers"][0]["then"][0]["ai"]["orders"] == ["kill Alpha", "hold relay"]
    assert d["sides"][0]["orders"] == ["declare Alpha normal", "aim Alpha Red-1", "shoot Alpha target=Red-1"]
    scenario, errors = ed.doc.check()
    assert errors == [] and scenario is not None
    assert "No problems" in _texts(ed)
    # the other side's unit: its shot's target follows, and the `protect` order
    _rename(app, ed, (1, 0), "Bravo")
    d = ed.doc.data
    assert d["sides"][0]["orders"] == ["declare Alpha normal", "aim Alpha Bravo", "shoot Alpha target=Bravo"]
    assert d["triggers"][1]["then"][0]["ai"]["orders"] == ["protect Bravo"] and ed.doc.check()[1] == []
    # one undo step each
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data == before
    press(pygame.K_y, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data["triggers"][0]["when"] == {"falls": "Alpha"} and ed.doc.data["sides"][1]["units"][0][
        "name"] == "Red-1"
    # a name another unit has: the line stays open with the reason, nothing changes
    _rename(app, ed, (0, 0), "Red-1")
    assert ed.editing is not None and ed.editing.error is not None and "another unit" in ed.editing.error
    assert "another unit" in _texts(ed)
    assert ed.doc.data["sides"][0]["units"][0]["name"] == "Alpha"
    press(pygame.K_ESCAPE)
    # saved and loaded back: the same scenario under the new name
    press(pygame.K_s, mod=pygame.KMOD_CTRL)
    frames(app)
    back = load_scenario(tmp_path / "duel.yaml")
    assert back.spec.sides[1].objectives[0].unit == "Alpha" and back.spec.triggers[0].when.falls == "Alpha"


def test_unit_renamed_covers_chip_orders_riders_and_leaves_others_alone() -> None:
    data = {"sides": [
        {"name": "A", "chip_orders": ["Old Hand check white up", "Other check blue up", "Old Hand wounds red"],
         "orders": ["declare 'Old Hand' normal", "wait 'Old Hand' acts:Other", "shoot Other Old mode=snap"],
         "cars": [{"name": "Car", "riders": ["Old Hand", "Other"]}],
         "units": [{"name": "Old Hand"}, {"name": "Other"}]}],
        "triggers": [{"when": {"falls": "Other"}, "then": [{"ai": {"side": "A", "orders": ["protect Old Hand"]}}]}]}
    out = unit_renamed(data, "Old Hand", "New Hand")
    side = out["sides"][0]
    assert side["chip_orders"] == ["New Hand check white up", "Other check blue up", "New Hand wounds red"]
    assert side["orders"] == ["declare 'New Hand' normal", "wait 'New Hand' acts:Other", "shoot Other Old mode=snap"]
    assert side["cars"][0]["riders"] == ["New Hand", "Other"]
    assert out["triggers"][0]["then"][0]["ai"]["orders"] == ["protect New Hand"]
    assert out["triggers"][0]["when"] == {"falls": "Other"}
    assert side["units"][0]["name"] == "Old Hand"  # the unit's own name is the caller's
    other = unit_renamed(data, "Other", "Y")
    assert other["sides"][0]["orders"][1] == "wait 'Old Hand' acts:Y" and other["triggers"][0]["when"]["falls"] == "Y"
    assert data["sides"][0]["chip_orders"][0] == "Old Hand check white up"  # a copy: the input is left alone


DOOR = WITH_ZONES + "triggers:\n  - {when: {round: 2}, then: [{message: hello}]}\n"


def test_a_door_without_open_says_it_is_not_set_and_defaults_are_not_written(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, DOOR)
    ed.tab, ed.opened = "triggers", ("triggers", 0)
    frames(app)
    _press(app, _row(ed, "YAML"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("{when: {round: 2}, then: [{door: {zone: relay}}]}")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.data["triggers"][0]["then"] == [{"door": {"zone": "relay"}}]
    row = next(f for _, f in ed.panels.fields if f.label.strip() == "open")
    assert ed.value_of(row) == "" and "yes" not in ed.value_of(row)
    assert "not set (required)" in _texts(ed)
    assert "triggers[0].then[0].door.open" in _texts(ed)  # the loader's own word: required
    # saved as it is: no `open` the builder did not set
    (tmp_path / "out").mkdir()
    ed.save(tmp_path / "out" / "door.yaml")
    saved = yaml.safe_load((tmp_path / "out" / "door.yaml").read_text(encoding="utf-8"))
    assert saved["triggers"][0]["then"] == [{"door": {"zone": "relay"}}]
    # a click sets it (yes), a second click no; the check is happy
    _press(app, _row(ed, "open"))
    assert ed.doc.data["triggers"][0]["then"] == [{"door": {"zone": "relay", "open": True}}]
    assert ed.value_of(row) == "yes" and ed.doc.check()[1] == []
    _press(app, _row(ed, "open"))
    assert ed.doc.data["triggers"][0]["then"][0]["door"]["open"] is False
    # `once` (default yes): flipped to no, then back: the key is left out again, not written
    _press(app, _row(ed, "once"))
    assert ed.doc.data["triggers"][0]["once"] is False
    _press(app, _row(ed, "once"))
    assert "once" not in ed.doc.data["triggers"][0]
    once = next(f for _, f in ed.panels.fields if f.label.strip() == "once")
    assert ed.value_of(once) == "yes"
    ed.save(tmp_path / "out" / "door.yaml")
    saved = yaml.safe_load((tmp_path / "out" / "door.yaml").read_text(encoding="utf-8"))
    assert "once" not in saved["triggers"][0]
