"""What the board draws of a Future*World battle from the view's fw fields (`UnitView.ext`, FwUnitView): the
DEX-order tracker in place of FI's initiative tracker (R-9.2, R-9.3: highest DEX first, a second action at half
DEX), the unit card (characteristics, HP and condition, kit, tacpack and this round's split, R-9.1, R-9.7,
R-9.8) and an HP bar with the condition under every token."""

from __future__ import annotations

from typing import Any

import pygame

from skirmish.ecs.view import BattleView, UnitView
from skirmish.rulesets.fw import FwUnitView
from skirmish.rulesets.fw_preview import SPENT_CLASSES, half_dex, weapon
from skirmish.ui.art import SIDE_COLOURS, dead_badge, draw_token
from skirmish.ui.board import Board, short_name
from skirmish.ui.panels import TITLE_H, TRACKER_LINE
from skirmish.ui.widgets import ACCENT, BAD, DIM, GOOD, PANEL_BG, PANEL_EDGE, TEXT, Fonts, elide, wrap

Colours = dict[str, tuple[int, int, int]]


def fw(u: UnitView) -> FwUnitView | None:
    """The unit's fw fields, or None (a unit of another ruleset)."""
    return u.ext if isinstance(u.ext, FwUnitView) else None


def condition(f: FwUnitView) -> str:
    """dead / unconscious / fallen (crawls, R-9.7) / moved / ok."""
    if f.dead:
        return "dead"
    if f.unconscious:
        return "unconscious"
    if f.fallen:
        return "fallen"
    return "leapt" if f.jumped else ("moved" if f.moved_m else "ok")


def hp_colour(f: FwUnitView) -> tuple[int, int, int]:
    """Green when whole, amber when hurt, red below half or down."""
    if f.dead or f.unconscious or f.hp <= 0:
        return BAD
    return GOOD if f.hp * 2 > f.CON and f.hp == f.CON else (ACCENT if f.hp * 2 >= f.CON else BAD)


def declared_text(f: FwUnitView, name: str | None = None) -> str:
    """This round's declaration as a side may read it: `shoot Vosh, then aid` or `?` (hidden) or `-`."""
    if not f.full:
        return "?"
    if not f.declared:
        return "-"
    acts = [a + (f" {t}" if t else "") for a, t in f.acts]
    return ", then ".join(acts) if acts else ("jump" if f.jump else "none")


def order(view: BattleView) -> list[tuple[UnitView, FwUnitView]]:
    """The figures by DEX, highest first (R-9.2), the roster's order among equals (they resolve together)."""
    rows = [(u, f) for u in view.units if (f := fw(u)) is not None]
    return sorted(rows, key=lambda r: -r[1].DEX)


def draw_dex_tracker(surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, view: BattleView,
                     colours: Colours) -> None:
    """DEX order of the round: each figure's DEX (and half DEX for a second action, R-9.3), HP of CON, and its
    declaration where the viewer may read it."""
    pygame.draw.rect(surf, PANEL_BG, rect)
    pygame.draw.rect(surf, PANEL_EDGE, rect, 1)
    title = f"DEX order · round {view.round}"
    surf.blit(fonts.text(fonts.normal, elide(fonts.normal, title, rect.w - 16), ACCENT), (rect.x + 8, rect.y + 4))
    y = rect.y + TITLE_H
    col_dex, col_hp, col_act = (rect.x + round(rect.w * k) for k in (0.36, 0.50, 0.66))
    for u, f in order(view):
        if y + TRACKER_LINE > rect.bottom - 2:
            break
        colour = colours.get(u.side) or SIDE_COLOURS[u.side_index % len(SIDE_COLOURS)]
        pygame.draw.rect(surf, colour, (rect.x + 8, y + 5, 9, 9), border_radius=2)
        out = f.dead or f.unconscious
        surf.blit(fonts.text(fonts.small, elide(fonts.small, u.name, col_dex - rect.x - 28), DIM if out else TEXT),
                  (rect.x + 22, y))
        dex = f"{f.DEX}" + (f"/{half_dex(f.DEX)}" if len(f.acts) > 1 else "")
        surf.blit(fonts.text(fonts.small, dex, TEXT), (col_dex, y))
        surf.blit(fonts.text(fonts.small, f"{f.hp}/{f.CON}", hp_colour(f)), (col_hp, y))
        what = condition(f) if out else declared_text(f)
        surf.blit(fonts.text(fonts.small, elide(fonts.small, what, rect.right - 6 - col_act), BAD if out else DIM),
                  (col_act, y))
        y += TRACKER_LINE


def weapon_names(f: FwUnitView) -> list[str]:
    """The figure's weapons by name, each once; a grenade or missile with how many are left (R-9.10)."""
    out = []
    for wid in dict.fromkeys(f.weapons):
        w = weapon(wid)
        name = w.name if w is not None else wid
        out.append(f"{name} x{f.left(wid, True)}" if w is not None and w.weapon_class in SPENT_CLASSES else name)
    return out


