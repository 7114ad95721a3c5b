"""Future*World's resolution and bookkeeping (R-9.2 - R-9.7): the declared actions in DEX groups, highest
first; every slot of a group resolves against the state at the group's start (its rolls are made and logged),
then the group's wounds take effect together (equal DEX is simultaneous); the second action at half DEX.
Bookkeeping: the unconscious bleed, the fallen roll to rise, the tacpacks' energy resets."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from skirmish.ecs.components import Status
from skirmish.ecs.fw_components import FwBody, FwRound
from skirmish.ecs.systems.fw import arms, car_moves, cell_throw, fog_moves, legality, mounts
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.rules.fw import attack as fw_attack
from skirmish.rules.fw import checks, gravcar, order
from skirmish.rules.fw import damage as dmg
from skirmish.rules.fw import mounts as mnt
from skirmish.rules.fw import tacpack as tpk
from skirmish.rules.fw.actions import ATTACKS, act_kind, cell_target
from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.dice import DiceExpr
from skirmish.rules.fw.events import FwHit, FwScan, FwStep
from skirmish.rules.fw.melee import MELEE_REACH_M

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase

Effect = Callable[[], None]  # a resolved slot's outcome, applied with the rest of its DEX group


def resolve_round(sys: FwBase) -> None:
    """Resolve every declared action of the round in DEX order (R-9.2, R-9.3)."""
    declared = []
    for eid in sys.figures():
        plan = sys.w.peek(eid, FwRound)
        if plan.declared and plan.acts:
            declared.append((sys.name(eid), sys.body(eid).DEX, tuple(act_kind(a) for a, _ in plan.acts)))
    for group in order.resolution_order(declared):
        effects: list[Effect] = []
        for slot in group:
            eid = sys.w.entity(slot.unit)
            act, target = sys.w.peek(eid, FwRound).acts[slot.index]
            sys.ctx.phase = slot.dex
            effects += _resolve_slot(sys, eid, act, target, slot.dex)
        for effect in effects:  # together: nobody's wound stopped anyone of this DEX from acting
            effect()
    sys.ctx.phase = None


def sensor_sweep(sys: FwBase) -> None:
    """After movement, every figure running combat sensors (R-9.9) sweeps: each enemy in action out of its sight
    and within 15 m a sensor point rolls d100 against 100 - 10 per net CM point (its CM less the DCCM beamed
    at it by this figure); a registered enemy's position becomes known to the sweeper's side."""
    for eid in sys.figures():
        plan = sys.w.peek(eid, FwRound)
        if not plan.sensors or not sys.in_action(eid):
            continue
        reach = tpk.sensor_range_m(plan.sensors)
        scans: list[FwScan] = []
        side = sys.side(eid)
        for te in sys.enemies(eid):
            metres = sys.distance_m(eid, te)
            if metres > reach or sys.sees(eid, te).visible:
                continue
            theirs = sys.w.peek(te, FwRound)
            dccm = plan.dccm if plan.dccm_at == sys.name(te) else 0
            roll = sys.roll(100)
            net = tpk.net_cm(theirs.cm, dccm)
            registered = tpk.registers(roll, metres, plan.sensors, theirs.cm, dccm)
            if registered:
                st = sys.w.get(te, Status)
                st.known_to = st.known_to | {side}
            scans.append(FwScan(enemy=sys.name(te), metres=round(metres, 1), cm=net,
                                chance=max(0, 100 - tpk.CM_STEP * net), roll=roll, registered=registered))
        sys.event("fw_sensors", sys.name(eid), ("R-9.9",), points=plan.sensors, range_m=reach, scans=scans)


def _resolve_slot(sys: FwBase, eid: int, act: str, target: str | None, dex: int) -> list[Effect]:
    me = sys.name(eid)
    if not sys.can_act(eid):
        sys.event("fw_idle", me, ("R-9.2", "R-9.7"), act=act, reason="it is down before its DEX comes")
        return []
    if act in ATTACKS:
        if act == "react":
            te = _reaction_target(sys, eid)
            if te is None:
                sys.event("fw_idle", me, ("R-9.2",), act=act, reason="no enemy came into sight moving this round")
                return []
            return attack(sys, eid, te, act, dex)
        cell = cell_target(target) if act == "throw" and not sys.w.has(str(target)) else None
        if cell is not None:  # a grenade at a cell
            why = cell_throw.cell_blocked(sys, eid, cell, _weapon(sys, eid))
            if why:
                sys.event("fw_idle", me, ("R-9.10",), act=act, reason=why)
                return []
            return arms.throw_grenade(sys, eid, None, dex, cell)
        te = sys.w.entity(str(target))
        why = _attack_blocked(sys, eid, te, act)
        if why:
            sys.event("fw_idle", me, ("R-9.4",) if act in ("shoot", "burst", "melee") else ("R-9.10",), act=act,
                      reason=why)
            return []
        if act in ("melee", "launch"):
            return arms.strike_or_launch(sys, eid, te, act, dex)
        if act == "throw":
            return arms.throw_grenade(sys, eid, te, dex)
        return attack(sys, eid, te, act, dex)
    if act == "aid":
        return _aid(sys, eid, sys.w.entity(str(target)))
    if act == "drive":  # the car flew (or stayed) in the movement segment: fw_car_split and fw_drive say so
        return []
    if act in ("mount", "dismount"):
        return _board(sys, eid, act, target)
    sys.event("fw_idle", me, ("R-9.9",) if act == "program" else ("R-9.2",), act=act,
              reason="the round goes to programming its EW" if act == "program" else "nothing declared")
    return []


def _board(sys: FwBase, eid: int, act: str, target: str | None) -> list[Effect]:
    """Board (`mount`, within reach of the car) or leave (`dismount`, to a free cell beside it) at the DEX
    (R-9.12); the car set down this round."""
    me = sys.name(eid)
    ceid = gcars.named(sys, target) if act == "mount" else gcars.car_of(sys, eid)
    if ceid is None:
        sys.event("fw_idle", me, ("R-9.12",), act=act, reason="it rides no car" if act == "dismount" else "no such car")
        return []
    c = gcars.car(sys, ceid)
    if act == "mount":
        cabin = gravcar.Cabin(gcars.table(sys, ceid).seats, tuple(c.riders))
        metres = gcars.distance_cells(sys.w.cell(eid), sys.w.cell(ceid)) * sys.ctx.grid.cell_m
        why = gravcar.mount_refusal(cabin, me, metres, car_moves=c.moved_m > 0)
        if why:
            sys.event("fw_idle", me, ("R-9.12",), act=act, reason=why.split(": ", 1)[1])
            return []
    out = None
    if act == "dismount":  # to a cell its side knows free; an enemy it did not know of there stops it aboard (fog)
        out = car_moves.exit_cell(sys, ceid, fog_moves.known_occupied(sys, eid))
        if out is None:
            sys.event("fw_idle", me, ("R-9.12",), act=act, reason=f"no free cell beside the {c.name} to step down to")
            return []
        who = fog_moves.found_at(sys, eid, out)
        if who is not None:
            sys.event("fw_bumped", me, ("R-9.12",), at=list(sys.w.cell(ceid)), blocked=list(out), target=who)
            return []
    cell = car_moves.board(sys, eid, ceid, act, out)
    sys.event("fw_board", me, ("R-9.12",), act=act, car=c.name, cell=list(cell), driver=gcars.driver(sys, ceid))
    return []


def _weapon(sys: FwBase, eid: int) -> str:
    plan = sys.w.peek(eid, FwRound)
    assert plan.weapon is not None  # an attack was declared with one (legality.intent_refusal)
    return plan.weapon


def _attack_blocked(sys: FwBase, eid: int, te: int, act: str = "shoot") -> str | None:
    """Why a declared attack cannot be made when its DEX comes, or None: the target out of action, out of
    reach hand to hand (R-9.4), out of sight or beyond the weapon's (or the throw's 15 m) range."""
    if not sys.in_action(te):
        return f"{sys.name(te)} is already out of action"
    if sys.ctx.cars:
        why = mounts.still_mounted(sys, eid)  # a mount fires only while its gunner rides the car
        if why:
            return why
    if act == "melee":
        if sys.aboard(te):  # declared when the side last saw it on foot
            return f"{sys.name(te)} rides a grav car 10 m up, out of reach hand to hand"
        if not legality.in_reach(sys, eid, te):
            return f"{sys.name(te)} is {sys.distance_m(eid, te):.0f} m away, beyond reach ({MELEE_REACH_M:g} m)"
        return None
    if not sys.sees(eid, te).visible:
        return f"{sys.name(te)} is not in line of sight"
    w = sys.weapon(_weapon(sys, eid))
    dist = sys.distance_m(eid, te)
    if w.range_m is not None and dist > w.range_m:
        return f"{sys.name(te)} is {dist:.0f} m away, beyond the {w.name}'s {w.range_m} m"
    return None


def _reaction_target(sys: FwBase, eid: int) -> int | None:
    """A conditional reaction's target: the nearest enemy in sight and range that moved this round."""
    best: tuple[float, int] | None = None
    for te in sys.enemies(eid):
        b = sys.body(te)
        if (b.moved_m > 0 or b.jumped) and _attack_blocked(sys, eid, te) is None:
            d = sys.distance_m(eid, te)
            if best is None or d < best[0]:
                best = (d, te)
    return None if best is None else best[1]


