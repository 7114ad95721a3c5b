"""Fog of war on the board (issue 11, item 4): the table as one side's eyes see it.

The view drawn is `Battle.observe(side)` (the same view that side's AI decides from): cells none of the side's
combatants in action can see are darkened (`knowledge.seen_cells`), enemies it does not see now are faint ghosts
at their last known cells with the round they were last known, and the animations of what the side did not see
are cut to what it saw (an enemy's move to the stretch of its route in sight). A person's side is always drawn
this way (in hot-seat, the side at the board); watching AI against AI is all-seeing, and V looks through each
side's eyes in turn (`next_eyes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pygame

from skirmish.core.events import Event
from skirmish.core.scenario_events import ScenarioTriggerEvent
from skirmish.ecs.knowledge import seen_cells
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.geometry import Cell, GridMap
from skirmish.rulesets.fi import MoveEvent
from skirmish.ui.anim import Flash, MoveAnim, ThrowArc
from skirmish.ui.art import draw_token

if TYPE_CHECKING:
    from skirmish.ui.board import Board

FOG_ALPHA = 150  # the darkening over cells the side cannot see (0-255)
FOG_COLOUR = (6, 8, 14)
GHOST_ALPHA = 105  # a ghost's opacity (0-255)
GHOST_LABEL = (225, 225, 235)


def next_eyes(current: str | None, sides: Sequence[str]) -> str | None:
    """V while watching: all-seeing -> the first side's eyes -> the next side's ... -> all-seeing."""
    if current is None:
        return sides[0] if sides else None
    i = list(sides).index(current) if current in sides else len(sides)
    return sides[i + 1] if i + 1 < len(sides) else None


def seers(view: BattleView, side: str) -> tuple[Cell, ...]:
    """The cells of `side`'s combatants still in action: the eyes of its fog."""
    return tuple(sorted(u.cell for u in view.units if u.side == side and not u.out_of_action))


class FogLayer:
    """The darkening over what one side cannot see, cached per side, zoom and the cells its combatants stand in."""

    def __init__(self, grid: GridMap) -> None:
        self.grid = grid
        self._key: tuple[Any, ...] | None = None
        self._surf: pygame.Surface | None = None
        self._mask_key: tuple[Cell, ...] | None = None
        self._mask: npt.NDArray[np.bool_] | None = None

    def mask(self, eyes: tuple[Cell, ...], grid: GridMap | None = None) -> npt.NDArray[np.bool_]:
        """Cells seen from these cells (True = clear), on `grid` (the map now: a scenario's door changes it)."""
        if grid is not None and grid is not self.grid and grid.content_key != self.grid.content_key:
            self.grid, self._mask, self._surf = grid, None, None
        if self._mask is None or self._mask_key != eyes:
            self._mask_key, self._mask = eyes, seen_cells(self.grid, list(eyes))
        return self._mask

    def surface(self, view: BattleView, tile: int) -> pygame.Surface | None:
        """The fog over the whole map at `tile` pixels a cell, or None for an all-seeing view."""
        if view.viewer is None:
            return None
        eyes = seers(view, view.viewer)
        key = (tile, view.viewer, eyes)
        clear = self.mask(eyes, view.grid)
        if self._surf is None or self._key != key:
            s = pygame.Surface((self.grid.width * tile, self.grid.height * tile), pygame.SRCALPHA)
            for y, x in zip(*np.nonzero(~clear), strict=True):
                s.fill((*FOG_COLOUR, FOG_ALPHA), (int(x) * tile, int(y) * tile, tile, tile))
            self._key, self._surf = key, s
        return self._surf


