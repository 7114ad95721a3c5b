"""One esper world per battle (ARCHITECTURE §4, STYLE 7): the only module that calls esper."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import esper

from skirmish.ecs.components import (
    Armour,
    Cover,
    Declared,
    Facing,
    Health,
    Identity,
    Loadout,
    Position,
    Profile,
    Readiness,
    Status,
    Tacpack,
    Turn,
)
from skirmish.ecs.fi_mounts import MountState, MountView
from skirmish.ecs.view import BattleView, UnitView, patched_unit, unit_view
from skirmish.rules.equipment import Armoury
from skirmish.rules.geometry import Cell, GridMap

C = TypeVar("C")


def _health(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    hp = c[Health]
    return dict(wounds=hp.wounds, ct=hp.ct, out_of_action=hp.out_of_action, dead=hp.dead, stunned=hp.stunned)


def _status(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    st = c[Status]
    return dict(prone=st.prone, waiting=st.waiting, firing=st.firing, known_to=tuple(sorted(st.known_to)),
                covering=st.covering)


def _loadout(c: dict[type[Any], Any], armoury: Armoury) -> dict[str, Any]:
    load = c[Loadout]
    ws = load.weapons[load.active] if load.weapons else None
    if ws is not None and armoury.weapons[ws.weapon_id].thrown:
        ws = None  # nothing in hand to fire; thrown weapons are listed in `throwables`
    return dict(weapon=armoury.weapons[ws.weapon_id] if ws else None,
                rounds=ws.rounds if ws else 0, magazines=ws.magazines if ws else 0,
                jammed=ws.jammed if ws else False,
                throwables=tuple((armoury.weapons[w.weapon_id], w.rounds) for w in load.weapons
                                 if armoury.weapons[w.weapon_id].thrown and w.rounds > 0),
                **_off_hand(c, load, armoury))


def _off_hand(c: dict[type[Any], Any], load: Loadout, armoury: Armoury) -> dict[str, Any]:
    """Two weapons (FI R-6.12): the weapon in the other hand (the second fired weapon carried), its rounds and
    breakdown, for a unit whose `Status.two_weapons` holds (fixed from the scenario); {} for anyone else."""
    st = c.get(Status)
    if st is None or not st.two_weapons:
        return {}
    fired = [w for w in load.weapons if not armoury.weapons[w.weapon_id].thrown]
    if len(fired) < 2:
        return {}
    ws = fired[1]
    return {"off_hand": armoury.weapons[ws.weapon_id], "off_rounds": ws.rounds, "off_jammed": ws.jammed}


def _armour(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    layers: dict[str, tuple[str, str, int]] = {}
    for piece in c[Armour].pieces:
        for loc, av in piece.av.items():
            layers.setdefault(loc, (loc, piece.kind, av))
    return {"armour": tuple(sorted(layers.values()))}


def _tacpack(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    tp = c[Tacpack]
    return dict(tacpack_generator=tp.generator, screen_type=tp.screen_type, screen_points=tp.screen_points,
                shot_points=tp.shot_points)


def _declared(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    dec = c[Declared]
    return dict(declared=dec.speed, phase=dec.phase, hesitating=dec.hesitating)


def _readiness(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    rd = c[Readiness]
    return dict(ready_target=rd.target, aim=rd.aim)


def _turn(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    turn = c[Turn]
    return dict(moved_m=turn.moved_m, rate_m=turn.rate_m, turn_parts=tuple(turn.parts))


def _cover(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    return {"cover": c[Cover].level}


def _position(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    pos = c[Position]
    return {"cell": (pos.x, pos.y)}


def _facing(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    face = c[Facing]
    return {"facing": (face.dx, face.dy)}


# The fields of a UnitView read from each changeable component type (Identity and Profile never change).
_PARTS: dict[type[Any], Callable[[dict[type[Any], Any], Armoury], dict[str, Any]]] = {
    Health: _health, Status: _status, Loadout: _loadout, Armour: _armour, Tacpack: _tacpack, Declared: _declared,
    Readiness: _readiness, Turn: _turn, Cover: _cover, Position: _position, Facing: _facing,
}
_PART_FNS = tuple(_PARTS.values())  # each part once (a ruleset's part may read several of its component types)


def register_view_part(ctypes: tuple[type[Any], ...], part: Callable[[dict[type[Any], Any], Armoury], dict[str, Any]]) -> None:
    """A ruleset's own component types and the UnitView fields they give (its part of the view, e.g. `ext`):
    `part` gets every component of a unit, its own or not, and gives {} for a unit that has none of them."""
    global _PART_FNS
    for ctype in ctypes:
        if ctype in _PARTS:
            raise ValueError(f"a view part for {ctype.__name__} is registered twice")
        _PARTS[ctype] = part
    if part not in _PART_FNS:
        _PART_FNS = (*_PART_FNS, part)


_FIXED = frozenset({Identity, Profile})  # components nothing changes once a unit is made: reading them marks nothing
_ids = itertools.count(1)


class World:
    """An esper world context owned by one battle. Every call switches to it first, so several
    battles in one process never see each other's entities."""

    def __init__(self) -> None:
        self.name = f"battle-{next(_ids)}"
        self._prev = esper.current_world
        esper.switch_world(self.name)
        # This world's entity table (entity -> component type -> component). esper keeps the same dict object
        # for a world across switches (it is only ever changed in place), so reading components goes straight
        # to it, without switching worlds or calling through esper.
        self._db: dict[int, dict[type[Any], Any]] = esper._entities
        esper.switch_world(self._prev)
        self._by_name: dict[str, int] = {}
        self._order: tuple[tuple[int, Identity], ...] | None = None  # units() in scenario order, kept until a spawn
        # Snapshots keep each unit's view until something may have changed it. Every component handed out by
        # `get` may be changed by whoever holds it, so `get` marks its entity: its view is made again at the
        # next snapshot. Code that only reads uses `peek`. While the battle's rules run (`changing`), a
        # component got before a snapshot could still be changed after it, so snapshots then make every view
        # afresh and keep nothing.
        self._views: dict[int, UnitView] = {}
        # The units of the last snapshot: (the units() order it follows, entity -> index, the views in order)
        self._units_kept: tuple[Sequence[tuple[int, Identity]], dict[int, int], tuple[UnitView, ...]] | None = None
        self._dirty: dict[int, set[type[Any]]] = {}  # entity -> the component types handed out since
        self._handouts: dict[int, int] = {}  # per entity, see `handouts`
        self._watched: dict[type[Any], list[dict[int, int]]] = {}  # component type -> counts that watch it (`watch`)
        self._watches: dict[frozenset[type[Any]], dict[int, int]] = {}
        self._armoury: Armoury | None = None
        self._changing = 0
        self.mounts: dict[str, MountState] = {}  # Future Imperfect mounts (ecs/fi_mounts.py), in scenario order

    def _on(self) -> None:
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def close(self) -> None:
        """Delete the esper world."""
        if esper.current_world == self.name:
            esper.switch_world("default")
        if self.name in esper.list_worlds():
            esper.delete_world(self.name)

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def spawn(self, *components: Any) -> int:
        """Create an entity with components; names are indexed."""
        self._on()
        eid = esper.create_entity(*components)
        self._order = None
        self._handouts[eid] = 0
        for counts in self._watches.values():
            counts[eid] = 0
        for c in components:
            if isinstance(c, Identity):
                self._by_name[c.name] = eid
        return eid

    def entity(self, name: str) -> int:
        """Entity id of a unit by name (KeyError if none)."""
        return self._by_name[name]

    def has(self, name: str) -> bool:
        """True if a unit of that name exists."""
        return name in self._by_name

    def get(self, eid: int, ctype: type[C]) -> C:
        """A component of an entity, to read or change (the entity's kept view is dropped)."""
        if ctype not in _FIXED:
            d = self._dirty.get(eid)
            if d is None:
                self._dirty[eid] = {ctype}
            else:
                d.add(ctype)
            self._handouts[eid] += 1
            watched = self._watched.get(ctype)
            if watched is not None:
                for counts in watched:
                    counts[eid] += 1
        return self._db[eid][ctype]  # esper.component_for_entity, in this world

    def handouts(self, eid: int) -> int:
        """How many times `get` has handed out the entity's changeable components: between two equal counts
        (read while the rules are not running) nothing of it has changed."""
        return self._handouts[eid]

    def watch(self, ctypes: frozenset[type[Any]]) -> Mapping[int, int]:
        """Per entity, how many times `get` (or `query`) has handed out one of `ctypes` since the world was made
        (read-only, kept up to date; the same mapping for the same types): for code that reads only those
        component types, between two equal counts (read while the rules are not running) nothing it reads of the
        entity has changed. Counting starts at the first call for those types."""
        counts = self._watches.get(ctypes)
        if counts is None:
            counts = self._watches[ctypes] = dict.fromkeys(self._handouts, 0)
            for ctype in ctypes - _FIXED:
                self._watched.setdefault(ctype, []).append(counts)
        return counts

    def peek(self, eid: int, ctype: type[C]) -> C:
        """A component of an entity, only to read: whoever peeks must not change it (or anything in it)."""
        return self._db[eid][ctype]

    def begin_changes(self) -> None:
        """`changing` without a context manager (the battle's own loop, once per answer): pair with
        `end_changes` in a `finally`."""
        self._changing += 1

    def end_changes(self) -> None:
        """The end of `begin_changes`."""
        self._changing -= 1

    @contextmanager
    def changing(self) -> Iterator[None]:
        """While the rules run: snapshots taken meanwhile (by event or hook callbacks) keep no views."""
        self._changing += 1
        try:
            yield
        finally:
            self._changing -= 1

    def query(self, ctype: type[C]) -> list[tuple[int, C]]:
        """All (entity, component) pairs of a type, in entity order."""
        self._on()
        pairs = sorted(esper.get_component(ctype), key=lambda pair: pair[0])
        watched = self._watched.get(ctype, ())
        for e, _ in pairs:
            self._dirty.setdefault(e, set()).add(ctype)
            self._handouts[e] += 1
            for counts in watched:
                counts[e] += 1
        return pairs

    def units(self) -> Sequence[tuple[int, Identity]]:
        """Every combatant in scenario order (kept until a spawn; read-only)."""
        if self._order is None:
            self._order = tuple(sorted(self.query(Identity), key=lambda p: p[1].order))
        return self._order

    def handout_counts(self) -> Mapping[int, int]:
        """`handouts` of every entity (read-only)."""
        return self._handouts

    def cell(self, eid: int) -> Cell:
        """An entity's cell."""
        p = self._db[eid][Position]
        return (p.x, p.y)

    def occupied(self, except_eid: int | None = None) -> set[Cell]:
        """Cells filled by combatants other than one, and by riderless mounts; a fallen combatant still fills its
        cell."""
        out = {(c[Position].x, c[Position].y) for e, c in self._db.items() if e != except_eid and Position in c}
        if self.mounts:
            out.update(m.cell for m in self.mounts.values() if m.rider is None)
        return out

    def mount_views(self) -> tuple[MountView, ...]:
        """The mounts frozen: a ridden one at its rider's cell."""
        out = []
        for m in self.mounts.values():
            cell = m.cell if m.rider is None else self.cell(self._by_name[m.rider])
            out.append(MountView(m.name, m.kind, m.move_m, cell, m.rider))
        return tuple(out)

    def view(self, eid: int, armoury: Armoury) -> UnitView:
        """Freeze one unit."""
        comps = self._db[eid]
        ident = comps[Identity]
        prof = comps[Profile]
        values: dict[str, Any] = dict(
            name=ident.name, side=ident.side, side_index=ident.side_index,
            traits=tuple((k, c, t) for k, (c, t) in prof.traits.items()),
            skills=tuple(sorted(prof.skills.items())), size=prof.size, ct_max=prof.ct_max)
        for part in _PART_FNS:
            values.update(part(comps, armoury))
        return unit_view(values)

    def _patched(self, u: UnitView, eid: int, changed: set[type[Any]], armoury: Armoury) -> UnitView:
        """`u` with the fields read from the `changed` component types read again (the others stand: only a
        component handed out by `get` may have changed); equal to `view(eid, armoury)`."""
        comps = self._db[eid]
        if len(changed) == 1:  # (most patches: one component type handed out) its part's fields put in at once
            (ctype,) = changed
            part = _PARTS.get(ctype)
            return u if part is None else patched_unit(u, part(comps, armoury))
        values: dict[str, Any] = {}
        done = []
        for ctype in changed:
            part = _PARTS.get(ctype)
            if part is not None and part not in done:
                done.append(part)
                values.update(part(comps, armoury))
        return patched_unit(u, values)  # (the parts' keys are fields: `view` made the whole view from them)

    def snapshot(self, round_no: int, phase: int | None, grid: GridMap, sides: tuple[str, ...],
                 scope: str, armoury: Armoury, max_rounds: int = 0, salt: str = "") -> BattleView:
        """Freeze the battle for AIs and the board (each unit's view kept, and patched where it may have
        changed: the fields of the component types handed out since)."""
        if self._changing:
            units = tuple(self.view(eid, armoury) for eid, _ in self.units())
        else:
            views = self._views
            if armoury is not self._armoury:
                views.clear()
                self._armoury = armoury
                self._units_kept = None
            order = self.units()
            kept = self._units_kept
            if kept is not None and kept[0] is not order:  # a unit was spawned: make the tuple afresh
                kept = self._units_kept = None
            index = kept[1] if kept is not None else None
            out = list(kept[2]) if kept is not None and self._dirty else None  # the last tuple, patched in place
            for eid, changed in self._dirty.items():
                u = views.get(eid)
                if u is not None:
                    if changed:  # (none: `kept_view` has patched the kept view; the last tuple takes it)
                        views[eid] = u = self._patched(u, eid, changed, armoury)
                    if out is not None and index is not None:
                        out[index[eid]] = u
            self._dirty.clear()
            if kept is not None:
                units = kept[2] if out is None else tuple(out)  # nothing handed out since: the same views
                self._units_kept = (order, kept[1], units)
            else:
                made = []
                for eid, _ in order:
                    u = views.get(eid)
                    if u is None:
                        u = views[eid] = self.view(eid, armoury)
                    made.append(u)
                units = tuple(made)
                self._units_kept = (order, {eid: i for i, (eid, _) in enumerate(order)}, units)
        view = object.__new__(BattleView)  # BattleView(...) without the frozen dataclass's __init__
        view.__dict__.update(round=round_no, phase=phase, grid=grid, units=units, sides=sides, scope=scope,
                             max_rounds=max_rounds, viewer=None, zones=(), objectives=(), ai_orders=(),
                             extracted=(), mounts=self.mount_views() if self.mounts else (), salt=salt)
        return view

    def kept_view(self, name: str, side: str, armoury: Armoury) -> UnitView | None:
        """The view `snapshot` would give now of the unit `name` if it is on `side` (its kept view, patched and kept
        as `snapshot` patches it: the types handed out are done, the entity stays marked for the next snapshot's
        tuple), or None: not on `side`, no view kept, or the rules are running (skirmish.battle.lazy: a side's own
        unit, which it sees in full)."""
        eid = self._by_name.get(name)
        if eid is None or self._changing or armoury is not self._armoury:
            return None
        u = self._views.get(eid)
        if u is None or u.side != side:
            return None
        changed = self._dirty.get(eid)
        if changed:
            u = self._views[eid] = self._patched(u, eid, changed, armoury)
            changed.clear()
        return u

    def fresh_units(self, armoury: Armoury) -> tuple[UnitView, ...]:
        """Every unit's view made afresh (what `snapshot` must equal; for tests)."""
        return tuple(self.view(eid, armoury) for eid, _ in self.units())
