"""Defects found on a second reading of the editor's objective and trigger forms (issue 15 item 1), driven by
posted events under SDL's dummy driver: what a kind row fills in must pass the loader's check."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import load_scenario
from skirmish.ui.app import App
from tests.test_editor_board import _open
from tests.test_editor_forms import WITH_ZONES, _choice, _press, _row
from tests.ui_helpers import frames, press

pytestmark = [pytest.mark.usefixtures("isolated_config"), pytest.mark.app(size=(1280, 900))]


@pytest.mark.parametrize(("side", "kind", "unit"), [(0, "kill", "Red-1"), (1, "kill", "Blue-1"),
                                                     (0, "protect", "Blue-1"), (1, "protect", "Red-1")])
def test_a_kill_or_protect_objective_starts_from_a_unit_it_may_name(app: App, tmp_path: Path, side: int, kind: str,
                                                                    unit: str) -> None:
    """kill fills in an enemy unit, protect one of the side's own (skirmish.content.zones.check_zone_refs:
    'kill an enemy', 'not on side'): the objective is valid as made, no name typed."""
    ed = _open(app, tmp_path, WITH_ZONES)
    ed.side, ed.tab = side, "side"
    frames(app)
    _press(app, next(b.rect for b in ed.buttons.buttons if b.label == "+ objective"))
    _press(app, _row(ed, "kind"))
    _press(app, _choice(ed, kind))
    assert ed.doc.data["sides"][side]["objectives"] == [{"kind": kind, "unit": unit}]
    assert ed.doc.check()[1] == []


def test_two_reinforcements_made_with_the_form_have_names_of_their_own(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, WITH_ZONES)
    ed.tab = "triggers"
    frames(app)
    for i in range(2):
        _press(app, next(b.rect for b in ed.buttons.buttons if b.label == "+ trigger"))
        _press(app, _row(ed, "then 1"))
        _press(app, _choice(ed, "reinforce"))
        assert ed.opened == ("triggers", i)
    _press(app, _row(ed, "+ effect"))
    _press(app, _row(ed, "then 2"))
    _press(app, _choice(ed, "reinforce"))
    names = [e["reinforce"]["units"][0]["name"] for t in ed.doc.data["triggers"] for e in t["then"] if "reinforce" in e]
    assert len(names) == 3 and len(set(names)) == 3
    scenario, errors = ed.doc.check()
    assert errors == [], [e.text for e in errors]
    press(pygame.K_s, mod=pygame.KMOD_CTRL)
    frames(app)
    assert scenario is not None and load_scenario(tmp_path / "duel.yaml").spec == scenario.spec


def test_a_problem_in_an_objective_or_trigger_unfolds_its_form(app: App, tmp_path: Path) -> None:
    """A zone deleted that an objective and a trigger name: a click on each problem shows the form of the
    objective or trigger it names, unfolded, the key's row among the rows drawn."""
    ed = _open(app, tmp_path, WITH_ZONES)
    ed.doc.set(("sides", 1, "objectives"), [{"kind": "eliminate"}, {"kind": "reach", "zone": "exit"}])
    ed.doc.set(("triggers",), [{"when": {"round": 2}, "then": [{"message": "hi"}]},
                               {"when": {"enters": "exit"}, "then": [{"message": "in"}]}])
    ed.doc.delete_zone("exit")
    frames(app, 2)
    where = {w: r for r, w in ed.panels.problems}
    assert set(where) == {"sides[1].objectives[1].zone", "triggers[1].when.enters"}, list(where)
    _press(app, where["sides[1].objectives[1].zone"])
    assert ed.tab == "side" and ed.side == 1 and ed.opened == ("sides", 1, "objectives", 1)
    assert any(f.keys == ("sides", 1, "objectives", 1, "zone") for _, f in ed.panels.fields)
    _press(app, next(r for r, w in ed.panels.problems if w == "triggers[1].when.enters"))
    assert ed.tab == "triggers" and ed.opened == ("triggers", 1)
    assert any(f.keys == ("triggers", 1, "when", "enters") for _, f in ed.panels.fields)


def test_enters_turned_to_leaves_keeps_its_zone_and_side(app: App, tmp_path: Path) -> None:
    """`side` and the zone go with leaves as with enters: turning one into the other keeps them (a kind row
    drops only the keys the new kind does not take); undo brings the enters back."""
    ed = _open(app, tmp_path, WITH_ZONES)
    ed.tab = "triggers"
    frames(app)
    _press(app, next(b.rect for b in ed.buttons.buttons if b.label == "+ trigger"))
    _press(app, _row(ed, "when"))
    _press(app, _choice(ed, "enters"))
    _press(app, _row(ed, "enters"))
    _press(app, _choice(ed, "exit"))
    _press(app, _row(ed, "side"))
    _press(app, _choice(ed, "Red"))
    _press(app, _row(ed, "when"))
    _press(app, _choice(ed, "leaves"))
    assert ed.doc.data["triggers"][0]["when"] == {"leaves": "exit", "side": "Red"}
    _press(app, _row(ed, "when"))
    _press(app, _choice(ed, "round"))
    assert ed.doc.data["triggers"][0]["when"] == {"round": 2}
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data["triggers"][0]["when"] == {"enters": "exit", "side": "Red"}


def test_a_unit_kept_across_kinds_only_where_it_may_stand(app: App, tmp_path: Path) -> None:
    """kill Red-1 turned to protect: protect takes one of the side's own (Blue-1), not the enemy it had; turned
    to reach the own unit is kept (reach may name one), and to kill again an enemy comes back."""
    ed = _open(app, tmp_path, WITH_ZONES)
    ed.side, ed.tab = 0, "side"
    frames(app)
    _press(app, next(b.rect for b in ed.buttons.buttons if b.label == "+ objective"))
    for kind, want in (("kill", {"unit": "Red-1"}), ("protect", {"unit": "Blue-1"}),
                       ("reach", {"zone": "relay", "unit": "Blue-1"}), ("kill", {"unit": "Red-1"})):
        _press(app, _row(ed, "kind"))
        _press(app, _choice(ed, kind))
        assert ed.doc.data["sides"][0]["objectives"] == [{"kind": kind, **want}]
        assert ed.doc.check()[1] == [], kind
