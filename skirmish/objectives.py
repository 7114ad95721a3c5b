"""A scenario's objectives and triggers in play (issue 15 item 1; docs/FILES.md "Zones, objectives, triggers
and deployment"), for every ruleset, on the battle's seams: the round table's hooks (round start and end, after
every accepted action) run `Play.check`, its changes are typed events (`objective`, `scenario_trigger`:
skirmish.core.scenario_events), the battle's end check and result ask it (`Play.ended`, `Play.result`), and
the side views carry the objectives (`Play.dress`: a side learns the others' progress only when the log
announces it).

The ruleset is reached through its systems' scenario hooks: `reinforce(unit, side)`, `withdraw(eid)` (an
extracted unit leaves) and `set_grid(grid)` (a door: a new map, so every cache keyed by the map's content sees
the change). Everything runs in a fixed order (sides, then their objectives; triggers in file order), so the same
scenario and seed give the same events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from skirmish.content.objectives import Objective, Trigger
from skirmish.content.zones import Cells, deploy, objective_names
from skirmish.core.scenario_events import ObjectiveEvent, ScenarioTriggerEvent
from skirmish.ecs.components import Health, Identity
from skirmish.ecs.view import BattleView, ObjectiveView
from skirmish.rules.geometry import GridMap, Terrain

if TYPE_CHECKING:
    from skirmish.battle import Battle
    from skirmish.content.scenario import Scenario

Cell = tuple[int, int]
OPEN_TILE = Terrain("door", 1, False, "none", 0)  # a door's cells when no such tile is in the map's tileset
SHUT_TILE = Terrain("wall", 0, True, "high", 6)


def uses_objectives(scenario: Scenario) -> bool:
    """True when the scenario has objectives, triggers or deployment zones (zones alone change nothing)."""
    spec = scenario.spec
    return bool(spec.triggers) or any(s.objectives or s.deployment for s in spec.sides)


def deployed(scenario: Scenario) -> Scenario:
    """The scenario with each side that has a `deployment` zone placed inside it (an AI side's rule, and the
    board's starting places for a person): `content.zones.deploy`, sides in file order."""
    spec = scenario.spec
    if not any(s.deployment for s in spec.sides):
        return scenario
    taken: set[Cell] = {(u.at[0], u.at[1]) for s in spec.sides if not s.deployment for u in s.units}
    sides = []
    for side in spec.sides:
        if side.deployment is None:
            sides.append(side)
            continue
        cells = deploy(scenario.zones[side.deployment], [(u.at[0], u.at[1]) for u in side.units], taken, scenario.grid)
        taken.update(cells)
        units = [u.model_copy(update={"at": c}) for u, c in zip(side.units, cells, strict=True)]
        sides.append(side.model_copy(update={"units": units}))
    out = scenario.with_options()
    out.spec = spec.model_copy(update={"sides": sides})
    return out


@dataclass
class _Objective:
    side: str
    name: str
    spec: Objective
    state: str = "open"
    streak: int = 0  # hold: rounds held in a row
    out: list[str] = field(default_factory=list)  # extract: the units it took out


class Play:
    """The objectives and triggers of one battle."""

    def __init__(self, battle: Battle) -> None:
        self.b = battle
        spec = battle.scenario.spec
        self.zones: dict[str, Cells] = dict(battle.scenario.zones)
        self.zone_sets = {name: frozenset(cells) for name, cells in self.zones.items()}
        specs = [o for s in spec.sides for o in s.objectives]
        self.objectives = [_Objective(side, name, o) for (side, name, _), o in zip(objective_names(spec), specs,
                                                                                     strict=True)]
        self.any_objectives = bool(self.objectives)
        self.triggers: list[Trigger] = list(spec.triggers)
        self.fired: set[int] = set()  # triggers (by index) that fired (a `once` one fires no more)
        self.was: dict[int, bool] = {}  # a condition's truth at the last check (it fires when it becomes true)
        self.extracted: dict[str, str] = {}  # unit -> side: left the battle through an extraction zone
        self.arriving: list[tuple[str, str, str, list[Any]]] = []  # (trigger, side, zone, units) for next round
        self.ai: dict[str, tuple[str | None, tuple[str, ...]]] = {}  # side -> (personality, orders) from triggers
        self.decider: str | None = None  # the objective that decided the battle
        self.inside = self._inside()  # zone -> the standing units in it, at the last check

    # ------------------------------------------------------------------ reading the world
    def _units(self) -> list[tuple[int, Identity, bool]]:
        w = self.b.world
        return [(eid, ident, not w.peek(eid, Health).out_of_action and ident.name not in self.extracted)
                for eid, ident in w.units()]

    def _inside(self) -> dict[str, frozenset[str]]:
        w = self.b.world
        standing = [(ident.name, w.cell(eid)) for eid, ident, up in self._units() if up]
        return {z: frozenset(n for n, c in standing if c in cells) for z, cells in sorted(self.zone_sets.items())}

    def fallen(self, name: str) -> bool:
        """Out of action and not extracted (KeyError: no such unit, yet)."""
        w = self.b.world
        return name not in self.extracted and w.peek(w.entity(name), Health).out_of_action

    def standing(self) -> dict[str, int]:
        """Units on the board and in action, by side."""
        out = dict.fromkeys(self.b.sides, 0)
        for _, ident, up in self._units():
            out[ident.side] += up
        return out

    def casualties(self) -> dict[str, int]:
        """Units out of action, not counting the extracted, by side."""
        out = dict.fromkeys(self.b.sides, 0)
        for _, ident, up in self._units():
            out[ident.side] += not up and ident.name not in self.extracted
        return out

    def points(self) -> dict[str, int]:
        """Each side's points: its done objectives'."""
        out = dict.fromkeys(self.b.sides, 0)
        for o in self.objectives:
            if o.state == "done":
                out[o.side] += o.spec.points
        return out

    # ------------------------------------------------------------------ the round table's hooks
    def hook(self) -> None:
        """Add the checks to the battle's hooks (before any other round_end hook: a state hash sees them)."""
        self.b.hooks.table["round_start"].append(self.round_start)
        self.b.hooks.table["action"].append(lambda *_: self.check("action"))
        self.b.hooks.table["round_end"].insert(0, lambda: self.check("round_end"))

    def round_start(self) -> None:
        """Round triggers first (their reinforcements arrive now), then the reinforcements called for before."""
        self.check("round_start")
        arriving, self.arriving = self.arriving, []
        for trigger, side, zone, units in arriving:
            self._arrive(trigger, side, zone, units)
        if arriving:
            self.inside = self._inside()

    def check(self, point: str) -> None:
        """Objectives (sides in order, then theirs), then triggers in file order."""
        if self.b.outcome is not None:
            return
        for o in self.objectives:
            if o.state == "open":
                self._objective(o, point)
            if self.b.outcome is not None:  # a `wins` or `loses` objective has decided it
                return
        now = self._inside()
        for i, trig in enumerate(self.triggers):
            if self.b.outcome is not None:
                break
            if trig.once and i in self.fired:
                continue
            true = self._condition(trig, now, point)
            if true and not self.was.get(i, False):
                self.fired.add(i)
                self._fire(i, trig)
            self.was[i] = true if trig.when.enters is None and trig.when.leaves is None else False
        self.inside = now

    # ------------------------------------------------------------------ objectives
    def _need(self, o: _Objective, standing: int, done_already: int = 0) -> int:
        units = o.spec.units
        if units == "any":
            return 1
        if units == "all":
            return max(1, standing + done_already)
        return int(units)

    def _objective(self, o: _Objective, point: str) -> None:
        s, kind, units = o.spec, o.spec.kind, self._units()
        own_up = [(eid, ident) for eid, ident, up in units if up and ident.side == o.side]
        foes_up = [ident for _, ident, up in units if up and ident.side != o.side]
        w = self.b.world
        if kind == "eliminate" and not foes_up:
            self._settle(o, "done", "no enemy standing")
        elif kind == "kill" and s.unit is not None and w.has(s.unit) and self.fallen(s.unit):
            self._settle(o, "done", f"{s.unit} is out of action")
        elif kind == "protect" and s.unit is not None and self.fallen(s.unit):
            self._settle(o, "failed", f"{s.unit} is out of action")
        elif kind == "survive":
            if s.units == "all" and self.casualties()[o.side]:
                self._settle(o, "failed", "a unit of the side fell")
            elif s.units != "all" and len(own_up) < self._need(o, 0):
                self._settle(o, "failed", f"{len(own_up)} standing, {self._need(o, 0)} needed")
            elif point == "round_end" and self.b.ctx.round >= (s.rounds or 0):
                self._settle(o, "done", f"still standing after round {self.b.ctx.round}")
        elif kind in ("reach", "extract"):
            self._reach(o, own_up, point)
        elif kind == "hold" and point == "round_end" and not s.at_end:
            held = self._holding(o, own_up, foes_up)
            o.streak = o.streak + 1 if held else 0
            if held and o.streak >= (s.rounds or 1):
                self._settle(o, "done", f"held {s.zone} for {o.streak} round{'s' if o.streak > 1 else ''}")

    def _holding(self, o: _Objective, own_up: list[tuple[int, Identity]], foes_up: list[Identity]) -> bool:
        w, cells = self.b.world, self.zone_sets[o.spec.zone or ""]
        mine = sum(1 for eid, _ in own_up if w.cell(eid) in cells)
        theirs = sum(1 for ident in foes_up if w.cell(w.entity(ident.name)) in cells)
        return theirs == 0 and mine >= self._need(o, len(own_up))

    def _reach(self, o: _Objective, own_up: list[tuple[int, Identity]], point: str) -> None:
        s, w = o.spec, self.b.world
        cells = self.zone_sets[s.zone or ""]
        who = [(eid, i) for eid, i in own_up if s.unit is None or i.name == s.unit]
        there = [(eid, i) for eid, i in who if w.cell(eid) in cells]
        if s.kind == "extract" and point != "round_start":
            for eid, ident in there:  # they leave the battle
                self.extracted[ident.name] = ident.side
                o.out.append(ident.name)
                self.b.sys.withdraw(eid)
            got, left = len(o.out), len(who) - len(there)
        else:
            got, left = len(there), len(who) - len(there)
        need = 1 if s.unit is not None else self._need(o, len(who) if s.kind == "reach" else left, len(o.out))
        verb = "left through" if s.kind == "extract" else "in"
        if s.unit is not None and got:
            self._settle(o, "done", f"{s.unit} {verb} {s.zone}")
        elif s.unit is None and got >= need and (s.units != "all" or left == 0):
            self._settle(o, "done", f"{got} unit{'s' if got != 1 else ''} {verb} {s.zone}")
        elif got + left < need or (s.unit is not None and w.has(s.unit) and self.fallen(s.unit)):
            self._settle(o, "failed", f"too few left to make {s.zone}")

    def _settle(self, o: _Objective, state: str, why: str) -> None:
        o.state = state
        b = self.b
        b._emit(ObjectiveEvent(round=b.ctx.round, phase=b.ctx.phase, actor=None, rules=(), side=o.side,
                               objective=o.name, kind=o.spec.kind, state=state, points=o.spec.points, why=why))
        if state == "done" and o.spec.wins:
            self.decider = o.name
            b.finish(o.side, f"objective {o.name} done: {why}")
        elif state == "failed" and o.spec.loses:
            self.decider = o.name
            others = {s: p for s, p in self.points().items() if s != o.side}
            best = max(others.values())
            top = [s for s, p in others.items() if p == best]
            b.finish(top[0] if len(top) == 1 else None, f"objective {o.name} failed: {why}")

    def final(self) -> None:
        """The battle ends: settle the open objectives by the state now."""
        units = self._units()
        for o in self.objectives:
            if o.state != "open":
                continue
            s = o.spec
            own_up = [(eid, i) for eid, i, up in units if up and i.side == o.side]
            foes_up = [i for _, i, up in units if up and i.side != o.side]
            if s.kind == "protect":
                self._settle(o, "done", f"{s.unit} still standing")
            elif s.kind == "survive":
                ok = not self.casualties()[o.side] if s.units == "all" else len(own_up) >= self._need(o, 0)
                self._settle(o, "done" if ok else "failed", "the battle ended" if ok else "too few standing")
            elif s.kind == "hold" and s.at_end:
                held = self._holding(o, own_up, foes_up)
                self._settle(o, "done" if held else "failed", f"{'holding' if held else 'not holding'} {s.zone} "
                             "at the end")
            else:
                self._settle(o, "failed", "the battle ended first")
            if self.b.outcome is not None:
                return

    # ------------------------------------------------------------------ the end
    def ended(self, round_over: bool) -> bool:
        """The battle's end check with objectives: a side with nobody on the board, or the round limit, ends it;
        the points decide (`finish` by a `wins`/`loses` objective or an `end` trigger has decided already)."""
        if self.b.outcome is not None:
            return True
        standing = self.standing()
        on_board = [s for s, n in standing.items() if n > 0]
        if len(on_board) > 1 and not round_over:
            return False
        if not self.any_objectives:  # triggers only: the usual end, less the extracted
            winner = on_board[0] if len(on_board) == 1 else None
            reason = "round limit" if len(on_board) > 1 else \
                (f"nobody left standing: {', '.join(s for s in self.b.sides if s not in on_board)}" if on_board
                 else "nobody left standing on any side")
            self.b.finish(winner, reason)
            return True
        self.final()
        if self.b.outcome is not None:
            return True
        points = self.points()
        best = max(points.values())
        top = [s for s in self.b.sides if points[s] == best]
        if len(top) > 1:
            top = [s for s in top if s in on_board] or top
        winner = top[0] if len(top) == 1 else None
        done = [o for o in self.objectives if o.state == "done" and o.side == winner]
        if done:
            self.decider = max(done, key=lambda o: o.spec.points).name
        why = "round limit" if len(on_board) > 1 else "nobody left on the board" + (f" but {on_board[0]}" if on_board
                                                                                   else "")
        self.b.finish(winner, f"{why}; points " + ", ".join(f"{s} {points[s]}" for s in self.b.sides))
        return True

    def result_fields(self) -> dict[str, Any]:
        """The result event's extra fields."""
        extracted = dict.fromkeys(self.b.sides, 0)
        for side in self.extracted.values():
            extracted[side] += 1
        return {"objective": self.decider, "points": self.points() if self.any_objectives else None,
                "extracted": extracted if self.extracted else None}

    # ------------------------------------------------------------------ triggers
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
                        f"to {r.zone} for next round")
            elif eff.ai is not None:
                a = eff.ai
                was = self.ai.get(a.side, (None, ()))
                self.ai[a.side] = (a.personality or was[0], tuple(a.orders) if a.orders is not None else was[1])
                say("ai", f"{a.side}'s AI: " + "; ".join(
                    ([f"personality {a.personality}"] if a.personality else [])
                    + ([f"orders {', '.join(a.orders) or 'none'}"] if a.orders is not None else [])))
            elif eff.door is not None:
                cells = self._door(eff.door.zone, eff.door.open)
                say("door", f"{eff.door.zone} {'opens' if eff.door.open else 'closes'}",
                    cells=[list(c) for c in cells])
            elif eff.end is not None:
                say("end", eff.end.reason)
                b.finish(None if eff.end.winner == "draw" else eff.end.winner, eff.end.reason)

    def _arrive(self, trigger: str, side: str, zone: str, units: list[Any]) -> None:
        b = self.b
        grid = b.ctx.grid
        cells = deploy(self.zones[zone], [(u.at[0], u.at[1]) for u in units], b.world.occupied(), grid)
        placed: dict[str, list[int]] = {}
        for unit, cell in zip(units, cells, strict=True):
            if cell in b.world.occupied() or not grid.passable(cell):
                continue  # no room left in the zone: it does not come (the log says who came)
            b.sys.reinforce(unit.model_copy(update={"at": cell}), side)
            placed[unit.name] = list(cell)
        b._emit(ScenarioTriggerEvent(round=b.ctx.round, phase=b.ctx.phase, actor=None, rules=(), trigger=trigger,
                             effect="reinforce", text=f"{len(placed)} reinforcements for {side} arrive at {zone}",
                             units=placed))

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

    # ------------------------------------------------------------------ views
    def dress(self, view: BattleView, side: str | None) -> BattleView:
        """`view` with the zones, the objectives as `side` may know them (None: all of them) and AI orders."""
        objs = []
        for o in self.objectives:
            s = o.spec
            mine = side is None or side == o.side
            progress = (o.streak if s.kind == "hold" else len(o.out)) if mine else None
            objs.append(ObjectiveView(o.name, o.side, s.kind, o.state, s.points, s.zone, s.unit, s.rounds, s.units,
                                      s.wins, s.loses, progress))
        orders = tuple((s, p, o) for s, (p, o) in sorted(self.ai.items()) if side is None or s == side)
        out = object.__new__(BattleView)
        out.__dict__.update(view.__dict__)
        out.__dict__.update(zones=tuple(sorted(self.zones.items())), objectives=tuple(objs), ai_orders=orders)
        return out
