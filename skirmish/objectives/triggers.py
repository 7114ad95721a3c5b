"""A scenario's triggers in play (docs/FILES.md "Triggers"): conditions checked in file order, and their effects:
messages, reinforcements (arriving on free cells of a zone), AI switches, doors (a new map, so every cache keyed
by the map's content sees the change) and the end."""

from __future__ import annotations

from typing import Any

import numpy as np

from skirmish.content.objectives import Trigger
from skirmish.content.zones import deploy
from skirmish.core.scenario_events import ScenarioTriggerEvent
from skirmish.ecs.components import Identity
from skirmish.objectives.base import Cell, PlayBase
from skirmish.rules.geometry import GridMap, Terrain

OPEN_TILE = Terrain("door", 1, False, "none", 0)  # a door's cells when no such tile is in the map's tileset
SHUT_TILE = Terrain("wall", 0, True, "high", 6)


class Triggers(PlayBase):
    """Trigger conditions and effects."""

    def _condition(self, trig: Trigger, now: dict[str, frozenset[str]], point: str) -> bool:
        w, b = trig.when, self.b
        if w.round is not None:
            return point == "round_start" and b.ctx.round == w.round
        if w.enters is not None or w.leaves is not None:
            zone = w.enters or w.leaves or ""
            before, after = self.inside.get(zone, frozenset()), now.get(zone, frozenset())
            moved = after - before if w.enters is not None else before - after
            if w.leaves is not None:  # a unit that fell or was extracted did not step out
                moved = frozenset(n for n in moved if not self.fallen(n) and n not in self.extracted)
            return any(w.side is None or b.world.peek(b.world.entity(n), Identity).side == w.side for n in moved)
        if w.falls is not None:
            return b.world.has(w.falls) and self.fallen(w.falls)
        if w.casualties is not None:
            return self.casualties()[w.casualties.side] >= w.casualties.at_least
        if w.objective is not None:
            return any(o.name == w.objective and o.state == "done" for o in self.objectives)
        return False

    def _fire(self, i: int, trig: Trigger) -> None:
        b = self.b
        name = trig.name or f"triggers[{i}]"

        def say(effect: str, text: str, **extra: Any) -> None:
            b._emit(ScenarioTriggerEvent(round=b.ctx.round, phase=b.ctx.phase, actor=None, rules=(), trigger=name,
                                 effect=effect, text=text, **extra))

        for eff in trig.then:
            if b.outcome is not None:
                return
            if eff.message is not None:
                say("message", eff.message)
            elif eff.reinforce is not None:
                r = eff.reinforce
                self.arriving.append((name, r.side, r.zone, list(r.units)))
                if trig.when.round is None:
                    say("reinforce", f"{r.side} calls {len(r.units)} reinforcement{'s' if len(r.units) > 1 else ''} "
                        f"to {r.zone} for next round", side=r.side)
            elif eff.ai is not None:
                a = eff.ai
                was = self.ai.get(a.side, (None, ()))
                self.ai[a.side] = (a.personality or was[0], tuple(a.orders) if a.orders is not None else was[1])
                say("ai", f"{a.side}'s AI: " + "; ".join(
                    ([f"personality {a.personality}"] if a.personality else [])
                    + ([f"orders {', '.join(a.orders) or 'none'}"] if a.orders is not None else [])), side=a.side)
            elif eff.door is not None:
                cells = self._door(eff.door.zone, eff.door.open)
                say("door", f"{eff.door.zone} {'opens' if eff.door.open else 'closes'}",
                    cells=[list(c) for c in cells])
            elif eff.end is not None:
                say("end", eff.end.reason)
                if eff.end.winner == "draw" and b.outcome is None:
                    self.decider = f"trigger {name}"  # a draw names what made it (docs/EVENTS.md `result`)
                b.finish(None if eff.end.winner == "draw" else eff.end.winner, eff.end.reason)

    def _arrive(self, trigger: str, side: str, zone: str, units: list[Any]) -> None:
        b = self.b
        grid = b.ctx.grid
        cells = deploy(self.zones[zone], [(u.at[0], u.at[1]) for u in units], b.world.occupied(), grid)
        placed: dict[str, list[int]] = {}
        for unit, cell in zip(units, cells, strict=True):
            if cell in b.world.occupied() or not grid.passable(cell) or cell not in self.zone_sets[zone]:
                continue  # no room left in the zone: it does not come (the log says who came)
            b.sys.reinforce(unit.model_copy(update={"at": cell}), side)
            placed[unit.name] = list(cell)
        b._emit(ScenarioTriggerEvent(round=b.ctx.round, phase=b.ctx.phase, actor=None, rules=(), trigger=trigger,
                             effect="reinforce", text=f"{len(placed)} reinforcements for {side} arrive at {zone}",
                             units=placed, side=side))

    def _door(self, zone: str, open_: bool) -> list[Cell]:
        """Set the zone's cells to the open or shut tile (a cell with a unit on it stays open); a new map."""
        b = self.b
        grid: GridMap = b.ctx.grid
        names = [t.name for t in grid.tiles]
        want = OPEN_TILE if open_ else SHUT_TILE
        tiles = grid.tiles if want.name in names else (*grid.tiles, want)
        index = [t.name for t in tiles].index(want.name)
        occupied = b.world.occupied() if not open_ else set()
        layout = np.array(grid.layout)
        changed = []
        for x, y in self.zones[zone]:
            if (x, y) not in occupied and layout[y, x] != index:
                layout[y, x] = index
                changed.append((x, y))
        if changed:
            b.sys.set_grid(GridMap(grid.name, grid.width, grid.height, tuple(tiles), layout, grid.cell_m))
        return changed

