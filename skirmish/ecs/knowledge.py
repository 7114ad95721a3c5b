"""Side views and fog of war (issue 11, item 4; STYLE 14): what each side knows of the others.

A side sees an enemy now when one of its combatants still in action has it in sight as the rules apply
sight (R-6.1, R-6.6: `unit_sight`, with the side's `known_to` knowledge of the enemy's position). For
every enemy each side keeps a `Sighting`: where and in which round it last knew the enemy's position, and
what showed of it then. `Knowledge.update` runs for ALL sides after every answer the battle takes and so
at every round boundary (never only when someone asks), so what a side knows depends on the battle alone;
it is part of the battle's state (`state()` goes into `Battle.state_hash`).

`Knowledge.observe` turns the all-seeing snapshot into one side's view: its own units in full; enemies seen
now with only what a player across the table could see; enemies not seen now as ghosts at their last known
cell; enemies never known absent; the other sides' declarations hidden until initiative is flipped (R-5.1).
docs/RULES-NOTES.md ("Side views") lists the fields.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.ecs.components import Armour, Facing, Health, Loadout, Position, Status
from skirmish.ecs.enemy_views import (  # noqa: F401  (HIDDEN, hide_declarations, the sets: read from here too)
    _GHOST_PASSED,
    _GHOST_READS,
    _GHOST_SETS,
    _SEEN_PASSED,
    _SEEN_READS,
    _SEEN_SETS,
    HIDDEN,
    _differ,
    _shown_declared,
    ghost,
    hide_declarations,
    seen_enemy,
)
from skirmish.ecs.view import BattleView, UnitView, replace_unit
from skirmish.ecs.world import World
from skirmish.rules.geometry import Cell, GridMap, centre, clear_line, lean_points
from skirmish.rules.sight_table import SightTable

# The component types a look (cell, in action, firing, known_to) and a sighting (and `_armour`) read: a unit none
# of these has been handed out of since it was last read is as it was then, for every side.
_SHOWN = frozenset({Position, Health, Status, Facing, Armour, Loadout})


@dataclass(frozen=True)
class Sighting:
    """What one side last knew of one enemy: the cell and round its position was last known, and what showed
    of it when it was last seen (facing, prone, down, dead, wounds, the armour it wears, the weapon in hand)."""

    cell: Cell
    round: int
    facing: tuple[int, int]
    prone: bool
    out_of_action: bool
    dead: bool
    wounds: int
    armour: tuple[tuple[str, str, int], ...]
    weapon: str = ""  # the id of the weapon in hand ("" none): a ghost holds it, not what it took up unseen

    def to_json(self) -> list[Any]:
        """A plain form for state hashes."""
        return [list(self.cell), self.round, list(self.facing), self.prone, self.out_of_action, self.dead,
                self.wounds, [list(a) for a in self.armour], self.weapon]


def _round_only(a: Sighting | None, b: Sighting | None) -> bool:
    """Both are sightings and they differ at most in the round (a known enemy's, brought up to date in a new round
    where it stands: `_moved`); a ghost made from either differs only in `last_seen`."""
    return a is not None and b is not None and a.cell == b.cell and a.facing == b.facing and a.prone == b.prone \
        and a.out_of_action == b.out_of_action and a.dead == b.dead and a.wounds == b.wounds \
        and a.armour == b.armour and a.weapon == b.weapon


def _moved(s: Sighting, cell: Cell, round_no: int) -> Sighting:
    """`dataclasses.replace(s, cell=cell, round=round_no)` (a known enemy's sighting brought up to date every
    round: `Knowledge.update`), built directly (tests/test_knowledge_fast.py holds it equal)."""
    return Sighting(cell, round_no, s.facing, s.prone, s.out_of_action, s.dead, s.wounds, s.armour, s.weapon)


def in_hand(world: World, eid: int) -> str:
    """The id of the weapon a unit holds active now, as a sighting keeps it ("" if it carries none)."""
    load = world.peek(eid, Loadout)
    return load.weapons[load.active].weapon_id if load.weapons else ""


def _armour(world: World, eid: int) -> tuple[tuple[str, str, int], ...]:
    """The outermost armour layer per location, as the snapshot shows it."""
    layers: dict[str, tuple[str, str, int]] = {}
    for piece in world.peek(eid, Armour).pieces:
        for loc, av in piece.av.items():
            layers.setdefault(loc, (loc, piece.kind, av))
    return tuple(sorted(layers.values()))


class Knowledge:
    """Every side's knowledge of the others in one battle: who it sees now and its last sighting of each."""

    def __init__(self, sides: tuple[str, ...], armoury: Any = None) -> None:
        self.sides = sides
        self.armoury = armoury  # the battle's weapons by id (a ghost's weapon in hand; None: a ghost holds none)
        self.seen: dict[str, frozenset[str]] = {s: frozenset() for s in sides}  # enemies each side sees now
        self.last: dict[str, dict[str, Sighting]] = {s: {} for s in sides}  # side -> enemy -> last sighting
        # enemy -> ((its hand-outs of _SHOWN, the round), the sighting read then): what shows of it, for any side
        self._sighted: dict[str, tuple[tuple[int, int], Sighting]] = {}
        # side -> (its seers' cells, enemy -> (its cell, its exposure, the seer's cell that saw it or None)): who
        # sees whom, looked at again only for enemies or seers that changed (`_look`)
        self._looks: dict[str, tuple[frozenset[Cell], dict[str, tuple[Cell, bool, Cell | None]]]] = {}
        self._table: SightTable | None = None
        # entity -> (its hand-outs when read, (eid, name, side, cell, health, status), what a look depends on)
        self._facts: dict[int, tuple[int, tuple[int, str, str, Cell, Health, Status],
                                     tuple[Cell, bool, bool, frozenset[str]]]] = {}
        self._round = -1
        self._done: dict[str, dict[str, tuple[int, int, bool]]] = {}  # side -> enemy -> (hand-outs, round, seen)
        self._done_once: set[str] = set()  # sides whose every enemy has been looked at in `_done` since a reset
        self._world: World | None = None
        self._stamp: tuple[int, int, int] = (-1, -1, -1)  # (hand-outs of _SHOWN in all, units, round) when last updated
        # side -> (enemy, hide) -> (the enemy's view, its sighting or None if seen now, the round if seen now else
        # -1, what side sees)
        self._enemy_views: dict[str, dict[tuple[str, bool], tuple[UnitView, Sighting | None, int, UnitView]]] = {}
        # side -> how many times `update` has changed what it knows (a sighting in `last`): with `seen` the same
        # object, the side's view of a unit the snapshot did not change stands (`observe`)
        self._changed: dict[str, int] = dict.fromkeys(sides, 0)
        # side -> (the snapshot's units, the side's view of each (None: absent), hide, round, seen, its `last`, the
        # count in `_changed` and the sightings kept, the units out): the last `observe`, patched where the
        # snapshot's units changed
        self._observed: dict[str, tuple[tuple[UnitView, ...], list[UnitView | None], bool, int, frozenset[str],
                                        dict[str, Sighting], tuple[int, int], tuple[UnitView, ...]]] = {}

    def update(self, world: World, grid: GridMap, round_no: int) -> None:
        """Look again for every side (R-6.1): an enemy in sight of one of the side's combatants in action is
        seen, and its sighting is taken afresh; an enemy whose position the side knows without seeing it
        (`known_to`: it has not moved since, or was seen ducking out of sight) keeps its last sighting with
        the cell and round brought up to date; any other enemy stays where the side last knew it. Running it
        twice changes nothing."""
        table = grid.sight_table
        hand = world.watch(_SHOWN)  # hand-outs of what a look or a sighting reads (the others change neither)
        # The counts only grow: the same total over the same units in the same round is nothing handed out since
        # the last update, which this one would repeat (changing nothing).
        stamp = (sum(hand.values()), len(hand), round_no)
        if world is self._world and table is self._table and stamp == self._stamp:
            return
        self._stamp = stamp
        if world is not self._world or table is not self._table:  # what is kept holds for one world and map
            self._facts.clear()
            self._done.clear()
            self._done_once.clear()
            self._looks.clear()
            self._world = world
        units = []
        touched = []  # units handed out since the last look (only they may have changed)
        moved = False  # whether something a look depends on changed: a cell, in action, firing, known_to
        facts = self._facts
        for eid, ident in world.units():
            h = hand[eid]
            kept = facts.get(eid)
            if kept is None or kept[0] != h:  # its components may have changed since they were read
                hp, st = world.peek(eid, Health), world.peek(eid, Status)
                look = (world.cell(eid), hp.out_of_action, st.firing, st.known_to)
                moved = moved or kept is None or kept[2] != look
                kept = facts[eid] = (h, (eid, ident.name, ident.side, look[0], hp, st), look)
                touched.append(kept[1])
            units.append(kept[1])
        if len(facts) != len(units):  # a unit has gone from the world: forget it, and look again
            live = {u[0] for u in units}
            for eid in [e for e in facts if e not in live]:
                del facts[eid]
            moved = True
        again = round_no != self._round  # else only the units touched or seen anew or no more need a look
        self._round = round_no
        seers_of: dict[str, list[Cell]] = {side: [] for side in self.sides}
        if moved:
            for _, _, s, cell, hp, _ in units:
                if not hp.out_of_action and s in seers_of:
                    seers_of[s].append(cell)
        by_name = None
        for side in self.sides:
            memory = self.last[side]
            was = self.seen[side]
            if moved or side not in self._looks:
                if not moved:
                    seers_of[side] = [cell for _, _, s, cell, hp, _ in units if s == side and not hp.out_of_action]
                seen = self._look(table, side, tuple(seers_of[side]),
                                  [(name, cell, st.firing or side in st.known_to)
                                   for _, name, s, cell, _, st in units if s != side])
                if seen == was:  # the same enemies: the same object, so `observe` sees nothing changed here
                    seen = was
            else:  # nobody moved, fell, fired or was found: who sees whom stands
                seen = was
            # An enemy untouched since this side last looked at it (the same hand-outs, the same round, seen or
            # not seen as then) leaves the side's memory of it as that look left it (a look changes nothing twice):
            # within a round only the units touched and those seen anew or no more are looked at.
            done = self._done.setdefault(side, {})
            todo = touched
            if again or side not in self._done_once:
                todo = units
                self._done_once.add(side)
            elif seen is not was and seen != was:
                if by_name is None:
                    by_name = {u[1]: u for u in units}
                todo = touched + [by_name[n] for n in seen ^ was if n in by_name]
            for eid, name, s, cell, hp, st in todo:
                if s == side:
                    continue
                stamp = (hand[eid], round_no, name in seen)
                if done.get(name) == stamp:
                    continue
                done[name] = stamp
                known = side in st.known_to
                before = memory.get(name)
                if name in seen:
                    # What shows of it is read afresh only if its components may have changed since last read.
                    sighted = (stamp[0], round_no)
                    last = self._sighted.get(name)
                    if last is not None and last[0] == sighted:
                        if memory.get(name) is not last[1]:
                            memory[name] = last[1]
                            self._changed[side] += 1
                        continue
                    face = world.peek(eid, Facing)
                    memory[name] = Sighting(cell, round_no, (face.dx, face.dy), st.prone, hp.out_of_action, hp.dead,
                                            hp.wounds, _armour(world, eid), in_hand(world, eid))
                    self._sighted[name] = (sighted, memory[name])
                    self._changed[side] += 1
                elif known and before is not None:
                    if (before.cell, before.round) != (cell, round_no):  # else it stands as it is
                        memory[name] = _moved(before, cell, round_no)
                        self._changed[side] += 1
                elif known:  # the start: every miniature is on the table (docs/RULES-NOTES.md, R-6.1)
                    face = world.peek(eid, Facing)
                    memory[name] = Sighting(cell, round_no, (face.dx, face.dy), st.prone, hp.out_of_action, hp.dead,
                                            hp.wounds, _armour(world, eid), in_hand(world, eid))
                    self._changed[side] += 1
            self.seen[side] = seen

    def _look(self, table: SightTable, side: str, seers: tuple[Cell, ...],
              enemies: list[tuple[str, Cell, bool]]) -> frozenset[str]:
        """The enemies (name, cell, exposed: firing or its position known) that one of `side`'s seers (the cells
        of its combatants in action) sees: `_seen_by` for each, asked again only where its answer may differ
        from the last look. An enemy that has neither moved nor changed its exposure is still seen while the
        seer that saw it stands where it stood, and, if it was not seen, is seen only if a seer standing where
        none stood before sees it (seers that left see nothing from where they are gone)."""
        here = frozenset(seers)
        if table is not self._table:  # another map: nothing kept holds
            self._looks.clear()
            self._table = table
        kept = self._looks.get(side)
        before, looks = kept if kept is not None else (frozenset(), {})
        arrived = [c for c in seers if c not in before]
        now: dict[str, tuple[Cell, bool, Cell | None]] = {}
        seen = []
        for name, cell, exposed in enemies:
            old = looks.get(name)
            if old is None or old[0] != cell or old[1] != exposed:
                by = _witness(table, seers, cell, exposed)
            elif (by := old[2]) is not None:
                if by in here:  # still seen by the same seer, where it stands: the look stands
                    now[name] = old
                    seen.append(name)
                    continue
                by = _witness(table, seers, cell, exposed)
            elif arrived:
                by = _witness(table, arrived, cell, exposed)
            else:  # not seen, and no seer has come: the look stands
                now[name] = old
                continue
            now[name] = (cell, exposed, by)
            if by is not None:
                seen.append(name)
        self._looks[side] = (here, now)
        return frozenset(seen)

    def state(self) -> dict[str, Any]:
        """Everything kept, in a canonical plain form (for `Battle.state_hash`)."""
        return {side: {"seen": sorted(self.seen[side]),
                       "last": {n: s.to_json() for n, s in sorted(self.last[side].items())}} for side in self.sides}

    def observe(self, view: BattleView, side: str) -> BattleView:
        """The all-seeing `view` as `side` may know it (see the module's docstring)."""
        if side not in self.sides:
            raise KeyError(f"no side {side!r} (sides: {', '.join(self.sides)})")
        hide = view.phase is None  # declaring (or between rounds): initiative is not flipped yet
        seen, memory = self.seen[side], self.last[side]
        given = view.units
        changed = (self._changed[side], len(memory))
        last = self._observed.get(side)
        # Each unit as `side` knows it is a function of the snapshot's view of it, what the side knows (`seen`, the
        # sightings in `last`: `_changed` counts what `update` changed there), whether declarations are hidden and
        # the round: with those as at the side's last look, only the units whose view the snapshot changed (not
        # the same object) are made again.
        if last is not None and last[4] is seen and last[6] == changed and last[5] is memory and last[2] == hide \
                and last[3] == view.round and len(last[0]) == len(given):
            if last[0] is given:
                units = last[7]
                shown = last[1]
            else:
                shown = list(last[1])
                for i in itertools.compress(itertools.count(), map(operator.is_not, given, last[0])):
                    shown[i] = self._as_known(given[i], side, seen, memory, hide, view.round)
                units = tuple([u for u in shown if u is not None])
        else:
            shown = [self._as_known(u, side, seen, memory, hide, view.round) for u in given]
            units = tuple([u for u in shown if u is not None])
        self._observed[side] = (given, shown, hide, view.round, seen, memory, changed, units)
        out = object.__new__(BattleView)  # dataclasses.replace(view, units=..., viewer=side), without __init__
        out.__dict__.update(view.__dict__)
        out.__dict__.update(units=units, viewer=side)
        return out

    def _as_known(self, u: UnitView, side: str, seen: frozenset[str], memory: dict[str, Sighting], hide: bool,
                  round_no: int) -> UnitView | None:
        """One unit of the all-seeing view as `side` knows it (`observe`): its own in full, an enemy seen now, a
        ghost, or None for an enemy it has never known."""
        if u.side == side:
            return u
        name = u.name
        if name in seen:
            sighting = None
        else:
            sighting = memory.get(name)
            if sighting is None:
                return None
        # The enemy as `side` sees it is a function of the view `u`, the sighting and whether declarations are
        # hidden (and the round, for one seen now): kept per hiding (it flips twice a round) while the sighting
        # is the same object and `u` the same, or changed only in fields the answer does not read (World.snapshot
        # keeps a unit's view while nothing changed it; `_SEEN_SETS`, `_GHOST_SETS`).
        kept = self._enemy_views.get(side)
        if kept is None:
            kept = self._enemy_views[side] = {}
        at = (name, hide)
        when = round_no if sighting is None else -1
        k = kept.get(at)
        # The answer for the kept view k[0] with a sighting that differs only in its round (a known enemy's, brought
        # up to date in a new round), or seen now in a new round, is the kept one with that round (`last_seen`):
        # kept so, and then read against `u` as below.
        if k is not None and sighting is not None and k[1] is not sighting and _round_only(k[1], sighting):
            k = kept[at] = (k[0], sighting, when, replace_unit(k[3], {"last_seen": sighting.round}))
        elif k is not None and sighting is None and k[1] is None and k[2] != when:
            k = kept[at] = (k[0], None, when, replace_unit(k[3], {"last_seen": round_no}))
        if k is not None and k[1] is sighting and k[2] == when:
            if k[0] is u:
                return k[3]
            seen_now = sighting is None
            differ = _differ(k[0], u, _SEEN_READS if seen_now else _GHOST_READS)
            if not differ:  # changed only where the enemy as `side` sees it does not read: it stands
                kept[at] = (u, sighting, when, k[3])
                return k[3]
            if (_SEEN_PASSED if seen_now else _GHOST_PASSED).issuperset(differ):
                # changed only where the answer shows it as it is (the declaration as `hide` shows it): the kept
                # answer with those fields put in, as `seen_enemy` or `ghost` would give it now
                du = u.__dict__
                e = replace_unit(k[3], {n: _shown_declared(du[n], hide) if n == "declared" else du[n] for n in differ})
                kept[at] = (u, sighting, when, e)
                return e
        e = seen_enemy(u, side, round_no, hide) if sighting is None else ghost(u, side, sighting, hide, self.armoury)
        kept[at] = (u, sighting, when, e)
        return e


