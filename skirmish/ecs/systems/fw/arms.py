"""Future*World's attacks beyond the firearm's shot (R-9.4, R-9.6, R-9.9, R-9.10): a melee strike (the force
sword, class F: no armour, any magnetic screen stops it), a thrown grenade (45%, 15 m, scatter on a miss, a
blast on every figure in its radius or a photon flash) and a launched missile (guided: aimed at 20%; seeker:
acquires at 100% - 10% x max(0, CM - DCCM)). Each builds the pure rules' value (`attack.Attack`,
`missiles.throw`) and rolls it on the battle's dice (`resolve.Dice`), so the preview (`attack_value`, through
`odds.odds`) and the roll take the same value. Grenades and missiles are used up (`FwBody.spent`)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING

from skirmish.ecs.components import Status
from skirmish.ecs.fw_components import FwRound
from skirmish.ecs.systems.fw import cell_throw as ct
from skirmish.ecs.systems.fw import mounts
from skirmish.ecs.systems.fw import resolve as rs  # (a cycle: resolve dispatches here; read at call time only)
from skirmish.rules.fw import attack as fw_attack
from skirmish.rules.fw import checks, ew
from skirmish.rules.fw import melee as mel
from skirmish.rules.fw import missiles as msl
from skirmish.rules.fw import odds as fw_odds
from skirmish.rules.fw import tacpack as tpk
from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.events import FwCaught, FwStep
from skirmish.rules.fw.odds import Preview

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase

THROW_CONDITIONS = ("darkness", "moving_firer")  # R-9.4's that touch a throw at a place (not the target's)
Effect = Callable[[], None]


def melee_conditions(sys: FwBase, eid: int, te: int) -> set[str]:
    """R-9.4's conditions of a strike hand to hand: darkness (or a blinded striker), a moving or covered target,
    a knocked-down (prone or fallen) striker x1/2 or target +20."""
    out = rs.conditions(sys, eid, te) - set(mel.MISSILE_ONLY)
    if sys.w.peek(eid, Status).prone:
        out.add("knocked_down_attacker")
    if sys.w.peek(te, Status).prone:
        out.add("knocked_down_target")
    return out


def is_seeker(sys: FwBase, wid: str) -> bool:
    """A missile that acquires rather than being aimed (R-9.10)."""
    w = sys.weapon(wid)
    return w.weapon_class == "missile" and w.base_chance is None


def seeker_cm(sys: FwBase, eid: int, te: int) -> tuple[int, int]:
    """(the target's CM, the DCCM beamed at it by the launcher's side from figures that see it) (R-9.9); for a
    preview asked by another side (`asker`) the target's usual split: no CM."""
    target = sys.name(te)
    beams = [(tpk.Allocation(dccm=p.dccm, dccm_target=p.dccm_at), sys.sees(f, te).visible)
             for f in sys.figures() if sys.side(f) == sys.side(eid) and sys.in_action(f)
             for p in (sys.w.peek(f, FwRound),)]
    theirs = sys.w.peek(te, FwRound)
    hidden = sys.asker is not None and theirs.declared and sys.side(sys.asker) != sys.side(te)
    return (0 if hidden else theirs.cm), ew.dccm_on(target, beams)  # a preview does not see an enemy's CM


def attack_value(sys: FwBase, eid: int, te: int, act: str, wid: str,
                 mounted: bool = False) -> tuple[checks.Chance | None, Attack]:
    """The chance worked out (None for a seeker: it acquires, R-9.10) and the `Attack` a strike or a launch by
    `eid` on `te` rolls now, against the target's armour and this round's screen (R-9.4, R-9.6, R-9.10)."""
    w = sys.weapon(wid)
    screen, points = sys.screen_of(te)
    armour = sys.armour_of(te)
    if act == "melee":
        ch = mel.melee_chance(rs.base_chance(sys, eid, wid), melee_conditions(sys, eid, te))
        return ch, mel.melee_attack(mel.melee_weapon(w), ch.value, armour=armour, screen_type=screen,
                                    screen=points)
    if is_seeker(sys, wid):
        cm, dccm = seeker_cm(sys, eid, te)
        return None, msl.seeker_attack(cm, dccm, w, armour=armour, screen_type=screen, screen=points)
    ch = checks.attack_chance(rs.base_chance(sys, eid, wid, mounted), rs.conditions(sys, eid, te))
    return ch, msl.guided_attack(ch.value, w, armour=armour, screen_type=screen, screen=points)


