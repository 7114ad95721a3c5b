"""What the editor screen holds besides the scenario (skirmish/ui/editor/document.py): the tool, the tile, the
brush, the side new units join, the selection, the view of the map (cell size and offset), the inspector line
being typed, toasts; and the moves that change them. The keys and the mouse are in screen.py, the drawing in
draw.py."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pygame

from skirmish.content.errors import ContentError
from skirmish.content.scenario import Scenario
from skirmish.ui.art import side_colour_map
from skirmish.ui.editor.balance_panel import DEFAULT_BATTLES, BalanceRun
from skirmish.ui.editor.document import EditorDoc
from skirmish.ui.editor.fields import NEW_OBJECTIVE, NEW_TRIGGER, Field
from skirmish.ui.editor.mounts import NOT_FI
from skirmish.ui.editor.pieces import MOUNT_KINDS
from skirmish.ui.screens.menu_state import user_scenarios_dir
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import TEXT, ButtonRow, Fonts, Toast

TOOLS = ("brush", "rect", "fill", "unit", "zone", "poly", "mount")
TOOL_KEYS = {pygame.K_b: "brush", pygame.K_r: "rect", pygame.K_f: "fill", pygame.K_u: "unit", pygame.K_z: "zone",
             pygame.K_p: "poly", pygame.K_m: "mount"}
BRUSHES = (1, 2, 3, 5)
MIN_TILE, MAX_TILE = 4, 64
TABS = ("scenario", "side", "unit", "zones", "triggers", "mounts")


def tab_widths(labels: list[int], total: int, gap: int) -> list[int]:
    """The inspector's tabs' widths: each its label's width and an even share of what is left, so every label is
    whole when they fit in `total` (six tabs at 1280 px: "Scenario" was cut to "Scena…" with even widths);
    else even widths (the labels cut)."""
    n = len(labels)
    free = total - gap * (n - 1) - sum(labels)
    if free < 0:
        return [(total - gap * (n - 1)) // n] * n
    return [w + free // n + (1 if i < free % n else 0) for i, w in enumerate(labels)]


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
    inspector: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))


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
        kind = remembered.get("mount_kind")
        self.mount_kind: str | None = kind if kind in MOUNT_KINDS else None  # K: the kind the M tool places
        self.brush: int = remembered["brush"] if remembered.get("brush") in BRUSHES else 1
        tile = remembered.get("tile")
        self.tile = tile if isinstance(tile, int) and 0 <= tile < len(doc.tiles) else 0
        self.side = 0
        self.selected: tuple[int, int] | None = None
        self.zone: str | None = None  # the zone selected (the zones tab shows it first)
        self.mount: int | None = None  # the mount selected (the mounts tab shows it first)
        self.polygon: list[tuple[int, int]] = []  # a polygon zone being drawn: its vertices, cell corners
        self.hover_corner: tuple[int, int] | None = None
        self.tab = "scenario"
        self.opened: tuple[str | int, ...] | None = None  # the objective or trigger whose form is unfolded
        self.scroll = 0  # the inspector's lines scrolled past (the wheel)
        self._scroll_for: tuple[Any, ...] = ("scenario", None)  # the tab and form the scroll was set for
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
        self.balance: BalanceRun | None = None  # Ctrl+B: the balance figures being made or shown
        battles = remembered.get("balance_battles")
        self.balance_battles = battles if isinstance(battles, int) and 1 <= battles <= 1000 else DEFAULT_BATTLES

    def verdict(self) -> tuple[Scenario | None, list[ContentError]]:
        """The loader's check for drawing: the last one while a stroke or drag goes on, else a fresh one."""
        return self.doc.last_check() if self.drag is not None else self.doc.check()

    # ------------------------------------------------------------------ settings
    def remember(self) -> None:
        """Keep the tool, brush and tile in the settings (saved with them)."""
        if hasattr(self.settings, "editor"):
            self.settings.editor = {"tool": self.tool, "brush": self.brush, "tile": self.tile,
                                    "balance_battles": self.balance_battles,
                                    **({"mount_kind": self.mount_kind} if self.mount_kind else {})}

    def set_tool(self, tool: str) -> None:
        """B brush, R rectangle, F fill, U units, Z rectangle zones, P polygon zones, M mounts."""
        self.tool = tool
        self.polygon = []
        if tool in ("zone", "poly"):
            self.tab = "zones"
        elif tool == "mount":
            self.tab = "mounts"
        self.remember()

    def next_mount_kind(self) -> str:
        """The kind of mount the M tool places: the one chosen with K, else the selected mount's, else the last
        one's, else a horse."""
        if self.mount_kind in MOUNT_KINDS:
            return str(self.mount_kind)
        mounts = self.doc.mounts()
        like = mounts[self.mount] if self.mount is not None and self.mount < len(mounts) else (
            mounts[-1] if mounts else {})
        return str(like.get("kind")) if like.get("kind") in MOUNT_KINDS else MOUNT_KINDS[0]

    def cycle_mount_kind(self) -> None:
        """K: the next kind of mount (horse, beast, bike: the rules' table) for the M tool to place; the M tool
        is taken up."""
        if str(self.doc.data.get("ruleset", "fi")) != "fi":
            self.toast(NOT_FI)
            return
        kinds = MOUNT_KINDS
        self.mount_kind = kinds[(kinds.index(self.next_mount_kind()) + 1) % len(kinds)]
        self.set_tool("mount")
        self.toast(f"M places a {self.mount_kind} (K: the next kind)")

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

    def colours(self) -> dict[str, tuple[int, int, int]]:
        """Each side's colour on the map (as the board draws it); a bad colour falls back to the palette."""
        sides = [SimpleNamespace(name=str(s.get("name", "")), colour=s.get("colour") if isinstance(
            s.get("colour"), str) else None) for s in self.doc.data.get("sides", [])]
        try:
            return side_colour_map(sides)
        except ValueError:
            return side_colour_map([s.name for s in sides])

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
        if self.tab == "mounts" and self.mount is not None and self.mount < len(self.doc.mounts()):
            name = self.doc.mounts()[self.mount].get("name")
            rider = self.doc.rider_of(self.mount)
            self.doc.delete_mount(self.mount)
            self.toast(f"deleted {name}" + (" (its rider is set down)" if rider else "") + " (Ctrl+Z brings it back)")
            self.mount = None
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
        self.opened, self.editing = ("sides", self.side, "objectives", len(side["objectives"]) - 1), None

    def add_trigger(self) -> None:
        """+ trigger: a new trigger (a message at round 2), to edit."""
        self.doc.change()
        self.doc.data["triggers"] = [*(self.doc.data.get("triggers") or []), copy.deepcopy(NEW_TRIGGER)]
        self.opened, self.editing = ("triggers", len(self.doc.data["triggers"]) - 1), None

    def free_cell(self) -> tuple[int, int]:
        """The first open cell with nobody on it, reading from the top left."""
        w, h = self.doc.size
        for y in range(h):
            for x in range(w):
                if self.doc.tiles[int(self.doc.layout[y, x])].move_cost > 0 and self.doc.unit_at((x, y)) is None:
                    return x, y
        return 0, 0
