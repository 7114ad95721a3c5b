"""Tiled maps (.tmj JSON) with the shared terrain tileset (.tsj) whose tile properties carry the rules
(R-6.6): move_cost, blocks_sight, cover (none|low|high), cover_av, and a one-character glyph for ASCII maps.

Every value is checked before use, within the limits below (docs/FILES.md): a damaged file gives one
ContentError naming the file, the key path and what was expected."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skirmish.content.errors import MIB, ContentError, check_tree, quote, read_text, unprintable
from skirmish.rules.geometry import COVER_LEVEL, GridMap, Terrain

EMBEDDED_DIR = Path(__file__).resolve().parents[1] / "data" / "default"  # the default battle, inside the package
_REPO_MAPS = Path(__file__).resolve().parents[2] / "maps"
TILESET = "terrain.tsj"
MAPS_DIR = _REPO_MAPS if (_REPO_MAPS / TILESET).exists() else EMBEDDED_DIR

# Limits (docs/FILES.md). A map the battle, the routes and the board still handle at interactive speed: the
# largest shipped map is 40x30, the bench's synthetic map 100x100.
MAP_FILE_LIMIT = 4 * MIB
TILESET_FILE_LIMIT = 1 * MIB
MAX_MAP_SIDE = 128  # cells across or down
MAX_MAP_CELLS = 16_384  # width x height: 128 x 128
MAX_TILES = 256  # tiles in a tileset (the layout is stored as int16)
CELL_M_RANGE = (0.5, 10.0)  # metres per cell
MOVE_COST_RANGE = (0, 10)  # 0 = impassable
COVER_AV_RANGE = (0, 99)
MAX_NAME = 64  # map and terrain names
MAX_GID = 0xFFFFFFFF  # a Tiled global tile id with its flip flags
_JSON_DEPTH = 16
_JSON_NODES = 250_000


def read_json(path: Path, label: str, limit: int) -> Any:
    """Parse a bounded JSON file (see errors.read_text), its nesting and size checked."""
    text = read_text(path, label, limit)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(label, f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise ContentError(label, "", f"not valid JSON: nested deeper than {_JSON_DEPTH} levels") from None
    except ValueError:  # an integer of more than 4300 digits
        raise ContentError(label, "", "not valid JSON: a number with too many digits") from None
    check_tree(raw, label, max_depth=_JSON_DEPTH, max_nodes=_JSON_NODES)
    return raw


def json_int(value: Any, label: str, where: str, lo: int, hi: int, what: str = "") -> int:
    """`value` if it is a JSON integer in lo..hi (not a boolean, not 1.5, not 1e400), else ContentError."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ContentError(label, where, f"{what}expected an integer {lo}-{hi}, got {quote(value)}")
    return value


def json_bool(value: Any, label: str, where: str, what: str = "") -> bool:
    """`value` if it is a JSON boolean (the string "false" is not one), else ContentError."""
    if not isinstance(value, bool):
        raise ContentError(label, where, f"{what}expected true or false, got {quote(value)}")
    return value


def json_name(value: Any, label: str, where: str, what: str = "") -> str:
    """`value` if it is a one-line name of 1-MAX_NAME characters, else ContentError."""
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_NAME:
        raise ContentError(label, where, f"{what}expected a name of 1-{MAX_NAME} characters, got {quote(value)}")
    bad = unprintable(value)
    if bad is not None:
        raise ContentError(label, where, f"{what}a name may not contain control characters, got {quote(value)}")
    return value


def _cell_m(value: Any, label: str, where: str) -> float:
    lo, hi = CELL_M_RANGE
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not lo <= value <= hi:
        raise ContentError(label, where, f"cell_m: expected metres per cell, a number {lo:g}-{hi:g}, got {quote(value)}")
    return float(value)


