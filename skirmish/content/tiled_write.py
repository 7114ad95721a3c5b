"""Writing maps and scenarios (the editor's Save): a Tiled JSON map (.tmj) that Tiled opens and
skirmish.content.tiled reads back cell for cell, and a scenario's YAML that the loader reads back to the same
spec. Every file is written whole or not at all (skirmish.fileio).

A map written here keeps what Tiled put in the document it was read from (other layers, objects, editor
settings): only the size, the terrain layer's data, the `name`/`cell_m` properties and the tileset's `source`
are set. The tileset is named by a path relative to the map (Tiled's way), so a map saved outside maps/ still
finds the shipped terrain.tsj; a `terrain.tsj` beside the map is used first."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import yaml

from skirmish.content.tiled import MAPS_DIR, TILESET
from skirmish.fileio import write_text
from skirmish.rules.geometry import GridMap

TILE_PX = 32  # Tiled's tile size in pixels (the shipped tileset's)


def tileset_source(map_path: Path, tileset: Path | None = None) -> str:
    """How a map at `map_path` names its tileset: `terrain.tsj` if one lies beside it, else the path of
    `tileset` (default: the shipped one) relative to the map's folder, else its absolute path."""
    tileset = tileset or MAPS_DIR / TILESET
    folder = map_path.resolve().parent
    if (folder / tileset.name).is_file():
        return tileset.name
    try:
        return Path(os.path.relpath(tileset.resolve(), folder)).as_posix()
    except ValueError:  # another drive (Windows)
        return tileset.resolve().as_posix()


def _set_prop(props: list[dict[str, Any]], name: str, kind: str, value: Any) -> None:
    for p in props:
        if isinstance(p, dict) and p.get("name") == name:
            p["type"], p["value"] = kind, value
            return
    props.append({"name": name, "type": kind, "value": value})


def map_document(grid: GridMap, source: str = TILESET, base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The Tiled JSON document of `grid`: `base` (the document the map was read from) with its size, first
    tile layer, properties and tileset source set, or a new one. Tile ids are the tileset's plus firstgid."""
    doc: dict[str, Any] = copy.deepcopy(base) if base else {
        "compressionlevel": -1, "type": "map", "version": "1.10", "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
        "tilewidth": TILE_PX, "tileheight": TILE_PX, "nextlayerid": 2, "nextobjectid": 1,
        "properties": [], "tilesets": [{"firstgid": 1, "source": source}], "layers": [],
    }
    doc["width"], doc["height"], doc["infinite"] = grid.width, grid.height, False
    sets = doc.get("tilesets") if isinstance(doc.get("tilesets"), list) and doc["tilesets"] else None
    if sets is None or not isinstance(sets[0], dict):
        doc["tilesets"] = sets = [{"firstgid": 1, "source": source}]
    sets[0]["source"] = source
    firstgid = sets[0].get("firstgid", 1)
    if not isinstance(firstgid, int) or isinstance(firstgid, bool) or firstgid < 1:
        sets[0]["firstgid"] = firstgid = 1
    props: list[Any] = doc["properties"] if isinstance(doc.get("properties"), list) else []
    doc["properties"] = props
    _set_prop(props, "name", "string", grid.name)
    _set_prop(props, "cell_m", "float", float(grid.cell_m))
    layers: list[Any] = doc["layers"] if isinstance(doc.get("layers"), list) else []
    doc["layers"] = layers
    layer = next((ly for ly in layers if isinstance(ly, dict) and ly.get("type") == "tilelayer"), None)
    if layer is None:
        layer = {"id": max([ly.get("id", 0) for ly in layers if isinstance(ly, dict)] + [0]) + 1,
                 "name": "terrain", "type": "tilelayer", "visible": True, "opacity": 1, "x": 0, "y": 0}
        layers.insert(0, layer)
        next_id = doc.get("nextlayerid")
        doc["nextlayerid"] = max(next_id if isinstance(next_id, int) else 1, layer["id"] + 1)
    layer.pop("encoding", None)  # CSV (Tiled's JSON array): what the loader reads
    layer.pop("compression", None)
    layer["width"], layer["height"] = grid.width, grid.height
    layer["data"] = [int(v) + firstgid for v in grid.layout.reshape(-1)]
    return doc


def tmj_text(doc: dict[str, Any]) -> str:
    """A map document as Tiled writes it: indented JSON, the tile data one map row a line."""
    data_rows: list[str] = []
    layers = doc.get("layers", [])
    for ly in layers:
        if isinstance(ly, dict) and ly.get("type") == "tilelayer" and isinstance(ly.get("data"), list):
            w = int(ly.get("width") or doc.get("width") or 1)
            data = ly["data"]
            data_rows.append(",\n".join(", ".join(str(v) for v in data[i:i + w]) for i in range(0, len(data), w)))
            ly["data"] = f"@@DATA{len(data_rows) - 1}@@"
    try:
        text = json.dumps(doc, indent=1, ensure_ascii=False)
    finally:
        n = 0
        for ly in layers:
            if isinstance(ly, dict) and isinstance(ly.get("data"), str) and ly["data"].startswith("@@DATA"):
                ly["data"] = json.loads("[" + data_rows[n] + "]")
                n += 1
    for i, rows in enumerate(data_rows):
        text = text.replace(f'"@@DATA{i}@@"', "[" + rows + "]")
    return text + "\n"


def write_tmj(path: Path, grid: GridMap, base: dict[str, Any] | None = None, tileset: Path | None = None) -> None:
    """Write `grid` as a Tiled map at `path` (whole or not at all), its tileset named relative to it."""
    write_text(path, tmj_text(map_document(grid, tileset_source(path, tileset), base)))


class _Dumper(yaml.SafeDumper):
    """YAML as people write scenarios: blocks at the top, small mappings and lists inline, text with line
    breaks as a literal block."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


_Dumper.add_representer(str, _str)


def scenario_text(data: dict[str, Any]) -> str:
    """A scenario's YAML from its plain data (what ScenarioSpec.model_dump(mode="json") gives)."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None,
                     width=110)


def write_scenario(path: Path, data: dict[str, Any]) -> None:
    """Write a scenario's YAML at `path`, whole or not at all."""
    write_text(path, scenario_text(data))
