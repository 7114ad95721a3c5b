"""Future*World's round as a table (R-9.2): declaration → movement → sensors → resolution → bookkeeping.

The rows are data for `skirmish.core.flow.walk`. Declaration asks every figure on its feet for an `intent`
(its actions and its tacpack's split, R-9.3, R-9.8); the movement segment asks the figures that are not
engaged, slowest DEX first (the quicker see where the slower went), for a `move` or `end` (stay); the combat
sensors sweep (R-9.9), resolution and bookkeeping ask nobody. The battle may end after each round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.core.errors import IllegalAction
from skirmish.core.events import RoundEvent
from skirmish.core.flow import RoundTable, Step
from skirmish.ecs.components import Facing, Identity, Position, Status
from skirmish.ecs.fw_components import FwCar, FwRound
from skirmish.ecs.systems.fw import car_moves, fog_moves, legality, mounts, resolve
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.rules import geometry as geo
from skirmish.rules.actions import EndTurn, Move
from skirmish.rules.fw.actions import ATTACKS, CAR_ACTS, FwIntent
from skirmish.rules.fw.checks import half_dex
from skirmish.rules.fw.events import FwAct

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw import FwSystems

INTENT, MOVE = "intent", "move"  # the fw request kinds


def round_table(sys: FwSystems) -> RoundTable:
    """The rows of one Future*World round over these systems."""
    w, ctx = sys.w, sys.ctx

    def who(eid: int) -> tuple[str, str]:
        ident = w.peek(eid, Identity)
        return ident.name, ident.side

    def begin_round() -> None:
        ctx.round += 1
        ctx.phase = None
        ctx.emit(RoundEvent(round=ctx.round, phase=None, actor=None, rules=("R-9.2",)))

    def begin_declaration() -> None:
        for eid in sys.figures():  # a figure that declares nothing keeps its usual screen up
            kit, plan = sys.kit(eid), w.get(eid, FwRound)
            plan.screen, plan.screen_points = kit.default_screen, kit.default_points
            sys.sync(eid)

    def movers() -> list[int]:
        return sorted((e for e in sys.figures() if sys.can_act(e)), key=lambda e: (sys.body(e).DEX,
                                                                                   w.peek(e, Identity).order))

    def may_move(eid: int) -> bool:
        if sys.aboard(eid):  # riders move with the car: only a driving driver flies it
            ceid = gcars.car_of(sys, eid)
            return ceid is not None and gcars.is_driver(sys, eid) and sys.can_act(eid) and gcars.allowance(sys, ceid) > 0
        return sys.can_act(eid) and not sys.engaged(eid)

    return RoundTable(begin_round, (
        Step("declaration", begin=begin_declaration, order=lambda: [e for e in sys.figures() if sys.can_act(e)],
             kind=INTENT, who=who, answer=sys.declare, limit=1),
        Step("movement", order=movers, kind=MOVE, who=who, start_turn=may_move, answer=sys.move, limit=1),
        Step("sensors", begin=lambda: resolve.sensor_sweep(sys)),
        Step("resolution", begin=lambda: resolve.resolve_round(sys)),
        Step("bookkeeping", begin=lambda: resolve.bookkeeping(sys)),
    ))


def declare(sys: FwSystems, eid: int, action: Any) -> bool:
    """Check and apply a declaration (R-9.2, R-9.3, R-9.8); IllegalAction names the rule."""
    if not isinstance(action, FwIntent):
        raise IllegalAction(f"R-9.2: the declaration comes first ({action.verb} is not a declaration)")
    why = legality.intent_refusal(sys, eid, action)
    if why:
        raise IllegalAction(why)
    weapon = legality.weapon_of(sys, eid, action)
    acts = action.acts()
    if sys.ctx.cars:
        mounts.undeclare(sys, eid)
    plan = sys.w.get(eid, FwRound)
    plan.declared, plan.acts = True, list(acts)
    plan.weapon = weapon if any(a in ATTACKS for a, _ in acts) else None
    plan.mount = action.mount if plan.weapon is not None else None
    plan.screen, plan.screen_points = action.screen, action.points
    plan.shots = 0 if plan.mount else legality.shot_energy(sys, plan.weapon, acts)  # (a mount: the car pays)
    plan.cm, plan.dccm, plan.dccm_at, plan.sensors, plan.jump = (action.cm, action.dccm, action.dccm_at, action.sensors,
                                                                 action.jump)
    sys.sync(eid)
    dex = sys.body(eid).DEX
    listed = [FwAct(act=a, target=t or "", dex=dex if i == 0 else half_dex(dex)) for i, (a, t) in enumerate(acts)]
    split = {"generator": sys.kit(eid).generator, "screen": plan.screen, "screen_points": plan.screen_points,
             "shots": plan.shots, "cm": plan.cm, "dccm": plan.dccm, "sensors": plan.sensors, "jump": plan.jump}
    sys.event("fw_declare", sys.name(eid), ("R-9.2", "R-9.8") + (("R-9.3",) if len(acts) > 1 else ()) +
              (("R-9.12",) if any(a in CAR_ACTS for a, _ in acts) or plan.mount else ()), acts=listed,
              weapon=plan.weapon, split=split, mount=mounts.mount_label(sys, eid) if plan.mount else None)
    if sys.ctx.cars:
        mounts.declare(sys, eid, action, plan.weapon)
        _declare_car(sys, eid, action, acts)
    return True


def _declare_car(sys: FwSystems, eid: int, action: FwIntent, acts: tuple[tuple[str, str | None], ...]) -> None:
    """A driver's drive sets its car's split for the round (R-9.12, logged `fw_car_split`); a declared boarding or
    leaving sets the car down for the round (it does not move)."""
    for act, target in acts:
        ceid = gcars.named(sys, target) if act == "mount" else gcars.car_of(sys, eid)
        if ceid is None:
            continue
        c = sys.w.get(ceid, FwCar)
        if act == "drive":
            c.drives = True
            c.screen, c.screen_points, c.weapons, c.ew = (action.car_screen, action.car_points, action.car_weapons,
                                                          action.car_ew)
            t = gcars.table(sys, ceid)
            sys.event("fw_car_split", sys.name(eid), ("R-9.12",), car=c.name, car_type=t.name, generator=t.generator,
                      screen=c.screen, screen_points=c.screen_points, weapons=c.weapons, ew=c.ew,
                      move_m=gcars.allowance(sys, ceid))
        elif act in ("mount", "dismount"):
            c.loading = True
    gcars.refresh(sys)


def _seen_moving(sys: FwSystems) -> None:
    """Where each rider went is known to its side and to the sides that saw it arrive (as a walk, `move`)."""
    w = sys.w
    for ceid in gcars.cars(sys):
        for name in gcars.car(sys, ceid).riders:
            r = w.entity(name)
            me = w.peek(r, Identity)
            seers = {w.peek(e, Identity).side for e in sys.figures()
                     if sys.in_action(e) and w.peek(e, Identity).side != me.side and sys.sees(e, r).visible}
            w.get(r, Status).known_to = frozenset({me.side, *seers})


def move(sys: FwSystems, eid: int, action: Any) -> bool:
    """Check and apply a move of the movement segment (a walk or a leap), or stay (`end`)."""
    if isinstance(action, EndTurn):
        return True
    if not isinstance(action, Move):
        raise IllegalAction(f"R-9.2: the movement segment takes a move or end, not {action.verb}")
    why, path, metres, leap = legality.move_refusal(sys, eid, action.to)
    if why:
        raise IllegalAction(why)
    if sys.aboard(eid):  # the driver flies the car with its riders
        ceid = gcars.car_of(sys, eid)
        assert ceid is not None
        here = sys.w.cell(ceid)
        to, found = fog_moves.landing(sys, eid, ceid, (int(action.to[0]), int(action.to[1])))
        if found is not None:  # it sets down short of an enemy its side did not know of (fog)
            metres = geo.distance_m(here, to, sys.ctx.grid.cell_m)
        car_moves.fly(sys, eid, to, metres)
        _seen_moving(sys)
        if found is not None:
            sys.event("fw_bumped", sys.name(eid), ("R-9.2", "R-9.12"), at=list(to), blocked=list(found[0]),
                      target=found[1])
        return True
    w = sys.w
    path, found = fog_moves.bump(sys, eid, path)  # an enemy it did not know of stops it where it is found
    if found is not None:
        grid = sys.ctx.grid
        metres = geo.distance_m(path[0], path[-1], grid.cell_m) if leap else geo.path_cost(grid, path) * grid.cell_m
    pos, face = w.get(eid, Position), w.get(eid, Facing)
    a, b = path[-2] if len(path) > 1 else path[0], path[-1]
    if a != b:  # it faces the way it went; one that stayed where it stood (a leap onto an unseen enemy) as it was
        face.dx, face.dy = max(-1, min(1, b[0] - a[0])), max(-1, min(1, b[1] - a[1]))
    pos.x, pos.y = b
    body = sys.change_body(eid)
    body.moved_m += metres
    body.jumped = leap
    allowance = float(legality.jump_m(sys.plan(eid).jump, sys.kit(eid).enc, body.STR) if leap else sys.kit(eid).move_m)
    me = w.peek(eid, Identity)
    seers = {w.peek(e, Identity).side for e in sys.figures()
             if sys.in_action(e) and w.peek(e, Identity).side != me.side and sys.sees(e, eid).visible}
    w.get(eid, Status).known_to = frozenset({me.side, *seers})  # where it went is known to those who saw it
    if sys.ctx.cars:  # from its new cell it may see an enemy car, or lose sight of one (cars.car_view)
        gcars.refresh(sys)
    sys.event("fw_move", me.name, ("R-9.2", "R-9.11"), path=[list(c) for c in path], metres=round(metres, 2),
              allowance=allowance, jump=leap)
    if found is not None:
        sys.event("fw_bumped", me.name, ("R-9.2", "R-9.11"), at=list(path[-1]), blocked=list(found[0]), target=found[1])
    return True
