"""The editor's objective and trigger forms (issue 15 item 1), driven by posted events under SDL's dummy driver:
add an objective, pick its kind and zone from the offered names, type a number, toggle `wins`, delete it; a
trigger's condition and effects picked from the loader's kinds; the loader's check names a bad key; undo and
redo; what is saved loads back. The rows come from the loader's models (a key of the model is a row)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.objectives import CONDITIONS, EFFECTS, OBJECTIVE_KINDS, Objective, Reinforce
from skirmish.content.scenario import load_scenario
from skirmish.ui.app import App
from skirmish.ui.editor import EditorScreen
from skirmish.ui.editor.objective_form import FormField, Refs, model_rows, objective_rows, trigger_rows
from skirmish.ui.settings import Settings
from tests.test_editor_board import DUEL, _move, _open, _texts
from tests.ui_helpers import click, frames, press, type_text

pytestmark = [pytest.mark.usefixtures("isolated_config"), pytest.mark.app(size=(1280, 900))]


WITH_ZONES = DUEL.replace("victory:", "zones: {relay: {rect: [5, 0, 7, 2]}, exit: {rect: [10, 4, 11, 5]}}\nvictory:")


def _row(ed: EditorScreen, label: str) -> pygame.Rect:
    hits = [r for r, f in ed.panels.fields if f.label.strip() == label]
    assert hits, f"no row {label!r} among {[f.label for _, f in ed.panels.fields]}"
    return hits[0]


def _choice(ed: EditorScreen, value: str) -> pygame.Rect:
    hits = [r for r, v in ed.panels.choices if v == value]
    assert hits, f"no choice {value!r} among {[v for _, v in ed.panels.choices]}"
    return hits[0]


def _press(app: App, rect: pygame.Rect) -> None:
    click(rect.center)
    frames(app)


def test_rows_come_from_the_loaders_models() -> None:
    refs = Refs(zones=("relay",), units=("Blue-1",), sides=("Blue", "Red"), objectives=("Blue:hold",))
    rows = model_rows(Objective, ("o",), refs)
    assert [f.keys[-1] for f in rows] == list(Objective.model_fields)
    kinds = {f.keys[-1]: f for f in rows}
    assert kinds["kind"].options == OBJECTIVE_KINDS and kinds["wins"].kind == "toggle"
    assert kinds["zone"].options == ("relay",) and kinds["unit"].options == ("Blue-1",)
    assert kinds["units"].options == ("all", "any") and kinds["points"].kind == "line"
    reinforce = {f.keys[-1]: f for f in model_rows(Reinforce, ("r",), refs)}
    assert set(reinforce) == set(Reinforce.model_fields) and reinforce["side"].options == ("Blue", "Red")
    data = {"sides": [{"name": "Blue", "objectives": [{"kind": "hold", "zone": "relay"}]}],
            "triggers": [{"when": {"enters": "relay", "side": "Red"}, "then": [{"door": {"zone": "relay", "open": True}}]}]}
    opened = [f.label.strip() for f in objective_rows(data, 0, refs, ("sides", 0, "objectives", 0))]
    assert opened[:3] == ["objective 1 −", "YAML", "kind"] and opened[-1] == "delete this objective"
    assert [f.label for f in objective_rows(data, 0, refs, None)] == ["objective 1 +"]
    trig = trigger_rows(data, refs, ("triggers", 0))
    labels = [f.label.strip() for f in trig]
    assert labels[:6] == ["trigger 1 −", "YAML", "name", "once", "when", "enters"] and "side" in labels
    assert "zone" in labels and "open" in labels and labels[-2:] == ["+ effect", "delete this trigger"]
    when = next(f for f in trig if f.label.strip() == "when")
    assert isinstance(when, FormField) and when.options == CONDITIONS
    assert next(f for f in trig if f.label.strip() == "then 1").options == EFFECTS  # type: ignore[attr-defined]


def test_an_objective_built_with_the_form(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, WITH_ZONES)
    ed.side, ed.tab = 0, "side"
    frames(app)
    _press(app, next(b.rect for b in ed.buttons.buttons if b.label == "+ objective"))
    assert ed.doc.data["sides"][0]["objectives"] == [{"kind": "eliminate"}] and ed.opened is not None
    # the kind: hold, picked from the loader's kinds; the zone filled in with the first, then picked
    _press(app, _row(ed, "kind"))
    assert [v for _, v in ed.panels.choices] == list(OBJECTIVE_KINDS)
    _press(app, _choice(ed, "hold"))
    assert ed.doc.data["sides"][0]["objectives"] == [{"kind": "hold", "zone": "relay"}]
    _press(app, _row(ed, "zone"))
    assert [v for _, v in ed.panels.choices] == ["relay", "exit"]
    _press(app, _choice(ed, "exit"))
    # rounds typed, wins toggled, points typed
    _press(app, _row(ed, "rounds"))
    type_text("2")
    press(pygame.K_RETURN)
    _press(app, _row(ed, "wins"))
    _press(app, _row(ed, "points"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("5")
    press(pygame.K_RETURN)
    frames(app)
    assert ed.doc.data["sides"][0]["objectives"] == [{"kind": "hold", "zone": "exit", "rounds": 2, "wins": True,
                                                       "points": 5}]
    assert "yes" in _texts(ed)
    scenario, errors = ed.doc.check()
    assert errors == [] and scenario is not None
    # a bad value: the loader names the key
    _press(app, _row(ed, "rounds"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("0")
    press(pygame.K_RETURN)
    frames(app)
    assert "sides[0].objectives[0].rounds" in _texts(ed)
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data["sides"][0]["objectives"][0]["rounds"] == 2 and ed.doc.check()[1] == []
    # kill: the zone and rounds go, a unit comes
    _press(app, _row(ed, "kind"))
    _press(app, _choice(ed, "kill"))
    assert ed.doc.data["sides"][0]["objectives"][0] == {"kind": "kill", "points": 5, "wins": True, "unit": "Red-1"}
    _press(app, _row(ed, "unit"))
    _press(app, _choice(ed, "Red-1"))
    assert ed.doc.check()[1] == []
    press(pygame.K_s, mod=pygame.KMOD_CTRL)
    frames(app)
    back = load_scenario(tmp_path / "duel.yaml")
    assert back.spec.sides[0].objectives[0].unit == "Red-1" and back.spec.sides[0].objectives[0].wins
    # delete, and undo brings it back
    _press(app, _row(ed, "delete this objective"))
    assert ed.doc.data["sides"][0]["objectives"] == []
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.doc.data["sides"][0]["objectives"][0]["unit"] == "Red-1"


def test_a_trigger_built_with_the_form(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path, WITH_ZONES)
    ed.tab = "triggers"
    frames(app)
    _press(app, next(b.rect for b in ed.buttons.buttons if b.label == "+ trigger"))
    assert ed.opened == ("triggers", 0)
    _press(app, _row(ed, "when"))
    assert [v for _, v in ed.panels.choices] == list(CONDITIONS)
    _press(app, _choice(ed, "enters"))
    _press(app, _row(ed, "side"))
    _press(app, _choice(ed, "Red"))
    assert ed.doc.data["triggers"][0]["when"] == {"enters": "relay", "side": "Red"}
    # the effect: a door, then a second effect (reinforcements at the exit)
    _press(app, _row(ed, "then 1"))
    _press(app, _choice(ed, "door"))
    assert ed.doc.data["triggers"][0]["then"] == [{"door": {"zone": "relay", "open": True}}]
    _press(app, _row(ed, "open"))
    _press(app, _row(ed, "+ effect"))
    _press(app, _row(ed, "then 2"))
    _press(app, _choice(ed, "reinforce"))
    rows = [r for r, f in ed.panels.fields if f.keys[-1] == "zone" and "reinforce" in f.keys]
    _press(app, rows[0])
    _press(app, _choice(ed, "exit"))
    _press(app, _row(ed, "once"))
    trig = ed.doc.data["triggers"][0]
    assert trig["then"][0] == {"door": {"zone": "relay", "open": False}} and trig["once"] is False
    assert trig["then"][1]["reinforce"]["zone"] == "exit" and trig["then"][1]["reinforce"]["units"][0]["name"] == "Blue-1-R"
    scenario, errors = ed.doc.check()
    assert errors == [], [e.text for e in errors]
    # a name typed that is no zone: the loader names the key
    _press(app, _row(ed, "enters"))
    press(pygame.K_u, mod=pygame.KMOD_CTRL)
    type_text("nowhere")
    press(pygame.K_RETURN)
    frames(app)
    assert "triggers[0].when.enters" in _texts(ed)
    press(pygame.K_z, mod=pygame.KMOD_CTRL)
    frames(app)
    press(pygame.K_s, mod=pygame.KMOD_CTRL)
    frames(app)
    back = load_scenario(tmp_path / "duel.yaml")
    assert scenario is not None and back.spec == scenario.spec
    # the effect deleted, then the trigger; the folded row unfolds again
    _press(app, _row(ed, "delete then 1"))
    assert [next(iter(e)) for e in ed.doc.data["triggers"][0]["then"]] == ["reinforce"]
    _press(app, _row(ed, "trigger 1 −"))
    assert ed.opened is None and [f.label for _, f in ed.panels.fields] == ["trigger 1 +"]
    _press(app, _row(ed, "trigger 1 +"))
    _press(app, _row(ed, "delete this trigger"))
    assert ed.doc.data["triggers"] == []


def test_the_inspector_scrolls_with_the_wheel_and_to_an_unfolded_form(tmp_path: Path) -> None:
    a = App(size=(900, 600), settings=Settings())
    try:
        ed = _open(a, tmp_path, WITH_ZONES)
        ed.side, ed.tab = 0, "side"
        ed.doc.set(("sides", 0, "objectives"), [{"kind": "survive", "rounds": r} for r in range(1, 9)])
        frames(a)
        first = ed.panels.fields[0][1]
        assert ed.scroll == 0 and first.label == "name"
        assert "more (wheel)" in _texts(ed)
        _move(ed.panels.inspector.center)
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-3))
        frames(a)
        assert ed.scroll == 3 and ed.panels.fields[0][1] != first and "▲ 3 more (wheel)" in _texts(ed)
        # the last objective unfolded: scrolled so that its form shows whole, down to its delete row
        ed.opened = ("sides", 0, "objectives", 7)
        frames(a)
        labels = [f.label.strip() for _, f in ed.panels.fields]
        assert "objective 8 −" in labels and labels[-1] == "delete this objective"
    finally:
        a.close()
