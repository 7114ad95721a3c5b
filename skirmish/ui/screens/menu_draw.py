"""The start menu's drawing, laid out for the window's size every frame: the scenario list with the Open field,
the scenario's name, description, options, sides and map, the seed and the start buttons, the keys and the
tip of the control under the pointer."""

from __future__ import annotations

from functools import partial

import pygame

from skirmish.ui.layout import Page, elide, elide_left
from skirmish.ui.preview import scenario_colours
from skirmish.ui.screens.base import Quit, draw_panel
from skirmish.ui.screens.menu_state import OPTION_CHOICES, OPTION_KEYS, OPTION_TIPS, ListRow, MenuState
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_EDGE, TEXT, Button, wrap

MENU_KEYS = ("↑↓ scenario · Tab/Space option · C D P I K V options · H who plays · 0-9 seed · R new seed · "
             "O open a file or folder · E edit · N new scenario · Enter start · Esc quit")
HOVER_BG = 25  # how much lighter a hovered row is


class MenuDrawing(MenuState):
    """What the menu shows, drawn from its state."""

    def draw(self, surf: pygame.Surface) -> None:
        """Lay out and draw the menu for the window's size (rebuilt each frame, so it follows resizing)."""
        f = self.fonts
        page = Page(surf, f)
        self.page = page
        w, h = surf.get_size()
        surf.fill((20, 22, 28))
        m = 16 if w >= 1000 else 12
        title_font = f.huge if h >= 700 else f.big
        title = page.text(title_font, "skirmish", ACCENT, (m + 4, 6))
        page.text(f.normal, "Future Imperfect squad battles: pick a scenario, set who plays, press Enter", DIM,
                  (title.right + 18, title.bottom - f.normal.get_linesize() - 4), width=w - title.right - 18 - m)
        self.buttons.buttons = []
        foot = self._draw_footer(page, m)
        top, bottom = title.bottom + 6, foot - 6
        left_w = max(180, min(300, int(w * 0.25)))
        left = pygame.Rect(m, top, left_w, bottom - top)
        right = pygame.Rect(left.right + 12, top, w - m - left.right - 12, bottom - top)
        self._draw_list(page, left)
        self._draw_details(page, right)
        self._fit_labels()
        focus = self._focusable()
        self.buttons.draw(surf, f)
        if self.focus is not None and self.focus < len(focus):
            pygame.draw.rect(surf, ACCENT, focus[self.focus].rect.inflate(4, 4), 2, border_radius=6)
        page.buttons(self.buttons.buttons)
        self._draw_tip(page, m, foot)

    def _fit_labels(self) -> None:
        for b in self.buttons.buttons:
            b.label = elide(self.fonts.normal, b.label, b.rect.w - 12)

    def _draw_footer(self, page: Page, m: int) -> int:
        """Key hints at the bottom (wrapped); returns the y where they start, leaving a line for the tip."""
        f = page.fonts
        w, h = page.surf.get_size()
        lh = f.small.get_linesize()
        lines = wrap(f.small, MENU_KEYS, w - 2 * m)[:2]
        y = h - 6 - lh * len(lines)
        for i, line in enumerate(lines):
            page.text(f.small, line, DIM, (m, y + i * lh), width=w - 2 * m)
        return y - lh - 2

    def _draw_tip(self, page: Page, m: int, y: int) -> None:
        """What the hovered (or focused) control does, with its key."""
        f = page.fonts
        tip = None
        for b in self.buttons.buttons:
            if b.tip and b.rect.collidepoint(self.mouse):
                tip = b.tip
        if tip is None:
            focus = self._focusable()
            if self.focus is not None and self.focus < len(focus):
                tip = focus[self.focus].tip
        if tip is None and any(r.rect.collidepoint(self.mouse) for r in self.rows):
            tip = "click to choose this scenario (↑/↓ move through the list)"
        if tip is None and self.field.rect.collidepoint(self.mouse):
            tip = ("click or press O, type or paste (Ctrl+V) a path: Enter opens a scenario, or lists a folder's "
                   "(dropped files open too); a save (.json): Ctrl+O continues it, Ctrl+R replays it")
        if tip:
            page.text(f.small, tip, ACCENT, (m, y), width=page.surf.get_width() - 2 * m)

    def _draw_list(self, page: Page, rect: pygame.Rect) -> None:
        """Scenarios by name (recent files marked), and the Open field with its error line."""
        f, surf = page.fonts, page.surf
        draw_panel(surf, rect)
        inner = rect.inflate(-16, -16)
        lh_s, lh_n = f.small.get_linesize(), f.normal.get_linesize()
        y = page.text(f.normal, "Scenarios (↑/↓)", ACCENT, (inner.x, inner.y), width=inner.w).bottom + 6
        # the Open field, from the bottom up: error lines, field, heading
        err_lines = 0
        if self.field.error:
            err_lines = min(4, len(wrap(f.small, self.field.error, inner.w)))
        field_h = lh_n + 10
        block = lh_n + 4 + field_h + (4 + err_lines * lh_s if err_lines else 0)
        fy = inner.bottom - block
        end = fy  # where the list ends: above a note when a folder's listing was cut short (folder_list's bounds)
        cut = "; ".join(f"{k}: {v}" for k, v in self.cuts.items())
        if cut:
            cut_lines = min(3, len(wrap(f.small, "listing cut short: " + cut, inner.w)))
            end = fy - cut_lines * lh_s - 6
            page.para(f.small, "listing cut short: " + cut, BAD, inner.x, end, inner.w, cut_lines)
        page.text(f.normal, "Open a file or folder (O)", ACCENT, (inner.x, fy), width=inner.w)
        self.field.rect = pygame.Rect(inner.x, fy + lh_n + 4, inner.w, field_h)
        fr = self.field.rect
        hover = fr.collidepoint(self.mouse)
        pygame.draw.rect(surf, (16, 17, 22) if not hover else (26, 28, 34), fr, border_radius=4)
        pygame.draw.rect(surf, ACCENT if self.field.editing else PANEL_EDGE, fr, 1, border_radius=4)
        if self.field.text or self.field.editing:
            shown = elide_left(f.small, self.field.text + ("|" if self.field.editing else ""), fr.w - 12)
            page.text(f.small, shown, TEXT, (fr.x + 6, fr.centery), anchor="midleft")
        else:
            page.text(f.small, "a .yaml scenario or a .json save", DIM, (fr.x + 6, fr.centery), anchor="midleft", width=fr.w - 12)
        if err_lines and self.field.error:
            page.para(f.small, self.field.error, BAD, inner.x, fr.bottom + 4, inner.w, err_lines)
        # the list
        row_h = lh_n + 8
        self.list_room = max(1, (end - 8 - y) // (row_h + 4))
        if len(self.entries) > self.list_room:  # leave a line to say how many more there are
            self.list_room = max(1, (end - 8 - y - lh_s - 4) // (row_h + 4))
        self.list_top = max(0, min(self.list_top, len(self.entries) - self.list_room))
        self.rows = []
        for i in range(self.list_top, min(len(self.entries), self.list_top + self.list_room)):
            e = self.entries[i]
            r = pygame.Rect(inner.x, y, inner.w, row_h)
            bg = (120, 96, 40) if i == self.index else (52, 58, 72)
            if r.collidepoint(self.mouse):
                bg = tuple(min(255, c + HOVER_BG) for c in bg)  # type: ignore[assignment]
            pygame.draw.rect(surf, bg, r, border_radius=5)
            tag_w = 0
            if e.tag:
                shown = elide_left(f.small, e.tag, r.w // 2)  # a deep subfolder's tag: its end, half the row
                tag = page.text(f.small, shown, DIM, (r.right - 8, r.centery), anchor="midright")
                tag_w = tag.w + 8
            page.text(f.normal, e.name, TEXT, (r.x + 10, r.centery), anchor="midleft", width=r.w - 20 - tag_w)
            self.rows.append(ListRow(r, i))
            y += row_h + 4
        hidden = len(self.entries) - len(self.rows)
        if hidden > 0 and y + lh_s <= end - 4:
            page.text(f.small, f"{hidden} more: wheel or ↑/↓", DIM, (inner.x, y), width=inner.w)

    def _draw_details(self, page: Page, rect: pygame.Rect) -> None:
        """Name, description, options, who plays, the map with the forces, seed and the start buttons."""
        f, surf = page.fonts, page.surf
        draw_panel(surf, rect)
        inner = rect.inflate(-24, -20)
        x0, y = inner.x, inner.y
        lh_n = f.normal.get_linesize()
        btn_h = lh_n + 8
        bottom_row = inner.bottom - btn_h
        self.preview_rect = pygame.Rect(0, 0, 0, 0)
        if self.scenario is None:
            page.text(f.big, self.entry.name, TEXT, (x0, y), width=inner.w)
            y += f.big.get_linesize() + 4
            page.para(f.normal, self.error or "", BAD, x0, y, inner.w, max(1, (bottom_row - y - 8) // lh_n))
            self._bottom_row(page, inner.x, bottom_row, inner.w, btn_h)
            return
        spec = self.scenario.spec
        grid = self.scenario.grid
        y = page.text(f.big, spec.name, TEXT, (x0, y), width=inner.w).bottom + 2
        y = page.para(f.small, (spec.description or "").strip(), DIM, x0, y, inner.w, 2 if surf.get_height() < 700 else 4)
        units = sum(len(s.units) for s in spec.sides)
        info = (f"ruleset {spec.ruleset} · map {grid.name} {grid.width}×{grid.height} ({grid.cell_m:g} m cells) · "
                f"{units} combatants · round limit {spec.victory.max_rounds}")
        y = page.text(f.small, info, DIM, (x0, y + 2), width=inner.w).bottom + 8
        col_w = min(330, max(200, int(inner.w * 0.42)))
        left = pygame.Rect(x0, y, col_w, bottom_row - 8 - y)
        right = pygame.Rect(x0 + col_w + 16, y, inner.right - x0 - col_w - 16, bottom_row - 8 - y)
        head = lh_n + 4
        options_h = head + len(OPTION_CHOICES) * (btn_h + 4)
        sides_h = head + len(spec.sides) * (btn_h + 4)
        self._options(page, left, btn_h)
        if options_h + 8 + sides_h <= left.h:  # the sides fit under the options: the map takes the whole column
            self._sides(page, pygame.Rect(left.x, left.y + options_h + 8, left.w, sides_h), btn_h)
            self.preview_rect = self.preview.draw(surf, right, self.scenario)
        else:
            map_box = pygame.Rect(right.x, right.y, right.w, max(40, right.h - sides_h - 8))
            self.preview_rect = self.preview.draw(surf, map_box, self.scenario)
            self._sides(page, pygame.Rect(right.x, map_box.bottom + 8, right.w, sides_h), btn_h)
        self._bottom_row(page, inner.x, bottom_row, inner.w, btn_h)  # after the rest: Tab goes options, sides, seed

    def _options(self, page: Page, rect: pygame.Rect, btn_h: int) -> None:
        f = page.fonts
        y = page.text(f.normal, "Options (click or key)", ACCENT, (rect.x, rect.y), width=rect.w).bottom + 4
        for key in OPTION_CHOICES:
            if key not in self.options:
                continue  # not an option of the scenario's ruleset
            if y + btn_h > rect.bottom:
                break
            val = self.options.get(key)
            shown = ("yes" if val else "no") if isinstance(val, bool) else str(val).replace("_", " ")
            letter = OPTION_KEYS[key][1]
            enabled = self._option_enabled(key)
            unused = "with card hands" if key == "initiative_cards" else "with dice"
            label = f"{letter}  {key.replace('_', ' ')}: {shown}" if enabled else f"{key}: not used {unused}"
            tip = f"{letter}: {OPTION_TIPS[key]}" if enabled else \
                ("one initiative card is not read with card hands" if key == "initiative_cards"
                 else "the deck is not used when dice decide")
            self.buttons.buttons.append(Button(label, partial(self._cycle_option, key), rect=pygame.Rect(
                rect.x, y, rect.w, btn_h), enabled=enabled, tip=tip))
            y += btn_h + 4

    def _sides(self, page: Page, rect: pygame.Rect, btn_h: int) -> None:
        """Who plays each side, beside a swatch in the side's colour (the colour of its dots on the map)."""
        assert self.scenario is not None
        f, surf = page.fonts, page.surf
        spec = self.scenario.spec
        colours = scenario_colours(self.scenario)
        y = page.text(f.normal, "Sides (click or H: AI / human)", ACCENT, (rect.x, rect.y), width=rect.w).bottom + 4
        for s in spec.sides:
            if y + btn_h > rect.bottom:
                break
            who = self.controls.get(s.name, "ai")
            pygame.draw.rect(surf, colours[s.name], (rect.x, y + 4, 10, btn_h - 8), border_radius=3)
            r = pygame.Rect(rect.x + 16, y, rect.w - 16, btn_h)
            self.buttons.buttons.append(Button(f"{s.name} ({len(s.units)}): {'HUMAN' if who == 'human' else 'AI'}",
                                               partial(self._cycle_control, s.name), rect=r, active=who == "human",
                                               tip=f"{s.name}: played by a person or by its AI (H cycles all sides)"))
            y += btn_h + 4

    def _bottom_row(self, page: Page, x: int, y: int, width: int, h: int) -> None:
        f = page.fonts
        start_w = f.normal.size("Start (Enter)")[0] + 28
        seed_label = f"Seed {self.seed_text or '—'}_"
        seed_w = max(f.normal.size("Seed 000000000_")[0], f.normal.size(seed_label)[0]) + 8
        new_w = f.normal.size("New seed (R)")[0] + 24
        quit_w = f.normal.size("Quit (Esc)")[0] + 24
        edit_w = f.normal.size("Edit (E)")[0] + 24 if self.edit is not None else 0
        if start_w + seed_w + new_w + edit_w + quit_w + 24 > width:  # a narrow window: Esc still quits
            quit_w = 0
        if start_w + seed_w + new_w + edit_w + 18 > width:  # E still edits
            edit_w = 0
        gap = max(6, min(14, (width - start_w - seed_w - new_w - edit_w - quit_w) // 4))
        self.buttons.buttons.append(Button("Start (Enter)", self._go, rect=pygame.Rect(x, y, start_w, h),
                                           enabled=self.scenario is not None, tip="Enter: start the battle"))
        sx = x + start_w + gap
        page.text(f.normal, seed_label, TEXT, (sx + 4, y + h // 2), anchor="midleft")
        nx = sx + seed_w + gap
        self.buttons.buttons.append(Button("New seed (R)", self._new_seed, rect=pygame.Rect(nx, y, new_w, h),
                                           tip="R: a random seed; or type digits (Backspace deletes)"))
        ex = nx + new_w + gap
        if edit_w:
            self.buttons.buttons.append(Button("Edit (E)", self._open_editor, rect=pygame.Rect(ex, y, edit_w, h),
                                               tip="E: this scenario in the editor (N: a new one)"))
            ex += edit_w + gap
        if quit_w:
            self.buttons.buttons.append(Button("Quit (Esc)", Quit, rect=pygame.Rect(ex, y, quit_w, h),
                                               tip="Esc: leave skirmish"))