def _props(raw: dict[str, Any], label: str, where: str) -> dict[str, tuple[Any, str]]:
    """Tiled custom properties as name -> (value, key path of the value)."""
    base = f"{where}.properties" if where else "properties"
    if "properties" not in raw:
        return {}
    props = raw["properties"]
    if not isinstance(props, list):
        raise ContentError(label, base, f"expected a list of Tiled properties, got {quote(props)}")
    out: dict[str, tuple[Any, str]] = {}
    for i, p in enumerate(props):
        at = f"{base}[{i}]"
        if not isinstance(p, dict):
            raise ContentError(label, at, f"expected a property {{name, type, value}}, got {quote(p)}")
        name = p.get("name")
        if not isinstance(name, str):
            raise ContentError(label, f"{at}.name", f"expected the property's name, got {quote(name)}")
        if "value" not in p:
            raise ContentError(label, f"{at}.value", f"property {quote(name)} has no value")
        out[name] = (p["value"], f"{at}.value")
    return out


def load_tileset(path: Path, label: str | None = None) -> tuple[list[Terrain], dict[str, int]]:
    """Terrain per tile id and the glyph table for ASCII maps; `label` is the name shown in errors."""
    label = label or path.name
    raw = read_json(path, label, TILESET_FILE_LIMIT)
    if not isinstance(raw, dict):
        raise ContentError(label, "", f"expected a Tiled tileset object, got {quote(raw)}")
    count = json_int(raw.get("tilecount"), label, "tilecount", 1, MAX_TILES)
    entries = raw.get("tiles")
    if not isinstance(entries, list) or not entries:
        raise ContentError(label, "tiles", f"expected a list of tiles with rule properties, got {quote(entries)}")
    tiles: list[Terrain | None] = [None] * count
    glyphs: dict[str, int] = {}
    for i, t in enumerate(entries):
        where = f"tiles[{i}]"
        if not isinstance(t, dict):
            raise ContentError(label, where, f"expected a tile object, got {quote(t)}")
        tid = json_int(t.get("id"), label, f"{where}.id", 0, count - 1, f"a tile id below tilecount {count}: ")
        if tiles[tid] is not None:
            raise ContentError(label, f"{where}.id", f"tile id {tid} is defined twice")
        props = _props(t, label, where)
        if t.get("type"):
            name = json_name(t["type"], label, f"{where}.type")
        elif t.get("class"):
            name = json_name(t["class"], label, f"{where}.class")
        elif "name" in props:
            name = json_name(props["name"][0], label, props["name"][1])
        else:
            raise ContentError(label, where, "expected the terrain's name in 'type' (Tiled: Class)")
        value, at = props.get("move_cost", (1, ""))
        move_cost = json_int(value, label, at or where, *MOVE_COST_RANGE, "move_cost: ")
        value, at = props.get("blocks_sight", (False, ""))
        blocks_sight = json_bool(value, label, at or where, "blocks_sight: ")
        cover, at = props.get("cover", ("none", ""))
        if not isinstance(cover, str) or cover not in COVER_LEVEL:
            raise ContentError(label, at or where, f"cover: expected none, low or high, got {quote(cover)}")
        value, at = props.get("cover_av", (0, ""))
        cover_av = json_int(value, label, at or where, *COVER_AV_RANGE, "cover_av: ")
        tiles[tid] = Terrain(name=name, move_cost=move_cost, blocks_sight=blocks_sight, cover=cover,
                             cover_av=cover_av)
        if "glyph" in props:
            glyph, at = props["glyph"]
            if not isinstance(glyph, str) or len(glyph) != 1 or unprintable(glyph) is not None:
                raise ContentError(label, at, f"glyph: expected one printable character, got {quote(glyph)}")
            if glyph in glyphs:
                raise ContentError(label, at, f"glyph {quote(glyph)} is also tile {glyphs[glyph]}'s")
            glyphs[glyph] = tid
    missing = [i for i, t in enumerate(tiles) if t is None]
    if missing:
        raise ContentError(label, "tiles", f"tile id {missing[0]} (of tilecount {count}) has no rule properties")
    return [t for t in tiles if t is not None], glyphs


