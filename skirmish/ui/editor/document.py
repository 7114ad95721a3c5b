"""The scenario being edited (no drawing here): the scenario's plain data (what its YAML holds, the map
aside), the terrain as a writable array, undo and redo, the edits (paint, rectangle, fill, resize, units,
fields), the live check through the scenario loader (skirmish.content.scenario.check_text: the same errors
`skirmish check` prints, naming the key), and Save (skirmish.content.tiled_write).

The map is checked as an inline ASCII map in the shipped tileset's glyphs, so every edit is checked without
writing a file; it is saved in the form it came in (a Tiled `.tmj` beside the scenario, or inline ASCII)."""

from __future__ import annotations

import copy
import tempfile
import warnings
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.content.errors import ContentError, read_text
from skirmish.content.scenario import Scenario, check_text, load_scenario
from skirmish.content.tiled import MAPS_DIR, check_size, read_json, shipped_tileset
from skirmish.content.tiled_write import scenario_text, write_scenario, write_tmj
from skirmish.fileio import OutputError, write_text
from skirmish.rules.geometry import GridMap, Terrain
from skirmish.ui.editor.basics import DEFAULT_TILE, NEW_SIZE, Cell, new_unit, renamed, shipped
from skirmish.ui.editor.pieces import Pieces

UNDO_DEPTH = 200


@dataclass
class _State:
    layout: npt.NDArray[np.int16]
    data: dict[str, Any]


