"""A second reading of editor10's work (reved10, issues 15 and 14), as a scenario builder would use it, driven by
posted events under SDL's dummy driver: renames (option words, names the order grammar cannot hold as they
are, a mount named like a reinforcement), a yes/no row under a value that is not a mapping, the folder listing's
quick names against the loader's and scenarios of one name, and a rider dragged onto another mount."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import SCENARIOS_DIR, scenario_title
from skirmish.rules.actions import parse_action
from skirmish.ui.app import App
from skirmish.ui.editor import EditorDoc
from skirmish.ui.editor.basics import unit_renamed
from skirmish.ui.editor.draw import HELP
from skirmish.ui.screens.folder_list import quick_title
from skirmish.ui.screens.menu_state import menu_listing
from skirmish.ui.settings import Settings
from tests.test_editor_board import DUEL, _centre, _down, _move, _texts, _up
from tests.test_editor_forms import WITH_ZONES, _choice, _open, _press, _row
from tests.test_editor_rename import _rename
from tests.ui_helpers import click, frames, press, type_text

OUTRIDERS = SCENARIOS_DIR / "fi" / "outriders.yaml"
TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"


pytestmark = [pytest.mark.usefixtures("isolated_config"), pytest.mark.app(size=(1280, 900))]


ORDERS = WITH_ZONES.replace(
    "    colour: blue\n", "    colour: blue\n    controller: scripted\n"
    "    orders: [\"declare Blue-1 normal\", \"aim Blue-1 Red-1\", \"shoot Blue-1 Red-1 mode=snap\","
    " \"wait Blue-1 acts:Red-1\", \"move Blue-1 2,2\"]\n")


# ------------------------------------------------------------------------------------------------ renames
def test_a_unit_named_like_an_option_word_renamed_leaves_the_option_alone(app: App, tmp_path: Path) -> None:
    """`declare normal normal` (a unit named "normal") renamed: only the unit's position follows."""
    ed = _open(app, tmp_path, ORDERS)
    _rename(app, ed, (0, 0), "normal")
    assert ed.doc.data["sides"][0]["orders"][0] == "declare normal normal"
    _rename(app, ed, (0, 0), "Back")
    assert ed.doc.data["sides"][0]["orders"] == [
        "declare Back normal", "aim Back Red-1", "shoot Back Red-1 mode=snap", "wait Back acts:Red-1", "move Back 2,2"]
    # the other side's unit named like a fire mode, then renamed: the mode stays
    _rename(app, ed, (1, 0), "snap")
    _rename(app, ed, (1, 0), "Red X")
    orders = ed.doc.data["sides"][0]["orders"]
    assert orders[2] == "shoot Back 'Red X' mode=snap" and orders[3] == "wait Back 'acts:Red X'"
    assert parse_action(orders[2]).target == "Red X"  # type: ignore[attr-defined]
    assert ed.doc.check()[1] == []
    # undone step by step, then redone: the orders as they were at each step
    for _ in range(4):
        press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data["sides"][0]["orders"][0] == "declare Blue-1 normal"
    assert ed.doc.data["sides"][0]["orders"][2] == "shoot Blue-1 Red-1 mode=snap"


def test_unit_renamed_touches_only_the_fields_that_name_units() -> None:
    data = {"sides": [{"name": "A", "orders": [
        "move 2,2 2,2", "shoot X 2,2 also=2,2 mode=snap", "contest X 2,2 kind=taunt",
        "intent X shoot target=2,2 then=aim then_target=2,2 dccm=1 dccm_at=2,2 mount=2,2",
        "melee X 2,2 weapon=2,2", "mount X 2,2", "wait X preempt:2,2", "defend X fighting to=2,2"]}]}
    out = unit_renamed(data, "2,2", "Kim")["sides"][0]["orders"]
    assert out == ["move Kim 2,2", "shoot X Kim also=2,2 mode=snap", "contest X Kim kind=taunt",
                   "intent X shoot target=Kim then=aim then_target=Kim dccm=1 dccm_at=Kim mount=2,2",
                   "melee X Kim weapon=2,2", "mount X 2,2", "wait X preempt:Kim", "defend X fighting to=2,2"]
    # (`also=2,2` names the units "2" and "2": a name with a comma is never in such a list)
    burst = {"sides": [{"orders": ["shoot X A also=B,A mode=A"]}]}
    assert unit_renamed(burst, "A", "Kim")["sides"][0]["orders"] == ["shoot X Kim also=B,Kim mode=A"]


