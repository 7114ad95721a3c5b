"""Input that cannot hurt (C-6, issue 10): every damaged scenario, map, tileset or stacked deck gives one line
naming the file, the key path and what was expected, through the real CLI; never a traceback, a hang or a
memory blow-up; and the limits of docs/FILES.md hold."""

from __future__ import annotations

import json
import os
import re
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from skirmish.content import tiled
from skirmish.content.errors import ContentError
from skirmish.content.scenario import (
    MAX_ROUNDS,
    MAX_SIDES,
    MAX_UNITS,
    MAX_UNITS_PER_SIDE,
    Options,
    SideSpec,
    check_scenario,
    load_scenario,
    parse_scenario,
)
from skirmish.rules.deck import MAX_STACKED_CARDS, builtin
from tests.conftest import cli

ROOT = Path(__file__).resolve().parents[1]
DEPOT = (ROOT / "scenarios/depot_breach.yaml").read_text(encoding="utf-8")
KILLHOUSE = (ROOT / "scenarios/killhouse_drill.yaml").read_text(encoding="utf-8")
MAP = json.loads((ROOT / "maps/depot_yard.tmj").read_text(encoding="utf-8"))
TILESET = json.loads((ROOT / "maps/terrain.tsj").read_text(encoding="utf-8"))
CARDS = [c.to_json() for c in builtin("A")[:6]]
UNIT = ("{name: %s, at: [%d, %d], traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, "
        "acuity: II-2}, weapons: [blast_pistol]}")


# ------------------------------------------------------------------------------------------------ helpers


def refused(*argv: str) -> str:
    """The one stderr line of a command that must exit 2."""
    code, out, err = cli(*argv)
    lines = err.splitlines()
    assert code == 2, (code, out, err)
    assert len(lines) == 1 and lines[0].startswith("skirmish: ") and "Traceback" not in err, err
    return lines[0]


def world(tmp: Path, *, scenario: str | None = None, tmj: Any = None, tsj: Any = None, deck: Any = None) -> Path:
    """The depot scenario on a copy of its map and tileset beside it, with a stacked deck; any of the four
    replaced (objects are written as JSON, str/bytes as they are). Returns the scenario's path."""
    text = DEPOT.replace("map: depot_yard.tmj", "map: yard.tmj\ndeck: {cards: deck.json, shuffle: false}")
    for name, value, default in (("s.yaml", scenario, text), ("yard.tmj", tmj, MAP), ("terrain.tsj", tsj, TILESET),
                                 ("deck.json", deck, CARDS)):
        value = default if value is None else value
        if isinstance(value, bytes):
            (tmp / name).write_bytes(value)
        else:
            (tmp / name).write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return tmp / "s.yaml"


def edit(doc: Any, change: Callable[[Any], Any]) -> Any:
    copy = json.loads(json.dumps(doc))
    change(copy)
    return copy


def set_prop(obj: dict[str, Any], name: str, value: Any) -> None:
    for p in obj["properties"]:
        if p["name"] == name:
            p["value"] = value
            return
    obj["properties"].append({"name": name, "type": "string", "value": value})


def killhouse(tmp: Path, change: Callable[[str], str]) -> Path:
    path = tmp / "k.yaml"
    path.write_text(change(KILLHOUSE), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------ the good case
def test_the_world_is_good(tmp_path: Path) -> None:
    code, out, err = cli("check", str(world(tmp_path)))
    assert code == 0 and err == "" and out.startswith("ok: ")
    for kind in ("yard.tmj", "terrain.tsj", "deck.json"):
        code, out, err = cli("check", str(tmp_path / kind))
        assert code == 0 and err == "" and out.startswith(f"ok: {tmp_path / kind}: "), (out, err)


# ------------------------------------------------------------------------------------ bytes and text
def _truncated(b: bytes) -> bytes:
    """The file cut short just inside a bracket it never closes, about halfway: no format reads that whole,
    whatever the file's length or where its lines fall (a cut between two YAML lines could still parse)."""
    cut = len(b) // 2
    i = max(b.rfind(b"{", 0, cut), b.rfind(b"[", 0, cut))
    return b[: i + 1] if i >= 0 else b[:cut]


@pytest.mark.parametrize("target", ["s.yaml", "yard.tmj", "terrain.tsj", "deck.json"])
@pytest.mark.parametrize(("damage", "expect"), [
    (lambda b: b[:40] + b"\xff\xfe" + b[40:], "not UTF-8 text (byte 0xff)"),
    (lambda b: b[:40] + b"\0" + b[40:], "contains a NUL byte"),
    (lambda b: _truncated(b), "not valid"),
], ids=["non-utf8", "nul", "truncated"])
def test_damaged_bytes_name_the_file(tmp_path: Path, target: str, damage: Callable[[bytes], bytes],
                                     expect: str) -> None:
    s = world(tmp_path)
    (tmp_path / target).write_bytes(damage((tmp_path / target).read_bytes()))
    line = refused("check", str(s))
    assert line.startswith(f"skirmish: {s}: ") and expect in line
    if target != "s.yaml":
        assert f": {target}: " in line
    line = refused("run", str(s))
    assert expect in line


@pytest.mark.parametrize("target", ["s.yaml", "yard.tmj", "terrain.tsj", "deck.json"])
def test_deep_nesting_is_refused(tmp_path: Path, target: str) -> None:
    deep = "[" * 50_000 + "]" * 50_000
    if target == "s.yaml":
        s = world(tmp_path, scenario=DEPOT.replace("seed: 48", f"seed: {deep}"))
    else:
        kind = {"yard.tmj": "tmj", "terrain.tsj": "tsj", "deck.json": "deck"}[target]
        s = world(tmp_path, **{kind: '{"a": ' + deep + "}"})
    assert "nested deeper" in refused("check", str(s))
    # Shallow enough for the parser, too deep for the checks that follow.
    if target == "s.yaml":
        s = world(tmp_path, scenario=DEPOT.replace("seed: 48", "seed: " + "[" * 30 + "]" * 30))
        assert "seed[0]" in refused("check", str(s))


def test_yaml_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(8))
    path = tmp_path / "bomb.yaml"
    path.write_text(bomb)
    t0 = time.perf_counter()
    assert "more than 50000 values" in refused("check", str(path))
    assert time.perf_counter() - t0 < 5
    path.write_text("a: &a [*a]\n")  # a list that contains itself
    assert "nested deeper" in refused("check", str(path))