def conditions(sys: FwBase, eid: int, te: int) -> set[str]:
    """R-9.4's conditions that hold for an attack by `eid` on `te` now."""
    out = set()
    if sys.ctx.darkness or sys.body(eid).blind_until >= sys.ctx.round:  # a blinded figure fights as in the dark
        out.add("darkness")
    tb, mb = sys.body(te), sys.body(eid)
    if tb.moved_m > 0 or tb.jumped:
        out.add("moving_target")
    if sys.sees(eid, te).cover != "none":
        out.add("covered_target")
    if tb.jumped:
        out.add("target_in_air")
    if mb.moved_m > 0 or mb.jumped:
        out.add("moving_firer")
    if sys.w.peek(te, Status).prone and not _from_above(sys, eid, te):
        out.add("prone_target")  # (not from a car's floor or higher ground: "from a higher elevation", R-9.12)
    if sys.w.peek(eid, Status).prone:
        out.add("prone_firer")
    return out


def _from_above(sys: FwBase, eid: int, te: int) -> bool:
    """Whether `eid` attacks `te` "from a higher elevation" (R-9.4): from a grav car at a figure on the ground, or
    from ground at least a figure's height higher (`options.ground`)."""
    if not sys.ctx.cars and not sys.ctx.ground_rows:
        return False
    return gravcar.from_above(gcars.elevation(sys, eid)[0], gcars.elevation(sys, te)[0])


