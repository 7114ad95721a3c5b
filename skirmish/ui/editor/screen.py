"""The scenario editor (`skirmish edit [SCENARIO]`, and E in the start menu): paint the map with the tileset
(brush, rectangle, fill; undo and redo), place, move and edit units, set sides, ruleset and options, see the
loader's problems live, save a Tiled map and a YAML scenario, and test-play it. Its state is in state.py, its
drawing in draw.py, the scenario in document.py; here are its keys, clicks, drags and the wheel."""

from __future__ import annotations

import pygame

from skirmish.ui.editor.document import EditorDoc
from skirmish.ui.editor.draw import EditorDrawing
from skirmish.ui.editor.mounts import mount_press, mount_release
from skirmish.ui.editor.objective_form import FormField
from skirmish.ui.editor.state import TOOL_KEYS
from skirmish.ui.editor.zones import corner_at, zone_at
from skirmish.ui.screens.base import Transition, as_transition
from skirmish.ui.widgets import GOOD, edit_line

PAN_STEP = 48


class EditorScreen(EditorDrawing):
    """The editor on the board."""

    def new(self) -> None:
        """Ctrl+N: a new scenario (this one is kept if saved; Ctrl+Z does not bring it back)."""
        self.doc = EditorDoc.new(str(self.doc.data.get("ruleset", "fi")))
        self.selected, self.editing, self.tab, self.opened, self.mount = None, None, "scenario", None, None
        if self.balance is not None:
            self.balance.cancel()
            self.balance = None
        self.view.fitted = False
        self.toast("a new scenario: Ctrl+S asks where to save it", GOOD)

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Keys, clicks, drags and the wheel."""
        if event.type == pygame.KEYDOWN:
            if self.editing is not None:
                return self._field_key(event)
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            return self._motion(event)
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._press(event)
        if event.type == pygame.MOUSEBUTTONUP:
            return self._release(event)
        if event.type == pygame.MOUSEWHEEL and self.panels.canvas.collidepoint(self.mouse):
            self.zoom(event.y, self.mouse)
        elif event.type == pygame.MOUSEWHEEL and self.panels.inspector.collidepoint(self.mouse):
            self.scroll = max(0, self.scroll - event.y)
            self.editing = None
        return None

    def _key(self, event: pygame.event.Event) -> Transition | None:
        k, mod = event.key, event.mod
        ctrl = mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        shift = mod & pygame.KMOD_SHIFT
        if k != pygame.K_ESCAPE:
            self._esc_armed = False
        if ctrl:
            if k == pygame.K_z and not shift:
                self._undo(self.doc.undo())
            elif k == pygame.K_y or (k == pygame.K_z and shift):
                self._undo(self.doc.redo(), "redo")
            elif k == pygame.K_s:
                return self.save_as() if shift else self.save_key()
            elif k == pygame.K_n:
                self.new()
            elif k == pygame.K_b:
                self.run_balance()
            return None
        if self.balance_key(event):
            return None
        if self.polygon and k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_BACKSPACE):
            if k == pygame.K_ESCAPE:
                self.polygon = []
            elif k == pygame.K_BACKSPACE:
                self.polygon.pop()
            else:
                self.finish_polygon()
            return None
        if k == pygame.K_ESCAPE:
            if self.show_help:
                self.show_help = False
                return None
            if self.selected is not None:
                self.selected = None
                return None
            return self.to_menu()
        if k == pygame.K_h:
            self.toggle_help()
        elif k == pygame.K_k:
            self.cycle_mount_kind()
        elif k in TOOL_KEYS:
            self.set_tool(TOOL_KEYS[k])
        elif k == pygame.K_LEFTBRACKET:
            self.cycle_brush(-1)
        elif k == pygame.K_RIGHTBRACKET:
            self.cycle_brush(1)
        elif pygame.K_1 <= k <= pygame.K_9 and k - pygame.K_1 < len(self.doc.tiles):
            self.set_tile(k - pygame.K_1)
        elif k in (pygame.K_DELETE, pygame.K_BACKSPACE):
            self.delete_selected()
        elif k == pygame.K_t:
            return as_transition(self.test_play(bool(shift)))
        elif k == pygame.K_HOME:
            self.fit()
        elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            dx = {pygame.K_LEFT: PAN_STEP, pygame.K_RIGHT: -PAN_STEP}.get(k, 0)
            dy = {pygame.K_UP: PAN_STEP, pygame.K_DOWN: -PAN_STEP}.get(k, 0)
            self.pan(dx, dy)
        return None

    def _undo(self, done: bool, what: str = "undo") -> None:
        if not done:
            self.toast(f"nothing to {what}")
        self.editing = None
        if self.selected is not None and self.doc.get(("sides", self.selected[0], "units", self.selected[1])) is None:
            self.selected = None
        if self.mount is not None and self.mount >= len(self.doc.mounts()):
            self.mount = None

    def _field_key(self, event: pygame.event.Event) -> Transition | None:
        """Typing an inspector line: Enter sets it, Esc leaves it unchanged."""
        assert self.editing is not None
        self.editing.text, done = edit_line(self.editing.text, event)
        if done == "enter":
            self.commit()
        elif done == "cancel":
            self.editing = None
        return None

    def _press(self, event: pygame.event.Event) -> Transition | None:
        pos = event.pos
        self.mouse = pos
        if event.button == 2:
            self.drag = {"kind": "pan", "last": pos}
            return None
        if event.button not in (1, 3):
            return None
        if event.button == 1:
            hit, result = self.buttons.press(pos)
            if hit:
                return as_transition(result)
            if self._panel_click(pos):
                return None
        if not self.panels.canvas.collidepoint(pos):
            return None
        if self.tool == "poly" and event.button == 1:  # a corner: on the map's edge too
            corner = corner_at(self, pos)
            if len(self.polygon) >= 3 and corner == self.polygon[0]:
                self.finish_polygon()
            elif corner not in self.polygon:
                self.polygon.append(corner)
            return None
        cell = self.view.cell_at(pos)
        if not self.doc.inside(cell):
            return None
        self.editing = None
        if event.button == 3:  # the eyedropper
            self.set_tile(int(self.doc.layout[cell[1], cell[0]]))
            return None
        if self.tool == "unit":
            here = self.doc.unit_at(cell)
            if here is not None:
                self.select(here)
                self.drag = {"kind": "unit", "unit": here, "start": cell}
            elif self.doc.data.get("sides"):
                side = min(self.side, len(self.doc.data["sides"]) - 1)
                index = self.doc.place_unit(side, cell)
                self.select((side, index))
                self.toast(f"placed {self.doc.get(('sides', side, 'units', index, 'name'))}")
        elif self.tool == "mount":
            mount_press(self, cell)
        elif self.tool == "brush":
            self.drag = {"kind": "brush"}
            self._stroke(cell)
        elif self.tool == "rect":
            self.drag = {"kind": "rect", "start": cell}
            self.hover = cell
        elif self.tool == "fill":
            n = self.doc.fill(cell, self.tile)
            if n:
                self.toast(f"filled {n} cells with {self.doc.tiles[self.tile].name}")
        elif self.tool == "zone":
            self.drag = {"kind": "zone", "start": cell}
            self.hover = cell
        return None

    def _stroke(self, cell: tuple[int, int]) -> None:
        """Paint under the brush; a stroke's cells are one undo step (its first paint's)."""
        drag = self.drag
        assert drag is not None
        first = not drag.get("painted")
        if first:
            drag["painted"] = self.doc.paint(self.brush_cells(cell), self.tile) > 0
            return
        todo = [(x, y) for x, y in self.brush_cells(cell)
                if self.doc.inside((x, y)) and int(self.doc.layout[y, x]) != self.tile]
        for x, y in todo:
            self.doc.layout[y, x] = self.tile
        if todo:
            self.doc.version += 1

    def _panel_click(self, pos: tuple[int, int]) -> bool:
        """Clicks on the palette, the sides, the tabs, the inspector lines and the equipment lists."""
        for r, tid in self.panels.palette:
            if r.collidepoint(pos):
                self.set_tile(tid)
                return True
        for r, si in self.panels.sides:
            if r.collidepoint(pos):
                self.side, self.tab, self.selected, self.editing = si, "side", None, None
                return True
        for r, tab in self.panels.tabs:
            if r.collidepoint(pos):
                self.tab, self.editing = tab, None
                return True
        for r, item in self.panels.choices:
            if r.collidepoint(pos) and self.editing is not None:
                self.pick(item)
                return True
        for r, where in self.panels.problems:
            if r.collidepoint(pos):
                self.go_to(where)
                return True
        for r, fd in self.panels.fields:
            if r.collidepoint(pos):
                if self.editing is not None and self.editing.field != fd:
                    self.commit()
                if isinstance(fd, FormField) and fd.kind in ("open", "toggle", "action"):
                    self.form_click(fd)
                else:
                    self.start_edit(fd)
                return True
        if self.editing is not None and not self.panels.canvas.collidepoint(pos):
            self.commit()
            return True
        return False

    def _motion(self, event: pygame.event.Event) -> Transition | None:
        self.mouse = event.pos
        inside = self.panels.canvas.collidepoint(event.pos)
        self.hover = self.view.cell_at(event.pos) if inside else None
        self.hover_corner = corner_at(self, event.pos) if inside and self.tool == "poly" else None
        drag = self.drag
        if drag is None:
            return None
        if drag["kind"] == "pan":
            last = drag["last"]
            self.pan(event.pos[0] - last[0], event.pos[1] - last[1])
            drag["last"] = event.pos
        elif drag["kind"] == "brush" and self.hover is not None:
            self._stroke(self.hover)
        return None

    def _release(self, event: pygame.event.Event) -> Transition | None:
        self.mouse = event.pos
        drag, self.drag = self.drag, None
        if drag is None:
            return None
        cell = self.view.cell_at(event.pos)
        if drag["kind"] == "zone":
            end = (max(0, min(self.doc.size[0] - 1, cell[0])), max(0, min(self.doc.size[1] - 1, cell[1])))
            start = drag["start"]
            here = zone_at(self, start) if end == start else None
            if here is not None:  # a click on a zone selects it
                self.select_zone(here)
            else:
                self.add_zone({"rect": [min(start[0], end[0]), min(start[1], end[1]), max(start[0], end[0]),
                                        max(start[1], end[1])]})
        elif drag["kind"] == "rect":
            end = (max(0, min(self.doc.size[0] - 1, cell[0])), max(0, min(self.doc.size[1] - 1, cell[1])))
            n = self.doc.rect(drag["start"], end, self.tile)
            if n:
                self.toast(f"{n} cells of {self.doc.tiles[self.tile].name}")
        elif drag["kind"] == "mount":
            mount_release(self, drag, cell)
        elif drag["kind"] == "unit" and self.doc.inside(cell) and cell != drag["start"]:
            if self.doc.unit_at(cell) is None:
                side, index = drag["unit"]
                why = self.doc.move_unit(side, index, cell)
                if why is not None:
                    self.toast(why)
            else:
                self.toast("a unit stands there already")
        return None

    def update(self, dt: float) -> Transition | None:
        """The toasts fade; a balance run that ends says so."""
        run = self.balance
        if run is not None and not run.running and not run.told:
            run.told = True
            if run.results:
                best = ", ".join(f"{b.side} {b.best.opponent}" for b in run.results)
                self.toast(f"balance: nearest the target: {best}", GOOD)
        for t in self.toasts:
            t.left -= dt
        self.toasts = [t for t in self.toasts if t.left > 0]
        return None