def _seen_by(table: SightTable, seers: list[Cell], cell: Cell, exposed: bool) -> bool:
    """`any(unit_sight(grid, at, cell, firing, known).visible for at in seers)`, with `exposed` = firing or
    known: a target seen only round a corner is seen while it fires, and concealed (its position known) or
    unseen otherwise (R-6.1, R-6.6)."""
    return _witness(table, seers, cell, exposed) is not None


def _witness(table: SightTable, seers: Sequence[Cell], cell: Cell, exposed: bool) -> Cell | None:
    """The first of `seers` that sees `cell` as `_seen_by` asks, or None."""
    for at in seers:
        s = table.sight(at, cell)
        if s.visible and (exposed or not s.lean):
            return at
    return None


def _surely_blocked(grid: GridMap, origin: tuple[float, float], seer: Cell, xs: npt.NDArray[np.int64],
                    ys: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """For segments from `origin` to the centres of cells (xs, ys): True where a point sampled along the segment
    lies inside a sight-blocking cell that is neither end, so `clear_line` is False there for certain. A False
    here decides nothing (a corner only grazed is left to `clear_line`)."""
    tx, ty = xs + 0.5, ys + 0.5
    steps = int(math.hypot(grid.width, grid.height) * 2) + 2  # two samples a cell
    t = np.linspace(0.0, 1.0, steps)[None, :]
    px = origin[0] + (tx[:, None] - origin[0]) * t
    py = origin[1] + (ty[:, None] - origin[1]) * t
    ix, iy = np.floor(px).astype(np.int64), np.floor(py).astype(np.int64)
    inner = (np.abs(px - np.rint(px)) > 1e-6) & (np.abs(py - np.rint(py)) > 1e-6)  # off every grid line
    ends = ((ix == xs[:, None]) & (iy == ys[:, None])) | ((ix == seer[0]) & (iy == seer[1]))
    ix, iy = np.clip(ix, 0, grid.width - 1), np.clip(iy, 0, grid.height - 1)
    return np.any(grid.blocks_sight[iy, ix] & inner & ~ends, axis=1)


SIGHT_MASKS_KEPT = 256  # seers' sight masks kept per map before they start again


def sight_mask(grid: GridMap, seer: Cell) -> npt.NDArray[np.bool_]:
    """`_sight_mask`, kept on the map (`GridMap.kept`), so no cache outlives the map."""
    masks: dict[Cell, npt.NDArray[np.bool_]] = grid.kept.setdefault("sight_masks", {})
    out = masks.get(seer)
    if out is None:
        if len(masks) >= SIGHT_MASKS_KEPT:
            masks.clear()
        out = masks[seer] = _sight_mask(grid, seer)
    return out


def _sight_mask(grid: GridMap, seer: Cell) -> npt.NDArray[np.bool_]:
    """Cells where a combatant at `seer` would see an enemy standing openly (not firing, position unknown):
    `unit_sight(grid, seer, cell, False, False).visible` for every cell, i.e. a clear line from the seer's
    centre or a point it leans out to (never round the target's own corner, R-6.1). The cells a side's fog
    leaves clear. Segments surely blocked are found at once with numpy; `clear_line` decides the rest.
    Read-only."""
    ys, xs = np.mgrid[0:grid.height, 0:grid.width]
    xs, ys = xs.ravel(), ys.ravel()
    out = np.zeros(xs.shape, dtype=bool)
    for origin in [centre(seer), *lean_points(grid, seer)]:
        open_ = ~out & ~_surely_blocked(grid, origin, seer, xs, ys)
        for i in np.nonzero(open_)[0].tolist():
            cell = (int(xs[i]), int(ys[i]))
            out[i] = cell == seer or clear_line(grid, origin, centre(cell), (seer, cell))
    out = out.reshape(grid.height, grid.width)
    out.setflags(write=False)
    return out


def seen_cells(grid: GridMap, seers: list[Cell]) -> npt.NDArray[np.bool_]:
    """The union of `sight_mask` over a side's combatants in action: what its eyes cover."""
    out = np.zeros((grid.height, grid.width), dtype=bool)
    for c in seers:
        out |= sight_mask(grid, (int(c[0]), int(c[1])))
    return out
