"""The results screen: who won, casualties per side, who did what, the telling moments and a chart; the same
battle again (same seed or a new one), or back to the menu."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from skirmish.content.scenario import Scenario
from skirmish.core.events import Event
from skirmish.summary import BattleSummary, outcome_title, summarize, unit_sides
from skirmish.ui.charts import draw_standing, draw_wounds, standing_by_round
from skirmish.ui.layout import Page, elide_left
from skirmish.ui.preview import scenario_colours
from skirmish.ui.screens.base import MenuFactory, Quit, Reset, StartBattle, Transition, as_transition, draw_panel
from skirmish.ui.widgets import ACCENT, BAD, DIM, TEXT, Button, ButtonRow, Fonts

if TYPE_CHECKING:
    from skirmish.battle import Outcome

RESULTS_KEYS = "S same seed · N new seed · M menu · G other chart · ↑↓ scroll units · Esc quit"


class ResultsScreen:
    """Who won, casualties per side, who did what, the telling moments and a chart; restart with the same
    seed or a new one, or back to the menu."""

    def __init__(self, fonts: Fonts, outcome: Outcome, scenario: Scenario, controls: dict[str, str],
                 start: StartBattle, menu: MenuFactory, log_path: Path | None, events: Sequence[Event] = ()) -> None:
        self.fonts = fonts
        self.outcome = outcome
        self.scenario = scenario
        self.controls = controls
        self.start = start
        self.menu = menu
        self.log_path = log_path
        self.buttons = ButtonRow()
        sides = [(s.name, [u.name for u in s.units]) for s in scenario.spec.sides]
        self.unit_sides = unit_sides(sides)
        self.summary: BattleSummary = summarize(events, self.unit_sides)
        self.side_names = [s for s, _ in sides]
        self.colours = scenario_colours(scenario)
        rounds = self.summary.rounds or outcome.rounds
        self.standing = standing_by_round(events, self.unit_sides, self.side_names, rounds)
        self.chart = "standing"  # or "wounds"
        self.scroll = 0  # first unit row shown
        self.page: Page | None = None
        self.mouse = (-1, -1)

    @property
    def title(self) -> str:
        """"Victory: Blue" or "Draw" (one form for every side name: not "Blue win" nor "Raiders wins")."""
        return outcome_title(self.outcome.winner)

    def _same(self) -> Transition:
        return self.start(self.scenario, self.outcome.seed, self.controls)

    def _new(self) -> Transition:
        return self.start(self.scenario, int.from_bytes(os.urandom(3), "big"), self.controls)

    def _toggle_chart(self) -> None:
        self.chart = "wounds" if self.chart == "standing" else "standing"

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """S same seed, N new seed, M menu, G other chart, ↑/↓ scroll the units, Esc/Q quit."""
        if event.type == pygame.KEYDOWN:
            k = event.key
            if k == pygame.K_s:
                return self._same()
            if k == pygame.K_n:
                return self._new()
            if k == pygame.K_m:
                return Reset(self.menu())
            if k in (pygame.K_ESCAPE, pygame.K_q):
                return Quit()
            if k == pygame.K_g:
                self._toggle_chart()
            elif k in (pygame.K_UP, pygame.K_PAGEUP):
                self.scroll = max(0, self.scroll - (1 if k == pygame.K_UP else 5))
            elif k in (pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.scroll = min(max(0, len(self.unit_sides) - 1), self.scroll + (1 if k == pygame.K_DOWN else 5))
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(max(0, len(self.unit_sides) - 1), self.scroll - event.y))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return as_transition(self.buttons.press(event.pos)[1])
        return None

    def update(self, dt: float) -> Transition | None:
        """Nothing moves here."""
        return None

    def draw(self, surf: pygame.Surface) -> None:
        """Title, then casualties and the unit table on the left, the chart and the moments on the right,
        buttons and keys at the bottom; sized to the window."""
        f = self.fonts
        page = Page(surf, f)
        self.page = page
        surf.fill((18, 20, 26))
        w, h = surf.get_size()
        m = 16 if w >= 1000 else 12
        o = self.outcome
        title_font = f.huge if h >= 700 else f.big
        t = page.text(title_font, self.title, ACCENT, (w // 2, 8), anchor="midtop", width=w - 2 * m)
        if o.winner in self.colours:
            pygame.draw.rect(surf, self.colours[o.winner], (w // 2 - 80, t.bottom + 2, 160, 5), border_radius=2)
        reason = f" · {self.summary.reason}" if self.summary.reason else ""
        bounty = ("" if o.bounty is None else  # the unspent story chips as bounty points
                  " · bounty " + ", ".join(f"{side} {points}" for side, points in o.bounty.items()))
        sub = (f"{self.scenario.spec.name} · seed {o.seed} · {o.rounds} round{'s' if o.rounds != 1 else ''}"
               f"{reason}{bounty}")
        y = page.text(f.normal, sub, TEXT, (w // 2, t.bottom + 10), anchor="midtop", width=w - 2 * m).bottom + 10
        # bottom: keys, log line, buttons
        lh_s = f.small.get_linesize()
        keys_y = h - 6 - lh_s
        page.text(f.small, RESULTS_KEYS, DIM, (m, keys_y), width=w - 2 * m)
        tip_y = keys_y - lh_s - 2
        log_y = tip_y - lh_s - 2
        if self.log_path is not None:
            page.text(f.small, elide_left(f.small, f"log saved: {self.log_path}", w - 2 * m), DIM, (m, log_y))
        btn_h = f.normal.get_linesize() + 10
        btn_y = log_y - 8 - btn_h
        self._buttons(page, w // 2, btn_y, btn_h, w - 2 * m)
        body = pygame.Rect(m, y, w - 2 * m, btn_y - 10 - y)
        left_w = int(body.w * 0.56)
        self._draw_left(page, pygame.Rect(body.x, body.y, left_w, body.h))
        self._draw_right(page, pygame.Rect(body.x + left_w + 12, body.y, body.w - left_w - 12, body.h))
        self.buttons.draw(surf, f)
        page.buttons(self.buttons.buttons)
        tip = next((b.tip for b in self.buttons.buttons if b.tip and b.rect.collidepoint(self.mouse)), None)
        if tip:
            page.text(f.small, tip, ACCENT, (m, tip_y), width=w - 2 * m)

    def _buttons(self, page: Page, cx: int, y: int, h: int, room: int) -> None:
        f = page.fonts
        specs: list[tuple[str, Callable[[], object], str]] = [
            ("Same seed (S)", self._same, "S: the same battle again (same seed, same sides)"),
            ("New seed (N)", self._new, "N: the same scenario with a new seed"),
            ("Menu (M)", lambda: Reset(self.menu()), "M: back to the start menu"),
            ("Quit (Esc)", Quit, "Esc or Q: leave skirmish")]
        widths = [f.normal.size(label)[0] + 28 for label, _, _ in specs]
        gap = max(6, min(16, (room - sum(widths)) // 3))
        x = cx - (sum(widths) + gap * 3) // 2
        self.buttons.buttons = []
        for (label, fn, tip), bw in zip(specs, widths, strict=True):
            self.buttons.buttons.append(Button(label, fn, rect=pygame.Rect(x, y, bw, h), tip=tip))
            x += bw + gap

    def _draw_left(self, page: Page, rect: pygame.Rect) -> None:
        """Casualties per side, then the unit table (shots, hits, wounds dealt, enemies put down, fate)."""
        f, surf, s = page.fonts, page.surf, self.summary
        draw_panel(surf, rect)
        inner = rect.inflate(-20, -16)
        font = f.normal if surf.get_height() >= 700 else f.small  # the table in larger type when there is room
        lh_s = font.get_linesize()
        y = page.text(f.normal, "Casualties", ACCENT, (inner.x, inner.y), width=inner.w).bottom + 4
        for side in self.side_names:
            members = [u for u in s.units.values() if u.side == side]
            down = [u for u in members if u.fate != "standing"]
            lost = ", ".join(f"{u.name} ({u.fate})" for u in down) or "none"
            pygame.draw.rect(surf, self.colours[side], (inner.x, y + 4, 8, lh_s - 8), border_radius=2)
            y = page.para(font, f"{side}: {len(members) - len(down)} of {len(members)} standing · lost: {lost}",
                          TEXT, inner.x + 14, y, inner.w - 14, 2)
        y += 8
        y = page.text(f.normal, "Who did what", ACCENT, (inner.x, y), width=inner.w).bottom + 4
        cols = [("shots", "shots"), ("hits", "hits"), ("wounds", "wounds_dealt"), ("down", "put_down")]
        num_w = max(font.size(c)[0] for c, _ in cols) + 14
        fate_w = font.size("incapacitated")[0] + 8
        name_w = min(inner.w - 14 - num_w * len(cols) - fate_w, max(font.size(n)[0] for n in self.unit_sides) + 16)
        if name_w < 60:  # a narrow window: leave the fate column out
            fate_w, name_w = 0, inner.w - 14 - num_w * len(cols)
        xs = [inner.x + 14 + name_w + num_w * (i + 1) for i in range(len(cols))]
        page.text(font, "unit", DIM, (inner.x + 14, y))
        for (label, _), x in zip(cols, xs, strict=True):
            page.text(font, label, DIM, (x - 6, y), anchor="topright")
        if fate_w:
            page.text(font, "fate", DIM, (xs[-1] + 8, y))
        y += lh_s + 2
        order = [s.units[n] for n in self.unit_sides if n in s.units]
        room = max(1, (inner.bottom - y) // lh_s)
        if len(order) > room:
            room -= 1  # a line saying how many more
        self.scroll = max(0, min(self.scroll, max(0, len(order) - room)))
        for u in order[self.scroll:self.scroll + room]:
            pygame.draw.rect(surf, self.colours.get(u.side, TEXT), (inner.x, y + 4, 8, lh_s - 8), border_radius=2)
            page.text(font, u.name, TEXT if u.fate == "standing" else DIM, (inner.x + 14, y), width=name_w - 6)
            for (_, attr), x in zip(cols, xs, strict=True):
                page.text(font, str(getattr(u, attr)), TEXT, (x - 6, y), anchor="topright")
            if fate_w:
                page.text(font, u.fate, DIM if u.fate == "standing" else BAD, (xs[-1] + 8, y), width=fate_w - 8)
            y += lh_s
        more = len(order) - self.scroll - room
        if more > 0 or self.scroll:
            page.text(font, f"{self.scroll} above, {max(0, more)} below: ↑/↓ or wheel", DIM, (inner.x + 14, y),
                      width=inner.w - 14)

    def _draw_right(self, page: Page, rect: pygame.Rect) -> None:
        """The chart (G switches it) and the three most telling moments."""
        f, surf, s = page.fonts, page.surf, self.summary
        draw_panel(surf, rect)
        inner = rect.inflate(-20, -16)
        font = f.normal if surf.get_height() >= 700 else f.small  # larger type when there is room
        lh_s, lh_n = f.small.get_linesize(), f.normal.get_linesize()
        moments = s.top_moments(3)
        moments_h = lh_n + 14 + max(1, len(moments)) * (2 * font.get_linesize() + 2)
        title = "Standing after each round (G)" if self.chart == "standing" else "Wounds dealt per unit (G)"
        y = page.text(f.normal, title, ACCENT, (inner.x, inner.y), width=inner.w).bottom + 2
        if self.chart == "standing":
            x = inner.x
            for side in self.side_names:  # the legend
                pygame.draw.rect(surf, self.colours[side], (x, y + lh_s // 2 - 2, 14, 4))
                r = page.text(f.small, side, DIM, (x + 18, y), width=max(0, inner.right - x - 18))
                x = r.right + 14
            y += lh_s + 2
        chart = pygame.Rect(inner.x, y, inner.w, max(30, min(inner.w * 2 // 3, inner.bottom - moments_h - 8 - y)))
        if self.chart == "standing":
            draw_standing(page, chart, self.standing, self.colours)
        else:
            draw_wounds(page, chart, list(s.units.values()), self.colours)
        y = page.text(f.normal, "Telling moments", ACCENT, (inner.x, chart.bottom + 10), width=inner.w).bottom + 4
        lines = 2 if inner.bottom - y >= 3 * (2 * font.get_linesize() + 2) else 1
        if not moments:
            page.text(font, "none: nobody was badly hurt", DIM, (inner.x, y), width=inner.w)
        for mo in moments:
            y = page.para(font, f"Round {mo.round}: {mo.text}", TEXT, inner.x, y, inner.w, lines) + 2

