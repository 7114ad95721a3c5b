"""Future*World legality for grav cars (R-9.12), beside `legality`: what cars forbid of a declaration, and the
car declarations listed (drive with a split, mount, dismount)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skirmish.ecs.systems.fw import cars as gcars
from skirmish.ecs.systems.fw import legality as lg  # (a cycle: legality asks here; read at call time only)
from skirmish.ecs.systems.fw import mounts
from skirmish.rules.fw import gravcar
from skirmish.rules.fw.actions import FwIntent
from skirmish.rules.fw.damage import SCREEN_TYPES

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase

__all__ = ["car_intents", "car_refusal", "car_split"]


def car_refusal(sys: FwBase, eid: int, intent: FwIntent) -> str | None:
    """What grav cars forbid of a declaration (R-9.12), or None: `drive` and a car split by its driver only, a
    split its generator allows; `mount` an own car within reach (or a walk and reach) with a seat free, and
    `dismount` a car one rides, neither in a round the car drives; a rider neither leaps, strikes hand to hand
    nor is struck (it is 10 m up), and no grenade is thrown at it."""
    acts = intent.acts()
    kinds = [a for a, _ in acts]
    name = sys.name(eid)
    ceid = gcars.car_of(sys, eid) if sys.ctx.cars else None
    split_given = intent.car_screen != "none" or intent.car_points or intent.car_weapons or intent.car_ew
    if "drive" in kinds or split_given:
        if ceid is None or not gcars.is_driver(sys, eid):
            return f"R-9.12: {name} is at no car's controls (the first rider drives)"
        c = gcars.car(sys, ceid)
        if split_given and "drive" not in kinds:
            return "R-9.12: a car's split comes with its driver's drive"
        if c.loading:
            return f"R-9.12: the {c.name} sets down this round (a rider boards or leaves): it does not move"
        if intent.car_screen not in ("none", *SCREEN_TYPES):
            return f"R-9.12: a screen is one of {', '.join(SCREEN_TYPES)}"
        if intent.car_points and intent.car_screen == "none":
            return "R-9.12: screen points need a screen type (kinetic, diffusion, magnetic)"
        why = gravcar.split_refusal(gcars.table(sys, ceid), car_split(intent)) or mounts.drive_refusal(sys, eid, intent)
        if why:
            return why
    for act, target in acts:
        if act == "mount":
            return _mount_refusal(sys, eid, target, ceid)
        if act == "dismount":
            if ceid is None:
                return f"R-9.12: {name} rides no car"
            c = gcars.car(sys, ceid)
            return gravcar.dismount_refusal(gravcar.Cabin(gcars.table(sys, ceid).seats, tuple(c.riders)), name,
                                            c.drives)
    if ceid is not None:
        if intent.jump:
            return f"R-9.12: {name} rides the {gcars.car(sys, ceid).name}: no leap from a car"
        if "melee" in kinds:
            return f"R-9.12: {name} rides 10 m up: nobody is in reach hand to hand"
    for act, target in acts:
        if act in ("melee", "throw") and target is not None and sys.w.has(target) and \
                _known_aboard(sys, eid, sys.w.entity(target)):
            return f"R-9.12: {target} rides a grav car 10 m up, out of reach of a {'strike' if act == 'melee' else 'grenade'}"
    return None


def _known_aboard(sys: FwBase, eid: int, te: int) -> bool:
    """Whether `eid`'s side knows `te` rides a car: as it is if the side sees it now, else as it was when last
    seen (the refusal must not tell what the side cannot see, review7c). A strike at a rider declared on older
    knowledge is stopped when it resolves (resolve._attack_blocked)."""
    if sys.side(eid) == sys.side(te):
        return False  # a friend is refused as one (R-9.4, `_act_refusal`), not as a rider
    shown = sys.last_shown(eid, te)
    if shown is None:
        return sys.seen_by_side(eid, te) and sys.aboard(te)
    return len(shown) > 5 and shown[5] is not None


def car_split(intent: FwIntent) -> gravcar.CarSplit:
    """The car split a driver's intent declares."""
    return gravcar.CarSplit(None if intent.car_screen == "none" else intent.car_screen, intent.car_points,
                            intent.car_weapons, intent.car_ew)


def _mount_refusal(sys: FwBase, eid: int, target: str | None, ceid: int | None) -> str | None:
    name = sys.name(eid)
    if ceid is not None:
        return f"R-9.12: {name} is already aboard the {gcars.car(sys, ceid).name}"
    car_eid = gcars.named(sys, target)
    if car_eid is None:
        return f"R-9.12: mount which car? ({target!r} is none)"
    c = gcars.car(sys, car_eid)
    if c.side != sys.side(eid):
        return f"R-9.12: the {c.name} is not {sys.side(eid)}'s"
    cells = gcars.distance_cells(sys.w.cell(eid), sys.w.cell(car_eid))
    walk = 0 if sys.engaged(eid) else int(sys.kit(eid).move_m // sys.ctx.grid.cell_m)
    # Within a walk and reach it may be declared (it walks up in the movement segment, boards at its DEX if then
    # within reach, else fw_idle); farther, the distance is what the pure rule refuses.
    metres = 0.0 if cells <= walk + gcars.reach_cells(sys) else cells * sys.ctx.grid.cell_m
    return gravcar.mount_refusal(gravcar.Cabin(gcars.table(sys, car_eid).seats, tuple(c.riders)), name, metres,
                                 c.drives)


def car_intents(sys: FwBase, eid: int, attacks: list[tuple[str, str | None]]) -> list[FwIntent]:
    """The listed grav-car declarations (R-9.12), each with the figure's usual screen on its generator's rest: a
    driver's drive (alone, or with an attack after it at half DEX), its car's split all to movement or with
    the car's usual screen at its most; boarding each own car within a walk and reach; leaving the car."""
    me, kit = sys.name(eid), sys.kit(eid)
    out: list[FwIntent] = []
    ceid = gcars.car_of(sys, eid)

    def add(act: str, target: str | None = None, then: tuple[str | None, str | None] = (None, None),
            **car: Any) -> None:
        weapon = lg.weapon_of(sys, eid, FwIntent(me, act, target, then=then[0], then_target=then[1]))
        acts: tuple[tuple[str, str | None], ...] = ((act, target),) + (((then[0], then[1]),) if then[0] else ())
        spare = max(0, kit.generator - lg.shot_energy(sys, weapon, acts))
        it = FwIntent(me, act, target, then=then[0], then_target=then[1], screen=kit.default_screen,
                      points=spare if kit.default_screen != "none" else 0, **car)
        if lg.intent_refusal(sys, eid, it) is None and it not in out:
            out.append(it)

    if ceid is not None:
        c, t = gcars.car(sys, ceid), gcars.table(sys, ceid)
        splits: list[dict[str, Any]] = [{}]
        if t.screen:
            kind = c.default_screen if c.default_screen != "none" else "kinetic"
            splits.append({"car_screen": kind, "car_points": min(t.screen, t.generator)})
        if gcars.is_driver(sys, eid):
            for split in splits:
                add("drive", **split)
                for a in attacks:
                    if a[0] in ("shoot", "burst", "react"):
                        add("drive", then=a, **split)
        add("dismount")
    else:
        for car_eid in sys.ctx.cars:
            add("mount", gcars.car(sys, car_eid).name)
    return out
