"""The scenario editor's document and files (issue 15, item 2): the Tiled writer round-trip, every shipped
scenario loaded, saved and loaded back identical, edits with undo and redo, the live check naming the key, and
`skirmish edit` on a bad file."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from skirmish.content.scenario import SCENARIOS_DIR, check_input, load_scenario
from skirmish.content.tiled import MAPS_DIR, load_tmj, shipped_tileset
from skirmish.content.tiled_write import map_document, tileset_source, tmj_text, write_tmj
from skirmish.rules.geometry import GridMap
from skirmish.ui.editor.basics import shipped
from skirmish.ui.editor.document import EditorDoc
from tests.conftest import cli

SHIPPED = sorted(p for p in SCENARIOS_DIR.rglob("*.yaml"))


def _tile(name: str) -> int:
    return next(i for i, t in enumerate(shipped_tileset()[0]) if t.name == name)


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(SCENARIOS_DIR)))
def test_every_shipped_scenario_loads_saves_and_loads_back_identical(path: Path, tmp_path: Path) -> None:
    before = load_scenario(path)
    doc = EditorDoc.open(path)
    checked, errors = doc.check()
    assert errors == [] and checked is not None
    assert checked.spec.model_dump(exclude={"map"}) == before.spec.model_dump(exclude={"map"})
    written = doc.save(tmp_path / path.name)
    after = load_scenario(tmp_path / path.name)
    assert after.spec == before.spec  # the map reference too: an inline map stays inline, a .tmj keeps its name
    assert np.array_equal(after.grid.layout, before.grid.layout)
    assert (after.grid.name, after.grid.cell_m, after.grid.tiles) == (before.grid.name, before.grid.cell_m,
                                                                       before.grid.tiles)
    assert after.notes == ()  # the written map finds its tileset (no "using the shipped tileset" warning)
    assert {p.suffix for p in written} == ({".yaml", ".tmj"} if isinstance(before.spec.map, str) else {".yaml"})
    # saved again from what was written: the same bytes (nothing drifts from one save to the next)
    again = EditorDoc.open(tmp_path / path.name)
    again.save(tmp_path / "again.yaml")
    first = (tmp_path / path.name).read_text(encoding="utf-8")
    assert (tmp_path / "again.yaml").read_text(encoding="utf-8") == first


def test_tmj_writer_round_trips_a_painted_map_and_keeps_tileds_other_layers(tmp_path: Path) -> None:
    src = MAPS_DIR / "depot_yard.tmj"
    base = json.loads(src.read_text(encoding="utf-8"))
    base["layers"].append({"id": 9, "name": "notes", "type": "objectgroup", "objects": [{"id": 1, "name": "x"}]})
    grid = load_tmj(src)
    layout = np.array(grid.layout)
    layout[3, 4], layout[0, 0] = _tile("water"), _tile("door")
    painted = GridMap("Painted yard", grid.width, grid.height, grid.tiles, layout, 1.5)
    out = tmp_path / "sub" / "painted.tmj"
    out.parent.mkdir()
    write_tmj(out, painted, base=base)
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["tilesets"][0]["source"] == tileset_source(out)
    assert (out.parent / doc["tilesets"][0]["source"]).resolve() == (MAPS_DIR / "terrain.tsj").resolve()
    assert [ly["name"] for ly in doc["layers"]] == ["terrain", "notes"]  # what Tiled put there is kept
    assert doc["orientation"] == "orthogonal" and doc["infinite"] is False and "encoding" not in doc["layers"][0]
    notes: list[str] = []
    back = load_tmj(out, notes=notes)
    assert notes == [] and np.array_equal(back.layout, layout)
    assert (back.name, back.cell_m, back.width, back.height) == ("Painted yard", 1.5, grid.width, grid.height)
    assert check_input(str(out)).errors == []
    # resized: a new size, the same document otherwise
    small = GridMap("Small", 5, 3, grid.tiles, layout[:3, :5], 2.0)
    text = tmj_text(map_document(small, "terrain.tsj", base))
    assert json.loads(text)["width"] == 5 and len(json.loads(text)["layers"][0]["data"]) == 15
    # a tileset beside the map is the one named
    shutil.copy(MAPS_DIR / "terrain.tsj", out.parent / "terrain.tsj")
    assert tileset_source(out) == "terrain.tsj"


def test_edits_undo_redo_and_the_check_names_the_key(tmp_path: Path) -> None:
    doc = EditorDoc.new()
    assert doc.check()[1] == []
    wall, floor = _tile("wall"), _tile("floor")
    assert doc.paint([(0, 0), (1, 0)], wall) == 2
    assert doc.rect((3, 3), (5, 4), floor) == 6
    assert doc.fill((10, 10), _tile("rubble")) == 24 * 16 - 2 - 6 - 0  # the rest of the open ground
    assert int(doc.layout[10, 10]) == _tile("rubble") and int(doc.layout[3, 3]) == floor
    assert doc.undo() and int(doc.layout[10, 10]) == _tile("ground")
    assert doc.undo() and int(doc.layout[3, 3]) == _tile("ground")
    assert doc.redo() and int(doc.layout[3, 3]) == floor
    assert doc.undo() and doc.undo() and not doc.undo()  # back to the start, no further
    # a unit on a wall, an unknown weapon: the loader's own messages, at the file's key paths
    doc.paint([(5, 5)], wall)
    i = doc.place_unit(0, (5, 5))
    assert doc.get(("sides", 0, "units", i, "name")) == "Blue-2"
    doc.set(("sides", 1, "units", 0, "weapons"), ["lasrifle"])
    errors = [e.text for e in doc.check()[1]]
    assert any("sides[0].units[1].at" in e for e in errors), errors
    assert any("sides[1].units[0].weapons[0]" in e and "lasrifle" in e for e in errors), errors
    doc.move_unit(0, i, (6, 6))
    doc.set(("sides", 1, "units", 0, "weapons"), ["blast_rifle"])
    assert doc.check()[1] == []
    doc.resize(8, 6)  # Red-1 now stands off the map
    assert doc.size == (8, 6) and any("sides[1].units[0].at" in e.text for e in doc.check()[1])
    doc.undo()
    assert doc.size == (24, 16) and doc.check()[1] == []


def test_a_new_scenario_saves_as_a_tiled_map_and_yaml_that_check(tmp_path: Path) -> None:
    doc = EditorDoc.new("fw")
    assert doc.check()[1] == []
    doc.rect((4, 2), (6, 8), _tile("container"))
    doc.set(("name",), "Yard fight")
    doc.map_name = "Yard"
    written = doc.save(tmp_path / "yard_fight.yaml")
    assert sorted(p.name for p in written) == ["new_map.tmj", "yard_fight.yaml"]
    result = check_input(str(tmp_path / "yard_fight.yaml"))
    assert result.errors == [] and result.summary is not None and "Yard fight" in result.summary
    sc = load_scenario(tmp_path / "yard_fight.yaml")
    assert sc.spec.ruleset == "fw" and sc.grid.name == "Yard" and np.array_equal(sc.grid.layout, doc.layout)
    assert not doc.dirty and doc.path == tmp_path / "yard_fight.yaml"


def test_saving_never_writes_a_shipped_map(tmp_path: Path) -> None:
    doc = EditorDoc.open(SCENARIOS_DIR / "depot_breach.yaml")
    assert shipped(SCENARIOS_DIR / "depot_breach.yaml") and not shipped(tmp_path / "x.yaml")
    before = (MAPS_DIR / "depot_yard.tmj").read_bytes()
    doc.paint([(1, 1)], _tile("water"))
    doc.save(tmp_path / "mine.yaml")
    assert (MAPS_DIR / "depot_yard.tmj").read_bytes() == before
    assert load_scenario(tmp_path / "mine.yaml").grid.layout[1, 1] == _tile("water")


def test_cli_edit_refuses_a_bad_scenario_with_the_loaders_line(tmp_path: Path) -> None:
    bad = tmp_path / "BAD.yaml"
    bad.write_text("name: Bad\nmap: {ascii: ['...']}\nsides: 3\n", encoding="utf-8")
    code, out, err = cli("edit", str(bad))
    assert code == 2 and out == ""
    assert err.strip() == f"skirmish: {bad}: sides: Input should be a valid list, got 3"
    code, _, err = cli("edit", str(tmp_path / "missing.yaml"))
    assert code == 2 and "missing.yaml" in err and "Traceback" not in err
    code, _, err = cli("edit", "--ruleset", "xx")
    assert code == 2 and "--ruleset 'xx'" in err


def test_zones_drawn_in_tiled_are_checked_and_kept(tmp_path: Path) -> None:
    base = json.loads((MAPS_DIR / "depot_yard.tmj").read_text(encoding="utf-8"))
    base["tilesets"][0]["source"] = tileset_source(tmp_path / "yard.tmj")
    base["layers"].append({"id": 5, "name": "zones", "type": "objectgroup", "objects": [
        {"id": 1, "name": "gate", "x": 64, "y": 64, "width": 96, "height": 64}]})
    (tmp_path / "yard.tmj").write_text(json.dumps(base), encoding="utf-8")
    text = (SCENARIOS_DIR / "depot_breach.yaml").read_text(encoding="utf-8").replace("map: depot_yard.tmj",
                                                                                      "map: yard.tmj")
    text = text.replace("  - name: Guards\n", "  - name: Guards\n    objectives: [{kind: reach, zone: gate}]\n")
    (tmp_path / "a.yaml").write_text(text, encoding="utf-8")
    before = load_scenario(tmp_path / "a.yaml")
    assert before.zones["gate"] == tuple((x, y) for y in (2, 3) for x in (2, 3, 4))
    doc = EditorDoc.open(tmp_path / "a.yaml")
    checked, errors = doc.check()
    assert errors == [] and checked is not None and checked.zones == before.zones
    doc.paint([(3, 3)], _tile("water"))
    (tmp_path / "out").mkdir()
    doc.save(tmp_path / "out" / "a.yaml")
    after = load_scenario(tmp_path / "out" / "a.yaml")
    assert after.zones == before.zones and after.spec == before.spec and int(after.grid.layout[3, 3]) == _tile("water")
    saved = json.loads((tmp_path / "out" / "yard.tmj").read_text(encoding="utf-8"))
    assert [ly["type"] for ly in saved["layers"]] == ["tilelayer", "objectgroup"]


def test_the_glyph_table_in_files_md_is_the_shipped_tilesets() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "FILES.md").read_text(encoding="utf-8")
    section = text.split("## Maps by hand")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    tiles, glyphs = shipped_tileset()
    assert len(rows) == len(tiles)
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        tid = int(cells[1])
        assert glyphs[cells[0].strip("`")] == tid and int(cells[2]) == tid + 1 and cells[3] == tiles[tid].name
        assert int(cells[4].split()[0]) == tiles[tid].move_cost and cells[6] == tiles[tid].cover
        assert (cells[5] == "yes") == tiles[tid].blocks_sight and int(cells[7]) == tiles[tid].cover_av


def test_cli_edit_opens_the_editor_on_a_good_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))
    code, _, err = cli("edit", str(SCENARIOS_DIR / "fw" / "scout_run.yaml"), "--frames", "2")
    assert (code, err) == (0, "")
    code, _, err = cli("edit", "--ruleset", "fw", "--frames", "2")
    assert (code, err) == (0, "")
    code, _, err = cli("edit", str(SCENARIOS_DIR / "depot_breach.yaml"), "--ruleset", "fw")
    assert code == 2 and "--ruleset is for a new scenario" in err