def base_chance(sys: FwBase, eid: int, wid: str, mounted: bool = False) -> int:
    """The figure's skill with a weapon: by its id, else its category, else the table's base chance (R-9.1;
    a semi-portable without its tripod fires hand-held, R-9.5; from a grav car's mount, mounted: R-9.12)."""
    w = sys.weapon(wid)
    skills = sys.kit(eid).skills
    skill = skills.get(wid, skills.get(w.category))
    if mounted:
        return mnt.mounted_chance(w, skill)
    if skill is not None:
        return skill
    return w.chance(mounted=False) or 0


def ranged_attack(sys: FwBase, eid: int, te: int, act: str, wid: str | None = None, mounted: bool = False) -> Attack:
    """The `attack.Attack` value an attack by `eid` on `te` rolls now (R-9.4, R-9.5, R-9.6): the chance after
    R-9.4's conditions, the weapon's dice and class, the target's armour and this round's screen (as raised
    now: a preview before the target declares sees its usual one). The roll (`attack`) and the preview
    (`FwSystems.odds`, through `odds.odds`) take the same value; `wid` defaults to the declared weapon."""
    wid = wid or _weapon(sys, eid)
    w = sys.weapon(wid)
    ch = checks.attack_chance(base_chance(sys, eid, wid, mounted), conditions(sys, eid, te))
    assert w.damage is not None  # firearms all roll damage
    screen, points = sys.screen_of(te)
    return Attack.of(ch.value, w.damage, w.damage_class, impales=w.impales, burst=act == "burst",
                     armour=sys.armour_of(te), screen_type=screen, screen=points)