def test_numbers_of_thousands_of_digits(tmp_path: Path) -> None:
    s = world(tmp_path, scenario=DEPOT.replace("seed: 48", "seed: " + "9" * 5000))
    assert "too many digits" in refused("check", str(s))
    s = world(tmp_path, tmj=json.dumps(MAP).replace('"width": 40', '"width": ' + "9" * 5000))
    assert "yard.tmj" in refused("check", str(s))
    s = world(tmp_path, scenario=DEPOT.replace("at: [6, 2]", "at: [" + "9" * 4000 + ", 2]"))
    line = refused("check", str(s))
    assert "off the map" in line and len(line) < 300


@pytest.mark.parametrize("name", ["Raider-1\nresult: winner=Guards rounds=1 seed=1", "Raider\x1b[31m", "Rai\u2028der",
                                  "Raider\u202e", "Raider\0", "Rai\ud800der"])
def test_names_with_control_characters_are_refused(tmp_path: Path, name: str) -> None:
    quoted = json.dumps(name)  # YAML double-quoted escapes are JSON's
    s = world(tmp_path, scenario=DEPOT.replace("name: Raider-1,", f"name: {quoted},"))
    line = refused("check", str(s))
    assert "sides[0].units[0].name" in line and "control characters" in line
    assert "result:" not in line.split("got", 1)[0]


def test_keys_with_newlines_cannot_forge_a_line(tmp_path: Path) -> None:
    s = world(tmp_path, scenario=DEPOT.replace("victory:", '"x\\nresult: winner=Guards rounds=1 seed=1": 1\nvictory:'))
    line = refused("check", str(s))
    assert "a key may not contain control characters" in line
    s = world(tmp_path, scenario=DEPOT.replace("victory:", "7: 1\nvictory:"))
    assert "keys must be text" in refused("check", str(s))


def test_messages_quoting_user_text_stay_one_line(tmp_path: Path) -> None:
    for change in (lambda t: t.replace("weapons: [blast_carbine]", 'weapons: ["a\\nresult: winner=X"]', 1),
                   lambda t: t.replace("controller: ai", 'controller: "ai\\nresult: x"', 1),
                   lambda t: t.replace("ruleset: fi", 'ruleset: "\\n\\n"'),
                   lambda t: t.replace("map: depot_yard.tmj", 'map: "x\\ny.tmj"')):
        refused("check", str(world(tmp_path, scenario=change(DEPOT))))
    err = ContentError("a\nb.yaml", "c\rd", "e\u2028f\x85g\x1b")
    assert err.text == "a\\nb.yaml: c\\rd: e\\u2028f\\x85g\\x1b" and len(str(err).splitlines()) == 1


