"""Future*World grav-car weapon mounts in the engine (R-9.12 with R-9.4, R-9.5, R-9.8, R-9.10; docs/RULES-NOTES.md
"Future*World: grav-car weapons"), beside `cars` and `car_legality`.

A rider declares an attack with `mount=ID`: it fires the car's mount (its own weapon, one the scenario set on an
empty mount, or the rider's semi-portable set on it) at the mounted chance, one gunner a mount a round, as the
mount's `crew` allows. An energy weapon's shot is paid by the car, not the rider's tacpack: the table's energy a
shot (x3 a burst) from the weapon points of its driver's split (a car that does not drive: its generator's rest
after its screen), logged on the declaration and the attack. Missiles are counted off the mount's rack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.ecs.fw_components import FwCar
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.rules.fw import mounts as rules
from skirmish.rules.fw.actions import ATTACKS, FwIntent
from skirmish.rules.fw.equipment import CarMount

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase

__all__ = ["declare", "drive_refusal", "fire_refusal", "fire_targets", "left", "mount_label", "mounted", "spend",
           "weapon_of"]


def mounted(sys: FwBase, eid: int, mid: str | None) -> tuple[int, CarMount] | None:
    """(the car, the mount) of that id on the car `eid` rides, or None."""
    if mid is None or not sys.ctx.cars:
        return None
    ceid = gcars.car_of(sys, eid)
    if ceid is None:
        return None
    m = gcars.table(sys, ceid).mount(mid)
    return None if m is None else (ceid, m)


def weapon_of(sys: FwBase, eid: int, intent: FwIntent) -> str | None:
    """The weapon a mount fire shoots: the mount's own, or the one the scenario set on it, else the rider's
    named weapon (set on an empty mount)."""
    found = mounted(sys, eid, intent.mount)
    if found is None:
        return intent.weapon
    ceid, m = found
    return m.weapon or gcars.car(sys, ceid).loads.get(m.id) or intent.weapon


def left(sys: FwBase, ceid: int, m: CarMount) -> int | None:
    """Missiles left on the mount's rack (None: a gun)."""
    return rules.fired_left(m, gcars.car(sys, ceid).fired.get(m.id, 0))


def _budget(sys: FwBase, ceid: int, own: FwIntent | None) -> int:
    """Weapon points the car's mounts may draw this round: its split's (the declaring driver's own `own`, or the
    split already declared), else the generator's rest after its usual screen."""
    c, t = gcars.car(sys, ceid), gcars.table(sys, ceid)
    if own is not None and own.act == "drive":
        return own.car_weapons
    return rules.budget(t, c.drives, c.weapons, c.screen_points, c.ew)


def fire_refusal(sys: FwBase, eid: int, intent: FwIntent) -> str | None:
    """Why a declared mount fire is refused (the rule first), or None: the figure rides a car with that mount,
    may work it (crew), nobody else works it this round, the attack fires (no strike, no throw) and stays
    aboard until it has (no leaving first), the weapon fits the mount and the figure carries it if the mount is
    empty, a missile left on the rack, and its energy within the car's weapon points (R-9.8)."""
    name = sys.name(eid)
    acts = intent.acts()
    ceid = gcars.car_of(sys, eid) if sys.ctx.cars else None
    if ceid is None:
        return f"R-9.12: {name} rides no car: a mount fires from one"
    c, t = gcars.car(sys, ceid), gcars.table(sys, ceid)
    m = t.mount(intent.mount)
    if m is None:
        known = ", ".join(x.id for x in t.mounts) or "none"
        return f"R-9.12: the {c.name} ({t.name}) has no mount {intent.mount!r} (its mounts: {known})"
    attacks = [a for a, _ in acts if a in ATTACKS]
    if not attacks:
        return f"R-9.12: mount={m.id} goes with an attack fired from it"
    if any(a not in rules.FIRES for a in attacks):
        return f"R-9.12: the {m.name} fires ({', '.join(rules.FIRES)}); nobody strikes or throws from a mount"
    kinds = [a for a, _ in acts]
    if "dismount" in kinds and kinds.index("dismount") < kinds.index(attacks[0]):
        return f"R-9.12: {name} leaves the {c.name} before its DEX comes to fire the {m.name}"
    why = rules.crew_refusal(t, m, name, gcars.is_driver(sys, eid))
    if why:
        return why
    gunner = c.gunners.get(m.id)
    if gunner is not None and gunner != name:
        return f"R-9.12: {gunner} works the {c.name}'s {m.name} this round"
    fixed = m.weapon or c.loads.get(m.id)
    wid = fixed or intent.weapon
    w = sys.ctx.tables.weapons.get(wid) if wid else None
    if intent.weapon is not None and fixed is None and intent.weapon not in sys.kit(eid).weapons:
        return f"R-9.4: {name} carries no {intent.weapon}"
    why = rules.load_refusal(m, None if intent.weapon is None else sys.ctx.tables.weapons.get(intent.weapon), fixed)
    if why:
        return why
    assert w is not None
    rack = left(sys, ceid, m)
    if rack is not None and rack <= 0:
        return f"R-9.10: the {c.name}'s {m.name} has no {w.name} left"
    draw = sum(rules.shot_draw(w, a) for a in attacks)
    drawn = c.drawn - (_draw(sys, eid) if gunner == name else 0)
    return rules.draw_refusal(t, _budget(sys, ceid, intent if gcars.is_driver(sys, eid) else None), drawn, draw)


