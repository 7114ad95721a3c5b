"""Small charts for the results screen, read from the battle's events: how many of each side were still
standing after each round, and the wounds each unit dealt."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pygame

from skirmish.core.events import Event
from skirmish.rulesets.fi import OutOfActionEvent
from skirmish.rulesets.fw import FwBleedEvent, FwWoundEvent
from skirmish.summary import UnitTally
from skirmish.ui.layout import Page
from skirmish.ui.widgets import DIM, PANEL_EDGE

Colour = tuple[int, int, int]


def standing_by_round(events: Iterable[Event], unit_sides: dict[str, str], sides: Sequence[str],
                      rounds: int) -> dict[str, list[int]]:
    """Per side, the units standing at the start (index 0) and at the end of each round 1..rounds."""
    start = {s: sum(1 for v in unit_sides.values() if v == s) for s in sides}
    down_in: dict[str, list[int]] = {s: [0] * (rounds + 1) for s in sides}
    fw_down: set[str] = set()
    for e in events:
        # A unit goes down once: a later change of state (incapacitated, then dead) carries `was`.
        down = isinstance(e, OutOfActionEvent) and not e.was
        if isinstance(e, FwWoundEvent | FwBleedEvent) and e.condition in ("unconscious", "dead") and \
                e.actor not in fw_down:  # Future*World: down at 0 HP (R-9.7), once
            fw_down.add(e.actor or "")
            down = True
        if down and e.actor and unit_sides.get(e.actor) in down_in:
            r = min(max(e.round, 1), rounds) if rounds else 0
            down_in[unit_sides[e.actor]][r] += 1
    out: dict[str, list[int]] = {}
    for s in sides:
        n, series = start[s], []
        for r in range(rounds + 1):
            n -= down_in[s][r]
            series.append(n)
        out[s] = series
    return out


def draw_standing(page: Page, rect: pygame.Rect, series: dict[str, list[int]], colours: dict[str, Colour]) -> None:
    """A step chart: one line per side, rounds along, units standing up; axis numbers in small text."""
    surf, f = page.surf, page.fonts
    pygame.draw.rect(surf, (22, 24, 30), rect)
    if not series:
        return
    top = max(max(v) for v in series.values()) or 1
    rounds = max(len(v) for v in series.values()) - 1
    lab_w = f.small.size(str(top))[0] + 8
    lab_h = f.small.get_linesize()
    plot = pygame.Rect(rect.x + lab_w, rect.y + 6, rect.w - lab_w - 10, rect.h - lab_h - 10)
    if plot.w < 20 or plot.h < 20:
        return
    pygame.draw.line(surf, PANEL_EDGE, plot.bottomleft, plot.bottomright)
    pygame.draw.line(surf, PANEL_EDGE, plot.topleft, plot.bottomleft)

    def px(r: float, n: float) -> tuple[int, int]:
        return (plot.x + int(plot.w * (r / max(1, rounds))), plot.bottom - int(plot.h * (n / top)))

    for n in sorted({0, top}) if plot.h >= 2 * lab_h + 4 else [0]:
        page.text(f.small, str(n), DIM, (plot.x - 4, px(0, n)[1]), anchor="midright" if n else "bottomright")
    page.text(f.small, "0", DIM, (plot.x, plot.bottom + 2), anchor="midtop")
    if rounds:
        page.text(f.small, f"round {rounds}", DIM, (plot.right, plot.bottom + 2), anchor="topright")
    for i, (side, values) in enumerate(series.items()):
        pts: list[tuple[int, int]] = []
        offset = (i - (len(series) - 1) / 2) * 2  # sides with the same count stay apart
        for r, n in enumerate(values):
            x, y = px(r, n)
            if pts:
                pts.append((x, pts[-1][1]))
            pts.append((x, int(y + offset)))
        if len(pts) >= 2:
            pygame.draw.lines(surf, colours.get(side, (200, 200, 200)), False, pts, 3)
        else:
            pygame.draw.circle(surf, colours.get(side, (200, 200, 200)), pts[0], 3)


def draw_wounds(page: Page, rect: pygame.Rect, units: Sequence[UnitTally], colours: dict[str, Colour]) -> None:
    """Horizontal bars: wounds dealt per unit (units that dealt none are left out)."""
    surf, f = page.surf, page.fonts
    pygame.draw.rect(surf, (22, 24, 30), rect)
    shown = sorted((u for u in units if u.wounds_dealt), key=lambda u: (-u.wounds_dealt, u.name))
    line = f.small.get_linesize() + 2
    room = max(0, (rect.h - 8) // line)
    if not shown:
        page.text(f.small, "no wounds dealt", DIM, (rect.x + 8, rect.y + 6), width=rect.w - 16)
        return
    names_w = min(rect.w // 3, max(f.small.size(u.name)[0] for u in shown) + 8)
    top = max(u.wounds_dealt for u in shown)
    y = rect.y + 4
    for u in shown[:room]:
        page.text(f.small, u.name, DIM, (rect.x + 6, y), width=names_w - 6)
        num_w = f.small.size(str(top))[0] + 8
        bar_w = max(2, int((rect.w - names_w - num_w - 12) * u.wounds_dealt / top))
        pygame.draw.rect(surf, colours.get(u.side, (200, 200, 200)), (rect.x + names_w, y + 2, bar_w, line - 6))
        page.text(f.small, str(u.wounds_dealt), DIM, (rect.x + names_w + bar_w + 4, y))
        y += line