# ------------------------------------------------------------------------------------- Tiled maps
@pytest.mark.parametrize(("change", "where", "expect"), [
    (lambda m: set_prop(m, "cell_m", "abc"), "properties[1].value", "cell_m: expected metres per cell"),
    (lambda m: set_prop(m, "cell_m", float("nan")), "properties[1].value", "got NaN"),
    (lambda m: set_prop(m, "cell_m", float("inf")), "properties[1].value", "got Infinity"),
    (lambda m: set_prop(m, "cell_m", -2), "properties[1].value", "got -2"),
    (lambda m: set_prop(m, "cell_m", 0), "properties[1].value", "got 0"),
    (lambda m: m["layers"][0]["data"].__setitem__(7, None), "layers[0].data[7]", "got null"),
    (lambda m: m["layers"][0]["data"].__setitem__(7, float("inf")), "layers[0].data[7]", "got Infinity"),
    (lambda m: m["layers"][0]["data"].__setitem__(7, 1.5), "layers[0].data[7]", "got 1.5"),
    (lambda m: m["layers"][0]["data"].__setitem__(7, "4"), "layers[0].data[7]", "got '4'"),
    (lambda m: m["layers"][0]["data"].__setitem__(7, True), "layers[0].data[7]", "got true"),
    (lambda m: m["layers"][0]["data"].__setitem__(7, 99), "layers[0].data[7]", "not in the tileset"),
    (lambda m: m["layers"][0]["data"].pop(), "layers[0].data", "expected 1200 tile ids"),
    (lambda m: m.__setitem__("width", 0), "width", f"expected an integer 1-{tiled.MAX_MAP_SIDE}, got 0"),
    (lambda m: m.__setitem__("height", -30), "height", "got -30"),
    (lambda m: m.__setitem__("width", "40"), "width", "got '40'"),
    (lambda m: m["tilesets"][0].pop("firstgid"), "tilesets[0].firstgid", "got null"),
    (lambda m: m.__setitem__("layers", [None]), "layers[0]", "expected a layer object, got null"),
    (lambda m: m.__setitem__("layers", {}), "layers", "expected a list of layers"),
    (lambda m: m["layers"][0].__setitem__("type", "objectgroup"), "layers", "no tile layer"),
    (lambda m: m["layers"][0].__setitem__("encoding", "base64"), "layers[0].encoding", "expected CSV"),
    (lambda m: m.__setitem__("properties", None), "properties", "got null"),
    (lambda m: m.__setitem__("properties", "cell_m=2"), "properties", "expected a list of Tiled properties"),
    (lambda m: m.__setitem__("properties", [7]), "properties[0]", "expected a property"),
    (lambda m: m["properties"].__setitem__(0, {"value": 1}), "properties[0].name", "expected the property's name"),
    (lambda m: set_prop(m, "name", "Yard\nresult: x"), "properties[0].value", "control characters"),
    (lambda m: m.__setitem__("tilesets", [None]), "tilesets[0]", "got null"),
    (lambda m: m.__setitem__("tilesets", "terrain.tsj"), "tilesets", "expected a list"),
    (lambda m: m.__setitem__("tilesets", []), "tilesets", "expected a list"),
    (lambda m: m["tilesets"][0].__setitem__("firstgid", "1"), "tilesets[0].firstgid", "got '1'"),
    (lambda m: m["tilesets"][0].__setitem__("firstgid", 0), "tilesets[0].firstgid", "got 0"),
    (lambda m: m["tilesets"][0].__setitem__("firstgid", 1e30), "tilesets[0].firstgid", "got 1e+30"),
    (lambda m: m["tilesets"][0].pop("source"), "tilesets[0]", "expected an external tileset"),
    (lambda m: m["tilesets"][0].__setitem__("source", 5), "tilesets[0].source", "expected a tileset file name"),
    (lambda m: m.__setitem__("infinite", True), "infinite", "infinite Tiled map"),
])
def test_damaged_map_values(tmp_path: Path, change: Callable[[Any], Any], where: str, expect: str) -> None:
    s = world(tmp_path, tmj=edit(MAP, change))
    line = refused("check", str(s))
    assert line.startswith(f"skirmish: {s}: map: yard.tmj: {where}: "), line
    assert expect in line
    line = refused("check", str(tmp_path / "yard.tmj"))
    assert line.startswith(f"skirmish: {tmp_path / 'yard.tmj'}: {where}: ") and expect in line


def test_map_literal_1e400(tmp_path: Path) -> None:
    text = json.dumps(MAP).replace('"data": [4,', '"data": [1e400,', 1)
    assert "1e400" in text
    line = refused("check", str(world(tmp_path, tmj=text)))
    assert "layers[0].data[0]: expected a tile id" in line and "Infinity" in line


@pytest.mark.parametrize(("w", "h"), [(3000, 3000), (129, 10), (10, 129), (128, 129)])
def test_oversized_maps_are_refused_before_reading_cells(tmp_path: Path, w: int, h: int) -> None:
    big = edit(MAP, lambda m: m.update(width=w, height=h))  # data left at 1200 cells: never looked at
    tracemalloc.start()
    t0 = time.perf_counter()
    line = refused("check", str(world(tmp_path, tmj=big)))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert time.perf_counter() - t0 < 5 and peak < 50 * 2**20
    assert "too large" in line or f"expected an integer 1-{tiled.MAX_MAP_SIDE}" in line


def test_largest_allowed_map_loads(tmp_path: Path) -> None:
    w, h = tiled.MAX_MAP_SIDE, tiled.MAX_MAP_CELLS // tiled.MAX_MAP_SIDE
    grid = edit(MAP, lambda m: m.update(width=w, height=h))
    grid["layers"][0].update(width=w, height=h, data=[1] * (w * h))
    (tmp_path / "big.tmj").write_text(json.dumps(grid))
    (tmp_path / "terrain.tsj").write_text(json.dumps(TILESET))
    g = tiled.load_tmj(tmp_path / "big.tmj")
    assert (g.width, g.height) == (w, h) == (128, 128)