def test_a_name_the_order_grammar_cannot_hold_as_it_is_is_written_so_it_reads_back(app: App, tmp_path: Path) -> None:
    """A name with `=` in a positional place is written `target=NAME` (it reads back the same); a name with a
    comma cannot stand in a split burst's `also=` list: that rename is refused, the line kept open with why."""
    text = ORDERS.replace("\"wait Blue-1 acts:Red-1\"", "\"wait Blue-1 acts:Red-1\", \"shoot Blue-1 Red-1 also=Red-1\"")
    ed = _open(app, tmp_path, text)
    _rename(app, ed, (1, 0), "a=b")
    orders = ed.doc.data["sides"][0]["orders"]
    assert orders[1] == "aim Blue-1 target=a=b" and orders[3] == "wait Blue-1 trigger=acts:a=b"
    assert ed.doc.check()[1] == []
    _rename(app, ed, (1, 0), "x,y")
    assert ed.editing is not None and "also=" in (ed.editing.error or "")
    assert ed.doc.data["sides"][1]["units"][0]["name"] == "a=b"
    press(pygame.K_ESCAPE)


REINFORCED = (DUEL + "triggers:\n  - {when: {round: 2}, then: [{reinforce: {side: Blue, zone: relay, units: "
              f"[{{name: R-1, at: [5, 0], traits: {TRAITS}, weapons: [slug_pistol]}}]}}}}]}}\n"
              "  - {when: {falls: R-1}, then: [{message: gone}]}\n").replace(
    "victory:", "zones: {relay: {rect: [5, 0, 7, 2]}}\nvictory:")


def test_a_mount_may_not_take_a_reinforcements_name(tmp_path: Path) -> None:
    """The loader refuses a mount named like a reinforcement (fi_mounts); the editor refuses the rename, and a
    mount placed is not given one: else a later rename of the mount would rename the reinforcement's references."""
    path = tmp_path / "r.yaml"
    path.write_text(REINFORCED, encoding="utf-8")
    doc = EditorDoc.open(path)
    assert doc.check()[1] == []
    doc.place_mount((3, 0), "horse")
    with pytest.raises(ValueError, match="reinforcement"):
        doc.rename_mount(0, "R-1")
    assert doc.data["triggers"][1]["when"] == {"falls": "R-1"}
    doc.data["triggers"][0]["then"][0]["reinforce"]["units"][0]["name"] = "Horse-2"
    doc.place_mount((3, 1), "horse")
    assert [m["name"] for m in doc.data["mounts"]] == ["Horse-1", "Horse-3"]


