"""What the editor screen holds besides the scenario (skirmish/ui/editor/document.py): the tool, the tile, the
brush, the side new units join, the selection, the view of the map (cell size and offset), the inspector line
being typed, toasts; and the moves that change them. The keys and the mouse are in screen.py, the drawing in
draw.py."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from skirmish.content.errors import ContentError
from skirmish.content.scenario import Scenario
from skirmish.fileio import OutputError
from skirmish.ui.editor.basics import shipped
from skirmish.ui.editor.dialog import PathDialog
from skirmish.ui.editor.document import EditorDoc
from skirmish.ui.editor.fields import NEW_OBJECTIVE, NEW_TRIGGER, Field, parse, show, unset_hint
from skirmish.ui.screens.base import Push, Quit, Reset, Transition
from skirmish.ui.screens.menu_state import user_scenarios_dir
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import BAD, GOOD, TEXT, ButtonRow, Fonts, Toast

TOOLS = ("brush", "rect", "fill", "unit", "zone", "poly")
TOOL_KEYS = {pygame.K_b: "brush", pygame.K_r: "rect", pygame.K_f: "fill", pygame.K_u: "unit", pygame.K_z: "zone",
             pygame.K_p: "poly"}
BRUSHES = (1, 2, 3, 5)
MIN_TILE, MAX_TILE = 4, 64
TABS = ("scenario", "side", "unit", "zones", "triggers")


def user_dir() -> Path:
    """The user's own scenarios: `scenarios/` in the settings folder (the menu lists it)."""
    return user_scenarios_dir()


@dataclass
class Editing:
    """An inspector line being typed."""

    field: Field
    text: str
    error: str | None = None


@dataclass
class View:
    """Where the map is drawn: pixels per cell and the map's top-left corner on the screen."""

    tile: int = 24
    origin: tuple[int, int] = (0, 0)
    fitted: bool = False

    def cell_at(self, pos: tuple[int, int]) -> tuple[int, int]:
        """The cell under a screen position (may be off the map)."""
        return (pos[0] - self.origin[0]) // self.tile, (pos[1] - self.origin[1]) // self.tile

    def rect_of(self, cell: tuple[int, int]) -> pygame.Rect:
        """A cell's rectangle on the screen."""
        return pygame.Rect(self.origin[0] + cell[0] * self.tile, self.origin[1] + cell[1] * self.tile,
                           self.tile, self.tile)


PlayFactory = Callable[[Scenario, Any, bool], Any]  # (scenario, the editor to come back to, person plays) -> Transition


@dataclass
class Panels:
    """Where the parts were drawn last frame (clicks are read against them)."""

    canvas: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    palette: list[tuple[pygame.Rect, int]] = field(default_factory=list)
    fields: list[tuple[pygame.Rect, Field]] = field(default_factory=list)
    choices: list[tuple[pygame.Rect, str]] = field(default_factory=list)
    tabs: list[tuple[pygame.Rect, str]] = field(default_factory=list)
    sides: list[tuple[pygame.Rect, int]] = field(default_factory=list)
    problems: list[tuple[pygame.Rect, str]] = field(default_factory=list)  # each error's lines and its key path


