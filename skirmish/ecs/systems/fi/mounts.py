"""Future Imperfect systems: mounts in play (R-6.1; docs/RULES-NOTES.md "Mounts"). Functions on the systems, as
covering.py's are: the mounts put on the world from the scenario, the checks and application of `mount` and
`dismount` (each a NORMAL action, R-5.4/R-5.5), the ones a unit may take now (legality), a rider's move allowance
(its mount's walk and run, R-5.6), and the side views that show a side the mounts its figures see (fog)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from skirmish.content.fi_mounts import due_mounts
from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Facing, Health, Identity, Position, Readiness, Status, Turn
from skirmish.ecs.fi_mounts import MountState, MountView
from skirmish.ecs.knowledge import Knowledge
from skirmish.ecs.systems.fi import covering, triggers
from skirmish.ecs.view import BattleView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action
from skirmish.rules.equipment import Speed
from skirmish.rules.fi.mounts import MOUNT_KINDS, Dismount, Mount, walk_run
from skirmish.rules.fi.timing import Part

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi import FiSystems
    from skirmish.ecs.systems.fi.base import FiBase

RULES = ("R-6.1", "R-5.4")
READY = Part("ready", int(Speed.NORMAL))  # mounting or dismounting: a NORMAL action, as rising


def init(sys: FiSystems, spec: Any) -> None:
    """Put the scenario's mounts on the world; a `mounted: true` unit on a mount's cell rides it (checked on load,
    skirmish.content.fi_mounts). A mount at the cell a trigger's mounted reinforcement asks for waits off the map
    for it (`arrive`)."""
    mounts = getattr(spec, "mounts", None)
    if not mounts:
        return
    on = {sys.w.cell(e): i.name for e, i in sys.w.units() if sys.w.peek(e, Status).mounted}
    due = due_mounts(spec)
    sys.ctx.mount_order = tuple(m.name for m in mounts)
    for m in mounts:
        cell = (m.at[0], m.at[1])
        move = m.move_m if m.move_m is not None else MOUNT_KINDS[m.kind].move_m
        if m.name in due:
            sys.ctx.mounts_due[due[m.name]] = MountState(m.name, m.kind, move, cell, None)
        else:
            sys.w.mounts[m.name] = MountState(m.name, m.kind, move, cell, on.get(cell))


def arrive(sys: FiBase, eid: int) -> None:
    """A trigger's reinforcement has come: its mount, if one waits for it, comes under it where it stands (the
    world's mounts kept in the scenario's order)."""
    m = sys.ctx.mounts_due.pop(sys.name(eid), None)
    if m is None:
        return
    m.cell, m.rider = sys.w.cell(eid), sys.name(eid)
    sys.w.get(eid, Status).mounted = True
    placed = {**sys.w.mounts, m.name: m}
    sys.w.mounts.clear()
    sys.w.mounts.update((n, placed[n]) for n in sys.ctx.mount_order if n in placed)


def ridden_by(sys: FiBase, name: str) -> MountState | None:
    """The mount `name` rides (None: none)."""
    for m in sys.w.mounts.values():
        if m.rider == name:
            return m
    return None


def unknown_cells(sys: FiBase, side: str) -> set[geo.Cell]:
    """The cells of the riderless mounts `side` does not know stand there (its knowledge, `MountKnowledge`): a move
    is planned as if they were open and stops short on finding one (`FiMovement._found_on`)."""
    k = getattr(sys, "knowledge", None)
    if not isinstance(k, MountKnowledge):
        return set()
    known = k.knows(side)
    out = set()
    for m in sys.w.mounts.values():
        seen = known.get(m.name)
        if m.rider is None and (seen is None or seen.rider is not None or seen.cell != m.cell):
            out.add(m.cell)
    return out


def allowance(sys: FiBase, eid: int) -> tuple[float, float] | None:
    """A rider's (walk, run) in metres: its mount's (R-5.6); None for a figure on foot."""
    if not sys.w.mounts:
        return None
    m = ridden_by(sys, sys.name(eid))
    return None if m is None else walk_run(m.move_m)


def _known_cell(sys: FiBase, eid: int, name: str) -> geo.Cell | None:
    """Where `eid`'s side knows the mount `name` stands (None: it does not know it; every mount's cell without side
    views)."""
    k = getattr(sys, "knowledge", None)
    if not isinstance(k, MountKnowledge):
        return sys.w.mounts[name].cell
    seen = k.knows(k.sides[sys.w.peek(eid, Identity).side_index]).get(name)
    return None if seen is None else seen.cell


def _adjacent(a: geo.Cell, b: geo.Cell) -> bool:
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def check(sys: FiSystems, eid: int, action: Action) -> list[Part]:
    """Refuse a mount or dismount the rules do not allow now (IllegalAction naming the rule); the turn's parts
    with it (a NORMAL action, R-5.5)."""
    me = sys.name(eid)
    if not sys.active(eid):
        raise IllegalAction("R-8.1: out of action")
    here = sys.w.cell(eid)
    if isinstance(action, Mount):
        m = sys.w.mounts.get(action.mount)
        if m is None:
            known = ", ".join(sys.w.mounts) or "none"
            raise IllegalAction(f"R-6.1: no mount named {action.mount!r} (mounts: {known})")
        if sys.w.peek(eid, Status).mounted:
            raise IllegalAction(f"R-6.1: {me} is already mounted")
        if not _adjacent(here, m.cell):  # (where it stands only as far as the side knows: fog)
            seen_at = _known_cell(sys, eid, m.name)
            where = f" at {seen_at[0]},{seen_at[1]}" if seen_at is not None else ""
            raise IllegalAction(f"R-6.1: {m.name}{where} is not adjacent to {me} at {here[0]},{here[1]}: a figure "
                                "mounts from a next cell")
        if not geo.can_step(sys.ctx.grid, here, m.cell):
            raise IllegalAction(f"R-5.6: the step from {here[0]},{here[1]} onto {m.name} cuts a wall's corner")
        if m.rider is not None:  # (next to it: its rider is in sight)
            raise IllegalAction(f"R-6.1: {m.name} is taken: {m.rider} rides it")
        if sys.w.peek(eid, Status).prone:
            raise IllegalAction(f"R-6.1: {me} is down: a figure mounts on its feet")
        engaged = sys.engaged_with(eid)
        if engaged:
            raise IllegalAction(f"R-7.1: {me} is engaged in melee with {sys.name(engaged[0])}: no mounting while engaged")
        held = sys.held_reason(eid)
        if held:
            raise IllegalAction(held)
    elif isinstance(action, Dismount):
        m = ridden_by(sys, me)
        if m is None:
            raise IllegalAction(f"R-6.1: {me} rides no mount in play" + (
                " (a scenario's `mounted: true` without a mount under it stays mounted)"
                if sys.w.peek(eid, Status).mounted else ""))
        if action.to is None:
            raise IllegalAction("R-6.1: a dismount names the cell stepped to: dismount U to=X,Y")
        to = (int(action.to[0]), int(action.to[1]))
        grid = sys.ctx.grid
        if not _adjacent(here, to):
            raise IllegalAction(f"R-6.1: {to[0]},{to[1]} is not adjacent to {me} at {here[0]},{here[1]}: a rider "
                                "steps off to a next cell")
        if not grid.inside(to) or not grid.passable(to):
            raise IllegalAction(f"R-6.1: no one can stand at {to[0]},{to[1]}")
        if not geo.can_step(grid, here, to):
            raise IllegalAction(f"R-5.6: the step from {here[0]},{here[1]} to {to[0]},{to[1]} cuts a wall's corner")
        if to in sys.known_occupied(eid):  # fog: an unseen enemy's cell is open to the side (the step bumps, `_step`)
            raise IllegalAction(f"R-6.1: cell {to[0]},{to[1]} is taken")
    else:
        raise IllegalAction(f"{action.verb} is not a mount action")
    return sys.check_parts(eid, READY)


def apply(sys: FiSystems, eid: int, action: Action) -> None:
    """Mount or dismount (checked first): the figure steps onto the mount's cell, or off it to `to`, and is
    mounted (every shot −2, R-6.1) or on foot; readiness and aim are lost as by a move (R-6.2). The step sets off
    the move triggers of the enemies that see it as a move's step does (R-5.7: `enemy_moves` where it stood, the
    others at the cell it steps to; a waiter that wins fires first, one beaten after), and draws covering fire
    entering a covered area (R-6.12). A figure put out of action before it steps stays where it was."""
    parts = check(sys, eid, action)
    me = sys.name(eid)
    turn = sys.w.get(eid, Turn)
    turn.parts, turn.acted = parts, True
    here = sys.w.cell(eid)
    rd = sys.w.get(eid, Readiness)
    rd.target, rd.aim = None, 0
    pinners = covering.pinned_by(sys, eid)  # where the step begins (firing still as it was)
    sys.w.get(eid, Status).firing = False  # a step ends the exposure of having fired, as a move's does
    beaten: list[int] = []  # waiters the figure beat in the Reflex contest: they act once it has stepped
    sys._check_triggers(eid, beaten, None)  # `enemy_moves`: where it stood
    if sys.active(eid):
        to = _step(sys, eid, action, me, here)
        if to != here:  # (a dismount into an enemy its side did not know of is no step: `bumped`)
            sys._check_triggers(eid, beaten, to)
            covering.stepped(sys, eid, here, to, pinners)
    triggers.land_held(sys)  # a tie was simultaneous: the waiter's damage lands now the step is made
    sys._update_known(eid, here)
    for waiter in beaten:
        sys._late_trigger(waiter, eid)
    sys.refresh_cover()


def _step(sys: FiSystems, eid: int, action: Action, me: str, here: geo.Cell) -> geo.Cell:
    """The step onto the mount or off it, and its event; the cell stepped to. A dismount into a cell an enemy (or a
    riderless mount) its side did not know of fills is not made: the rider stays mounted where it is, and the enemy
    is found (`bumped`, as a move's step into it, `_found_on`)."""
    pos, face = sys.w.get(eid, Position), sys.w.get(eid, Facing)
    if isinstance(action, Mount):
        m = sys.w.mounts[action.mount]
        pos.x, pos.y = m.cell
        face.dx, face.dy = m.cell[0] - here[0], m.cell[1] - here[1]
        m.rider = me
        sys.w.get(eid, Status).mounted = True
        sys._event("mount", me, RULES, mount=m.name, kind=m.kind, start=list(here), at=list(m.cell),
                   move_m=m.move_m)
        return m.cell
    assert isinstance(action, Dismount) and action.to is not None
    ridden = ridden_by(sys, me)
    assert ridden is not None
    to = (int(action.to[0]), int(action.to[1]))
    found = sys._found_on(eid, [here, to])
    if found is not None:
        sys._bump(eid, here, found)
        return here
    ridden.rider, ridden.cell = None, here
    pos.x, pos.y = to
    face.dx, face.dy = to[0] - here[0], to[1] - here[1]
    sys.w.get(eid, Status).mounted = False
    sys._event("dismount", me, RULES, mount=ridden.name, at=list(here), to=list(to))
    return to


def unseat_fallen(sys: FiSystems) -> None:
    """Every rider down comes off its mount (docs/RULES-NOTES.md "Mounts"): one tripped or thrown (R-7.6, R-7.7),
    knocked prone (a choke or lock, R-7.7) or put out of action (R-8.1, which leaves it prone). It lands on the next
    open cell behind it (opposite its facing; else the open cell nearest that way), prone as it fell, and loses
    readiness and aim as by a move (R-6.2); the mount stays riderless on its cell. With no open cell round it, it
    stays in the saddle until one opens. A figure withdrawn from the battle (extracted) leaves on its mount.
    Called after every action and as held damage lands (a tie, R-5.7), in the mounts' order."""
    w = sys.w
    for m in w.mounts.values():
        if m.rider is None or not w.has(m.rider):
            continue
        eid = w.entity(m.rider)
        hp, st = w.peek(eid, Health), w.peek(eid, Status)
        if not (st.prone or hp.dead or hp.incapacitated):
            continue
        here = w.cell(eid)
        to = _landing(sys, eid, here)
        if to is None:
            continue
        cause, rules = _cause(sys, eid)
        m.rider, m.cell = None, here
        pos = w.get(eid, Position)
        pos.x, pos.y = to
        w.get(eid, Status).mounted = False
        rd = w.get(eid, Readiness)
        rd.target, rd.aim = None, 0
        sys._event("unseated", sys.name(eid), rules, mount=m.name, at=list(here),
                   to=list(to), cause=cause)
        sys._update_known(eid, here)
        sys.refresh_cover()


def _cause(sys: FiSystems, eid: int) -> tuple[str, tuple[str, ...]]:
    """Why a rider comes off, and the rules that say so."""
    hp = sys.w.peek(eid, Health)
    if hp.dead or hp.incapacitated or hp.out_of_action:
        return "out of action", ("R-6.1", "R-8.1")
    if sys.melee_state(eid).down:
        return "down", ("R-6.1", "R-7.6")
    return "prone", ("R-6.1",)


def _landing(sys: FiBase, eid: int, at: geo.Cell) -> geo.Cell | None:
    """The open cell next to `at` a rider falls to: behind it first (opposite its facing), then the nearest that
    way (geometry's neighbour order breaks ties); a step that cuts a wall's corner is not taken (R-5.6)."""
    grid, face = sys.ctx.grid, sys.w.peek(eid, Facing)
    bx, by = -face.dx, -face.dy
    if not (bx or by):
        bx, by = 0, 1
    taken = sys.w.occupied(except_eid=eid)
    best: tuple[float, int, geo.Cell] | None = None
    for i, (dx, dy) in enumerate(geo.NEIGHBOURS_8):
        c = (at[0] + dx, at[1] + dy)
        if not grid.inside(c) or c in taken or not geo.can_step(grid, at, c):
            continue
        key = (-(dx * bx + dy * by) / math.hypot(dx, dy), i, c)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def listed(sys: FiSystems, eid: int) -> tuple[Action, ...]:
    """Every mount and dismount the unit may take now (each put to `check`)."""
    if not sys.w.mounts or not sys.active(eid):
        return ()
    me = sys.name(eid)
    x, y = sys.w.cell(eid)
    cands: list[Action] = []
    if ridden_by(sys, me) is not None:
        cands = [Dismount(me, to=(x + dx, y + dy)) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
    else:
        cands = [Mount(me, m.name) for m in sys.w.mounts.values()
                 if m.rider is None and _adjacent((x, y), m.cell)]
    out = []
    for a in cands:
        try:
            check(sys, eid, a)
        except IllegalAction:
            continue
        out.append(a)
    return tuple(out)


def state(sys: FiSystems) -> dict[str, Any]:
    """The mounts for the state hash (only when the battle has any)."""
    if not sys.w.mounts:
        return {}
    return {"mounts": [[m.name, list(m.cell), m.rider] for m in sys.w.mounts.values()]}


class MountKnowledge(Knowledge):
    """Future Imperfect side views with mounts: a side knows a mount its figures in action see now (R-6.1 sight,
    as a figure is seen), one its own figure rides, and one under an enemy rider it sees now (round a corner too:
    firing, or its place known, R-6.6); one it saw before and sees no more stays where it was
    last seen, riderless as far as it knows (docs/RULES-NOTES.md "Mounts"). What a side knows is kept at every
    `update` (after every answer the battle takes, as the units' sightings are), never only when a view is asked
    for, so it depends on the battle alone; it is part of the battle's state (`state`)."""

    def __init__(self, sides: tuple[str, ...], armoury: Any = None) -> None:
        super().__init__(sides, armoury)
        self._mount_memory: dict[str, dict[str, MountView]] = {s: {} for s in sides}

    def update(self, world: Any, grid: Any, round_no: int) -> None:
        super().update(world, grid, round_no)
        if not world.mounts:
            return
        views = world.mount_views()
        sides = {i.name: i.side for _, i in world.units()}
        for side in self.sides:
            seers = [world.cell(e) for e, i in world.units() if i.side == side and not world.peek(e, Health).out_of_action]
            memory = self._mount_memory[side]
            riders = self.seen[side]  # enemies seen now, round a corner too (firing, or their place known)
            for m in views:
                own = m.rider is not None and sides.get(m.rider) == side
                with_rider = m.rider is not None and m.rider in riders  # a rider seen shows its mount
                if own or with_rider or any(geo.unit_sight(grid, at, m.cell, False, False).visible for at in seers):
                    memory[m.name] = m
                elif m.name in memory:
                    last = memory[m.name]
                    if last.rider is not None and sides.get(last.rider) != side:  # gone from sight: riderless there
                        memory[m.name] = MountView(last.name, last.kind, last.move_m, last.cell, None)

    def knows(self, side: str) -> dict[str, MountView]:
        """The mounts `side` knows of, by name, as it knows them."""
        return self._mount_memory.get(side, {})

    def state(self) -> dict[str, Any]:
        out = super().state()
        if any(self._mount_memory.values()):  # (only with mounts: every other battle's state stands)
            for side in self.sides:
                out[side]["mounts"] = [[m.name, list(m.cell), m.rider] for _, m in sorted(self._mount_memory[side].items())]
        return out

    def observe(self, view: BattleView, side: str) -> BattleView:
        out = super().observe(view, side)
        if not view.mounts:
            return out
        memory = self._mount_memory.get(side, {})
        out.__dict__["mounts"] = tuple(memory[m.name] for m in view.mounts if m.name in memory)
        return out


__all__ = ["MountKnowledge", "allowance", "apply", "arrive", "check", "init", "listed", "ridden_by", "state", "unseat_fallen"]