def draw_ghost(surf: pygame.Surface, board: Board, u: UnitView, centre: tuple[int, int]) -> None:
    """An enemy not seen now: its token faint at its last known cell, with the round it was last known."""
    r = board.token_radius()
    tmp = pygame.Surface((4 * r, 4 * r), pygame.SRCALPHA)
    draw_token(tmp, (2 * r, 2 * r), r, board.colour_of(u), u.facing, fallen=u.out_of_action, dead=u.dead)
    tmp.set_alpha(GHOST_ALPHA)
    x, y = centre
    surf.blit(tmp, (x - 2 * r, y - 2 * r))
    pygame.draw.circle(surf, GHOST_LABEL, centre, r, 1)
    if board.cam.tile < 16:
        return
    f = board.fonts
    label = f.outlined(f.font(max(10, round(r * 0.7)), bold=True), f"?{u.last_seen}", GHOST_LABEL)
    label.set_alpha(200)
    surf.blit(label, label.get_rect(center=centre))


def drawn_at(moving: dict[str, tuple[float, float]], view: BattleView) -> dict[str, tuple[float, float]]:
    """The animated positions the board may draw: never a ghost's or an unknown unit's (it stays where known)."""
    if view.viewer is None:
        return moving
    shown = {u.name for u in view.units if not u.ghost}
    return {n: p for n, p in moving.items() if n in shown}


def fogged_anims(groups: list[list[Any]], e: Event, side: str, sides_of: dict[str, str], seen: frozenset[str],
                 clear: npt.NDArray[np.bool_]) -> list[list[Any]]:
    """Cut an event's animations to what `side` saw: an enemy's move to the stretch of its route in the clear
    (nothing if none was), no throw's arc from an enemy it did not see, no flash on an enemy it does not see (a
    shot's tracer stays: firing shows the firer, R-6.6). `seen`: the enemies the side saw before the event;
    `clear`: the cells it sees (`FogLayer.mask`)."""
    def enemy(name: str | None) -> bool:
        return name is not None and sides_of.get(name, side) != side

    out: list[list[Any]] = []
    for group in groups:
        kept: list[Any] = []
        for a in group:
            if isinstance(a, MoveAnim) and enemy(a.unit):
                inside = [i for i, (x, y) in enumerate(a.path) if clear[y, x]]
                if not inside:
                    continue
                step = a.duration / max(1, len(a.path) - 1)
                a.path = a.path[inside[0]:inside[-1] + 1]
                a.duration = step * max(1, len(a.path) - 1)
            elif isinstance(a, ThrowArc) and enemy(e.actor) and e.actor not in seen:  # a shot shows its firer
                continue
            elif isinstance(a, Flash) and e.type in ("out_of_action", "blast", "attack"):
                victim = e.actor if e.type == "out_of_action" else getattr(e, "target", None)
                if enemy(victim) and victim not in seen:
                    continue
            kept.append(a)
        if kept:
            out.append(kept)
    return out


def shown(view: BattleView, name: str | None) -> bool:
    """True if the view shows the unit where it is (all-seeing, or in sight): the camera may follow it."""
    u = view.find(name)
    return u is not None and not u.ghost


def cut_to_eyes(groups: list[list[Any]], e: Event, eyes: str | None, truth: BattleView, seen: frozenset[str],
                layer: FogLayer) -> list[list[Any]]:
    """`fogged_anims` for the side whose eyes the board looks through (the groups as they are when all-seeing);
    `truth` is the all-seeing view when the event comes, `seen` the enemies the side saw before it."""
    if eyes is None:
        return groups
    sides_of = {u.name: u.side for u in truth.units}
    return fogged_anims(groups, e, eyes, sides_of, seen, layer.mask(seers(truth, eyes), truth.grid))


def _in_clear(truth: BattleView, side: str, layer: FogLayer, cells: Sequence[Sequence[int]]) -> bool:
    """Whether any of `cells` is in the clear of `side`'s units now (`FogLayer.mask`)."""
    if not cells:
        return False
    clear = layer.mask(seers(truth, side), truth.grid)
    return any(bool(clear[int(c[1]), int(c[0])]) for c in cells)


PUBLIC = frozenset({"initiative", "declare", "turn"})  # what every side learns, seen or not (R-5.1: the flip)