def shipped_tileset() -> tuple[list[Terrain], dict[str, int]]:
    """The tileset shipped with skirmish (maps/terrain.tsj, or its copy inside the package)."""
    return load_tileset(MAPS_DIR / TILESET, TILESET)


def check_size(width: int, height: int, label: str, where: str) -> None:
    """ContentError unless a width x height map is within MAX_MAP_SIDE and MAX_MAP_CELLS."""
    if not (1 <= width <= MAX_MAP_SIDE and 1 <= height <= MAX_MAP_SIDE) or width * height > MAX_MAP_CELLS:
        raise ContentError(label, where, f"a {width}x{height} map is too large: at most {MAX_MAP_SIDE} cells "
                           f"across or down and {MAX_MAP_CELLS} cells in all (docs/FILES.md)")


def load_tmj(path: Path, label: str | None = None, notes: list[str] | None = None) -> GridMap:
    """Load a Tiled JSON map; its first tile layer is the terrain. `label` is the name shown in errors;
    a remark for the user (the shipped tileset used in place of a missing one) is appended to `notes`."""
    label = label or path.name
    raw = read_json(path, label, MAP_FILE_LIMIT)
    if not isinstance(raw, dict):
        raise ContentError(label, "", f"expected a Tiled map object, got {quote(raw)}")
    if raw.get("infinite") is True:
        raise ContentError(label, "infinite", "an infinite Tiled map cannot be played; save it with a fixed size")
    width = json_int(raw.get("width"), label, "width", 1, MAX_MAP_SIDE, "map width in cells: ")
    height = json_int(raw.get("height"), label, "height", 1, MAX_MAP_SIDE, "map height in cells: ")
    check_size(width, height, label, "width/height")
    tiles, firstgid, missing = _map_tileset(raw, path, label)
    if missing is not None and notes is not None:
        notes.append(f"{label}: tilesets[0].source: tileset {quote(missing)} not found beside the map; "
                     f"using the shipped {TILESET}")
    layers = raw.get("layers")
    if not isinstance(layers, list):
        raise ContentError(label, "layers", f"expected a list of layers, got {quote(layers)}")
    index = None
    for i, ly in enumerate(layers):
        if not isinstance(ly, dict):
            raise ContentError(label, f"layers[{i}]", f"expected a layer object, got {quote(ly)}")
        if index is None and ly.get("type") == "tilelayer":
            index = i
    if index is None:
        raise ContentError(label, "layers", "no tile layer found")
    layer, where = layers[index], f"layers[{index}]"
    if layer.get("encoding", "csv") != "csv" or layer.get("compression"):
        raise ContentError(label, f"{where}.encoding", "expected CSV tile data (Tiled: Map Properties, "
                           f"Tile Layer Format: CSV), got {quote(layer.get('encoding'))}")
    data = layer.get("data")
    if not isinstance(data, list) or len(data) != width * height:
        raise ContentError(label, f"{where}.data", f"expected {width * height} tile ids ({width}x{height}), "
                           f"got {quote(data)}")
    for i, v in enumerate(data):
        if type(v) is not int or not 0 <= v <= MAX_GID:  # bool, float, null, text and 1e400 all fail here
            raise ContentError(label, f"{where}.data[{i}]", f"expected a tile id, an integer 0-{MAX_GID}, got "
                               f"{quote(v)} (cell {i % width},{i // width})")
    gids = np.array(data, dtype=np.int64) & 0x1FFFFFFF  # drop Tiled's flip flags
    ids = gids - firstgid
    if ids.min() < 0 or ids.max() >= len(tiles):
        bad = int(np.argmax((ids < 0) | (ids >= len(tiles))))
        why = "" if missing is None else f"; {quote(missing)} was not found, so the shipped {TILESET} was used"
        raise ContentError(
            label, f"{where}.data[{bad}]", f"tile id {int(gids[bad])} is not in the tileset (ids {firstgid}-"
            f"{firstgid + len(tiles) - 1}; cell {bad % width},{bad // width}){why}"
        )
    props = _props(raw, label, "")
    name = json_name(props["name"][0], label, props["name"][1]) if "name" in props else _stem_name(path)
    cell_m = _cell_m(props["cell_m"][0], label, props["cell_m"][1]) if "cell_m" in props else 2.0
    return GridMap(name=name, width=width, height=height, tiles=tuple(tiles),
                   layout=ids.reshape(height, width).astype(np.int16), cell_m=cell_m)


