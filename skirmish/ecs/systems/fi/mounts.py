"""Future Imperfect systems: mounts in play (R-6.1; docs/RULES-NOTES.md "Mounts"). Functions on the systems, as
covering.py's are: the mounts put on the world from the scenario, the checks and application of `mount` and
`dismount` (each a NORMAL action, R-5.4/R-5.5), the ones a unit may take now (legality), a rider's move allowance
(its mount's walk and run, R-5.6), and the side views that show a side the mounts its figures see (fog)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Facing, Health, Position, Readiness, Status, Turn
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
    skirmish.content.fi_mounts)."""
    mounts = getattr(spec, "mounts", None)
    if not mounts:
        return
    on = {sys.w.cell(e): i.name for e, i in sys.w.units() if sys.w.peek(e, Status).mounted}
    for m in mounts:
        cell = (m.at[0], m.at[1])
        move = m.move_m if m.move_m is not None else MOUNT_KINDS[m.kind].move_m
        sys.w.mounts[m.name] = MountState(m.name, m.kind, move, cell, on.get(cell))


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
        if m.rider is not None:
            raise IllegalAction(f"R-6.1: {m.name} is taken: {m.rider} rides it")
        if not _adjacent(here, m.cell):
            raise IllegalAction(f"R-6.1: {m.name} at {m.cell[0]},{m.cell[1]} is not adjacent to {me} at "
                                f"{here[0]},{here[1]}: a figure mounts from a next cell")
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
    pinners = covering.pinned_by(sys, eid)  # where the step begins
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
    as a figure is seen) and one its own figure rides; one it saw before and sees no more stays where it was
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
            for m in views:
                own = m.rider is not None and sides.get(m.rider) == side
                if own or any(geo.unit_sight(grid, at, m.cell, False, False).visible for at in seers):
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


__all__ = ["MountKnowledge", "allowance", "apply", "check", "init", "listed", "ridden_by", "state"]