class Dice(random.Random):
    """The battle's random source as the pure rules roll it (`attack.resolve`, `missiles.throw` …): every die
    is one of the systems' counted rolls, and its face is kept (R-10.2: the log shows each die)."""

    def __init__(self, sys: FwBase) -> None:
        super().__init__(0)
        self.sys = sys
        self.faces: list[int] = []

    def randint(self, a: int, b: int) -> int:
        assert a == 1  # the rules roll dice: 1..sides
        face = self.sys.roll(b)
        self.faces.append(face)
        return face


def hit_events(res: fw_attack.Result, faces: list[int], dice: DiceExpr, damage_class: str) -> list[FwHit]:
    """The log's hits of a resolved attack, each with its dice as rolled (`faces`: the dice after the d100
    and the burst's 1d3, in order)."""
    out, at = [], 0
    for h in res.hits:
        n = dice.count * len(h.rolls)
        a = h.absorbed
        out.append(FwHit(dice=str(dice), rolls=faces[at:at + n], rolled=a.rolled, impale=len(h.rolls) > 1,
                         damage_class=damage_class, armour=a.armour, screen=a.screen, through=a.through))
        at += n
    return out


def attack(sys: FwBase, eid: int, te: int, act: str, dex: int) -> list[Effect]:
    """Roll one attack (R-9.4, R-9.5) and its damage (R-9.6) through `attack.resolve`; the wounds are returned,
    to take effect with the group."""
    wid = _weapon(sys, eid)
    w = sys.weapon(wid)
    burst = act == "burst"
    on_mount = sys.plan(eid).mount is not None
    ch = checks.attack_chance(base_chance(sys, eid, wid, on_mount), conditions(sys, eid, te))
    value = ranged_attack(sys, eid, te, act, mounted=on_mount)
    dice = Dice(sys)
    res = fw_attack.resolve(dice, value)
    hits = hit_events(res, dice.faces[1 + (1 if res.burst_roll else 0):], value.dice, w.damage_class)
    steps = [FwStep(op=f"+{s.plus}" if s.plus else f"x{s.times}", reason=s.reason) for s in ch.steps]
    rules = ("R-9.2", "R-9.4") + (("R-9.5",) if burst or (on_mount and w.burst) else ()) + \
        (("R-9.6",) if hits else ()) + (("R-9.8",) if w.energy else ()) + (("R-9.12",) if on_mount else ())
    sys.event("fw_attack", sys.name(eid), rules, target=sys.name(te), weapon=wid, act=act, dex=dex, base=ch.base,
              steps=steps, chance=ch.value, impale_chance=ch.impale, roll=res.roll, hit=res.hit, impale=res.impale,
              burst_roll=res.burst_roll or None, energy=w.shot_energy(burst), damage=hits,
              mount=mounts.mount_label(sys, eid) if on_mount else None)
    source = f"{sys.name(eid)}'s {w.name}"
    return [lambda h=h: wound(sys, te, h["through"], source) for h in hits]  # type: ignore[misc]


def wound(sys: FwBase, te: int, through: int, source: str) -> None:
    """One hit's damage taking effect (R-9.7): HP, a major wound's d20 or the fall, unconscious, dead."""
    b = sys.change_body(te)
    if b.dead or through <= 0:  # nothing got through, or a body already dead: its HP stand
        sys.event("fw_wound", sys.name(te), ("R-9.6",), source=source, through=through, hp_before=b.hp,
                  hp_after=b.hp, major=False, condition=_condition(b))
        return
    before = b.hp
    b.hp -= through
    major = dmg.is_major_wound(before, through)
    d20 = None
    state = dmg.condition(b.hp, b.CON)
    b.dead = state == "dead"
    b.unconscious = state == "unconscious"
    if b.hp <= 0:  # down again (or deeper): a treatment before this wound no longer holds
        b.treated = False
    if major and state == "ok" and not b.fallen:
        d20 = sys.roll(dmg.MAJOR_WOUND_DIE)
        b.fallen = d20 > b.hp
    sys.sync(te)
    sys.event("fw_wound", sys.name(te), ("R-9.7",), source=source, through=through, hp_before=before, hp_after=b.hp,
              major=major, d20=d20, condition=_condition(b))