def test_scenario_names_a_missing_map_as_written(tmp_path: Path) -> None:
    s = world(tmp_path, scenario=DEPOT.replace("map: depot_yard.tmj", "map: nowhere/yard.tmj"))
    line = refused("check", str(s))
    assert "map: map file 'nowhere/yard.tmj' not found" in line
    assert str(ROOT) not in line and str(tiled.MAPS_DIR) not in line


# ------------------------------------------------------------------------------------------ tilesets
def tile(i: int) -> Callable[[Any], Any]:
    return lambda t: t["tiles"][i]


@pytest.mark.parametrize(("change", "where", "expect"), [
    (lambda t: t["tiles"][2].__setitem__("id", 1.5), "tiles[2].id", "got 1.5"),
    (lambda t: t["tiles"][2].__setitem__("id", 1), "tiles[2].id", "tile id 1 is defined twice"),
    (lambda t: t["tiles"][2].__setitem__("id", 12), "tiles[2].id", "expected an integer 0-11"),
    (lambda t: set_prop(t["tiles"][2], "blocks_sight", "false"), "tiles[2].properties[2].value",
     "blocks_sight: expected true or false, got 'false'"),
    (lambda t: set_prop(t["tiles"][2], "blocks_sight", 1), "tiles[2].properties[2].value", "got 1"),
    (lambda t: set_prop(t["tiles"][3], "cover_av", 32768), "tiles[3].properties[4].value", "cover_av: expected an integer 0-99"),
    (lambda t: set_prop(t["tiles"][3], "cover_av", -1), "tiles[3].properties[4].value", "got -1"),
    (lambda t: set_prop(t["tiles"][2], "move_cost", float("inf")), "tiles[2].properties[1].value", "move_cost:"),
    (lambda t: set_prop(t["tiles"][2], "move_cost", -2), "tiles[2].properties[1].value", "got -2"),
    (lambda t: set_prop(t["tiles"][2], "move_cost", 1.5), "tiles[2].properties[1].value", "got 1.5"),
    (lambda t: set_prop(t["tiles"][2], "cover", "medium"), "tiles[2].properties[3].value", "none, low or high"),
    (lambda t: set_prop(t["tiles"][2], "glyph", "::"), "tiles[2].properties[0].value", "one printable character"),
    (lambda t: set_prop(t["tiles"][2], "glyph", ","), "tiles[2].properties[0].value", "also tile 1's"),
    (lambda t: t.__setitem__("tilecount", 10**9), "tilecount", "expected an integer 1-256"),
    (lambda t: t.__setitem__("tilecount", 13), "tiles", "tile id 12 (of tilecount 13) has no rule properties"),
    (lambda t: t.__setitem__("tilecount", "12"), "tilecount", "got '12'"),
    (lambda t: t.__setitem__("tiles", {}), "tiles", "expected a list of tiles"),
    (lambda t: t["tiles"].__setitem__(4, None), "tiles[4]", "expected a tile object, got null"),
    (lambda t: t["tiles"][4].__setitem__("properties", None), "tiles[4].properties", "got null"),
    (lambda t: t["tiles"][4].__setitem__("properties", [[]]), "tiles[4].properties[0]", "expected a property"),
    (lambda t: t["tiles"][4].pop("type"), "tiles[4]", "expected the terrain's name"),
    (lambda t: t["tiles"][4].__setitem__("type", "a\nb"), "tiles[4].type", "control characters"),
])
def test_damaged_tileset_values_name_the_tileset(tmp_path: Path, change: Callable[[Any], Any], where: str,
                                                 expect: str) -> None:
    s = world(tmp_path, tsj=edit(TILESET, change))
    line = refused("check", str(s))
    assert line.startswith(f"skirmish: {s}: map: yard.tmj: tilesets[0].source: terrain.tsj: {where}: "), line
    assert expect in line
    line = refused("check", str(tmp_path / "terrain.tsj"))
    assert line.startswith(f"skirmish: {tmp_path / 'terrain.tsj'}: {where}: ") and expect in line


def test_huge_tilecount_allocates_nothing(tmp_path: Path) -> None:
    (tmp_path / "t.tsj").write_text(json.dumps(edit(TILESET, lambda t: t.__setitem__("tilecount", 10**9))))
    tracemalloc.start()
    with pytest.raises(ContentError, match="tilecount"):
        tiled.load_tileset(tmp_path / "t.tsj")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 20 * 2**20