def card_lines(u: UnitView, f: FwUnitView) -> list[tuple[str, tuple[int, int, int]]]:
    """The card's lines under the name: HP and condition, characteristics, kit, tacpack and the round's split."""
    lines: list[tuple[str, tuple[int, int, int]]] = [
        (f"HP {f.hp}/{f.CON} · {condition(f)} (R-9.7: unconscious at 0, dead at -{f.CON})", hp_colour(f)),
        (f"STR {f.STR} CON {f.CON} SIZ {f.SIZ} INT {f.INT} POW {f.POW} DEX {f.DEX}", TEXT),
        ("weapons: " + (", ".join(weapon_names(f)) or "none"), TEXT),
        (f"armour: {f.armour or 'none'}" + (" (" + ", ".join(f"{c} {p}" for c, p in f.armour_stops) + ")"
                                             if f.armour_stops else ""), TEXT),
        (f"tacpack G {f.generator} · effectors {f.effectors} · sensors {f.sensors}" +
         (" · jump pack" if f.jump_pack else "") + (" · medikit" if f.medikit else ""), TEXT),
        (f"moves {f.move_m} m" + (f" · {f.moved_m:g} m this round" if f.moved_m else ""), DIM),
    ]
    if f.full and f.declared:
        split = [f"screen {f.screen} {f.screen_points}" if f.screen != "none" else "no screen"]
        split += [f"shots {f.shots}"] * bool(f.shots) + [f"jump {f.jump}"] * bool(f.jump)
        lines.append((f"declared: {declared_text(f)}; " + ", ".join(split), ACCENT))
    elif not f.full:
        lines.append(("declared: hidden until it acts (tacpack split unknown)", DIM))
    return lines


def draw_fw_card(surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, u: UnitView | None,
                 colour: tuple[int, int, int] | None) -> list[Any] | None:
    """The selected figure's card (None: not an fw figure, the board's own card is drawn)."""
    f = fw(u) if u is not None else None
    if u is None or f is None:
        return None
    pygame.draw.rect(surf, PANEL_BG, rect)
    pygame.draw.rect(surf, PANEL_EDGE, rect, 1)
    clip = surf.get_clip()
    surf.set_clip(rect)
    side_c = colour or SIDE_COLOURS[u.side_index % len(SIDE_COLOURS)]
    pr = 16
    out = f.dead or f.unconscious
    draw_token(surf, (rect.x + 8 + pr, rect.y + 8 + pr), pr, side_c, (0, 1), fallen=out or f.fallen, dead=f.dead)
    label = fonts.outlined(fonts.font(13, bold=True), short_name(u.name), (255, 255, 255))
    surf.blit(label, label.get_rect(center=(rect.x + 8 + pr, rect.y + 8 + pr)))
    if f.dead:
        dead_badge(surf, (rect.x + 8 + pr, rect.y + 8 + pr), pr)
    tx = rect.x + 16 + 2 * pr
    surf.blit(fonts.text(fonts.normal, elide(fonts.normal, u.name, rect.right - 8 - tx), TEXT), (tx, rect.y + 4))
    surf.blit(fonts.text(fonts.small, elide(fonts.small, u.side, rect.right - 8 - tx), side_c), (tx, rect.y + 24))
    y = rect.y + 48
    bar = pygame.Rect(rect.x + 8, y, rect.w - 16, 8)
    pygame.draw.rect(surf, (44, 48, 58), bar, border_radius=2)
    pygame.draw.rect(surf, hp_colour(f), (bar.x, bar.y, round(bar.w * max(0, f.hp) / max(1, f.CON)), bar.h),
                     border_radius=2)
    y += 14
    for text, c in card_lines(u, f):
        for part in wrap(fonts.small, text, rect.w - 16):
            if y + 17 > rect.bottom:
                break
            surf.blit(fonts.text(fonts.small, part, c), (rect.x + 8, y))
            y += 17
    surf.set_clip(clip)
    return []


def draw_token_marks(surf: pygame.Surface, fonts: Fonts, board: Board, view: BattleView,
                     at: dict[str, tuple[float, float]]) -> None:
    """An HP bar under every fw token (HP of CON) and its condition when it is down; a frame round every grav
    car's cell with its name (its riders' tokens inside, R-9.12)."""
    cam = board.cam
    r = board.token_radius()
    shown = next((f.cars for u in view.units if (f := fw(u)) is not None and f.cars), ())
    for car in shown:
        cx, cy = cam.centre(car.cell)
        frame = pygame.Rect(0, 0, round(2.6 * r), round(2.6 * r))
        frame.center = (round(cx), round(cy))
        pygame.draw.rect(surf, ACCENT, frame, 2, border_radius=max(2, r // 2))
        tag = fonts.outlined(fonts.small, car.name + (f" ({len(car.riders)})" if car.riders else ""), ACCENT)
        surf.blit(tag, tag.get_rect(midbottom=(frame.centerx, frame.top - 1)))
    for u in view.units:
        f = fw(u)
        if f is None or getattr(u, "ghost", False):
            continue
        x, y = cam.centre(at.get(u.name, u.cell))
        bar = pygame.Rect(x - r, y + r + 2, 2 * r, max(3, r // 4))
        pygame.draw.rect(surf, (20, 22, 26), bar.inflate(2, 2))
        fill = round(bar.w * max(0, f.hp) / max(1, f.CON))
        pygame.draw.rect(surf, hp_colour(f), (bar.x, bar.y, fill, bar.h))
        if f.dead or f.unconscious or f.fallen:
            img = fonts.outlined(fonts.small, condition(f), BAD)
            surf.blit(img, img.get_rect(midtop=(x, bar.bottom + 1)))


def weapon_label(me: FwUnitView, wid: str) -> str:
    """A weapon button: its name, with how many are left of a grenade or missile (R-9.10)."""
    w = weapon(wid)
    if w is None:
        return wid
    if w.weapon_class in SPENT_CLASSES:
        return f"{w.name} x{me.left(wid, True)}"
    return w.name


def parts_of(f: Fonts, text: str, width: int) -> list[str]:
    """A line of the panel wrapped to its width (at most three lines)."""
    return wrap(f.small, text, width)[:3]
