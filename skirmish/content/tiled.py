"""Tiled maps (.tmj JSON) with the shared terrain tileset (.tsj) whose tile properties carry the rules
(R-6.6): move_cost, blocks_sight, cover (none|low|high), cover_av, and a one-character glyph for ASCII maps."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skirmish.content.errors import ContentError
from skirmish.rules.geometry import COVER_LEVEL, GridMap, Terrain

EMBEDDED_DIR = Path(__file__).resolve().parents[1] / "data" / "default"  # the default battle, inside the package
_REPO_MAPS = Path(__file__).resolve().parents[2] / "maps"
TILESET = "terrain.tsj"
MAPS_DIR = _REPO_MAPS if (_REPO_MAPS / TILESET).exists() else EMBEDDED_DIR


def _read_json(path: Path, label: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(label, "", f"cannot read the file ({exc.strerror or exc})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ContentError(label, f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None


def _props(raw: dict[str, Any]) -> dict[str, Any]:
    return {p["name"]: p["value"] for p in raw.get("properties", []) if "name" in p and "value" in p}


def load_tileset(path: Path) -> tuple[list[Terrain], dict[str, int]]:
    """Terrain per tile id and the glyph table for ASCII maps."""
    label = str(path)
    raw = _read_json(path, label)
    count = int(raw.get("tilecount", 0))
    tiles: list[Terrain | None] = [None] * count
    glyphs: dict[str, int] = {}
    for i, t in enumerate(raw.get("tiles", [])):
        where = f"tiles[{i}]"
        try:
            tid = int(t["id"])
            props = _props(t)
            name = str(t.get("type") or t.get("class") or props.get("name"))
            cover = str(props.get("cover", "none"))
            if cover not in COVER_LEVEL:
                raise ValueError(f"cover must be none, low or high, got {cover!r}")
            terrain = Terrain(
                name=name, move_cost=int(props.get("move_cost", 1)),
                blocks_sight=bool(props.get("blocks_sight", False)), cover=cover,
                cover_av=int(props.get("cover_av", 0)),
            )
            if not 0 <= tid < count:
                raise ValueError(f"id {tid} outside tilecount {count}")
        except (KeyError, ValueError, TypeError) as exc:
            raise ContentError(label, where, str(exc)) from None
        tiles[tid] = terrain
        if "glyph" in props:
            glyphs[str(props["glyph"])] = tid
    missing = [i for i, t in enumerate(tiles) if t is None]
    if missing:
        raise ContentError(label, f"tiles (id {missing[0]})", "every tile needs its rule properties")
    return [t for t in tiles if t is not None], glyphs


def load_tmj(path: Path, label: str | None = None) -> GridMap:
    """Load a Tiled JSON map; its first tile layer is the terrain."""
    label = label or str(path)
    raw = _read_json(path, label)
    if not isinstance(raw, dict):
        raise ContentError(label, "", "expected a Tiled map object")
    try:
        width, height = int(raw["width"]), int(raw["height"])
    except (KeyError, ValueError, TypeError):
        raise ContentError(label, "width/height", "a Tiled map needs integer width and height") from None
    sets = raw.get("tilesets") or []
    if not sets:
        raise ContentError(label, "tilesets", "the map names no tileset")
    first = sets[0]
    firstgid = int(first.get("firstgid", 1))
    if "source" in first:
        tiles, _ = load_tileset((path.parent / str(first["source"])).resolve())
    else:
        raise ContentError(label, "tilesets[0]", "expected an external tileset ('source': 'terrain.tsj')")
    layer = next((ly for ly in raw.get("layers", []) if ly.get("type") == "tilelayer"), None)
    if layer is None:
        raise ContentError(label, "layers", "no tile layer found")
    data = layer.get("data")
    if not isinstance(data, list) or len(data) != width * height:
        raise ContentError(label, "layers.data", f"expected {width * height} tile ids (CSV encoding)")
    gids = np.array(data, dtype=np.int64) & 0x1FFFFFFF  # drop Tiled's flip flags
    ids = gids - firstgid
    if ids.min() < 0 or ids.max() >= len(tiles):
        bad = int(np.argmax((ids < 0) | (ids >= len(tiles))))
        raise ContentError(
            label, f"layers.data[{bad}]", f"tile id {int(gids[bad])} is not in the tileset (cell "
            f"{bad % width},{bad // width})"
        )
    props = _props(raw)
    return GridMap(
        name=str(props.get("name", path.stem)), width=width, height=height, tiles=tuple(tiles),
        layout=ids.reshape(height, width).astype(np.int16), cell_m=float(props.get("cell_m", 2.0)),
    )


def from_ascii(rows: Sequence[str], label: str, where: str, name: str = "inline",
               cell_m: float = 2.0, tileset: Path | None = None) -> GridMap:
    """Build a map from ASCII rows using the tileset's glyphs."""
    tiles, glyphs = load_tileset(tileset or MAPS_DIR / TILESET)
    if not rows:
        raise ContentError(label, where, "an ASCII map needs at least one row")
    width = len(rows[0])
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