def _stem_name(path: Path) -> str:
    stem = path.stem[:MAX_NAME]
    return stem if stem and unprintable(stem) is None else "map"


def _map_tileset(raw: dict[str, Any], path: Path, label: str) -> tuple[list[Terrain], int, str | None]:
    """The map's (first) tileset, its firstgid, and the source named if that file is absent and the shipped
    tileset stands in for it."""
    sets = raw.get("tilesets")
    if not isinstance(sets, list) or not sets:
        raise ContentError(label, "tilesets", f"expected a list naming the tileset, got {quote(sets)}")
    for i, entry in enumerate(sets):
        if not isinstance(entry, dict):
            raise ContentError(label, f"tilesets[{i}]", f"expected {{firstgid, source}}, got {quote(entry)}")
    first = sets[0]
    firstgid = json_int(first.get("firstgid"), label, "tilesets[0].firstgid", 1, 0x1FFFFFFF)
    source = first.get("source")
    if source is None:
        raise ContentError(label, "tilesets[0]", f"expected an external tileset ('source': '{TILESET}'), not "
                           "one embedded in the map")
    if not isinstance(source, str) or not source or unprintable(source) is not None:
        raise ContentError(label, "tilesets[0].source", f"expected a tileset file name, got {quote(source)}")
    tileset = path.parent / source
    try:
        present = tileset.exists()
    except (OSError, ValueError):
        present = False
    try:
        if present:
            return load_tileset(tileset, source)[0], firstgid, None
        return shipped_tileset()[0], firstgid, source
    except ContentError as exc:
        raise ContentError(label, "tilesets[0].source", exc.text) from None


def from_ascii(rows: Sequence[str], label: str, where: str, name: str = "inline",
               cell_m: float = 2.0, tileset: Path | None = None) -> GridMap:
    """Build a map from ASCII rows using the tileset's glyphs."""
    tiles, glyphs = load_tileset(tileset) if tileset else shipped_tileset()
    if not rows or not rows[0]:
        raise ContentError(label, where, "an ASCII map needs at least one row of at least one cell")
    width = len(rows[0])
    check_size(width, len(rows), label, where)
    layout = np.zeros((len(rows), width), dtype=np.int16)
    for y, row in enumerate(rows):
        if len(row) != width:
            raise ContentError(label, f"{where}[{y}]", f"row has {len(row)} cells, expected {width}")
        for x, ch in enumerate(row):
            if ch not in glyphs:
                raise ContentError(
                    label, f"{where}[{y}]", f"unknown map glyph {ch!r} at column {x}; known: "
                    + "".join(sorted(glyphs))
                )
            layout[y, x] = glyphs[ch]
    return GridMap(name, width, len(rows), tuple(tiles), layout, cell_m)


def to_tmj(grid: GridMap, tileset_source: str = TILESET) -> dict[str, Any]:
    """A Tiled JSON document for a map (used by the map tools and the editor)."""
    return {
        "compressionlevel": -1, "type": "map", "version": "1.10", "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": False,
        "width": grid.width, "height": grid.height, "tilewidth": 32, "tileheight": 32,
        "nextlayerid": 2, "nextobjectid": 1,
        "properties": [
            {"name": "name", "type": "string", "value": grid.name},
            {"name": "cell_m", "type": "float", "value": grid.cell_m},
        ],
        "tilesets": [{"firstgid": 1, "source": tileset_source}],
        "layers": [{
            "id": 1, "name": "terrain", "type": "tilelayer", "visible": True, "opacity": 1, "x": 0, "y": 0,
            "width": grid.width, "height": grid.height,
            "data": [int(v) + 1 for v in grid.layout.reshape(-1)],
        }],
    }