def strike_or_launch(sys: FwBase, eid: int, te: int, act: str, dex: int) -> list[Effect]:
    """Roll a melee strike (R-9.4, R-9.6) or a missile (R-9.10) through `attack.resolve`; the wounds are
    returned, to take effect with the DEX group."""
    wid = sys.w.peek(eid, FwRound).weapon
    assert wid is not None
    w = sys.weapon(wid)
    on_mount = sys.plan(eid).mount is not None
    ch, value = attack_value(sys, eid, te, act, wid, on_mount)
    if act == "melee":
        sys.change_body(te).struck = True
    else:
        mounts.spend(sys, eid, wid)  # off the car's rack when launched from its mount
    dice = rs.Dice(sys)
    res = fw_attack.resolve(dice, value)
    hits = rs.hit_events(res, dice.faces[1:], value.dice, w.damage_class)
    if ch is None:
        cm, dccm = seeker_cm(sys, eid, te)
        net = tpk.net_cm(cm, dccm)
        steps = [FwStep(op=f"-{tpk.CM_STEP * net}", reason=f"net CM {net} (CM {cm} - DCCM {dccm})")] if net else []
        base, impale = 100, 0
        rules: tuple[str, ...] = ("R-9.2", "R-9.9", "R-9.10")
    else:
        steps = [FwStep(op=f"+{s.plus}" if s.plus else f"x{s.times}", reason=s.reason) for s in ch.steps]
        base, impale = ch.base, ch.impale
        rules = ("R-9.2", "R-9.4") if act == "melee" else ("R-9.2", "R-9.4", "R-9.10")
    rules += (("R-9.6",) if hits else ()) + (("R-9.8",) if w.energy else ()) + (("R-9.12",) if on_mount else ())
    sys.event("fw_attack", sys.name(eid), rules, target=sys.name(te), weapon=wid, act=act, dex=dex, base=base,
              steps=steps, chance=value.chance, impale_chance=impale if value.impales else 0, roll=res.roll,
              hit=res.hit, impale=res.impale, energy=w.shot_energy(), damage=hits,
              mount=mounts.mount_label(sys, eid) if on_mount else None)
    source = f"{sys.name(eid)}'s {w.name}"
    return [partial(rs.wound, sys, te, h["through"], source) for h in hits]


def centre(sys: FwBase, eid: int) -> tuple[float, float]:
    """A figure's place in metres (its cell's centre, y down the board)."""
    x, y = sys.w.cell(eid)
    m = sys.ctx.grid.cell_m
    return (x + 0.5) * m, (y + 0.5) * m


def throw_chance(sys: FwBase, eid: int, te: int, wid: str) -> checks.Chance:
    """A throw's chance (R-9.10: the table's 45% or the figure's skill) under R-9.4's darkness (or blindness)
    and moving thrower: the grenade is thrown at a place, so the target's own conditions do not apply."""
    return checks.attack_chance(rs.base_chance(sys, eid, wid), rs.conditions(sys, eid, te) & set(THROW_CONDITIONS))


def throw_preview(sys: FwBase, eid: int, te: int, wid: str, hp: int | None = None) -> Preview:
    """A grenade's preview at `te` (R-9.10): the chance the blast catches it where it stands now (a hit, or a
    scatter that lands within the radius: `missiles.p_caught`) and the blast through its armour and screen
    (`odds.blast_odds`); a photon grenade's damage is none (its odds are the flash's). `hp`: the target's HP as
    the asker's side knows it (default: now)."""
    w = sys.weapon(wid)
    known = sys.body(te).hp if hp is None else hp
    ch = throw_chance(sys, eid, te, wid)
    p = msl.p_caught(ch.value, centre(sys, eid), centre(sys, te), centre(sys, te), w.blast_radius_m)
    screen, points = sys.screen_of(te)
    if w.damage is None:  # a flash: no damage; the chance it blinds the target (Luck, R-9.10)
        blind = msl.p_blinded(p, sys.body(te).POW * checks.LUCK_PER_POW)
        o = fw_odds.Odds(p, Fraction(0), {0: 1 - p, 1: p}, {0: Fraction(1)})
        return Preview(ch.value, tuple(s.reason for s in ch.steps), Attack.of(ch.value, "1D6", "P", always_miss=False),
                       o, known, f"hit {ch.value}.0%, caught {o.percent(p)}, blinded {o.percent(blind)}")
    value = msl.blast_attack(w, armour=sys.kit(te).armour_stops, screen_type=screen, screen=points)
    o = fw_odds.blast_odds(p, value)
    text = (f"hit {ch.value}.0%, caught {o.percent(p)}, mean {fw_odds.tenths(o.mean)} through"
            f", down {o.percent(o.at_least(known))}")
    return Preview(ch.value, tuple(s.reason for s in ch.steps), value, o, known, text)