def _condition(b: FwBody) -> str:
    if b.dead:
        return "dead"
    if b.unconscious:
        return "unconscious"
    return "fallen" if b.fallen else "ok"


def _aid(sys: FwBase, eid: int, pe: int) -> list[Effect]:
    """A medikit on a friend within reach (R-9.7): First Aid, the survival roll, 1d6 HP."""
    me = sys.name(eid)
    if sys.distance_m(eid, pe) > 1.5 * sys.ctx.grid.cell_m or sys.body(pe).dead:
        sys.event("fw_idle", me, ("R-9.7",), act="aid", reason=f"{sys.name(pe)} is not within reach, or dead")
        return []
    fa_roll, sv_roll = sys.roll(100), sys.roll(100)
    fa, survival = sys.kit(eid).skills.get("first_aid", 0), sys.body(pe).CON * checks.SURVIVAL_PER_CON
    killed = not checks.Outcome.of(sv_roll, survival).success
    restored = sys.roll(6) if checks.Outcome.of(fa_roll, fa).success and not killed else 0

    def effect() -> None:
        b = sys.change_body(pe)
        if killed:
            b.dead, b.unconscious = True, False
        else:
            b.hp = min(b.CON, b.hp + restored)
            b.unconscious = b.hp <= 0
            # A successful First Aid halts the bleed while the figure stays down; above 0 HP it is up again.
            b.treated = b.unconscious and (b.treated or restored > 0)
        sys.sync(pe)
        sys.event("fw_aid", me, ("R-9.7",), patient=sys.name(pe), first_aid_roll=fa_roll, first_aid=fa,
                  survival_roll=sv_roll, survival=survival, restored=restored, killed=killed, hp_after=b.hp)

    return [effect]


def bookkeeping(sys: FwBase) -> None:
    """R-9.2's bookkeeping (R-9.7, R-9.8): the unconscious lose 1 HP (dead at -CON); the fallen roll d20 against
    their HP to rise; every split ends (energy reset) and the round's movement is forgotten."""
    for eid in sys.figures():
        if eid in sys.ctx.withdrawn:  # it left the battle (a scenario's extraction): nothing happens to it here
            continue
        b = sys.change_body(eid)
        if b.unconscious and not b.dead:
            before = b.hp
            b.hp = dmg.bleed(b.hp, treated=b.treated)
            b.dead = dmg.condition(b.hp, b.CON) == "dead"
            b.unconscious = not b.dead
            sys.sync(eid)
            sys.event("fw_bleed", sys.name(eid), ("R-9.7",), hp_before=before, hp_after=b.hp,
                      condition=_condition(b), treated=True if b.treated else None)
        elif b.fallen and not b.dead and b.struck:  # attacked hand to hand: it may not stand
            sys.event("fw_rise", sys.name(eid), ("R-9.4", "R-9.7"), hp=b.hp, rose=False, struck=True)
        elif b.fallen and not b.dead:
            d20 = sys.roll(dmg.MAJOR_WOUND_DIE)
            rose = d20 <= b.hp
            if rose:
                b.fallen = False
                sys.w.get(eid, Status).prone = False
            sys.event("fw_rise", sys.name(eid), ("R-9.7",), d20=d20, hp=b.hp, rose=rose)
        b.moved_m, b.jumped, b.struck = 0.0, False, False
        _reset(sys.w.get(eid, FwRound))
        sys.sync(eid)
    gcars.reset(sys)
    sys.event("fw_energy_reset", None, ("R-9.2", "R-9.8"))


def _reset(plan: FwRound) -> None:
    """The energy reset (R-9.8): no declaration, no split until the next one."""
    fresh = FwRound()
    for name in FwRound.__dataclass_fields__:
        setattr(plan, name, getattr(fresh, name))