def test_missing_tileset_falls_back_to_the_shipped_one(tmp_path: Path) -> None:
    s = world(tmp_path)
    (tmp_path / "terrain.tsj").unlink()
    sc = load_scenario(s)
    assert sc.grid.width == 40 and len(sc.notes) == 1
    assert sc.notes[0] == (f"{s}: map: yard.tmj: tilesets[0].source: tileset 'terrain.tsj' not found beside the "
                           "map; using the shipped terrain.tsj")
    code, out, err = cli("check", str(s))
    assert code == 0 and out.startswith(f"ok: {s}: ")
    assert err == f"skirmish: warning: {sc.notes[0]}\n"
    assert sc.with_options(randomizer="dice").notes == sc.notes
    code, out, err = cli("check", str(tmp_path / "yard.tmj"))
    assert code == 0 and err == (f"skirmish: warning: {tmp_path / 'yard.tmj'}: tilesets[0].source: tileset "
                                 "'terrain.tsj' not found beside the map; using the shipped terrain.tsj\n")
    # A map whose ids the shipped tileset lacks says the fallback was used.
    world(tmp_path, tmj=edit(MAP, lambda m: m["layers"][0]["data"].__setitem__(0, 40)))
    (tmp_path / "terrain.tsj").unlink()
    line = refused("check", str(s))
    assert line.endswith("tile id 40 is not in the tileset (ids 1-12; cell 0,0); 'terrain.tsj' was not found, "
                         "so the shipped terrain.tsj was used"), line
    # A tileset that is there but damaged is an error, not a fallback.
    (tmp_path / "terrain.tsj").write_text("{")
    assert "terrain.tsj: line 1: not valid JSON" in refused("check", str(s))


# ------------------------------------------------------------------------------------ stacked decks
def card_edit(i: int, change: Callable[[dict[str, Any]], Any]) -> list[dict[str, Any]]:
    cards = json.loads(json.dumps(CARDS))
    change(cards[i])
    return cards


@pytest.mark.parametrize(("deck", "expect"), [
    (card_edit(3, lambda c: c.update(number=0)), "[3].number: expected an integer 1-54, got 0"),
    (card_edit(3, lambda c: c.update(clock=13)), "[3].clock: expected an integer 1-12, got 13"),
    (card_edit(3, lambda c: c.update(fragment=-1)), "[3].fragment: expected an integer 0-5, got -1"),
    (card_edit(3, lambda c: c.update(step=15)), "[3].step: expected an integer 0-14, got 15"),
    (card_edit(3, lambda c: c.update(impulse=54)), "[3].impulse: expected an integer 0-53, got 54"),
    (card_edit(3, lambda c: c.update(special="foo")), "[3].special: expected one of null, 'bonus', 'discard', got 'foo'"),
    (card_edit(3, lambda c: c.update(burst=[])), "[3].burst: expected an object with 3, 5, 10, got an empty list"),
    (card_edit(3, lambda c: c.update(burst={})), "[3].burst.3: required key is missing"),
    (card_edit(3, lambda c: c["burst"].update({"5": -1})), "[3].burst.5: expected an integer 1-5, got -1"),
    (card_edit(3, lambda c: c["burst"].update({"10": 11})), "[3].burst.10: expected an integer 1-10, got 11"),
    (card_edit(3, lambda c: c.update(clock=10**30)), "[3].clock: expected an integer 1-12, got a huge integer"),
    (card_edit(3, lambda c: c.update(clock="3")), "[3].clock: expected an integer 1-12, got '3'"),
    (card_edit(3, lambda c: c.update(clock=3.0)), "[3].clock: expected an integer 1-12, got 3.0"),
    (card_edit(3, lambda c: c.update(toggle="false")), "[3].toggle: expected true or false, got 'false'"),
    (card_edit(3, lambda c: c.update(toggle=0)), "[3].toggle: expected true or false, got 0"),
    (card_edit(3, lambda c: c["upper"]["II"].__setitem__(1, {"value": 0, "explodes": False})),
     "[3].upper.II[1].value: expected an integer 1-99, got 0"),
    (card_edit(3, lambda c: c["upper"]["II"].__setitem__(1, "cf")), "[3].upper.II[1]: expected \"CF\""),
    (card_edit(3, lambda c: c["upper"].pop("VI")), "[3].upper.VI: required key is missing"),
    (card_edit(3, lambda c: c["lower"]["I"].append(3)), "[3].lower.I: expected a list of 7 integers, got a list of 8"),
    (card_edit(3, lambda c: c["lower"]["I"].__setitem__(0, -1)), "[3].lower.I[0]: expected an integer 0-999"),
    (card_edit(3, lambda c: c["hit_locations"].update(stack=["head", "head", "chest", "belly"])),
     "[3].hit_locations.stack: expected four different locations"),
    (card_edit(3, lambda c: c["hit_locations"].update(stack=["tail", "head", "chest", "belly"])),
     "[3].hit_locations.stack[0]: expected one of"),
    (card_edit(3, lambda c: c["hit_locations"].update(standard=4)), "[3].hit_locations.standard: expected an integer 0-3"),
    (card_edit(3, lambda c: c["hit_locations"].update(prone=[1, 0, 0, 0])), "[3].hit_locations.prone[0]: expected true or false"),
    (card_edit(3, lambda c: c.update(ablation=["P", "A"])), "[3].ablation: expected a list of 3 of P, A, D"),
    (card_edit(3, lambda c: c.update(ablation=["P", "A", "X"])), "[3].ablation[2]: expected one of"),
    (card_edit(3, lambda c: c.update(breakdown="Z")), "[3].breakdown: expected one of null, 'V', 'R', 'F', 'E'"),
    (card_edit(3, lambda c: c["scatter"].update(thrown=11)), "[3].scatter.thrown: expected an integer 0-10"),
    (card_edit(3, lambda c: c.update(unintended=[False] * 9)), "[3].unintended: expected a list of 10 booleans"),
    (card_edit(3, lambda c: c.update(extra=1)), "[3].extra: unknown key"),
    (card_edit(3, lambda c: c.pop("clock")), "[3].clock: required key is missing"),
    (card_edit(3, lambda c: c.clear()), "[3].number: required key is missing"),
    ([None], "[0]: expected an object with number"),
    ({"cards": CARDS}, "expected a JSON list of 1-540 cards (C-2) in draw order, got an object"),
    ([], "expected a JSON list of 1-540 cards (C-2) in draw order, got an empty list"),
    ("null", "got null"),
    (CARDS * 91, "got a list of 546"),
])
def test_damaged_deck_fields(tmp_path: Path, deck: Any, expect: str) -> None:
    s = world(tmp_path, deck=deck)
    line = refused("check", str(s))
    assert line.startswith(f"skirmish: {s}: deck.cards: deck.json: "), line
    assert expect in line
    if not isinstance(deck, dict):  # `check x.json` reads an object as a Tiled map
        line = refused("check", str(tmp_path / "deck.json"))
        assert line.startswith(f"skirmish: {tmp_path / 'deck.json'}: ") and expect in line