class EditorState:
    """The editor's state and moves."""

    def __init__(self, fonts: Fonts, settings: Settings, doc: EditorDoc, play: PlayFactory | None = None,
                 back: Callable[[], Any] | None = None) -> None:
        self.fonts = fonts
        self.settings = settings
        self.doc = doc
        self.play = play  # test play (the app supplies it)
        self.back = back  # the start menu (the app supplies it)
        remembered = settings.editor if isinstance(getattr(settings, "editor", None), dict) else {}
        self.tool: str = remembered["tool"] if remembered.get("tool") in TOOLS else "brush"
        self.brush: int = remembered["brush"] if remembered.get("brush") in BRUSHES else 1
        tile = remembered.get("tile")
        self.tile = tile if isinstance(tile, int) and 0 <= tile < len(doc.tiles) else 0
        self.side = 0
        self.selected: tuple[int, int] | None = None
        self.zone: str | None = None  # the zone selected (the zones tab shows it first)
        self.polygon: list[tuple[int, int]] = []  # a polygon zone being drawn: its vertices, cell corners
        self.hover_corner: tuple[int, int] | None = None
        self.tab = "scenario"
        self.view = View()
        self.editing: Editing | None = None
        self.toasts: list[Toast] = []
        self.show_help = False
        self.buttons = ButtonRow()
        self.panels = Panels()
        self.drag: dict[str, Any] | None = None  # a stroke, rectangle or unit being dragged
        self.hover: tuple[int, int] | None = None
        self.mouse = (-1, -1)
        self.dialog: Any = None  # the Save As prompt while it is open

    def verdict(self) -> tuple[Scenario | None, list[ContentError]]:
        """The loader's check for drawing: the last one while a stroke or drag goes on, else a fresh one."""
        return self.doc.last_check() if self.drag is not None else self.doc.check()

    # ------------------------------------------------------------------ settings
    def remember(self) -> None:
        """Keep the tool, brush and tile in the settings (saved with them)."""
        if hasattr(self.settings, "editor"):
            self.settings.editor = {"tool": self.tool, "brush": self.brush, "tile": self.tile}

    def set_tool(self, tool: str) -> None:
        """B brush, R rectangle, F fill, U units, Z rectangle zones, P polygon zones."""
        self.tool = tool
        self.polygon = []
        if tool in ("zone", "poly"):
            self.tab = "zones"
        self.remember()

    def set_tile(self, tid: int) -> None:
        """The tile the painting tools lay."""
        self.tile = tid % len(self.doc.tiles)
        if self.tool == "unit":
            self.tool = "brush"
        self.remember()

    def cycle_brush(self, step: int) -> None:
        """[ and ]: a smaller or larger brush."""
        i = BRUSHES.index(self.brush) if self.brush in BRUSHES else 0
        self.brush = BRUSHES[max(0, min(len(BRUSHES) - 1, i + step))]
        self.remember()

    def toast(self, text: str, colour: tuple[int, int, int] = TEXT) -> None:
        """A message for a few seconds."""
        self.toasts = [*self.toasts[-3:], Toast(text, colour, 4.0)]

    # ------------------------------------------------------------------ the map
    def brush_cells(self, cell: tuple[int, int]) -> list[tuple[int, int]]:
        """The cells the brush covers around `cell`."""
        r = self.brush
        x0, y0 = cell[0] - (r - 1) // 2, cell[1] - (r - 1) // 2
        return [(x, y) for y in range(y0, y0 + r) for x in range(x0, x0 + r)]

    def fit(self) -> None:
        """Fit the whole map in the canvas."""
        w, h = self.doc.size
        c = self.panels.canvas
        if c.w <= 0:
            return
        tile = max(MIN_TILE, min(MAX_TILE, min((c.w - 8) // max(1, w), (c.h - 8) // max(1, h))))
        self.view = View(tile, (c.x + (c.w - tile * w) // 2, c.y + (c.h - tile * h) // 2), True)

    def zoom(self, step: int, at: tuple[int, int]) -> None:
        """The wheel: a larger or smaller cell, the point under the pointer kept still."""
        old = self.view.tile
        new = max(MIN_TILE, min(MAX_TILE, old + step * max(1, old // 6)))
        if new == old:
            return
        ox, oy = self.view.origin
        fx, fy = (at[0] - ox) / old, (at[1] - oy) / old
        self.view = View(new, (int(at[0] - fx * new), int(at[1] - fy * new)), True)

    def pan(self, dx: int, dy: int) -> None:
        """Move the map on the screen."""
        ox, oy = self.view.origin
        self.view.origin = (ox + dx, oy + dy)

    # ------------------------------------------------------------------ units and sides
    def select(self, where: tuple[int, int] | None) -> None:
        """Select a unit (its side becomes the one new units join) and show it in the inspector."""
        self.selected = where
        if where is not None:
            self.side = where[0]
            self.tab = "unit"
        self.editing = None

    def delete_selected(self) -> None:
        """Delete: take the selected unit off (the zones tab: the selected zone)."""
        if self.tab == "zones" and self.zone is not None:
            self.doc.delete_zone(self.zone)
            self.toast(f"deleted zone {self.zone} (Ctrl+Z brings it back)")
            self.zone = None
            return
        if self.selected is None:
            return
        si, ui = self.selected
        if self.doc.get(("sides", si, "units", ui)) is None:
            self.selected = None
            return
        name = self.doc.get(("sides", si, "units", ui, "name"))
        self.doc.delete_unit(si, ui)
        self.selected = None
        self.toast(f"deleted {name} (Ctrl+Z brings it back)")

    def add_side(self) -> None:
        """A new side with one unit, at the first free open cell."""
        sides = self.doc.data.setdefault("sides", [])
        names = {s.get("name") for s in sides}
        n = len(sides) + 1
        while f"Side {n}" in names:
            n += 1
        cell = self.free_cell()
        from skirmish.ui.editor.basics import new_unit

        unit = new_unit(str(self.doc.data.get("ruleset", "fi")), f"S{n}-1", cell)
        self.doc.change()
        sides.append({"name": f"Side {n}", "units": [unit]})
        self.side, self.tab, self.selected = len(sides) - 1, "side", None

    def remove_side(self) -> None:
        """Remove the side shown in the inspector (the check says if fewer than two are left)."""
        sides = self.doc.data.get("sides", [])
        if not sides:
            return
        self.doc.change()
        gone = sides.pop(min(self.side, len(sides) - 1))
        self.side, self.selected = max(0, min(self.side, len(sides) - 1)), None
        self.toast(f"removed side {gone.get('name')} (Ctrl+Z brings it back)")

    def add_objective(self) -> None:
        """+ objective: a new objective of the side shown (eliminate), to edit."""
        side = self.doc.data["sides"][self.side]
        self.doc.change()
        side["objectives"] = [*(side.get("objectives") or []), dict(NEW_OBJECTIVE)]

    def add_trigger(self) -> None:
        """+ trigger: a new trigger (a message at round 2), to edit."""
        self.doc.change()
        self.doc.data["triggers"] = [*(self.doc.data.get("triggers") or []), copy.deepcopy(NEW_TRIGGER)]

    def free_cell(self) -> tuple[int, int]:
        """The first open cell with nobody on it, reading from the top left."""
        w, h = self.doc.size
        for y in range(h):
            for x in range(w):
                if self.doc.tiles[int(self.doc.layout[y, x])].move_cost > 0 and self.doc.unit_at((x, y)) is None:
                    return x, y
        return 0, 0

    # ------------------------------------------------------------------ the inspector
    def go_to(self, where: str) -> None:
        """A click on a problem: show what its key path names (a unit, a side, a zone, a trigger, the scenario)."""
        unit = re.match(r"sides\[(\d+)\]\.units\[(\d+)\]", where)
        side = re.match(r"sides\[(\d+)\]", where)
        if unit and self.doc.get(("sides", int(unit[1]), "units", int(unit[2]))) is not None:
            self.select((int(unit[1]), int(unit[2])))
        elif side and self.doc.get(("sides", int(side[1]))) is not None:
            self.side, self.tab, self.selected, self.editing = int(side[1]), "side", None, None
        elif where.startswith("zones"):
            self.tab, self.editing = "zones", None
        elif where.startswith("triggers"):
            self.tab, self.editing = "triggers", None
        else:
            self.tab, self.editing = "scenario", None

    def select_zone(self, name: str | None) -> None:
        """Select a zone: the zones tab shows it."""
        self.zone, self.editing = name, None
        if name is not None:
            self.tab = "zones"

    def add_zone(self, area: dict[str, Any]) -> None:
        """A new zone from the zone tools: selected, its name ready to be typed."""
        name = self.doc.add_zone(area)
        self.select_zone(name)
        self.toast(f"zone {name}: type its name in the zones tab (click it)")

    def finish_polygon(self) -> None:
        """Enter (or a click on the first vertex): the polygon drawn becomes a zone (3 vertices or more)."""
        pts, self.polygon = self.polygon, []
        if len(pts) < 3:
            self.toast("a polygon zone needs three corners or more")
            return
        self.add_zone({"polygon": [[x, y] for x, y in pts]})

    def value_of(self, f: Field) -> str:
        """A field's line as shown."""
        if f.keys[0] == "@zone":
            return str(f.keys[1])
        if f.keys[0] == "@map":
            w, h = self.doc.size
            return {"map name": self.doc.map_name, "cell_m": f"{self.doc.cell_m:g}", "size": f"{w}x{h}"}[str(f.keys[1])]
        return show(self.doc.get(f.keys), f.text)

    def hint_of(self, f: Field) -> str:
        """What an unset line shows instead of its value."""
        return unset_hint(str(self.doc.data.get("ruleset", "fi")), f.keys)

    def start_edit(self, f: Field) -> None:
        """Click a line: type its value."""
        self.editing = Editing(f, self.value_of(f))

    def commit(self) -> bool:
        """Enter: set the typed value (YAML for anything but text); a line that does not parse stays open with
        the reason. The loader's check of the result is shown in the problems panel."""
        e = self.editing
        if e is None:
            return False
        try:
            if e.field.keys[0] == "@map":
                self._set_map(str(e.field.keys[1]), e.text)
            elif e.field.keys[0] == "@zone":
                self.doc.rename_zone(str(e.field.keys[1]), e.text.strip())
                self.zone = e.text.strip()
            else:
                self.doc.set(e.field.keys, parse(e.text, e.field.text))
        except (ValueError, ContentError) as exc:
            e.error = exc.text if isinstance(exc, ContentError) else str(exc)
            return False
        except (KeyError, IndexError, TypeError):  # the line's unit, side or trigger is gone (undone meanwhile)
            self.editing = None
            self.toast("that line is gone (undone?): nothing set", BAD)
            return False
        self.editing = None
        return True

    def _set_map(self, key: str, text: str) -> None:
        if key == "map name":
            name = text.strip()
            if not name or len(name) > 64:
                raise ValueError("a map name of 1-64 characters")
            if name != self.doc.map_name:
                self.doc.change()
                self.doc.map_name = name
        elif key == "cell_m":
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"metres per cell, a number 0.5-10, got {text!r}") from None
            if not 0.5 <= value <= 10:
                raise ValueError(f"metres per cell, a number 0.5-10, got {text!r}")
            if value != self.doc.cell_m:
                self.doc.change()
                self.doc.cell_m = value
        else:
            parts = text.lower().replace("×", "x").replace(" ", "").split("x")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise ValueError(f"the size as WIDTHxHEIGHT (e.g. 30x20), got {text!r}")
            self.doc.resize(int(parts[0]), int(parts[1]))
            self.fit()

    # ------------------------------------------------------------------ files and test play
    def save(self, path: Path | None = None) -> str | None:
        """Ctrl+S (or the Save As prompt's path): write the scenario and its map; None, or why not. A shipped
        scenario, or a new one, is never written by Ctrl+S: Save As asks where (the user's folder offered)."""
        target = path or self.doc.path
        if target is None or (path is None and shipped(target)):
            return "save as"
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            written = self.doc.save(target)
        except OSError as exc:  # OutputError too: one line naming the file
            why = str(exc) if isinstance(exc, OutputError) else f"{target}: {exc.strerror or exc}"
            self.toast(f"not saved: {why}", BAD)
            return why
        _, errors = self.doc.check()
        more = f" ({len(errors)} problems left: see the panel)" if errors else ""
        self.toast("saved: " + ", ".join(str(p) for p in written) + more, GOOD if not errors else TEXT)
        return None

    def default_save_path(self) -> Path:
        """Where Save As proposes to write: the user's folder, under the scenario's file name."""
        stem = self.doc.path.stem if self.doc.path is not None else "new_scenario"
        return user_dir() / f"{stem}.yaml"

    def test_play(self, person: bool = False) -> Any:
        """T: play the scenario as it stands (Shift+T: you play its first side); back here after."""
        scenario, errors = self.doc.check()
        if scenario is None:
            self.toast(f"cannot play: {len(errors)} problems (see the panel)", BAD)
            return None
        if self.play is None:
            self.toast("test play is not available here", BAD)
            return None
        try:
            played = self.doc.playable()  # its own copy: a battle saved from it records what was played
        except (ContentError, OSError) as exc:
            self.toast(f"cannot play: {exc.text if isinstance(exc, ContentError) else exc}", BAD)
            return None
        return self.play(played, self, person)

    # ------------------------------------------------------------------ actions (buttons and keys)
    def toggle_help(self) -> None:
        """H: the help box."""
        self.show_help = not self.show_help

    def to_menu(self) -> Transition:
        """Esc: the start menu (the scenario stays as saved; unsaved edits are lost, so Esc asks twice)."""
        if self.doc.dirty and not getattr(self, "_esc_armed", False):
            self._esc_armed = True
            self.toast("unsaved changes: Esc again leaves without saving (Ctrl+S saves)")
            return None  # type: ignore[return-value]
        if self.back is None:
            return Quit()
        return Reset(self.back())

    def save_key(self) -> Transition | None:
        """Ctrl+S: save where it came from; a shipped or new scenario asks where (Save As)."""
        if self.save() == "save as":
            return self.save_as()
        return None

    def save_as(self) -> Transition:
        """Ctrl+Shift+S: ask for the path (the user's folder offered)."""
        dialog = PathDialog(self.fonts, "Save the scenario as (its map is written beside it)",
                            str(self.default_save_path()), self._save_to)
        return Push(dialog)

    def _save_to(self, path: Path) -> str | None:
        return self.save(path)
