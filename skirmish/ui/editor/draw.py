"""The editor's drawing, laid out for the window each frame: the tool bar, the tile palette and the sides on
the left, the map with its units in the middle, the inspector (scenario, side, unit) on the right, the
loader's problems under the map, the keys at the bottom, and the help box (H)."""

from __future__ import annotations

from functools import partial
from typing import Any

import pygame

from skirmish.ui.art import tile_surface
from skirmish.ui.editor.actions import EditorActions
from skirmish.ui.editor.balance_panel import draw_balance, panel_rect
from skirmish.ui.editor.fields import (
    Field,
    scenario_fields,
    side_fields,
    unit_fields,
    zone_fields,
)
from skirmish.ui.editor.mounts import NOT_FI, NOTE, draw_editor_mounts, mount_fields
from skirmish.ui.editor.objective_form import FormField, objective_rows, trigger_rows
from skirmish.ui.editor.state import TABS, tab_widths
from skirmish.ui.editor.zones import draw_zones
from skirmish.ui.layout import Page, elide_left
from skirmish.ui.overlay_text import draw_help, draw_toasts
from skirmish.ui.screens.base import draw_panel
from skirmish.ui.widgets import ACCENT, BAD, DIM, GOOD, PANEL_EDGE, TEXT, Button, wrap

EDITOR_KEYS = ("B brush · R rectangle · F fill · U units · Z zone · P polygon zone · M mounts (K kind) · [ ] brush "
               "size · right-click picks a tile · Del delete · Ctrl+Z undo · Ctrl+Y redo · Ctrl+S save · Ctrl+B "
               "balance · T test play · H help · Esc menu")
HELP = [
    "B brush: drag to paint the chosen tile; [ and ] change its size (1, 2, 3, 5 cells)",
    "R rectangle: drag from corner to corner · F fill: click an area to fill it with the tile",
    "Right-click a cell: its tile becomes the chosen one · 1-9 on the palette's order, or click a tile",
    "U units: click an empty cell to place a unit of the chosen side (like its last unit), drag a unit "
    "to move it, click one to edit it; Delete removes it",
    "The inspector (right): click a line to type it, Enter sets it, Esc leaves it; values are written as in "
    "the scenario file (YAML: [a, b] lists, {key: value} maps); a loadout line offers the equipment tables",
    "Scenario tab: name, description, ruleset, seed, options, victory; the map's name, metres per cell and "
    "size (WIDTHxHEIGHT resizes it, new cells are ground)",
    "Side tab: name, colour, controller, AI, orders, deployment (a zone) …, one line an objective; + objective, "
    "+ side, − side (the one shown)",
    "Z zone: drag a rectangle (a click on a zone selects it) · P polygon: click its corners (cell corners), Enter "
    "or the first corner closes it, Backspace takes the last back, Esc drops it · Zones tab: click a name to "
    "rename it (objectives, deployment and triggers follow), an area to type it; Delete removes the selected",
    "M mounts (Future Imperfect): click an empty cell to place one (under a unit: it rides it), K chooses the kind "
    "placed (horse, beast, bike; shown on the left), drag one to move it (its rider with it), click one to select "
    "it; Mounts tab: its name, kind, cell and walk; Delete removes the selected one",
    "Side tab: click an objective to unfold its form: kind, zone, unit … picked from lists, numbers typed, wins and "
    "loses toggled; the YAML line is the advanced way · Triggers tab: the same for each trigger: when (round, "
    "enters, leaves, falls, casualties, objective) and each effect (reinforce, message, ai, door, end), + effect",
    "Ctrl+B balance: skirmish balance on the scenario as it stands, in the background (Esc cancels): the first "
    "side against each AI level, the level nearest 50%, fair by side; + and - set the battles a level",
    "Problems (under the map): the loader's own check, live, naming the key as skirmish check does",
    "Ctrl+Z undo · Ctrl+Y (or Ctrl+Shift+Z) redo · Ctrl+S save · Ctrl+Shift+S save as (a shipped "
    "scenario is only ever saved as a new file; your folder is offered) · Ctrl+N a new scenario",
    "T test play (AI against AI), Shift+T you play the first side; Esc on the board comes back here",
    "Wheel zoom · arrows or middle-drag pan · Home fit the map · H this help · Esc the start menu",
]
TOP_H, LEFT_W, RIGHT_W, PROBLEMS_H = 44, 200, 360, 120
TOOL_BUTTONS = (  # (tool, label, tip): the left panel's tool buttons
    ("brush", "Brush B", "B: paint cells with the chosen tile"), ("rect", "Rect R", "R: drag a rectangle of the tile"),
    ("fill", "Fill F", "F: fill an area of one tile"), ("unit", "Unit U", "U: place, move and select units"),
    ("zone", "Zone Z", "Z: drag a rectangle zone; click a zone to select it"),
    ("poly", "Poly P", "P: click a polygon zone's corners; Enter (or the first corner) closes it"),
    ("mount", "Mount M", "M: place, move and select mounts (Future Imperfect)"))