def test_deck_limit_is_540_cards(tmp_path: Path) -> None:
    assert MAX_STACKED_CARDS == 540
    cli_ok = cli("check", str(world(tmp_path, deck=CARDS * 90)))
    assert cli_ok[0] == 0, cli_ok


def test_missing_deck_named_as_written(tmp_path: Path) -> None:
    s = world(tmp_path)
    (tmp_path / "deck.json").unlink()
    line = refused("check", str(s))
    assert line == f"skirmish: {s}: deck.cards: deck file 'deck.json' not found beside the scenario"


# ---------------------------------------------------------------------------- devices, FIFOs, sizes
@pytest.mark.parametrize("target", ["s.yaml", "yard.tmj", "terrain.tsj", "deck.json"])
def test_fifo_never_blocks(tmp_path: Path, target: str) -> None:
    s = world(tmp_path)
    (tmp_path / target).unlink()
    os.mkfifo(tmp_path / target)
    for cmd in ("check", "run"):
        line = refused(cmd, str(s))
        assert "is not a regular file" in line and (target == "s.yaml" or f": {target}: " in line)


@pytest.mark.parametrize("target", ["s.yaml", "yard.tmj", "terrain.tsj", "deck.json"])
def test_devices_and_directories_are_refused(tmp_path: Path, target: str) -> None:
    s = world(tmp_path)
    (tmp_path / target).unlink()
    (tmp_path / target).symlink_to("/dev/zero")
    assert "is not a regular file" in refused("check", str(s))
    (tmp_path / target).unlink()
    (tmp_path / target).mkdir()
    assert "is a directory" in refused("check", str(s))
    assert "is not a regular file" in refused("check", "/dev/zero")


@pytest.mark.parametrize(("target", "limit"), [("s.yaml", "512 KiB"), ("yard.tmj", "4.0 MiB"),
                                               ("terrain.tsj", "1.0 MiB"), ("deck.json", "4.0 MiB")])
def test_files_over_the_size_limit(tmp_path: Path, target: str, limit: str) -> None:
    s = world(tmp_path)
    with open(tmp_path / target, "r+b") as f:
        f.truncate(5 * 2**30)  # a sparse 5 GiB file: refused from its size, never read
    t0 = time.perf_counter()
    line = refused("check", str(s))
    assert f"the file is 5.0 GiB; the limit is {limit}" in line and time.perf_counter() - t0 < 5


