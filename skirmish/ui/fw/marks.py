"""What the fw panel marks on the board while a person declares (R-9.4, R-9.9, R-9.10): a line to each declared
target, a grenade's blast radius where it is aimed with the ring a miss may scatter to and every figure it may
catch labelled with its exact chance, the reach of combat sensors and the DCCM beam; and the animations of fw's
strikes, launches and throws (a record replayed draws the same); and a declared attack's damage distribution
drawn in the panel."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pygame

from skirmish.ecs.view import BattleView
from skirmish.rulesets.fw import FwAttackEvent, FwThrowEvent, cell_target
from skirmish.rulesets.fw_preview import percent
from skirmish.ui.anim import BLAST_S, FLASH_S, TRACER_S, BlastAnim, Flash, ScatterMarker, ThrowArc, Tracer
from skirmish.ui.camera import Camera
from skirmish.ui.fw.odds import MAX_SCATTER_M, FwPreview, Pmf
from skirmish.ui.widgets import ACCENT, BAD, DIM, Fonts, elide

BLAST_FILL = (255, 150, 40, 70)
BLAST_EDGE = (255, 190, 90)
SENSOR_COLOUR = (90, 200, 230)
TARGET_COLOUR = ACCENT


def _dashed(surf: pygame.Surface, a: tuple[float, float], b: tuple[float, float], colour: tuple[int, int, int],
            dash: int = 6) -> None:
    n = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) // dash))
    for i in range(0, n, 2):
        p = (a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n)
        q = (a[0] + (b[0] - a[0]) * (i + 1) / n, a[1] + (b[1] - a[1]) * (i + 1) / n)
        pygame.draw.line(surf, colour, p, q, 2)


def _ring(surf: pygame.Surface, centre: tuple[int, int], r: int, colour: tuple[int, int, int], dots: int = 48) -> None:
    """A dotted circle (not to hide the board under it)."""
    for i in range(dots):
        a = 2 * math.pi * i / dots
        pygame.draw.circle(surf, colour, (centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)), 2)


def draw_declaration(surf: pygame.Surface, fonts: Fonts, cam: Camera, view: BattleView, unit: str, pv: FwPreview,
                     cell_m: float) -> None:
    """The marks of a draft's preview `pv` for `unit` on the board surface."""
    me = view.find(unit)
    if me is None:
        return
    here = cam.centre(me.cell)
    for name in pv.targets:
        t = view.find(name)
        at = t.cell if t is not None else cell_target(name)  # a grenade at a cell
        if at is not None:
            _dashed(surf, here, cam.centre(at), TARGET_COLOUR)
    if pv.dccm_at is not None and (t := view.find(pv.dccm_at)) is not None:
        _dashed(surf, here, cam.centre(t.cell), SENSOR_COLOUR, dash=3)
    if pv.sensors_m:
        _ring(surf, here, int(pv.sensors_m / cell_m * cam.tile), SENSOR_COLOUR)
    if pv.blast is not None:
        b = pv.blast
        at = cam.centre(b.aim)
        r = max(3, int(b.radius_m / cell_m * cam.tile))
        disc = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
        pygame.draw.circle(disc, BLAST_FILL, (r + 1, r + 1), r)
        surf.blit(disc, (at[0] - r - 1, at[1] - r - 1))
        pygame.draw.circle(surf, BLAST_EDGE, at, r, 2)
        _ring(surf, at, int((b.radius_m + MAX_SCATTER_M) / cell_m * cam.tile), BLAST_EDGE, dots=64)
        for name, cell, chance in b.caught:
            x, y = cam.centre(cell)
            img = fonts.outlined(fonts.small, chance, BAD if view.unit(name).side == me.side else BLAST_EDGE)
            surf.blit(img, img.get_rect(midbottom=(x, y - cam.tile // 2)))


def event_anims(e: Any, cells: dict[str, tuple[int, int]], cell_m: float) -> list[list[Any]]:
    """Animation groups for an fw strike, launch or throw (`cells`: where the figures stand before it)."""
    if isinstance(e, FwThrowEvent) and e.actor in cells:
        landed = (e.lands[0] / cell_m - 0.5, e.lands[1] / cell_m - 0.5)
        blast: list[Any] = [BlastAnim(BLAST_S, at=landed, radius=e.radius_m / cell_m)]  # type: ignore[arg-type]
        if not e.hit and e.target in cells:
            blast.append(ScatterMarker(BLAST_S, aim=cells[e.target], landed=landed,  # type: ignore[arg-type]
                                       text=f"{e.clock} o'clock, {e.scatter_m} m"))
        hurt = [Flash(FLASH_S, cell=cells[c["figure"]], text=f"{c['through']} HP" if e.dice else
                      ("blind" if c["blind"] else "luck"), colour=(255, 80, 60))
                for c in e.caught if c["figure"] in cells]
        return [[ThrowArc(TRACER_S * 1.6, frm=cells[e.actor], to=landed)], blast + hurt]  # type: ignore[arg-type]
    if isinstance(e, FwAttackEvent) and e.actor in cells and e.target in cells:
        frm, to = cells[e.actor], cells[e.target]
        through = sum(int(h["through"]) for h in e.damage)
        text = f"{through} HP" if e.hit else ("lost" if e.act == "launch" else "miss")
        colour = (255, 80, 60) if through else (200, 200, 200)
        flash = [Flash(FLASH_S, cell=to, text=text, colour=colour)]
        if e.act == "melee":  # hand to hand: no tracer, the strike flashes on the target
            return [flash]
        rounds = 3 if e.act == "launch" else max(1, e.burst_roll or 1)
        return [[Tracer(TRACER_S * (2 if e.act == "launch" else 1), frm=frm, to=to, hit=e.hit, rounds=rounds)], flash]
    return []


def draw_damage(surf: pygame.Surface, f: Fonts, rect: pygame.Rect, label: str, pmf: Pmf,
                hp: int) -> list[tuple[int, pygame.Rect]]:
    """One attack's exact damage distribution through armour and screen (R-9.6): the chance none gets through (a
    miss, or all stopped) in words, then a bar for each amount, red from the target's HP (as its side knows it);
    returns (points, bar) for each bar drawn."""
    none = sum((p for points, p in pmf if points == 0), Fraction(0))
    most = pmf[-1][0]
    text = f"{label}: none through {percent(none)}, bars 1-{most}, red {hp}+ (down)"
    img = f.text(f.small, elide(f.small, text, rect.w // 2 - 8), DIM)
    surf.blit(img, (rect.x, rect.y + (rect.h - img.get_height()) // 2))
    hurt = [(points, p) for points, p in pmf if points > 0]
    top = max((float(p) for _, p in hurt), default=1.0) or 1.0
    left = rect.x + rect.w // 2
    step = max(2, min(10, (rect.right - left) // max(1, most)))
    bars = []
    for points, p in hurt:  # the chance of each amount that gets through, scaled to the likeliest
        h = max(1, round(rect.h * float(p) / top))
        bar = pygame.Rect(left + (points - 1) * step, rect.bottom - h, max(1, step - 1), h)
        pygame.draw.rect(surf, BAD if hp > 0 and points >= hp else ACCENT, bar)
        bars.append((points, bar))
    return bars
