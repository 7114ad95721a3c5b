"""A scenario's zones, objectives and trigger messages on the board (issue 15 item 1): each zone's outline and
name drawn on the map (in the colour of the side whose objective or deployment it is, else white), a small panel
of the objectives with their state (open, done, failed; a side's own progress), and toasts for the messages and
objectives the log announces. Drawing only reads the view (`BattleView.zones`, `objectives`)."""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from skirmish.core.events import Event
from skirmish.core.scenario_events import ObjectiveEvent, ScenarioTriggerEvent
from skirmish.ecs.view import BattleView, ObjectiveView
from skirmish.ui.camera import Camera
from skirmish.ui.widgets import ACCENT, BAD, DIM, GOOD, PANEL_BG, PANEL_EDGE, TEXT, Fonts

Colour = tuple[int, int, int]
DEPLOY = "deploy"  # a person's deployment request (skirmish.objectives: Play.DEPLOY)
NEUTRAL: Colour = (235, 235, 240)
STATE_COLOUR: dict[str, Colour] = {"open": TEXT, "done": GOOD, "failed": BAD}
STATE_MARK = {"open": "·", "done": "✓", "failed": "✗"}
PANEL_W = 240


def zone_owners(view: BattleView) -> dict[str, str]:
    """The side each zone belongs to on the board: the first side with an objective in it."""
    out: dict[str, str] = {}
    for o in view.objectives:
        if o.zone is not None:
            out.setdefault(o.zone, o.side)
    return out


def _edges(cells: tuple[tuple[int, int], ...]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The outline of a set of cells: the cell sides that border a cell outside it (cell-corner units)."""
    inside = set(cells)
    out = []
    for x, y in cells:
        if (x, y - 1) not in inside:
            out.append(((x, y), (x + 1, y)))
        if (x, y + 1) not in inside:
            out.append(((x, y + 1), (x + 1, y + 1)))
        if (x - 1, y) not in inside:
            out.append(((x, y), (x, y + 1)))
        if (x + 1, y) not in inside:
            out.append(((x + 1, y), (x + 1, y + 1)))
    return out


def draw_zones(surf: pygame.Surface, cam: Camera, fonts: Fonts, view: BattleView,
               colours: Mapping[str, Colour]) -> None:
    """Each zone: a faint fill, its outline, and its name at its top-left cell."""
    if not view.zones:
        return
    owners = zone_owners(view)
    px = cam.tile
    width = max(2, px // 10)
    font = fonts.font(max(11, min(18, round(px * 0.35))), bold=True)
    for name, cells in view.zones:
        if not cells:
            continue
        colour = colours.get(owners.get(name, ""), NEUTRAL)
        shade = pygame.Surface((px, px), pygame.SRCALPHA)
        shade.fill((*colour, 40))
        for c in cells:
            surf.blit(shade, cam.to_screen(c))
        ox, oy = round(cam.x), round(cam.y)
        for (ax, ay), (bx, by) in _edges(cells):
            pygame.draw.line(surf, colour, (ax * px - ox, ay * px - oy), (bx * px - ox, by * px - oy), width)
        first = min(cells, key=lambda c: (c[1], c[0]))
        x, y = cam.to_screen(first)
        img = fonts.text(font, name, colour)
        r = img.get_rect(bottomleft=(x + 2, y - 2))  # above the zone, off its miniatures
        if r.top < 0:
            r.topleft = (x + 3, y + 2)
        pygame.draw.rect(surf, (12, 13, 18), r.inflate(6, 2))
        surf.blit(img, r)


def objective_line(o: ObjectiveView) -> str:
    """One objective for the panel: "✓ Blue:hold relay (2 rounds) 3 pts"."""
    what = o.zone or o.unit or ""
    extra = ""
    if o.rounds is not None and o.kind in ("hold", "survive"):
        held = f"{o.progress}/" if o.progress is not None and o.kind == "hold" and o.state == "open" else ""
        extra = f" ({held}{o.rounds} rounds)"
    elif o.kind == "extract" and o.progress:
        extra = f" ({o.progress} out)"
    flags = " WINS" if o.wins else (" MUST" if o.loses else "")
    return f"{STATE_MARK[o.state]} {o.name} {o.kind} {what}{extra} {o.points} pts{flags}".replace("  ", " ")


def draw_objectives(surf: pygame.Surface, fonts: Fonts, view: BattleView, colours: Mapping[str, Colour],
                    at: tuple[int, int] = (8, 8)) -> pygame.Rect | None:
    """The objectives panel at the board's top left (each line in its state's colour, a side swatch before it);
    None when the scenario has none."""
    if not view.objectives:
        return None
    f = fonts.small
    lines = [(o, objective_line(o)) for o in view.objectives]
    h = 8 + f.get_linesize() * (len(lines) + 1)
    w = min(max(PANEL_W, *(f.size(t)[0] + 30 for _, t in lines)), surf.get_width() - 2 * at[0])
    rect = pygame.Rect(at[0], at[1], w, h)
    panel = pygame.Surface(rect.size, pygame.SRCALPHA)
    panel.fill((*PANEL_BG, 215))
    surf.blit(panel, rect)
    pygame.draw.rect(surf, PANEL_EDGE, rect, 1)
    y = rect.y + 4
    surf.blit(fonts.text(f, "Objectives", ACCENT), (rect.x + 8, y))
    y += f.get_linesize()
    for o, text in lines:
        pygame.draw.rect(surf, colours.get(o.side, DIM), (rect.x + 8, y + 4, 8, f.get_linesize() - 8))
        surf.blit(fonts.text(f, text, STATE_COLOUR.get(o.state, TEXT)), (rect.x + 22, y))
        y += f.get_linesize()
    return rect


def toast_for(e: Event) -> tuple[str, Colour] | None:
    """The toast a scenario event makes on the board: a trigger's message, an objective done or failed."""
    if isinstance(e, ScenarioTriggerEvent) and e.effect in ("message", "reinforce", "door"):
        return e.text, ACCENT
    if isinstance(e, ObjectiveEvent):
        return f"{e.side}: {e.objective} {e.state} ({e.why})", GOOD if e.state == "done" else BAD
    return None