# ------------------------------------------------------------------------------- scenario limits
def crowd(per_side: list[int]) -> str:
    sides = []
    n = 0
    for si, count in enumerate(per_side):
        units = []
        for _ in range(count):
            units.append("      - " + UNIT % (f"U{n}", 1 + n % 18, 1 + n // 18 % 12))
            n += 1
        sides.append(f"  - name: S{si}\n    units:\n" + "\n".join(units) if units else f"  - name: S{si}\n    units: []")
    head = KILLHOUSE.split("sides:")[0].replace("#,,xx,,,,,,,,,,xx,,#", "#,,,,,,,,,,,,,,,,,,#")
    head = re.sub(r"    - \"#,,,,,,,====,,,,,,,#\"", '    - "#,,,,,,,,,,,,,,,,,,#"', head)
    head = head.replace('"#,,###D##,,##D###,,#"', '"#,,,,,,,,,,,,,,,,,,#"').replace('"#,,######,,######,,#"',
                                                                            '"#,,,,,,,,,,,,,,,,,,#"')
    head = head.replace('"#,,#....#,,#....#,,#"', '"#,,,,,,,,,,,,,,,,,,#"').replace('"#,,#....D,,D....#,,#"',
                                                                            '"#,,,,,,,,,,,,,,,,,,#"')
    head = head.replace('"#,,,xx,,,,,,,,xx,,,#"', '"#,,,,,,,,,,,,,,,,,,#"')  # the range's crate stacks
    return head + "sides:\n" + "\n".join(sides) + "\n"


def test_unit_and_side_limits(tmp_path: Path) -> None:
    assert (MAX_SIDES, MAX_UNITS_PER_SIDE, MAX_UNITS, MAX_ROUNDS) == (8, 32, 64, 100)
    ok = tmp_path / "ok.yaml"
    ok.write_text(crowd([32, 32]))
    assert cli("check", str(ok))[0] == 0
    cases = {
        "per-side": ([33, 1], "sides[0].units: List should have at most 32 items"),
        "total": ([30, 30, 10], "sides: 70 units in all; the limit is 64"),
        "sides": ([1] * 9, "sides: List should have at most 8 items"),
        "no-units": ([2, 0], "sides[1].units: a side needs at least one unit"),
        "one-side": ([2], "sides: a scenario needs at least two sides"),
    }
    for name, (counts, expect) in cases.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(crowd(counts))
        code, _, err = cli("check", str(path))
        assert code == 2 and expect in err and "Traceback" not in err, (name, err)


def test_twenty_thousand_units_are_refused_quickly(tmp_path: Path) -> None:
    text = crowd([1, 1]).replace("      - {name: U0,", "      - &u {name: U0,", 1)
    text = text.replace("  - name: S1\n", "    # 20,000 more\n" + "      - *u\n" * 20_000 + "  - name: S1\n")
    path = tmp_path / "many.yaml"
    path.write_text(text)
    t0 = time.perf_counter()
    line = refused("check", str(path))
    assert "more than 50000 values" in line and time.perf_counter() - t0 < 10


def test_rounds_and_orders_limits(tmp_path: Path) -> None:
    path = killhouse(tmp_path, lambda t: t.replace("max_rounds: 25", "max_rounds: 101"))
    assert "victory.max_rounds: Input should be less than or equal to 100, got 101" in refused("check", str(path))
    orders = "    orders: [" + ", ".join(["'end Blue-1'"] * 501) + "]\n"
    path = killhouse(tmp_path, lambda t: t.replace("    controller: ai\n", "    controller: scripted\n" + orders, 1))
    assert "sides[0].orders: List should have at most 500 items" in refused("check", str(path))


def test_duplicate_names(tmp_path: Path) -> None:
    path = killhouse(tmp_path, lambda t: t.replace("name: Red\n", "name: Blue\n"))
    assert refused("check", str(path)).endswith("sides[1].name: duplicate side name 'Blue' (also sides[0])")
    path = killhouse(tmp_path, lambda t: t.replace("name: Red-2", "name: Blue-1"))
    assert refused("check", str(path)).endswith(
        "sides[1].units[1].name: duplicate unit name 'Blue-1' (also sides[0].units[0])")
    path = killhouse(tmp_path, lambda t: t.replace("name: Red\n", "name: draw\n"))
    assert "'draw' cannot name a side" in refused("check", str(path))


def test_inline_map_errors_name_the_row(tmp_path: Path) -> None:
    path = killhouse(tmp_path, lambda t: t.replace('- "#,,,,,,,====,,,,,,,#"', "- 5", 1))
    assert refused("check", str(path)).endswith("map.ascii[3]: Input should be a valid string, got 5")
    path = killhouse(tmp_path, lambda t: t.replace('- "#,,xx,,,,,,,,,,xx,,#"', '- "#,,xx,,,,,,,,,,xx,,"', 1))
    assert refused("check", str(path)).endswith("map.ascii[2]: row has 19 cells, expected 20")
    path = killhouse(tmp_path, lambda t: t.replace("  name: Killhouse", "  name: Killhouse\n  cell_m: .nan"))
    assert "map.cell_m: Input should be a finite number" in refused("check", str(path))
    path = killhouse(tmp_path, lambda t: t.replace("  name: Killhouse", "  name: Killhouse\n  rows: 3"))
    assert refused("check", str(path)).endswith("map.rows: unknown key")
    path = killhouse(tmp_path, lambda t: t.replace("  ascii:\n", "  ascii:\n    - ''\n").replace(
        '    - "####################"\n', "", 1))
    assert "map.ascii" in refused("check", str(path))
    path = killhouse(tmp_path, lambda t: t.replace('- "#,,,,,,,,,,,,,,,,,,#"', '- "#' + "," * 300 + '#"', 1))
    assert "map.ascii[1]: String should have at most 128 characters" in refused("check", str(path))


# --------------------------------------------------------------------------------- issue items 2, 8, 20
def test_an_fi_file_named_fw_is_refused_by_fw_parts(tmp_path: Path) -> None:
    path = killhouse(tmp_path, lambda t: t.replace("ruleset: fi", "ruleset: fw"))
    expect = f"skirmish: {path}: options.randomizer: unknown key"
    for cmd in ("check", "run"):
        code, _, err = cli(cmd, str(path))
        assert code == 2 and err.splitlines()[0] == expect and "Traceback" not in err
        if cmd == "check":  # every problem; `run` names the first
            assert f"skirmish: {path}: sides[1].units[1].characteristics: required key is missing" in err.splitlines()
    with pytest.raises(ContentError, match=r"options\.randomizer: unknown key"):
        load_scenario(path)  # the board's menu loads with this and shows the error


def test_side_colour(tmp_path: Path) -> None:
    assert "colour" in SideSpec.model_fields
    path = killhouse(tmp_path, lambda t: t.replace("  - name: Red\n", "  - name: Red\n    colour: '#ff8800'\n"))
    assert load_scenario(path).spec.sides[1].colour == "#ff8800"
    path = killhouse(tmp_path, lambda t: t.replace("  - name: Red\n", "  - name: Red\n    colour: mauve\n"))
    line = refused("check", str(path))
    assert "sides[1].colour: expected a colour name (" in line and "or #rrggbb, got 'mauve'" in line
    path = killhouse(tmp_path, lambda t: t.replace("  - name: Red\n", "  - name: Red\n    colour: 5\n"))
    assert "sides[1].colour: Input should be a valid string, got 5" in refused("check", str(path))


@pytest.mark.parametrize(("option", "rule"), [("cover_reach: 2", "R-6.6")])
def test_retired_options(tmp_path: Path, option: str, rule: str) -> None:
    assert "cover_reach" not in Options.model_fields
    assert "unintended_targets" in Options.model_fields  # built again (R-6.11, issue 14)
    path = killhouse(tmp_path, lambda t: t.replace("options: {", f"options: {{{option}, "))
    key = option.split(":")[0]
    assert refused("check", str(path)).endswith(f"options.{key}: not built yet ({rule}); remove it")
    with pytest.raises(ContentError, match=f"options.{key}: not built yet"):
        load_scenario(ROOT / "scenarios/killhouse_drill.yaml").with_options(**{key: True})


def test_no_shipped_file_uses_retired_options() -> None:
    for folder in ("scenarios", "tests", "skirmish/data"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".yaml", ".py", ".json") and path.name not in ("test_loaders.py", "test_fuzz_loaders.py"):
                text = path.read_text(encoding="utf-8")
                assert "cover_reach" not in text, path


# ------------------------------------------------------------------------------------ check A B C
def test_check_reports_every_file_and_every_error(tmp_path: Path) -> None:
    good = ROOT / "scenarios/killhouse_drill.yaml"
    bad = killhouse(tmp_path, lambda t: t.replace("weapons: [blast_pistol]", "weapons: [lasrifle]")
                    .replace("at: [3, 1]", "at: [0, 0]").replace("name: Red-2", "name: Red-1")
                    .replace("max_rounds: 25", "max_rounds: 25, rounds: 3").replace("size: 6", "size: 0"))
    worse = tmp_path / "missing.yaml"
    code, out, err = cli("check", str(bad), str(good), str(worse))
    assert code == 2
    assert out.splitlines() == [line for line in out.splitlines() if line.startswith(f"ok: {good}: ")] and out
    lines = err.splitlines()
    assert lines == [
        f"skirmish: {bad}: victory.rounds: unknown key",
        f"skirmish: {bad}: sides[0].units[0].weapons[0]: unknown weapon 'lasrifle'; known: " + lines[1].split("known: ")[1],
        f"skirmish: {bad}: sides[0].units[0].at: cell 0,0 is wall, where no one can stand",
        f"skirmish: {bad}: sides[1].units[1].name: duplicate unit name 'Red-1' (also sides[1].units[0])",
        f"skirmish: {worse}: file not found",
    ]
    # load_scenario still raises the first one.
    with pytest.raises(ContentError, match=r"victory\.rounds: unknown key"):
        load_scenario(bad)
    scenario, errors = check_scenario(bad)
    assert scenario is None and len(errors) == 4


def test_check_caps_the_error_list(tmp_path: Path) -> None:
    text = crowd([60, 60]).replace("weapons: [blast_pistol]", "weapons: [nope]")
    path = tmp_path / "many.yaml"
    path.write_text(text)
    code, _, err = cli("check", str(path))
    lines = err.splitlines()
    # 120 unknown weapons and two sides over the unit limit: 50 shown, 72 counted
    assert code == 2 and len(lines) == 51 and lines[-1] == f"skirmish: {path}: 72 more errors not shown"


def test_parse_scenario_raises_the_first_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as exc:
        parse_scenario(KILLHOUSE.replace("seed: 3", "seed: -1"), "x.yaml", base=tmp_path)
    assert exc.value.text == "x.yaml: seed: Input should be greater than or equal to 0, got -1"


def test_loader_output_is_yaml_safe(tmp_path: Path) -> None:
    """Python-specific YAML tags never construct objects."""
    path = killhouse(tmp_path, lambda t: t.replace("seed: 3", "seed: !!python/object/apply:os.system ['true']"))
    assert "not valid YAML" in refused("check", str(path))
    assert yaml.safe_load("a: 1") == {"a": 1}