def _draw(sys: FwBase, eid: int) -> int:
    """What the figure's own declared mount fire draws (a declaration made again replaces it)."""
    plan = sys.plan(eid)
    if plan.mount is None or plan.weapon is None:
        return 0
    w = sys.weapon(plan.weapon)
    return sum(rules.shot_draw(w, a) for a, _ in plan.acts if a in ATTACKS)


def drive_refusal(sys: FwBase, eid: int, intent: FwIntent) -> str | None:
    """Why a driver's split is refused for its mounts, or None (R-9.8): its weapon points cover what the
    riders' declared mount fire already draws."""
    ceid = gcars.car_of(sys, eid)
    if ceid is None:
        return None
    c = gcars.car(sys, ceid)
    others = c.drawn - (_draw(sys, eid) if c.gunners.get(str(sys.plan(eid).mount)) == sys.name(eid) else 0)
    if intent.car_weapons < others:
        return (f"R-9.8: the riders' declared mount fire draws {others} points from the {c.name}; the split gives "
                f"its weapons {intent.car_weapons}")
    return None


def declare(sys: FwBase, eid: int, intent: FwIntent, weapon: str | None) -> None:
    """Record a declared mount fire on the car (its gunner, the points it draws)."""
    if intent.mount is None or weapon is None:
        return
    found = mounted(sys, eid, intent.mount)
    if found is None:
        return
    ceid, m = found
    c = sys.w.get(ceid, FwCar)
    w = sys.weapon(weapon)
    c.gunners[m.id] = sys.name(eid)
    c.drawn += sum(rules.shot_draw(w, a) for a, _ in intent.acts() if a in ATTACKS)


def undeclare(sys: FwBase, eid: int) -> None:
    """Take back the figure's earlier mount fire this round (its declaration made again)."""
    plan = sys.plan(eid)
    found = mounted(sys, eid, plan.mount)
    if found is None:
        return
    ceid, m = found
    c = sys.w.get(ceid, FwCar)
    if c.gunners.get(m.id) == sys.name(eid):
        c.drawn -= _draw(sys, eid)
        del c.gunners[m.id]


def mount_label(sys: FwBase, eid: int) -> str | None:
    """"CAR's MOUNT" for the log when the figure's declared attack fires from a mount, else None."""
    found = mounted(sys, eid, sys.plan(eid).mount)
    if found is None:
        return None
    ceid, m = found
    return f"{gcars.car(sys, ceid).name}'s {m.name}"


def spend(sys: FwBase, eid: int, wid: str) -> None:
    """A missile launched: off the mount's rack when fired from one, else the figure's own (R-9.10)."""
    found = mounted(sys, eid, sys.plan(eid).mount)
    if found is None:
        sys.change_body(eid).spent.append(wid)
        return
    ceid, m = found
    c = sys.w.get(ceid, FwCar)
    c.fired[m.id] = c.fired.get(m.id, 0) + 1
    gcars.refresh(sys)


def still_mounted(sys: FwBase, eid: int) -> str | None:
    """Why a declared mount fire cannot be made at its DEX, or None: the figure still rides the car."""
    plan = sys.plan(eid)
    if plan.mount is None:
        return None
    if mounted(sys, eid, plan.mount) is None:
        return f"{sys.name(eid)} no longer rides the car of its {plan.mount}"
    return None


def fire_targets(sys: FwBase, eid: int, targets: list[str]) -> list[FwIntent]:
    """The listed mount fires of a rider (R-9.12): each mount it may work at each enemy in sight (shoot, and a
    burst if the weapon fires one; a launch from a rack), within the car's weapon points; for an empty mount,
    each of the rider's weapons of the category it takes."""
    found = gcars.car_of(sys, eid) if sys.ctx.cars else None
    if found is None:
        return []
    me, kit = sys.name(eid), sys.kit(eid)
    c, t = gcars.car(sys, found), gcars.table(sys, found)
    out: list[FwIntent] = []
    for m in t.mounts:
        fixed = m.weapon or c.loads.get(m.id)
        own = [None] if fixed else [w for w in dict.fromkeys(kit.weapons) if sys.weapon(w).category == m.takes]
        for wid in own:
            w = sys.weapon(fixed or str(wid))
            acts = ("launch",) if w.weapon_class == "missile" else ("shoot", "burst") if w.burst else ("shoot",)
            for t_name in targets:
                for act in acts:
                    it = FwIntent(me, act, t_name, weapon=wid, mount=m.id, screen=kit.default_screen,
                                  points=kit.generator if kit.default_screen != "none" else 0)
                    out.append(it)
    return out