def throw_grenade(sys: FwBase, eid: int, te: int | None, dex: int, cell: tuple[int, int] | None = None) -> list[Effect]:
    """Throw a grenade at `te`'s place, or at `cell` (R-9.10, cell_throw): d100; a miss scatters (1d12 clock,
    1D10 m); a blast rolls its dice once and every figure not dead within its radius (the thrower and its friends
    too) takes them through its armour and screen; a photon flash blinds each figure in action in its radius that
    fails its Luck roll for 1d6 rounds (it attacks as in the dark, x1/5)."""
    wid = sys.w.peek(eid, FwRound).weapon
    assert wid is not None
    w = sys.weapon(wid)
    if te is not None:
        ch, aim = throw_chance(sys, eid, te, wid), centre(sys, te)
    else:
        assert cell is not None
        ch, aim = ct.cell_chance(sys, eid, wid), ct.cell_centre(sys, cell)
    sys.change_body(eid).spent.append(wid)
    dice = rs.Dice(sys)
    t = msl.throw(dice, ch.value, centre(sys, eid), aim)
    radius = w.blast_radius_m
    caught = [f for f in sys.figures() if not sys.body(f).dead and not sys.aboard(f)  # riders are 10 m up
              and msl.within(centre(sys, f), t.lands, radius)]
    out: list[FwCaught] = []
    effects: list[Effect] = []
    rolled = None
    start = len(dice.faces)
    if w.damage is not None:
        rolled = msl.blast_roll(dice, w)
        for f in caught:
            plan = sys.w.peek(f, FwRound)
            a = msl.blast_attack(w, armour=sys.kit(f).armour_stops,
                                 screen_type=None if plan.screen == "none" else plan.screen,
                                 screen=plan.screen_points).through(rolled)
            out.append(_caught(sys, f, t.lands, armour=a.armour, screen=a.screen, through=a.through))
            source = f"{sys.name(eid)}'s {w.name}"
            effects.append(partial(rs.wound, sys, f, a.through, source))
    else:
        lucks = {sys.name(f): sys.body(f).POW * checks.LUCK_PER_POW for f in caught if sys.in_action(f)}
        flash = msl.photon_flash(dice, lucks)
        for name, (roll, rounds) in flash.items():
            f = sys.w.entity(name)
            out.append(_caught(sys, f, t.lands, luck=lucks[name], luck_roll=roll, blind=rounds))
            if rounds:
                effects.append(partial(_blind, sys, f, rounds))
    blast = dice.faces[start:]
    steps = [FwStep(op=f"+{s.plus}" if s.plus else f"x{s.times}", reason=s.reason) for s in ch.steps]
    rules = ("R-9.2", "R-9.4", "R-9.10") + (("R-9.6",) if out and w.damage is not None else ())
    sys.event("fw_throw", sys.name(eid), rules, target=None if te is None else sys.name(te),
              at=None if cell is None else list(cell), weapon=wid, dex=dex, base=ch.base, steps=steps,
              chance=ch.value, roll=t.roll, hit=t.hit, clock=None if t.hit else t.clock,
              scatter_m=None if t.hit else t.scatter_m, lands=[round(t.lands[0], 2), round(t.lands[1], 2)],
              radius_m=radius, dice=None if w.damage is None else str(w.damage),
              rolls=None if w.damage is None else blast, rolled=rolled, caught=out)
    return effects


def _caught(sys: FwBase, f: int, at: tuple[float, float], *, armour: int = 0, screen: int = 0, through: int = 0,
            luck: int = 0, luck_roll: int = 0, blind: int = 0) -> FwCaught:
    x, y = centre(sys, f)
    metres = round(((x - at[0]) ** 2 + (y - at[1]) ** 2) ** 0.5, 2)
    return FwCaught(figure=sys.name(f), metres=metres, armour=armour, screen=screen, through=through, luck=luck,
                    luck_roll=luck_roll, blind=blind)


def _blind(sys: FwBase, f: int, rounds: int) -> None:
    """Blind for the rest of this round and `rounds` more (R-9.10)."""
    b = sys.change_body(f)
    b.blind_until = max(b.blind_until, sys.ctx.round + rounds)
    sys.sync(f)
