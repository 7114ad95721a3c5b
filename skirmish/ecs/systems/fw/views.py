"""Future*World's side views (STYLE 14): who sees whom is the shared Knowledge's (the map's sight, and the
positions a side knows: a figure's cell is known to the sides that saw it move there, fw's `move`); what shows
of an enemy figure is less than its whole state: its roster (characteristics, kit) and what a player across
the table sees (fallen, down, moving, leaping) and its HP, never its declaration or its tacpack's split; an enemy
not seen now shows its HP and condition as they were when last seen
(docs/RULES-NOTES.md, Future*World)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from skirmish.ecs.components import Facing, Health, Identity, Status
from skirmish.ecs.fw_components import FwBody
from skirmish.ecs.fw_view import FwUnitView
from skirmish.ecs.knowledge import Knowledge, Sighting
from skirmish.ecs.systems.fw import cars
from skirmish.ecs.view import BattleView, UnitView, replace_unit
from skirmish.ecs.world import World
from skirmish.rules.geometry import GridMap

# hp, fallen, unconscious, dead, blind_until: what showed when last seen; in a battle with grav cars, and the car
# it rode (or None) after them
Shown = tuple[Any, ...]


class FwKnowledge(Knowledge):
    """Knowledge, with fw's part of every enemy's view cut to what shows (FwUnitView.as_enemy); an enemy not
    seen now (a ghost) shows what showed of it when it was last seen (HP and condition), not moving nor in
    the air (its movement this round is not seen)."""

    def __init__(self, sides: tuple[str, ...], systems: Any = None) -> None:
        super().__init__(sides)
        self._systems = systems  # the fw systems (FwBase), for sight in the vertical from and to grav cars
        self._cut: dict[int, tuple[UnitView, Any, UnitView]] = {}  # id(view) -> (it, what showed, it cut)
        self._shown: dict[str, dict[str, Shown]] = {side: {} for side in sides}  # side -> enemy -> when seen

    def update(self, world: World, grid: GridMap, round_no: int) -> None:
        """Knowledge.update, then what shows of every enemy each side sees now (or meets for the first time:
        every miniature is on the table at the start) is kept for when it is out of sight."""
        super().update(world, grid, round_no)
        self._vertical(world, round_no)
        carried = self._systems is not None and bool(self._systems.ctx.cars)
        for side in self.sides:
            shown, seen, memory = self._shown[side], self.seen[side], self.last[side]
            for name in memory:
                if name in seen or name not in shown:
                    b = world.peek(world.entity(name), FwBody)
                    now: Shown = (b.hp, b.fallen, b.unconscious, b.dead, b.blind_until)
                    if carried:
                        ceid = cars.car_of(self._systems, world.entity(name))
                        now += (None if ceid is None else cars.car(self._systems, ceid).name,)
                    if shown.get(name) != now:
                        shown[name] = now

    def _vertical(self, world: World, round_no: int) -> None:
        """What the flat map's sight misses when a grav car is about (R-9.12): a rider sees over walls lower than
        its car's floor and is seen over them (cars.extra_sightings); each such enemy is seen, its sighting
        taken afresh."""
        sys = self._systems
        if sys is None or not sys.ctx.cars:
            return
        for side, eids in cars.extra_sightings(sys).items():
            if side not in self.seen:
                continue
            names = {world.peek(e, Identity).name: e for e in eids}
            new = set(names) - self.seen[side]
            if not new:
                continue
            self.seen[side] = self.seen[side] | frozenset(new)
            for name in sorted(new):
                eid = names[name]
                hp, st, face = world.peek(eid, Health), world.peek(eid, Status), world.peek(eid, Facing)
                self.last[side][name] = Sighting(world.cell(eid), round_no, (face.dx, face.dy), st.prone,
                                                 hp.out_of_action, hp.dead, hp.wounds, ())

    def shown(self, side: str, enemy: str) -> Shown | None:
        """What showed of `enemy` when `side` last saw it (hp, fallen, unconscious, dead, blind_until), or None."""
        return self._shown[side].get(enemy)

    def state(self) -> dict[str, Any]:
        """Knowledge.state with what showed of each enemy when last seen."""
        out = super().state()
        for side in self.sides:
            out[side]["fw_shown"] = {n: list(v) for n, v in sorted(self._shown[side].items())}
        return out

    def observe(self, view: BattleView, side: str) -> BattleView:
        """The all-seeing `view` as `side` may know it."""
        out = super().observe(view, side)
        units = []
        changed = False
        for u in out.units:
            if u.side != side and isinstance(u.ext, FwUnitView) and u.ext.full:
                shown = self._shown[side].get(u.name) if u.ghost else None
                kept = self._cut.get(id(u))
                if kept is None or kept[0] is not u or kept[1] is not shown:
                    kept = self._cut[id(u)] = (u, shown, replace_unit(u, {"ext": _as_enemy(u.ext, shown)}))
                u = kept[2]
                changed = True
            units.append(u)
        if not changed:
            return out
        if len(self._cut) > 4 * len(units) + 64:  # views of finished decisions: let them go
            self._cut.clear()
        cut = object.__new__(BattleView)
        cut.__dict__.update(out.__dict__)
        cut.__dict__.update(units=tuple(units))
        return cut


def _as_enemy(ext: FwUnitView, shown: Shown | None) -> FwUnitView:
    """What an enemy's fw part shows: as it is if seen now (`shown` None), else as it was when last seen."""
    cut = ext.as_enemy()
    if shown is None:
        return cut
    hp, fallen, unconscious, dead, blind_until = shown[:5]
    aboard = shown[5] if len(shown) > 5 else cut.aboard
    return replace(cut, hp=hp, fallen=fallen, unconscious=unconscious, dead=dead, blind_until=blind_until,
                   moved_m=0.0, jumped=False, aboard=aboard)