# ------------------------------------------------------------------------------------------------ yes/no rows
def test_a_yes_no_row_under_a_value_that_is_not_a_mapping_does_not_break_the_editor(app: App, tmp_path: Path) -> None:
    """`then: [{door: relay}]` typed in the YAML row: the door's form shows its rows; a click on `open` must not
    raise (the board would close): nothing is set, a toast says why, the problems panel names the key."""
    ed = _open(app, tmp_path, WITH_ZONES + "triggers:\n  - {when: {round: 2}, then: [{message: hello}]}\n")
    ed.tab, ed.opened = "triggers", ("triggers", 0)
    frames(app)
    _press(app, _row(ed, "YAML"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("{when: {round: 2}, then: [{door: relay}]}")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.data["triggers"][0]["then"] == [{"door": "relay"}]
    _press(app, _row(ed, "open"))
    assert ed.doc.data["triggers"][0]["then"] == [{"door": "relay"}]
    assert any("YAML" in t.text for t in ed.toasts)
    assert "triggers[0].then[0].door" in _texts(ed)


# ------------------------------------------------------------------------------------------------ the listing
@pytest.mark.parametrize("line", ["name: Duel\t# a comment", "name: yes", "name: 123", "name: ~", "name: 2026-11-23",
                                  "name: - x", "name: Du\x1bel", "name: Duel:", "name: <<", "name: =",
                                  "name: Duel\u2028x", "name: \x85x", "name:Duel"])
def test_the_quick_name_is_the_loaders_or_none(tmp_path: Path, line: str) -> None:
    """The menu's quick read of a `name:` line gives what the loader's read gives, or leaves it to the loader."""
    path = tmp_path / "s.yaml"
    path.write_text(DUEL.replace("name: Duel", line, 1), encoding="utf-8")
    assert quick_title(path) in (None, scenario_title(path))


def test_scenarios_of_one_name_in_a_folder_are_told_apart(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    for stem in ("duel", "duel_copy", "other"):
        (folder / f"{stem}.yaml").write_text(DUEL if stem != "other" else DUEL.replace("name: Duel", "name: Other"),
                                             encoding="utf-8")
    settings = Settings()
    settings.folders = [str(folder)]
    entries, _ = menu_listing(settings)
    names = sorted(e.name for e in entries if e.group == "folder")
    assert names == ["Duel (duel.yaml)", "Duel (duel_copy.yaml)", "Other"]


# ------------------------------------------------------------------------------------------------ mounts
def test_a_rider_dragged_onto_another_mount_is_refused(app: App) -> None:
    """With the Unit tool, the Sergeant (riding the horse at 4,5) dropped on Bike-1's cell: two mounts would share
    a cell; refused as the M tool refuses it."""
    ed = app.open_editor(OUTRIDERS)
    frames(app, 2)
    press(pygame.K_u, "u")
    frames(app)
    bike = ed.doc.data["mounts"][0]["at"]
    _down(_centre(ed, (4, 5)))
    _move(_centre(ed, (bike[0], bike[1])))
    _up(_centre(ed, (bike[0], bike[1])))
    frames(app)
    assert ed.doc.data["sides"][0]["units"][0]["at"] == [4, 5] and ed.doc.data["mounts"][2]["at"] == [4, 5]
    assert any("stands there" in t.text for t in ed.toasts) and ed.doc.check()[1] == []


# ------------------------------------------------------------------------------------------------ leftovers
FOLLOWED = REINFORCED.replace("    colour: red\n", "    colour: red\n    objectives: [{kind: kill, unit: R-1}]\n") + (
    "  - {when: {round: 3}, then: [{ai: {side: Blue, orders: [protect R-1]}}]}\n")


def test_a_reinforcement_renamed_in_its_trigger_form_is_followed(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, FOLLOWED)
    assert ed.doc.check()[1] == []
    before = ed.doc.data
    ed.tab, ed.opened = "triggers", ("triggers", 0)
    frames(app)
    _press(app, _row(ed, "name 1"))
    assert ed.editing is not None and ed.editing.text == "R-1"
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("Late")
    press(pygame.K_RETURN)
    frames(app)
    d = ed.doc.data
    assert d["triggers"][0]["then"][0]["reinforce"]["units"][0]["name"] == "Late"
    assert d["triggers"][1]["when"] == {"falls": "Late"} and d["sides"][1]["objectives"] == [
        {"kind": "kill", "unit": "Late"}]
    assert d["triggers"][2]["then"][0]["ai"]["orders"] == ["protect Late"] and ed.doc.check()[1] == []
    # a unit's name is refused, the line kept open with why
    _press(app, _row(ed, "name 1"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("Blue-1")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.editing is not None and "another unit" in (ed.editing.error or "")
    press(pygame.K_ESCAPE)
    # one undo step
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data == before


def test_k_chooses_the_kind_of_mount_before_placing(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, "ruleset: fi\n" + DUEL)
    press(pygame.K_k, "k")
    frames(app)
    assert ed.tool == "mount" and ed.mount_kind == "beast" and "next mount: beast (K)" in _texts(ed)
    press(pygame.K_k, "k")
    frames(app)
    click(_centre(ed, (3, 1)))
    frames(app)
    assert ed.doc.data["mounts"] == [{"name": "Bike-1", "kind": "bike", "at": [3, 1]}]
    click(_centre(ed, (6, 1)))
    frames(app)
    assert ed.doc.data["mounts"][1]["kind"] == "bike" and ed.doc.check()[1] == []
    assert app.settings.editor["mount_kind"] == "bike"  # remembered with the tool
    press(pygame.K_k, "k")
    frames(app)
    assert ed.mount_kind == "horse"
    press(pygame.K_h, "h")
    frames(app)
    assert ed.show_help and any("K chooses the kind" in line for line in HELP) and "M mounts (K kind)" in _texts(ed)


def test_k_in_a_future_world_scenario_says_mounts_are_future_imperfects(app: App) -> None:
    ed = app.open_editor(SCENARIOS_DIR / "fw" / "scout_run.yaml")
    frames(app, 2)
    press(pygame.K_k, "k")
    frames(app)
    assert ed.mount_kind is None and any("Future Imperfect's" in t.text for t in ed.toasts)


@pytest.mark.parametrize("size", ((1280, 800), (900, 600)))
def test_the_inspectors_tab_labels_are_whole(size: tuple[int, int]) -> None:
    a = App(size=size, settings=Settings())
    try:
        ed = a.open_editor(OUTRIDERS)
        frames(a, 2)
        lines = [t for t, _ in ed.page.lines]
        for label in ("Scenario", "Side", "Unit", "Zones", "Triggers", "Mounts"):
            assert label in lines, (label, [t for t in lines if "…" in t])
        rects = [r for r, _ in ed.panels.tabs]
        assert all(r.right + 4 <= b.x for r, b in itertools.pairwise(rects))
        assert rects[-1].right <= ed.panels.inspector.right - 8
        click(ed.panels.tabs[-1][0].center)
        frames(a)
        assert ed.tab == "mounts"
    finally:
        a.close()


def test_a_reinforcement_copied_from_a_rider_is_no_rider(app: App) -> None:
    """+ effect → reinforce copies the scenario's first unit: in outriders the Sergeant, who rides the horse; the
    copy arrives on foot (as a unit placed like a rider is no rider: pieces.place_unit)."""
    ed = app.open_editor(OUTRIDERS)
    frames(app, 2)
    ed.add_trigger()
    ed.tab = "triggers"
    frames(app)
    _press(app, _row(ed, "then 1"))
    _press(app, _choice(ed, "reinforce"))
    units = ed.doc.data["triggers"][-1]["then"][0]["reinforce"]["units"]
    assert units[0]["name"] == "Sergeant-R" and "mounted" not in units[0]
