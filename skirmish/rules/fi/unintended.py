"""Unintended targets (R-6.11, R-4.10): who stands on a shot's line of fire, which of them a missed round
strikes, and where. Pure: the systems list the figures and apply what this returns.

Before the draw the figures within 1 m (2 m for a `suppression` weapon) of the line of fire are listed,
nearest the firer first, at most ten. The line runs from the firer's cell centre through the target's and on
to the weapon's maximum range (a missed round flies on past the target); a figure is on it when the straight
line from the firer to it is clear of walls. After the draw every missed round strikes the first figure whose
box on the card's unintended-target strip (R-4.10) is crossed, whose candidate exists and which no earlier
round struck; friends and foes alike ("Sorry, boys"). The k-th such hit lands at the shot's location (the
card's standard, or where the firer's location bumps moved it), then one box up, one down, two up, two down
… (clamped to the stack), and reads damage like a hit with no bumps (docs/RULES-NOTES.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from skirmish.rules import geometry as geo
from skirmish.rules.deck import Card
from skirmish.rules.equipment import Weapon
from skirmish.rules.fi.ranged import HitResult, ShotSetup, TargetState, apply_hit
from skirmish.rules.randomizer import Draw

MAX_CANDIDATES = 10  # the card's strip has ten figures
LINE_M = 1.0  # within 1 m of the line of fire
SUPPRESSION_LINE_M = 2.0  # … 2 m for a weapon with the suppression attribute
HIGH_EXPOSED = frozenset({"head", "chest", "right_arm"})  # as for the intended target behind high cover


def line_width_m(weapon: Weapon) -> float:
    """How far from the line of fire a figure may stand and still be a candidate (R-6.11)."""
    return SUPPRESSION_LINE_M if weapon.suppression else LINE_M


@dataclass(frozen=True)
class Figure:
    """A figure that might stand on the line: its name and cell (the caller leaves out the firer and the
    target, and the dead)."""

    name: str
    cell: geo.Cell


def off_line_m(firer: geo.Cell, target: geo.Cell, cell: geo.Cell, cell_m: float) -> tuple[float, float] | None:
    """(metres from the firer along the line of fire, metres off it) for a cell's centre, or None when the cell
    is behind the firer or the firer and target share a cell."""
    fx, fy = geo.centre(firer)
    tx, ty = geo.centre(target)
    dx, dy = tx - fx, ty - fy
    length = math.hypot(dx, dy)
    if length == 0:
        return None
    cx, cy = geo.centre(cell)
    along = ((cx - fx) * dx + (cy - fy) * dy) / length
    if along <= 0:
        return None
    off = abs((cx - fx) * dy - (cy - fy) * dx) / length
    return along * cell_m, off * cell_m


def candidates(grid: geo.GridMap, firer: geo.Cell, target: geo.Cell, figures: Sequence[Figure], weapon: Weapon
               ) -> list[Figure]:
    """The figures a missed round may strike, nearest the firer first (ties in the order given), at most ten
    (R-6.11)."""
    return [figures[i] for i in on_line(grid, firer, target, [f.cell for f in figures], weapon)]


def on_line(grid: geo.GridMap, firer: geo.Cell, target: geo.Cell, cells: Sequence[geo.Cell], weapon: Weapon
            ) -> list[int]:
    """`candidates` by the figures' cells: the indices into `cells` of the candidates, in `candidates`' order.
    Each cell is measured as `off_line_m` measures it (the same float operations in the same order, with the
    line's own numbers worked out once per shot: the battle asks this for every shot, over every figure)."""
    width = line_width_m(weapon) + 1e-9
    far = weapon.max_range_m + 1e-9
    fx, fy = geo.centre(firer)
    tx, ty = geo.centre(target)
    dx, dy = tx - fx, ty - fy
    length = math.hypot(dx, dy)
    if length == 0:  # off_line_m measures nothing on a line of no length
        return []
    cell_m = grid.cell_m
    near: list[tuple[float, int]] = []
    for i, cell in enumerate(cells):
        if cell in (firer, target):
            continue
        cx, cy = cell[0] + 0.5, cell[1] + 0.5  # geo.centre
        along = ((cx - fx) * dx + (cy - fy) * dy) / length
        if along <= 0 or along * cell_m > far:
            continue
        if abs((cx - fx) * dy - (cy - fy) * dx) / length * cell_m > width:
            continue
        if not geo.clear_line(grid, (fx, fy), (cx, cy), (firer, cell)):
            continue
        near.append((geo.distance_m(firer, cell, cell_m), i))
    near.sort()
    return [i for _, i in near[:MAX_CANDIDATES]]


def struck(crossed: Sequence[bool], listed: int, missed: int) -> list[int]:
    """Which candidates (indices, in the order struck) the missed rounds hit: each missed round strikes the
    first crossed figure on the strip whose candidate exists and which is not yet hit; never one twice."""
    out: list[int] = []
    for _ in range(missed):
        nxt = next((i for i in range(min(listed, len(crossed))) if crossed[i] and i not in out), None)
        if nxt is None:
            break
        out.append(nxt)
    return out


def stray_box(start: int, k: int) -> int:
    """The box of the k-th unintended hit (0 first): the shot's box, then one up, one down, two up, two down …,
    kept on the four-box stack."""
    step = (k + 1) // 2
    offset = -step if k % 2 else step
    return max(0, min(3, start + offset))


def missed_rounds(burst: int, hit: bool, rounds_hit: int) -> int:
    """Rounds of a shot that found no target: all of them on a miss, else those the burst field left over."""
    fired = burst or 1
    return fired if not hit else max(0, fired - rounds_hit)


def fired_at(setup: ShotSetup) -> int:
    """Rounds a shot sent at its target: a split burst's share, else the burst, else one (R-6.3)."""
    return setup.rounds or setup.burst or 1


def bystander_setup(setup: ShotSetup, distance_m: float, sight: geo.Sight, prone: bool) -> ShotSetup:
    """The shot as it reaches a bystander: its distance and cover (R-6.6), the prone rule (R-6.5); no called
    location, no point-blank bump and no bumps to spend (an unintended hit takes none)."""
    return replace(
        setup, distance_m=distance_m, cover=sight.cover, cover_av=sight.cover_av, concealed=False,
        exposed=HIGH_EXPOSED if sight.cover == "high" else frozenset(), point_blank=False,
        prone_rule=prone and distance_m > 2.0 + 1e-9, called=None, spends=(),
    )


def stray_hit(draw: Draw, setup: ShotSetup, target: TargetState, card: Card, box: int) -> HitResult:
    """One unintended hit at `box` of the card's stack: prone rule, cover, armour and damage read from the
    shot's own draw (R-6.5–R-6.8), with no bumps and no EXTRA DAMAGE."""
    h = HitResult(location=card.hit_stack[box], box=box)
    if setup.prone_rule and not card.prone[box]:
        h.counted = False
        h.level = "none"
        return h
    apply_hit(draw, setup, target, card, h, [])
    return h