SHORT = 3  # letters of a unit's name on its token


class EditorDrawing(EditorActions):
    """What the editor shows, drawn from its state."""

    def draw(self, surf: pygame.Surface) -> None:
        """The whole screen for the window's size."""
        f = self.fonts
        page = Page(surf, f)
        self.page = page
        w, h = surf.get_size()
        surf.fill((20, 22, 28))
        foot_h = f.small.get_linesize() * len(wrap(f.small, EDITOR_KEYS, w - 24)) + 8
        self._top(page, pygame.Rect(0, 0, w, TOP_H))
        body = pygame.Rect(0, TOP_H, w, h - TOP_H - foot_h)
        right_w = min(RIGHT_W, max(260, w // 3))
        left = pygame.Rect(8, body.y, LEFT_W, body.h)
        right = pygame.Rect(w - right_w - 8, body.y, right_w, body.h)
        middle = pygame.Rect(left.right + 8, body.y, right.x - left.right - 16, body.h)
        canvas = pygame.Rect(middle.x, middle.y, middle.w, middle.h - PROBLEMS_H - 8)
        moved = canvas != self.panels.canvas
        self.panels.canvas = canvas
        if moved or not self.view.fitted:
            self.fit()
        self._left(page, left)
        self._canvas(surf, canvas)
        self._problems(page, pygame.Rect(middle.x, canvas.bottom + 8, middle.w, PROBLEMS_H))
        self._inspector(page, right)
        y = h - foot_h + 4
        for line in wrap(f.small, EDITOR_KEYS, w - 24):
            page.text(f.small, line, DIM, (12, y))
            y += f.small.get_linesize()
        if self.balance is not None:
            draw_balance(page, f, self.balance, panel_rect(canvas, f), self.balance.version != self.doc.version,
                         self.balance_battles)
        self.buttons.draw(surf, f)
        draw_toasts(surf, f, [t for t in self.toasts if t.left > 0], canvas)
        if self.show_help:
            draw_help(surf, f, [("Editor", HELP), ("Keys", [EDITOR_KEYS])])

    # ------------------------------------------------------------------ parts
    def _top(self, page: Page, rect: pygame.Rect) -> None:
        f = self.fonts
        mark = "*" if self.doc.dirty else ""
        title = f"Edit: {self.doc.data.get('name', '')}{mark}"
        t = page.text(f.normal, title, ACCENT, (12, rect.centery), anchor="midleft", width=LEFT_W - 8)
        b = self.buttons
        b.buttons = [
            Button("Undo", self.doc.undo, enabled=bool(self.doc.undos), tip="Ctrl+Z"),
            Button("Redo", self.doc.redo, enabled=bool(self.doc.redos), tip="Ctrl+Y"),
            Button("Save", self.save_key, tip="Ctrl+S (a shipped or new scenario: Save As)"),
            Button("Save as", self.save_as, tip="Ctrl+Shift+S"),
            Button("Test play (T)", self.test_play, tip="T: AI against AI; Shift+T: you play the first side"),
            Button("Help (H)", self.toggle_help, tip="H: the keys"),
            Button("Menu (Esc)", self.to_menu, tip="Esc: the start menu"),
        ]
        b.layout(max(t.right, LEFT_W) + 16, rect.y + 7, rect.h - 14, f, right=rect.right - 8)
        page.buttons([x for x in b.buttons if x.rect.w > 0])

    def _left(self, page: Page, rect: pygame.Rect) -> None:
        f, surf = self.fonts, page.surf
        draw_panel(surf, rect)
        x, y = rect.x + 8, rect.y + 6
        tool_w, tool_h = (rect.w - 16 - 8) // 3, f.small.get_linesize() + 8
        for i, (name, label, tip) in enumerate(TOOL_BUTTONS):
            r = pygame.Rect(x + (i % 3) * (tool_w + 4), y + (i // 3) * (tool_h + 4), tool_w, tool_h)
            tool = Button(label, partial(self.set_tool, name), rect=r, active=self.tool == name, tip=tip, small=True)
            self.buttons.buttons.append(tool)
            page.buttons([tool])
        y += (len(TOOL_BUTTONS) + 2) // 3 * (tool_h + 4) + 6
        y = page.text(f.normal, "Tiles", ACCENT, (x, y)).bottom + 4
        self.panels.palette = []
        row_h = f.small.get_linesize() + (4 if rect.h >= 560 else 0)
        for tid, t in enumerate(self.doc.tiles):
            r = pygame.Rect(x, y, rect.w - 16, row_h)
            if tid == self.tile and self.tool != "unit":
                pygame.draw.rect(surf, (120, 96, 40), r, border_radius=4)
            surf.blit(tile_surface(t, row_h - 4), (r.x + 2, r.y + 2))
            glyph = self.doc.glyphs.get(tid, " ")
            key = f"{tid + 1}" if tid < 9 else " "
            page.text(f.small, f"{key} {glyph}  {t.name}", TEXT, (r.x + row_h + 4, r.centery), anchor="midleft",
                      width=r.w - row_h - 6)
            self.panels.palette.append((r, tid))
            y += row_h + 2
        tool_line = f"next mount: {self.next_mount_kind()} (K)" if self.tool == "mount" else \
            f"brush {self.brush}×{self.brush} ([ ])"
        y = page.text(f.small, tool_line, DIM, (x, y + 4)).bottom + 8
        y = page.text(f.normal, "Sides (new units join)", ACCENT, (x, y), width=rect.w - 16).bottom + 4
        self.panels.sides = []
        colours = self.colours()
        for si, side in enumerate(self.doc.data.get("sides", [])):
            if y + row_h > rect.bottom - row_h - 8:
                break
            r = pygame.Rect(x, y, rect.w - 16, row_h)
            if si == self.side:
                pygame.draw.rect(surf, (52, 58, 72), r, border_radius=4)
            name = str(side.get("name", "?"))
            pygame.draw.rect(surf, colours.get(name, (200, 200, 200)), (r.x + 2, r.y + 3, 10, row_h - 6))
            page.text(f.small, f"{name} ({len(side.get('units', []))})", TEXT, (r.x + 18, r.centery),
                      anchor="midleft", width=r.w - 20)
            self.panels.sides.append((r, si))
            y += row_h + 2

    def _canvas(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surf, (12, 13, 17), rect)
        clip = surf.get_clip()
        surf.set_clip(rect)
        v, doc = self.view, self.doc
        w, h = doc.size
        cache: dict[tuple[int, int], pygame.Surface] = self.__dict__.setdefault("_tiles", {})
        if cache and next(iter(cache.values())).get_width() != v.tile:
            cache.clear()
        blits = []
        x0, y0 = max(0, (rect.x - v.origin[0]) // v.tile), max(0, (rect.y - v.origin[1]) // v.tile)
        x1, y1 = min(w, (rect.right - v.origin[0]) // v.tile + 1), min(h, (rect.bottom - v.origin[1]) // v.tile + 1)
        for y in range(y0, y1):
            for x in range(x0, x1):
                tid = int(doc.layout[y, x])
                key = (tid, (x * 7 + y * 13) % 3)
                img = cache.get(key)
                if img is None:
                    img = cache[key] = tile_surface(doc.tiles[tid], v.tile, key[1])
                blits.append((img, (v.origin[0] + x * v.tile, v.origin[1] + y * v.tile)))
        surf.blits(blits, doreturn=False)
        if v.tile >= 10:
            for x in range(x0, x1 + 1):
                px = v.origin[0] + x * v.tile
                pygame.draw.line(surf, (0, 0, 0), (px, v.origin[1] + y0 * v.tile), (px, v.origin[1] + y1 * v.tile))
            for y in range(y0, y1 + 1):
                py = v.origin[1] + y * v.tile
                pygame.draw.line(surf, (0, 0, 0), (v.origin[0] + x0 * v.tile, py), (v.origin[0] + x1 * v.tile, py))
        pygame.draw.rect(surf, PANEL_EDGE, (v.origin[0] - 1, v.origin[1] - 1, w * v.tile + 2, h * v.tile + 2), 1)
        draw_zones(surf, self)
        draw_editor_mounts(surf, self)
        self._units(surf)
        self._marks(surf)
        surf.set_clip(clip)

    def _units(self, surf: pygame.Surface) -> None:
        colours = self.colours()
        v = self.view
        r = max(3, v.tile * 2 // 5)
        sides = self.doc.data.get("sides", [])
        for si, ui, unit in self.doc.units():
            at = unit.get("at")
            if not (isinstance(at, list) and len(at) == 2 and all(isinstance(c, int) for c in at)):
                continue
            c = v.rect_of((at[0], at[1])).center
            colour = colours.get(str(sides[si].get("name", "")), (200, 200, 200))
            pygame.draw.circle(surf, (12, 12, 16), c, r + 2)
            pygame.draw.circle(surf, colour, c, r)
            if (si, ui) == self.selected:
                pygame.draw.circle(surf, ACCENT, c, r + 4, 2)
            if v.tile >= 18:
                name = str(unit.get("name", ""))
                label = (name[:1] + name.rsplit("-", 1)[-1])[:SHORT] if "-" in name else name[:SHORT]
                img = self.fonts.text(self.fonts.small, label, (10, 10, 14))
                surf.blit(img, img.get_rect(center=c))

    def _marks(self, surf: pygame.Surface) -> None:
        """The brush or rectangle under the pointer."""
        v, drag = self.view, self.drag
        if drag is not None and drag.get("kind") in ("rect", "zone") and self.hover is not None:
            a, b = drag["start"], self.hover
            r = v.rect_of((min(a[0], b[0]), min(a[1], b[1])))
            r.w, r.h = (abs(a[0] - b[0]) + 1) * v.tile, (abs(a[1] - b[1]) + 1) * v.tile
            pygame.draw.rect(surf, ACCENT, r, 2)
        elif self.hover is not None and self.doc.inside(self.hover):
            cells = self.brush_cells(self.hover) if self.tool == "brush" else [self.hover]
            for cell in cells:
                if self.doc.inside(cell):
                    pygame.draw.rect(surf, ACCENT, v.rect_of(cell), 1)

    def _problems(self, page: Page, rect: pygame.Rect) -> None:
        f, surf = self.fonts, page.surf
        draw_panel(surf, rect)
        _, errors = self.verdict()
        x, y = rect.x + 8, rect.y + 4
        self.panels.problems = []
        if not errors:
            page.text(f.normal, "No problems: the scenario loads (T plays it)", GOOD, (x, y), width=rect.w - 16)
            return
        y = page.text(f.normal, f"Problems ({len(errors)}), as skirmish check reports them (click one to go "
                      "there)", BAD, (x, y), width=rect.w - 16).bottom + 2
        lh = f.small.get_linesize()
        for err in errors:
            if y + lh > rect.bottom - 2:
                break
            top = y
            hover = pygame.Rect(x, top, rect.w - 16, 2 * lh).collidepoint(self.mouse)
            y = page.para(f.small, err.text, ACCENT if hover else TEXT, x, y, rect.w - 16, 2)
            self.panels.problems.append((pygame.Rect(x, top, rect.w - 16, y - top), err.where))

    def _inspector(self, page: Page, rect: pygame.Rect) -> None:
        f, surf = self.fonts, page.surf
        draw_panel(surf, rect)
        x, y, w = rect.x + 8, rect.y + 6, rect.w - 16
        self.panels.tabs = []
        tx = x
        for tab, tab_w in zip(TABS, tab_widths([f.small.size(t.title())[0] + 4 for t in TABS], w, 4), strict=True):
            r = pygame.Rect(tx, y, tab_w, f.small.get_linesize() + 8)
            pygame.draw.rect(surf, (120, 96, 40) if tab == self.tab else (52, 58, 72), r, border_radius=4)
            page.text(f.small, tab.title(), TEXT, r.center, anchor="center", width=tab_w - 4)
            self.panels.tabs.append((r, tab))
            tx += tab_w + 4
        y += f.small.get_linesize() + 16
        ruleset = str(self.doc.data.get("ruleset", "fi"))
        sides = self.doc.data.get("sides", [])
        self.side = max(0, min(self.side, len(sides) - 1))
        fields, note, extra = self._tab_fields(ruleset, sides)
        if note:
            y = page.para(f.small, note, DIM, x, y, w, 3) + 2
        bx = rect.right - 8
        for label, action in reversed(extra):
            bw = f.normal.size(label)[0] + 20
            bx -= bw
            self.buttons.buttons.append(Button(label, action, rect=pygame.Rect(bx, rect.bottom - 34, bw, 28)))
            bx -= 6
        self.panels.fields, self.panels.choices = [], []
        self.panels.inspector = rect
        lh = f.small.get_linesize()
        label_w = 96
        fields = self._scrolled(fields, max(1, (rect.bottom - 40 - y) // (lh + 6) - 1))
        if self.scroll:
            y = page.text(f.small, f"▲ {self.scroll} more (wheel)", DIM, (x, y)).bottom + 4
        for i, fd in enumerate(fields):
            if y + lh > rect.bottom - 40:
                page.text(f.small, f"▼ {len(fields) - i} more (wheel)", DIM, (x, rect.bottom - 30), anchor="midleft")
                break
            r = pygame.Rect(x, y, w, lh + 4)
            editing = self.editing is not None and self.editing.field == fd
            if editing or r.collidepoint(self.mouse):
                pygame.draw.rect(surf, (40, 44, 54), r, border_radius=3)
            action = isinstance(fd, FormField) and fd.kind in ("action", "open")
            page.text(f.small, fd.label, ACCENT if action else DIM, (x + 2, r.centery), anchor="midleft",
                      width=(w - 4) if isinstance(fd, FormField) and fd.kind == "action" else label_w - 4)
            if editing and self.editing is not None:
                shown = elide_left(f.small, self.editing.text + "|", w - label_w - 4)
                page.text(f.small, shown, ACCENT, (x + label_w, r.centery), anchor="midleft")
            elif not (isinstance(fd, FormField) and fd.kind == "action"):
                value = self.value_of(fd)
                page.text(f.small, value or f"— {self.hint_of(fd)}".strip(), TEXT if value else DIM,
                          (x + label_w, r.centery), anchor="midleft", width=w - label_w - 4)
            self.panels.fields.append((r, fd))
            y += lh + 6
            if editing and self.editing is not None and f.small.size(self.editing.text + "|")[0] > w - label_w - 4:
                y = page.para(f.small, self.editing.text + "|", ACCENT, x + 12, y, w - 12, 10) + 4  # the whole line
            if editing and self.editing is not None and self.editing.error:
                y = page.para(f.small, self.editing.error, BAD, x, y, w, 2) + 2
            if editing and isinstance(fd, FormField) and fd.tip:
                y = page.para(f.small, " ".join(fd.tip.split()), DIM, x + 12, y, w - 12, 3) + 2
            if editing and self.options_of(fd)[0]:
                break  # the equipment to add (a form's choices) takes the room of the lines below
        if self.editing is not None:
            self._choices(page, pygame.Rect(x, y + 4, w, rect.bottom - 44 - y))

    def _scrolled(self, fields: list[Field], room: int) -> list[Field]:
        """The inspector's lines from the first one scrolled to (the wheel); a form just unfolded is scrolled
        into view whole when it can be."""
        if (self.tab, self.opened) != self._scroll_for:
            self._scroll_for = (self.tab, self.opened)
            self.scroll = 0
            mine = [i for i, fd in enumerate(fields) if self.opened and fd.keys[:len(self.opened)] == self.opened]
            if mine and mine[-1] >= room:
                self.scroll = min(mine[0], mine[-1] - room + 1)
        self.scroll = max(0, min(self.scroll, len(fields) - 1))
        return fields[self.scroll:]

    def _tab_fields(self, ruleset: str, sides: list[Any]) -> tuple[list[Field], str, list[tuple[str, Any]]]:
        """The shown tab's lines, a note above them, and its buttons (label, action)."""
        if self.tab == "scenario":
            return scenario_fields(), "", []
        if self.tab == "side":
            side_buttons: list[tuple[str, Any]] = [("+ side", self.add_side), ("− side", self.remove_side)]
            if not sides:
                return [], "no sides", side_buttons
            rows = objective_rows(self.doc.data, self.side, self.refs(), self.opened)
            return (side_fields(ruleset, self.side) + rows,
                    f"side {self.side + 1} of {len(sides)} (click a side on the left)",
                    [("+ objective", self.add_objective), *side_buttons])
        if self.tab == "zones":
            zones = self.doc.data.get("zones") or {}
            note = ("Z drag a rectangle, P click corners (Enter closes) to draw a zone; click one on the map to "
                    "select it; Delete removes it") if not zones else "click a zone's name to rename it"
            return zone_fields(zones, self.zone), note, []
        if self.tab == "mounts":
            mounts = self.doc.mounts()
            note = NOT_FI if ruleset != "fi" else NOTE if not mounts else "click a mount's name to rename it"
            self.mount = self.mount if self.mount is not None and self.mount < len(mounts) else None
            return mount_fields(mounts, self.mount), note, []
        if self.tab == "triggers":
            triggers = self.doc.data.get("triggers")
            note = ("click a trigger to unfold its form" if triggers else
                    "no triggers: + trigger adds one to edit (docs/FILES.md: when → then)")
            return trigger_rows(self.doc.data, self.refs(), self.opened), note, [("+ trigger", self.add_trigger)]
        sel = self.selected
        unit = None if sel is None else self.doc.get(("sides", sel[0], "units", sel[1]))
        if unit is None or sel is None:
            self.selected = None
            return [], "No unit selected: with U (units), click a unit on the map, or an empty cell to place one", []
        return (unit_fields(ruleset, sel[0], sel[1]), f"{unit.get('name')} at {unit.get('at')} (drag it on the "
                "map) · Delete removes it", [])

    def _choices(self, page: Page, rect: pygame.Rect) -> None:
        """A loadout line's equipment (click one to add it), or a form row's choices (click one to set it)."""
        assert self.editing is not None
        key = str(self.editing.field.keys[-1])
        items, adds = self.options_of(self.editing.field)
        if not items or rect.h <= 0:
            return
        f = self.fonts
        head = f"{key}: click to add ({len(items)} in the tables)" if adds else f"{key}: click one, or type it"
        y = page.text(f.small, head, ACCENT, (rect.x, rect.y), width=rect.w).bottom + 2
        lh = f.small.get_linesize()
        col_w = rect.w // 2
        for i, (item, name) in enumerate(items):
            cx, cy = rect.x + (i % 2) * col_w, y + (i // 2) * lh
            if cy + lh > rect.bottom:
                break
            r = pygame.Rect(cx, cy, col_w - 4, lh)
            page.text(f.small, item if item == name else f"{item}", TEXT if not r.collidepoint(self.mouse)
                      else ACCENT, (cx, cy), width=col_w - 6)
            self.panels.choices.append((r, item))
