"""The battle screen's drawing: the board with its overlays (reach, route, line of sight, a throw's burst, the
heat map, fog of war) and animations, the AI's reasons, the header, the bottom bar, the side panels, toasts,
tooltips, the help box and the hot-seat cover. Drawing only reads the battle's state."""

from __future__ import annotations

import pygame

from skirmish.ecs.view import BattleView
from skirmish.rules import geometry as geo
from skirmish.rulesets.fi import blast_reach_m
from skirmish.ui import fi_melee
from skirmish.ui.battle.input import HELP
from skirmish.ui.battle.menus import BattleMenus
from skirmish.ui.board import Overlays
from skirmish.ui.fog import drawn_at
from skirmish.ui.overlay_text import draw_labels, draw_toasts, help_box
from skirmish.ui.panels import draw_tracker, draw_unit_card
from skirmish.ui.preview import scenario_colours
from skirmish.ui.widgets import ACCENT, DIM, TEXT, fit_parts, wrap
from skirmish.ui.zones import DEPLOY, draw_objectives


class BattleDrawing(BattleMenus):
    """What the battle screen shows, drawn from its state."""

    def draw(self, surf: pygame.Surface) -> None:
        """Board, bars, panels, menus, toasts."""
        if surf.get_size() != self.size or (self.board.cam.view_w, self.board.cam.view_h) != self.board_size(self.size):
            self.resize(surf.get_size())  # a resize the app did not pass on (WINDOWRESIZED, a new surface)
        surf.fill((16, 18, 22))
        view = self.view_now()  # a side's eyes (fog of war), or all-seeing with declarations hidden
        br = self.board_rect()
        board_surf = surf.subsurface(br)
        ov = self._overlays(view)
        ov.fog = self.fog.surface(view, self.board.cam.tile)
        self.board.draw(board_surf, view, ov, drawn_at(self.anim.positions(), view))
        self.commands.draw_board(board_surf, view, drawn_at(self.anim.positions(), view))  # fw: HP under tokens
        draw_objectives(board_surf, self.fonts, view, self.board.colours)  # a scenario's objectives (issue 15)
        self.anim.draw(board_surf, self.board.cam, self.fonts.normal, self.fonts.big)
        if self.settings.reasons:
            self._draw_reasons(board_surf, view)
        if self.attack is not None:
            self._draw_attack(surf, view)
        self.commands.draw_panel(surf, view)  # the ruleset's command panel while a person decides (fw)
        if self.throwing is not None and self.hover is not None and self.session.human_request() is not None:
            self._draw_throw_tip(surf)
        self._draw_top(surf, view)
        self._draw_bottom(surf)
        self._draw_panels(surf, view)
        draw_toasts(surf, self.fonts, self.toasts, br)
        if not self.show_help and self.drag is None:
            self._draw_tooltip(surf)
        if self.show_help:
            self._draw_help(surf)
        if self.handover is not None and not self.anim.busy:
            self._draw_handover(surf)

    def _draw_reasons(self, surf: pygame.Surface, view: BattleView) -> None:
        """The AI's reason over the acting miniature (and over the selected one, dimmer)."""
        moving = drawn_at(self.anim.positions(), view)
        labels = []
        for name, colour in [(self.acting, ACCENT)] + ([(self.selected, DIM)] if self.selected != self.acting else []):
            label = self.reasons.get(name) if name else None
            u = view.find(name)
            if not label or u is None or u.ghost or (view.viewer is not None and u.side != view.viewer):
                continue  # through a side's eyes, only its own AI's reasons
            labels.append((moving.get(u.name, u.cell), label, colour))
        draw_labels(surf, self.fonts, self.board.cam, labels)

    def _overlays(self, view: BattleView) -> Overlays:
        ov = Overlays(selected=self.selected, acting=self.acting, hover=self.hover)
        if self.settings.heat and self.selected is not None:
            ov.heat = self.session.heat(self.selected)
        req = self.session.human_request()
        if req is not None and req.kind in (self.commands.turn_kind, DEPLOY) and not self.anim.busy:
            me = view.unit(req.unit)
            reach = self._reach_for(view, me)
            if reach is not None:
                ov.walk, ov.run = reach
            if self.drag is not None and self.hover is not None and self.hover != me.cell:
                ov.route, ov.route_ok, _ = self._route_to(self.hover)
            if self.drag is not None:
                ov.drag = self.drag
            if self.attack is not None and self.drag is None:  # a charge line under the pointer: its route
                ov.route, ov.route_ok = fi_melee.menu_route(self.session.battle, self.view_now(), self.attack,
                                                            self.mouse), True
            if self.throwing is not None and self.hover is not None:
                weapon = next((w for w, _ in me.throwables if w.id == self.throwing), None)
                if weapon is not None:
                    cm = view.grid.cell_m
                    ok = not isinstance(self._throw_preview(self.hover), str)
                    ov.blast = (self.hover, weapon.blast_m / cm, blast_reach_m(weapon) / cm, ok)
                    return ov
        frm = view.find(self.selected)
        if frm is not None and self.hover is not None and not frm.out_of_action and self.drag is None:
            ov.sight_from, ov.sight_to = frm.cell, self.hover
            there = [u for u in view.units if u.cell == self.hover and u.side != frm.side]
            ov.sight = view.sight(frm, there[0]) if there else geo.sight(view.grid, frm.cell, self.hover)
            if self.hover == frm.cell:
                ov.sight_from = None
        return ov

    def header_text(self, view: BattleView, width: int) -> str:
        """The header line fitted to `width` pixels: the seed goes first, then the scenario's name, then the
        rest is cut after a whole word with "…" (never mid-word)."""
        phase = self.commands.stage(view)  # FI: the phase; fw: declaring, the movement segment, resolving
        state = "paused" if self.paused else "playing"
        parts = [self.session.scenario.spec.name, f"seed {self.session.seed}", f"round {view.round}{phase}"]
        if self.acting and view.phase:
            parts.append(f"{self.acting} acting")
        parts.append(f"{self.settings.speed:g}x {state}")
        return fit_parts(self.fonts.normal, parts, width, drop=(1, 0))

    def _draw_panels(self, surf: pygame.Surface, view: BattleView) -> None:
        tracker, card, log = self.panel_rects(len(view.units))
        colours = self.board.colours
        reveal = self.reveal | ({view.viewer} if view.viewer else set())  # a side knows its own speeds
        if not self.commands.draw_tracker(surf, tracker, view):  # fw: the DEX order
            draw_tracker(surf, self.fonts, tracker, view, reveal, self.acting, self.done, colours=colours)
        sel = view.find(self.selected)
        own = self.commands.draw_card(surf, card, sel)
        self._tips = own if own is not None else \
            draw_unit_card(surf, self.fonts, card, sel, colours.get(sel.side) if sel else None)
        events = self.session.battle.log.events
        hidden = self.log_fog.hidden_for(view.viewer, events, {u: s for s, us in self._roster.items() for u in us})
        self.log_panel.draw(surf, self.fonts, log, self.session.battle.log, hidden)

    def help_columns(self, width: int, cols: int) -> list[list[tuple[pygame.font.Font, str, tuple[int, int, int]]]]:
        """The H overlay's lines (keys, what the marks on the board mean, the abbreviations) wrapped to
        `cols` columns of a box `width` pixels wide: keys on the left, the rest on the right."""
        f = self.fonts
        col_w = (width - 30 - (cols - 1) * 24) // cols
        sections = self.commands.sections(self.commands.help(HELP))  # fw: its own marks and words
        out: list[list[tuple[pygame.font.Font, str, tuple[int, int, int]]]] = [[] for _ in range(cols)]
        for i, (title, lines) in enumerate(sections):
            col = out[min(cols - 1, 0 if i == 0 else 1)]
            col.append((f.normal, title, ACCENT))
            for line in lines:
                indent = "    " if line.startswith("   ") else ""
                for k, part in enumerate(wrap(f.small, line.strip(), col_w - (18 if indent else 0))):
                    col.append((f.small, (indent if indent or k else "") + ("  " if k and not indent else "") + part,
                                TEXT))
        return out

    def _draw_help(self, surf: pygame.Surface) -> None:
        f = self.fonts
        sw, sh = surf.get_size()
        w = min(sw - 24, 1120)

        def height(col: list[tuple[pygame.font.Font, str, tuple[int, int, int]]]) -> int:
            return sum(font.get_linesize() + (6 if font is f.normal else -1) for font, _, _ in col)

        for cols in (1, 2):
            columns = self.help_columns(w, cols)
            h = max(height(c) for c in columns) + 24
            if h <= sh - 24:
                break
        col_w = (w - 30 - (len(columns) - 1) * 24) // len(columns)
        with help_box(surf, w, h) as rect:
            for c, col in enumerate(columns):
                x, y = rect.x + 15 + c * (col_w + 24), rect.y + 10
                for font, text, colour in col:
                    if font is f.normal and y > rect.y + 10:
                        y += 6
                    surf.blit(f.text(font, text, colour), (x, y))
                    y += font.get_linesize() - (0 if font is f.normal else 1)

    def _draw_handover(self, surf: pygame.Surface) -> None:
        """The board hidden while it is passed to the next player."""
        f = self.fonts
        side = self.handover or ""
        req = self.session.human_request()
        surf.fill((14, 15, 20))
        w, h = surf.get_size()
        colour = scenario_colours(self.session.scenario).get(side, ACCENT)
        what = self.commands.waits_for(req)
        lines = [(f.big, f"Pass to {side}", TEXT), (f.normal, f"Round {self.session.view().round}: {side} {what}", DIM),
                 (f.normal, "press Space or click when ready", ACCENT), (f.small, "Esc: menu", DIM)]
        y = h // 2 - 70
        pygame.draw.rect(surf, colour, (w // 2 - 120, y - 18, 240, 6), border_radius=3)
        for font, text, c in lines:
            for part in wrap(font, text, w - 40):
                img = f.text(font, part, c)
                surf.blit(img, img.get_rect(midtop=(w // 2, y)))
                y += font.get_linesize() + 8