class LogFog:
    """Which lines of the log each side may read under fog: an enemy's doings show only if the side saw the enemy
    before it acted, it is in the clear now, a move of it crossed the clear, or it attacked the side's own; its
    AI's reasons never show; initiative (the flip) is public. Events already in the log when the board opened
    (a loaded save) show only to the acting unit's own side."""

    def __init__(self, already: int) -> None:
        self.already = already  # events in the log before the board listened
        self.hidden: dict[str, set[int]] = {}

    def note(self, i: int, e: Event, truth: BattleView, seen: dict[str, frozenset[str]], layer: FogLayer) -> None:
        """Event `i` has just happened: mark it for every side that did not see it."""
        own = e.side if isinstance(e, ScenarioTriggerEvent) else None
        if own is not None:  # a side's reinforcements or AI change (a scenario's trigger): that side's to read
            for side in truth.sides:
                if side != own:
                    self.hidden.setdefault(side, set()).add(i)
            return
        if e.actor is None or e.type in PUBLIC:
            return
        sides_of = {u.name: u.side for u in truth.units}
        actor_side = sides_of.get(e.actor)
        for side in truth.sides:
            if side == actor_side:
                if e.type == "trigger_lost" and not self._saw_mover(e, side, truth, sides_of, seen.get(side, frozenset()),
                                                                    layer):
                    self.hidden.setdefault(side, set()).add(i)  # it names a mover the waiter's side does not see
                continue
            if e.type != "decision" and self._saw(e, side, truth, sides_of, seen.get(side, frozenset()), layer):
                continue
            self.hidden.setdefault(side, set()).add(i)

    @staticmethod
    def _saw_mover(e: Event, side: str, truth: BattleView, sides_of: dict[str, str], seen: frozenset[str],
                   layer: FogLayer) -> bool:
        """True if a `trigger_lost` line is the waiter's side's to read: it names no enemy (a trigger dropped for
        a reason of the waiter's own, R-5.7/R-8.4), or the enemy it names is one the side sees or stands in its
        clear. The waiter did not see the mover (that is why the trigger was lost), so a line naming an unseen
        enemy and the cell it entered would tell the side what fog hides."""
        target = getattr(e, "target", None)
        if target is None or sides_of.get(str(target), side) == side:
            return True
        if target in seen:
            return True
        mover = truth.find(str(target))
        return mover is not None and _in_clear(truth, side, layer, [mover.cell])

    @staticmethod
    def _saw(e: Event, side: str, truth: BattleView, sides_of: dict[str, str], seen: frozenset[str],
             layer: FogLayer) -> bool:
        if e.actor in seen:
            return True
        if e.type != "trigger_lost" and sides_of.get(str(getattr(e, "target", None)), "") == side:
            return True  # done to the side's own (a trigger held out of sight is not, nothing happened)
        cells = [tuple(c) for c in e.path] if isinstance(e, MoveEvent) else []
        actor = truth.find(e.actor)
        if actor is not None:
            cells.append(actor.cell)
        return _in_clear(truth, side, layer, cells)

    def keep_to_own_side(self, i: int, e: Event, truth: BattleView) -> None:
        """Event `i` is read by its actor's side only (a Future*World declaration, R-9.2)."""
        sides_of = {u.name: u.side for u in truth.units}
        for side in truth.sides:
            if side != sides_of.get(e.actor or ""):
                self.hidden.setdefault(side, set()).add(i)

    def forget_from(self, n: int) -> None:
        """The log was cut back to `n` events (undo): forget the marks of the events taken back."""
        for marks in self.hidden.values():
            marks.difference_update({i for i in marks if i >= n})

    def hidden_for(self, side: str | None, events: Sequence[Event], sides_of: dict[str, str]) -> set[int]:
        """The log lines `side` may not read (none all-seeing)."""
        if side is None:
            return set()
        early = {i for i in range(min(self.already, len(events)))
                 if events[i].actor is not None and sides_of.get(events[i].actor or "", side) != side}
        return early | self.hidden.get(side, set())