class EditorDoc(Pieces):
    """A scenario open in the editor."""

    def __init__(self, data: dict[str, Any], grid: GridMap, path: Path | None, *,
                 map_base: dict[str, Any] | None = None) -> None:
        tiles, glyphs = shipped_tileset()
        if tuple(grid.tiles) != tuple(tiles):
            raise ContentError(str(path or grid.name), "map", "the editor paints with the shipped tileset "
                               "(maps/terrain.tsj); this map uses another one: edit it in Tiled")
        self.tiles: tuple[Terrain, ...] = tuple(tiles)
        self.glyphs = {tid: g for g, tid in glyphs.items()}
        self.data = data
        self.map_ref = data.pop("map")
        self.map_name, self.cell_m = grid.name, grid.cell_m
        self.layout = np.array(grid.layout, dtype=np.int16)
        self.map_base = map_base  # the Tiled document the map came from (its other layers are kept)
        self.path = path
        self.undos: deque[_State] = deque(maxlen=UNDO_DEPTH)
        self.redos: list[_State] = []
        self.version = 0  # bumped by every change: the check is cached by it
        self.saved_version = 0
        self._checked: tuple[int, Scenario | None, list[ContentError]] | None = None
        self._scratch: tempfile.TemporaryDirectory[str] | None = None  # where a Tiled map is written to be checked

    # ------------------------------------------------------------------ opening
    @classmethod
    def open(cls, path: Path) -> EditorDoc:
        """A scenario file, checked by the loader first (a bad one: its first ContentError)."""
        scenario = load_scenario(path)
        return cls.from_scenario(scenario, path)

    @classmethod
    def from_scenario(cls, scenario: Scenario, path: Path | None) -> EditorDoc:
        """A loaded scenario, to edit (`path`: where it came from, None for a new one)."""
        with warnings.catch_warnings():  # pydantic's serializer warns about the tagged unions (map, weapons)
            warnings.simplefilter("ignore")
            data = scenario.spec.model_dump(mode="json", exclude_defaults=True)
        data = {"name": data.pop("name"), **({"description": data.pop("description")} if "description" in data else {}),
                "ruleset": scenario.spec.ruleset, **{k: v for k, v in data.items() if k != "ruleset"}}
        base = None
        if isinstance(scenario.spec.map, str) and path is not None:
            found = [p for p in (path.parent / scenario.spec.map, MAPS_DIR / scenario.spec.map) if p.is_file()]
            if found:
                base = read_json(found[0], scenario.spec.map, 4 << 20)
        return cls(data, scenario.grid, path, map_base=base if isinstance(base, dict) else None)

    @classmethod
    def new(cls, ruleset: str = "fi") -> EditorDoc:
        """A new scenario: an open map, two sides of one trooper each."""
        tiles, _ = shipped_tileset()
        tid = next(i for i, t in enumerate(tiles) if t.name == DEFAULT_TILE) if any(
            t.name == DEFAULT_TILE for t in tiles) else 0
        w, h = NEW_SIZE
        grid = GridMap("new map", w, h, tuple(tiles), np.full((h, w), tid, dtype=np.int16), 2.0)
        data: dict[str, Any] = {
            "name": "New scenario", "ruleset": ruleset, "map": "new_map.tmj",
            "sides": [{"name": "Blue", "colour": "blue", "units": [new_unit(ruleset, "Blue-1", (2, h // 2))]},
                      {"name": "Red", "colour": "red", "units": [new_unit(ruleset, "Red-1", (w - 3, h // 2))]}],
        }
        return cls(data, grid, None)

    # ------------------------------------------------------------------ undo
    def change(self) -> None:
        """Call before every edit: the state before it is kept for Ctrl+Z."""
        self.undos.append(_State(self.layout.copy(), copy.deepcopy(self.data)))
        self.redos.clear()
        self.version += 1

    def _swap(self, src: deque[_State] | list[_State], dst: deque[_State] | list[_State]) -> bool:
        if not src:
            return False
        dst.append(_State(self.layout.copy(), copy.deepcopy(self.data)))
        state = src.pop()
        self.layout, self.data = state.layout, state.data
        self.version += 1
        return True

    def undo(self) -> bool:
        """Ctrl+Z: back one edit; False if there is none."""
        return self._swap(self.undos, self.redos)

    def redo(self) -> bool:
        """Ctrl+Y: the edit undone last, again."""
        return self._swap(self.redos, self.undos)

    # ------------------------------------------------------------------ the map
    @property
    def size(self) -> Cell:
        """(width, height) in cells."""
        return int(self.layout.shape[1]), int(self.layout.shape[0])

    def inside(self, cell: Cell) -> bool:
        """Whether a cell is on the map."""
        w, h = self.size
        return 0 <= cell[0] < w and 0 <= cell[1] < h

    def paint(self, cells: list[Cell], tid: int) -> int:
        """Set these cells to tile `tid` (one undo step); how many changed."""
        todo = [(x, y) for x, y in cells if self.inside((x, y)) and int(self.layout[y, x]) != tid]
        if todo:
            self.change()
            for x, y in todo:
                self.layout[y, x] = tid
        return len(todo)

    def rect(self, a: Cell, b: Cell, tid: int) -> int:
        """Fill the rectangle with corners a and b."""
        x0, x1 = sorted((a[0], b[0]))
        y0, y1 = sorted((a[1], b[1]))
        return self.paint([(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)], tid)

    def fill(self, start: Cell, tid: int) -> int:
        """Flood-fill the area of the same tile as `start` (4 neighbours) with `tid`."""
        if not self.inside(start):
            return 0
        old = int(self.layout[start[1], start[0]])
        if old == tid:
            return 0
        seen, todo, out = {start}, [start], []
        while todo:
            x, y = todo.pop()
            out.append((x, y))
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n not in seen and self.inside(n) and int(self.layout[n[1], n[0]]) == old:
                    seen.add(n)
                    todo.append(n)
        return self.paint(out, tid)

    def resize(self, width: int, height: int) -> None:
        """Make the map width x height (cells kept from the top left; new ones ground); ContentError if too
        large. Units left outside are reported by the check, not moved."""
        check_size(width, height, "map", "size")
        w, h = self.size
        if (width, height) == (w, h):
            return
        tid = next((i for i, t in enumerate(self.tiles) if t.name == DEFAULT_TILE), 0)
        out = np.full((height, width), tid, dtype=np.int16)
        out[:min(h, height), :min(w, width)] = self.layout[:min(h, height), :min(w, width)]
        self.change()
        self.layout = out

    def grid(self) -> GridMap:
        """The map as it stands."""
        w, h = self.size
        return GridMap(self.map_name, w, h, self.tiles, self.layout.copy(), self.cell_m)

    def ascii_rows(self) -> list[str]:
        """The map in the tileset's glyphs, a string a row."""
        return ["".join(self.glyphs[int(t)] for t in row) for row in self.layout]

    def set(self, keys: tuple[str | int, ...], value: Any) -> None:
        """Set a field by its key path (("sides", 0, "units", 2, "skills"), …); None removes it."""
        node: Any = self.data
        for k in keys[:-1]:
            node = node[k]
        last = keys[-1]
        if (node.get(last) if isinstance(node, dict) else node[last]) == value:
            return
        self.change()
        if value is None and isinstance(node, dict):
            node.pop(last, None)
        elif value is None and isinstance(node, list):
            del node[int(last)]
        else:
            node[last] = value

    def get(self, keys: tuple[str | int, ...]) -> Any:
        """A field by its key path, or None."""
        node: Any = self.data
        for k in keys:
            try:
                node = node[k]
            except (KeyError, IndexError, TypeError):
                return None
        return node

    # ------------------------------------------------------------------ zones
    def add_zone(self, area: dict[str, Any], base: str = "zone") -> str:
        """A new zone (`{rect: [x0, y0, x1, y1]}` or `{polygon: [[x, y], …]}`), named `zone-N`; its name."""
        zones = self.data.get("zones") or {}
        n = 1
        while f"{base}-{n}" in zones:
            n += 1
        name = f"{base}-{n}"
        self.change()
        self.data["zones"] = {**zones, name: area}
        return name

    def rename_zone(self, old: str, new: str) -> None:
        """Rename a zone, in place, and every objective, deployment and trigger that names it."""
        zones = self.data.get("zones") or {}
        if old not in zones or new == old:
            return
        if not new or new in zones:
            raise ValueError(f"a zone name, not empty and not another zone's, got {new!r}")
        self.change()
        self.data["zones"] = {(new if k == old else k): v for k, v in zones.items()}
        self.data = renamed(self.data, old, new)

    def delete_zone(self, name: str) -> None:
        """Remove a zone (what names it is reported by the check)."""
        zones = self.data.get("zones") or {}
        if name in zones:
            self.change()
            self.data["zones"] = {k: v for k, v in zones.items() if k != name}
            if not self.data["zones"]:
                del self.data["zones"]

    # ------------------------------------------------------------------ the check
    @property
    def label(self) -> str:
        """The name errors are shown under."""
        return self.path.name if self.path is not None else "new scenario"

    def spec_data(self, map_ref: Any) -> dict[str, Any]:
        """The scenario's data with a map reference, keys in the file's order."""
        anchor = next((k for k in ("options", "seed", "ruleset", "description", "name") if k in self.data), None)
        out: dict[str, Any] = {} if anchor is not None else {"map": map_ref}
        for k, v in self.data.items():
            out[k] = v
            if k == anchor:
                out["map"] = map_ref
        return out

    def last_check(self) -> tuple[Scenario | None, list[ContentError]]:
        """The last verdict, even if edits came since (a drag in progress does not re-check every frame)."""
        if self._checked is None:
            return self.check()
        return self._checked[1], self._checked[2]

    def check(self) -> tuple[Scenario | None, list[ContentError]]:
        """The loader's verdict on the scenario as it stands (cached until the next change)."""
        if self._checked is not None and self._checked[0] == self.version:
            return self._checked[1], self._checked[2]
        ref: Any = {"ascii": self.ascii_rows(), "cell_m": self.cell_m, "name": self.map_name}
        if self.map_objects():  # zones drawn in Tiled: the map is checked as a file, its object layers with it
            map_path = Path(self._scratch_dir()) / (Path(str(self.map_ref)).name or "map.tmj")
            write_tmj(map_path, self.grid(), base=self.map_base)
            ref = str(map_path)
        text = scenario_text(self.spec_data(ref))
        base = self.path.parent if self.path is not None else None
        scenario, errors = check_text(text, self.label, base=base)
        if scenario is not None:
            scenario.source = str(self.path) if self.path is not None else self.label
        self._checked = (self.version, scenario, errors)
        return scenario, errors

    def map_objects(self) -> bool:
        """Whether the Tiled map has object layers (zones drawn in Tiled, kept as they are)."""
        layers = (self.map_base or {}).get("layers")
        return isinstance(layers, list) and any(isinstance(ly, dict) and ly.get("type") == "objectgroup"
                                                for ly in layers)

    # ------------------------------------------------------------------ saving
    def save(self, path: Path) -> list[Path]:
        """Write the scenario at `path` (and its map, a Tiled `.tmj` beside it, unless the map is inline);
        the files written. A scenario with errors is saved too (to be finished later); the check says why.
        OutputError naming the file if one cannot be written; nothing half-written."""
        path = Path(path)
        written, ref = self._write(path)
        self.map_ref = ref
        self.path = path
        self.saved_version = self.version
        self._checked = None
        return written

    def playable(self, folder: str = "play") -> Scenario:
        """The scenario as it stands, loaded from its scratch copy: a battle (and its record) holds exactly it."""
        return load_scenario(self.scratch_file(folder))

    def scratch_file(self, folder: str) -> Path:
        """The scenario as it stands, written to `folder` in the scratch folder: its path."""
        where = Path(self._scratch_dir()) / folder
        where.mkdir(exist_ok=True)
        target = where / (self.path.name if self.path is not None else "new_scenario.yaml")
        self._write(target)
        return target

    def _scratch_dir(self) -> str:
        if self._scratch is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="skirmish-edit-")
        return self._scratch.name

    def _write(self, path: Path) -> tuple[list[Path], Any]:
        """Write the scenario and its files at `path`: the files written, and the map as the YAML names it."""
        written: list[Path] = []
        if isinstance(self.map_ref, dict):  # inline ASCII stays inline
            ref: Any = {**self.map_ref, "ascii": self.ascii_rows(), "cell_m": self.cell_m, "name": self.map_name}
        else:
            ref = str(self.map_ref) if self.map_ref else f"{path.stem}.tmj"
            map_path = path.parent / Path(ref).name
            if shipped(map_path) and not shipped(path):
                ref = f"{path.stem}.tmj"
                map_path = path.parent / ref
            elif Path(ref).name != ref:
                ref = Path(ref).name
            write_tmj(map_path, self.grid(), base=self.map_base)
            written.append(map_path)
        deck = self.data.get("deck")
        if isinstance(deck, dict) and self.path is not None and isinstance(deck.get("cards"), str):
            src, dst = self.path.parent / deck["cards"], path.parent / deck["cards"]
            if src.is_file() and not dst.exists():
                try:
                    write_text(dst, read_text(src, deck["cards"], 4 << 20))
                except ContentError as exc:
                    raise OutputError(f"{dst}: {exc.text}") from None
                written.append(dst)
        write_scenario(path, self.spec_data(ref))
        written.append(path)
        return written, ref

    @property
    def dirty(self) -> bool:
        """Changed since opened or saved."""
        return self.version != self.saved_version

