"""Future Imperfect systems: movement, waiting and the triggers a move sets off (R-5.6, R-5.7)."""

from __future__ import annotations

import itertools

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import (
    Declared,
    Facing,
    Identity,
    Position,
    Profile,
    Readiness,
    Status,
    Tacpack,
    Turn,
)
from skirmish.ecs.systems.fi import covering, mounts, triggers
from skirmish.ecs.systems.fi.thrown import FiThrowing
from skirmish.rules import geometry as geo
from skirmish.rules.actions import (
    Move,
    Shoot,
    Wait,
)
from skirmish.rules.deck import SIDES
from skirmish.rules.fi import waiting
from skirmish.rules.fi.timing import (
    Part,
    run_m,
    walk_m,
)


class FiMovement(FiThrowing):
    """Moves, waits and trigger shots."""

    # ------------------------------------------------------------------ movement
    def move_allowance(self, eid: int) -> tuple[float, float]:
        """(walk, run) in metres this turn (R-5.6): a rider's its mount's (R-6.1 mounts); a dodging combatant only
        walks (R-5.4)."""
        ridden = mounts.allowance(self, eid) if self.w.mounts else None
        if ridden is not None:
            walk, run = ridden
        else:
            col, _ = self.w.get(eid, Profile).traits["dexterity"]
            walk, run = walk_m(SIDES[col]), run_m(SIDES[col])
        dec = self.w.get(eid, Declared)
        return walk, walk if dec.speed == "dodge" else run

    def plan_move(self, eid: int, to: geo.Cell) -> tuple[list[geo.Cell], float, bool]:
        """Route, metres and whether it is a run; raises IllegalAction with the reason."""
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if self.w.peek(eid, Turn).moved_this_turn:
            raise IllegalAction("one movement action per turn (docs/RULES-NOTES.md)")
        grid = self.ctx.grid
        if not grid.inside(to):
            raise IllegalAction(f"cell {to[0]},{to[1]} is off the map")
        if not grid.passable(to):
            raise IllegalAction(f"cell {to[0]},{to[1]} is {grid.terrain(to).name}: no one can stand there")
        here = self.w.cell(eid)
        if tuple(to) == here:
            raise IllegalAction(f"R-5.6: {self.name(eid)} is already at {to[0]},{to[1]}: a move goes somewhere")
        occupied = self.known_occupied(eid)  # fog: an unseen enemy's cell is not known to be taken (walk_path)
        if to in occupied:
            raise IllegalAction(f"cell {to[0]},{to[1]} is taken")
        path = self.ctx.nav.route(here, to, occupied)
        if not path:
            raise IllegalAction(f"no route to {to[0]},{to[1]}")
        metres = geo.path_cost(grid, path) * grid.cell_m
        walk, run = self.move_allowance(eid)
        if metres > run + 1e-9:
            kind = "walk" if walk == run else "run"
            raise IllegalAction(f"R-5.6: {metres:.1f} m is beyond the {kind} of {run:g} m")
        running = metres > walk + 1e-9 or self.w.get(eid, Declared).speed == "fast"
        if not running and not self.fits(eid, Part("move")):
            running = True  # a walk would be too slow for the declaration now; covering the ground at a run may not be
        return path, metres, running

    def known_occupied(self, eid: int) -> set[geo.Cell]:
        """The cells `eid`'s side knows are taken (its friends', and the enemies' it sees now or knows the place of,
        `known_to`): a move is planned on these, and stops short where it runs into an enemy it did not know of
        (`walk_path`; docs/RULES-NOTES.md "Moving into an unseen enemy")."""
        occupied = self.w.occupied(except_eid=eid)
        k = getattr(self, "knowledge", None)
        if k is None:
            return occupied
        mine = self.w.peek(eid, Identity).side_index
        side = k.sides[mine]
        seen = k.seen.get(side, ())
        for e, ident in self.w.units():
            if ident.side_index != mine and ident.name not in seen and side not in self.w.peek(e, Status).known_to:
                occupied.discard(self.w.cell(e))
        if self.w.mounts:  # a riderless mount the side does not know of stands there unknown too (R-6.1 mounts)
            occupied -= mounts.unknown_cells(self, side)
        return occupied

    def move(self, eid: int, action: Move) -> None:
        """Walk or run along a route, step by step, letting waiting enemies react (R-5.6, R-5.7)."""
        path, metres, running = self.plan_move(eid, action.to)
        self.walk_path(eid, path, metres, running, self.check_parts(eid, Part("move", running=running)))

    def walk_path(self, eid: int, path: list[geo.Cell], metres: float, running: bool, parts: list[Part],
                  rules: tuple[str, ...] = ()) -> None:
        """Go along a checked route with the turn's parts after it (a move's, or a charge's, R-5.4), step by step,
        letting waiting enemies react (R-5.7); `rules` are added to the move event's."""
        turn = self.w.get(eid, Turn)
        turn.parts = parts
        turn.moved_this_turn = True
        turn.ran_this_turn = running
        turn.acted = True
        rd = self.w.get(eid, Readiness)
        rd.target, rd.aim = None, 0  # moving loses readiness and aim
        pinners = covering.pinned_by(self, eid)  # where the move begins (firing still as it was)
        self.w.get(eid, Status).firing = False
        grid = self.ctx.grid
        found = self._found_on(eid, path)  # an unseen enemy on the route: the move covers the cells before it
        if found is not None:
            path = path[:found[0]]
            metres = geo.path_cost(grid, path) * grid.cell_m
        self._event("move", self.name(eid), tuple(dict.fromkeys(("R-5.6",) + (("R-5.4",) if running else ()) + rules)),
                    path=[list(c) for c in path], metres=round(metres, 2), running=running)
        turn.rate_m = max(turn.rate_m, round(metres, 2))  # its Rate this round: the move's metres (shot_numbers.fast_target)
        pos = self.w.get(eid, Position)
        face = self.w.get(eid, Facing)
        before_last: geo.Cell | None = None
        beaten: list[int] = []  # waiters the mover beat in the Reflex contest: they act once it stops
        self._check_triggers(eid, beaten, None)  # `enemy_moves`: the move itself, where it stood
        for a, b in itertools.pairwise(path):
            if not self.active(eid):
                break
            pos.x, pos.y = b
            face.dx, face.dy = b[0] - a[0], b[1] - a[1]
            turn.moved_m += geo.step_cost(grid, a, b) * grid.cell_m
            self._check_triggers(eid, beaten, b)
            covering.stepped(self, eid, a, b, pinners)  # entering (or breaking out of) a covered area draws fire
            if not self.active(eid):
                self._event("move_stopped", self.name(eid), ("R-8.1",), at=list(b))
                break
            before_last = a
        if found is not None and self.active(eid):
            self._bump(eid, path[-1], found)
        triggers.land_held(self)  # a tie was simultaneous: the waiter's damage lands now the move is made
        self._update_known(eid, before_last)
        for waiter in beaten:
            self._late_trigger(waiter, eid)
        self.refresh_cover()

    def _found_on(self, eid: int, path: list[geo.Cell]) -> tuple[int, int | str] | None:
        """The first step of a checked route into a cell another figure stands in (an enemy the mover's side did not
        know of: the route was worked out on the cells it knows are taken), as (its index in `path`, the figure)."""
        taken: dict[geo.Cell, int | str] = {self.w.cell(e): e for e, _ in self.w.units() if e != eid}
        if self.w.mounts:  # and a riderless mount it did not know of (R-6.1 mounts): found by its name
            taken.update((m.cell, m.name) for m in self.w.mounts.values() if m.rider is None)
        for i in range(1, len(path)):
            if path[i] in taken:
                return i, taken[path[i]]
        return None

    def _bump(self, eid: int, at: geo.Cell, found: tuple[int, int | str]) -> None:
        """The mover stopped at `at`, before the cell the enemy it did not know of stands in: the enemy is
        discovered (its place now known to the mover's side), as moving into contact does. A riderless mount it
        did not know of (found by name) stops it the same way; the side sees it from next to it."""
        e = found[1]
        if isinstance(e, str):
            cell = self.w.mounts[e].cell
            self._event("bumped", self.name(eid), ("R-5.6", "R-6.1"), at=list(at), blocked=list(cell), target=e)
            return
        st = self.w.get(e, Status)
        st.known_to = st.known_to | {self.ctx.side_names[self.w.peek(eid, Identity).side_index]}
        self._event("bumped", self.name(eid), ("R-5.6", "R-6.1"), at=list(at), blocked=list(self.w.cell(e)),
                    target=self.name(e))

    def _late_trigger(self, waiter: int, mover: int) -> None:
        """A waiter beaten in the Reflex contest acts after the mover's move: it fires if it still sees the
        mover, else it keeps waiting (R-5.7)."""
        st = self.w.get(waiter, Status)
        if st.waiting is None or not self.active(waiter) or not self.active(mover):
            return
        if not self.sight(waiter, mover).visible:
            self._event("trigger_lost", self.name(waiter), ("R-5.7",), target=self.name(mover),
                        reason=f"{self.name(mover)} moved out of sight first; still waiting")
            return
        st.waiting = None
        self._trigger_shot(waiter, mover)

    def _check_triggers(self, mover: int, beaten: list[int], to: geo.Cell | None) -> None:
        """Waiting enemies whose trigger the mover sets off (`to`: the cell its step reached; None as the move begins)
        react, after a Reflex contest (R-5.7): a waiter that wins fires at once; on a tie both act and the damage
        lands when the move ends (`held_damage`); one the mover beats is added to `beaten` and acts after the move.
        A waiter whose trigger is set off by a mover it cannot see holds its fire and keeps waiting."""
        for eid, trig in triggers.watchers(self, mover):
            if eid in beaten:
                continue
            if not self.active(mover):
                return
            if not triggers.set_off(self, eid, trig, mover, to):
                continue
            if not self.sight(eid, mover).visible:  # `enemy_enters` out of its sight: nothing to fire at
                self._event("trigger_lost", self.name(eid), ("R-5.7",), target=self.name(mover),
                            reason=f"{self.name(mover)} entered {trig.cell} out of sight; still waiting")
                continue
            contest = triggers.reflex_contest(self, eid, mover)
            self._event("trigger", self.name(eid), ("R-5.7", "R-3.8"), target=self.name(mover), **contest,
                        **({} if trig.kind == "enemy_in_view" else {"trigger": trig.text()}))
            self.ctx.randomizer.settle()
            if not contest["waiter_first"]:
                beaten.append(eid)  # the mover goes first: it finishes its move before the waiter acts
                continue
            self.w.get(eid, Status).waiting = None
            if contest["simultaneous"]:
                with triggers.held_damage(self):
                    self._trigger_shot(eid, mover)
            else:
                self._trigger_shot(eid, mover)

    def _trigger_shot(self, eid: int, target: int) -> None:
        self.on_trigger(eid)
        wpn = self.weapon(eid)
        if wpn is None:
            return
        weapon, ws = wpn
        speed = self._declared_speed(eid)
        mode = "prepared" if int(weapon.speed) <= int(speed) else "snap"
        tp = self.w.get(eid, Tacpack)
        bursts = [b for b in weapon.bursts if ws.rounds >= b
                  and (not weapon.energy or tp.spent + weapon.shot_power(b) <= tp.generator)]
        burst = min(bursts) if bursts else 0
        turn = self.w.get(eid, Turn)
        saved = list(turn.parts)
        turn.parts = []
        try:
            self.shoot(eid, Shoot(self.name(eid), self.name(target), mode=mode, burst=burst), trigger=True)
        except IllegalAction as exc:
            self._event("trigger_lost", self.name(eid), ("R-5.7",), reason=str(exc))
        finally:
            turn.parts = saved

    def wait_check(self, eid: int, action: Wait) -> None:
        """Refuse a wait the rules do not allow now (R-5.7, R-5.4): a trigger the rules know, naming what exists."""
        try:
            trig = waiting.parse(action.trigger)
        except waiting.TriggerError as exc:
            raise IllegalAction(str(exc)) from None
        self.trigger_check(eid, trig)
        if self.w.get(eid, Turn).acted:
            raise IllegalAction("R-5.7: waiting holds the whole action; this turn has already acted")
        if self.w.get(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")

    def wait(self, eid: int, action: Wait) -> None:
        """Hold the action for a trigger (R-5.7)."""
        self.wait_check(eid, action)
        self.w.get(eid, Status).waiting = action.trigger
        self._event("wait", self.name(eid), ("R-5.7",), trigger=action.trigger)

    def trigger_check(self, eid: int, trig: waiting.Trigger) -> None:
        """Refuse a trigger naming what is not there (R-5.7): a cell off the map or in a wall, a unit that is not
        another combatant in action (pre-empting: an enemy). Under card hands the reserve card plays on any trigger
        (R-5.8; a turn's trigger: `delay.step_turns`)."""
        if trig.cell is not None:
            grid = self.ctx.grid
            if not grid.inside(trig.cell) or not grid.passable(trig.cell):
                raise IllegalAction(f"R-5.7: no one can enter {trig.cell[0]},{trig.cell[1]}")
        if trig.unit is not None:
            if not self.w.has(trig.unit) or self.w.entity(trig.unit) == eid:
                raise IllegalAction(f"R-5.7: {trig.unit!r} is not another combatant")
            other = self.w.entity(trig.unit)
            friend = self.w.peek(other, Identity).side_index == self.w.peek(eid, Identity).side_index
            if not friend and not self.sight(eid, other).visible:  # fog: nothing said of an enemy out of sight
                raise IllegalAction(f"R-5.7: {trig.unit} is not in sight")
            if not self.active(other):
                raise IllegalAction(f"R-5.7: {trig.unit} is out of action")
            if trig.kind == "preempt" and friend:
                raise IllegalAction(f"R-5.7: {trig.unit} is on your side: wait with acts:{trig.unit} instead")
        if trig.kind == "enemy_in_range":
            wpn = self.weapon(eid)
            if wpn is None or wpn[0].thrown or not wpn[0].range_inc_m:
                raise IllegalAction("R-5.7: enemy_in_range needs a ranged weapon in hand")

