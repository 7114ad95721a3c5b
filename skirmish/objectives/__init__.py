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

from typing import TYPE_CHECKING, Any

from skirmish.core.scenario_events import ObjectiveEvent
from skirmish.ecs.components import Identity
from skirmish.ecs.view import BattleView, ObjectiveView
from skirmish.objectives.base import ObjectiveState, PlayBase
from skirmish.objectives.deploy import Deployment, deployed
from skirmish.objectives.triggers import Triggers

if TYPE_CHECKING:
    from skirmish.content.scenario import Scenario

__all__ = ["NOBODY_STANDING", "POINTS_EQUAL", "Play", "PlayBase", "deployed", "uses_objectives"]

# What a draw's `result` names as its `objective` when no objective made it (docs/EVENTS.md); the round limit of a
# scenario with triggers only is "round limit", and `wins` objectives done for two sides at once are named together.
POINTS_EQUAL = "points equal"
NOBODY_STANDING = "nobody standing"


def uses_objectives(scenario: Scenario) -> bool:
    """True when the scenario has objectives, triggers or deployment zones (zones alone change nothing)."""
    spec = scenario.spec
    return bool(spec.triggers) or any(s.objectives or s.deployment for s in spec.sides)


class Play(Triggers, Deployment):
    """The objectives and triggers of one battle: hooked on its round table (`hook`), asked by its end check
    (`ended`) and result (`result_fields`), and dressing its views (`dress`)."""

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
        """Objectives (sides in order, then theirs), then triggers in file order. Once a `wins` objective is done,
        only the other `wins` objectives are looked at in the same check: done for two sides at once is a draw."""
        if self.b.outcome is not None:
            return
        won: list[tuple[ObjectiveState, str]] = []
        self._won = won
        try:
            for o in self.objectives:
                if o.state == "open" and (not won or o.spec.wins):
                    self._objective(o, point)
                if self.b.outcome is not None:  # a `loses` objective has decided it
                    return
        finally:
            self._won = None
        if won:
            self._decide(won)
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
    def _need(self, o: ObjectiveState, standing: int, done_already: int = 0) -> int:
        units = o.spec.units
        if units == "any":
            return 1
        if units == "all":
            return max(1, standing + done_already)
        return int(units)

    def _objective(self, o: ObjectiveState, point: str) -> None:
        s, kind, units = o.spec, o.spec.kind, self._units()
        own_up = [(eid, ident) for eid, ident, up in units if up and ident.side == o.side]
        foes_up = [ident for _, ident, up in units if up and ident.side != o.side]
        w = self.b.world
        if kind == "eliminate" and not foes_up and not self.reinforcements_due() - {o.side}:
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

    def _holding(self, o: ObjectiveState, own_up: list[tuple[int, Identity]], foes_up: list[Identity]) -> bool:
        w, cells = self.b.world, self.zone_sets[o.spec.zone or ""]
        mine = sum(1 for eid, _ in own_up if w.cell(eid) in cells)
        theirs = sum(1 for ident in foes_up if w.cell(w.entity(ident.name)) in cells)
        return theirs == 0 and mine >= self._need(o, len(own_up))

    def _reach(self, o: ObjectiveState, own_up: list[tuple[int, Identity]], point: str) -> None:
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

    def _settle(self, o: ObjectiveState, state: str, why: str) -> None:
        o.state = state
        b = self.b
        b._emit(ObjectiveEvent(round=b.ctx.round, phase=b.ctx.phase, actor=None, rules=(), side=o.side,
                               objective=o.name, kind=o.spec.kind, state=state, points=o.spec.points, why=why))
        if state == "done" and o.spec.wins:
            if self._won is not None:  # in a check: decided once every `wins` objective has been looked at
                self._won.append((o, why))
                return
            self.decider = o.name
            b.finish(o.side, f"objective {o.name} done: {why}")
        elif state == "failed" and o.spec.loses:
            self.decider = o.name
            others = {s: p for s, p in self.points().items() if s != o.side}
            best = max(others.values())
            top = [s for s, p in others.items() if p == best]
            if len(top) == 1:
                b.finish(top[0], f"objective {o.name} failed: {why}")
                return
            self.decider = POINTS_EQUAL  # the others' points made it a draw, not this objective
            b.finish(None, f"objective {o.name} failed: {why}; {POINTS_EQUAL}: "
                     + ", ".join(f"{s} {others[s]}" for s in top))

    def _decide(self, won: list[tuple[ObjectiveState, str]]) -> None:
        """`wins` objectives done in one check: their side wins, or, done for more than one side, a draw (no side's
        objective comes first because the file lists it first; docs/FILES.md)."""
        first, why = won[0]
        if len({o.side for o, _ in won}) == 1:
            self.decider = first.name
            self.b.finish(first.side, f"objective {first.name} done: {why}")
            return
        self.decider = " and ".join(o.name for o, _ in won)  # a draw: every objective that made it
        names = " and ".join(f"{o.name} ({o.side})" for o, _ in won)
        self.b.finish(None, f"objectives {names} done at once: a draw")

    def final(self) -> None:
        """The battle ends: settle the open objectives by the state now (`wins` objectives done for two sides here
        are a draw, as in `check`)."""
        won: list[tuple[ObjectiveState, str]] = []
        self._won = won
        try:
            self._final(won)
        finally:
            self._won = None
        if won and self.b.outcome is None:
            self._decide(won)

    def _final(self, won: list[tuple[ObjectiveState, str]]) -> None:
        units = self._units()
        for o in self.objectives:
            if o.state != "open" or (won and not o.spec.wins):
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
        due = self.reinforcements_due()
        if not round_over and sum(1 for s, n in standing.items() if n > 0 or s in due) > 1:
            return False  # a side whose reinforcements are still to come is not out yet
        on_board = [s for s, n in standing.items() if n > 0]
        if not self.any_objectives:  # triggers only: the usual end, less the extracted
            winner = on_board[0] if len(on_board) == 1 else None
            reason = "round limit" if len(on_board) > 1 else \
                (f"nobody left standing: {', '.join(s for s in self.b.sides if s not in on_board)}" if on_board
                 else "nobody left standing on any side")
            if winner is None:  # a draw names what made it (docs/EVENTS.md `result`)
                self.decider = "round limit" if on_board else NOBODY_STANDING
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
        elif winner is None:
            self.decider = POINTS_EQUAL  # no objective made the draw: the points did
        why = "round limit" if len(on_board) > 1 else "nobody left on the board" + (f" but {on_board[0]}" if on_board
                                                                                   else "")
        said = "points" if winner is not None else f"{POINTS_EQUAL}:"
        self.b.finish(winner, f"{why}; {said} " + ", ".join(f"{s} {points[s]}" for s in self.b.sides))
        return True

    def reinforcements_due(self) -> set[str]:
        """The sides with reinforcements called and not yet arrived, or due from a `round` trigger to come."""
        due = {side for _, side, _, _ in self.arriving}
        for i, trig in enumerate(self.triggers):
            if trig.when.round is not None and trig.when.round >= self.b.ctx.round and i not in self.fired:
                due.update(e.reinforce.side for e in trig.then if e.reinforce is not None)
        return due

    def result_fields(self) -> dict[str, Any]:
        """The result event's extra fields."""
        extracted = dict.fromkeys(self.b.sides, 0)
        for side in self.extracted.values():
            extracted[side] += 1
        return {"objective": self.decider, "points": self.points() if self.any_objectives else None,
                "extracted": extracted if self.extracted else None}

    # ------------------------------------------------------------------ views
    def dress(self, view: BattleView, side: str | None) -> BattleView:
        """`view` with the zones, the objectives as `side` may know them (None: all of them), AI orders and the
        extracted units it may know of (its own, and the enemies it sees)."""
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
        known = {u.name: u for u in view.units}
        gone = tuple(n for n in self.extracted if n in known and (side is None or known[n].side == side
                                                                   or not known[n].ghost))
        out.__dict__.update(zones=tuple(sorted(self.zones.items())), objectives=tuple(objs), ai_orders=orders,
                            extracted=gone)
        return out
