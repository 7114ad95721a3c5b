"""Future*World legality as a question (STYLE 13): why a declaration or a move is refused (the rule id first),
and the lists of what a figure may answer, each candidate put to the same checks the rows apply."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from skirmish.core.legal import LegalActions
from skirmish.ecs.components import Identity
from skirmish.ecs.systems.fw import car_legality, car_moves, cell_throw, mounts
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.ecs.systems.fw.fog_moves import known_occupied
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, EndTurn, Move
from skirmish.rules.fw import melee as mel
from skirmish.rules.fw import missiles as msl
from skirmish.rules.fw import order
from skirmish.rules.fw import tacpack as tpk
from skirmish.rules.fw.actions import ACTS, ATTACK_CLASSES, ATTACKS, FIREARMS, SPENT, FwIntent, act_kind, cell_target
from skirmish.rules.fw.damage import SCREEN_TYPES
from skirmish.rules.fw.movement import jump_m
from skirmish.rules.reach_search import reach_field

__all__ = ["FIREARMS", "FwLegal", "intent_refusal", "intents", "jump_m", "move_cells", "move_refusal", "moves",
           "shot_energy", "weapon_of"]

if TYPE_CHECKING:
    from skirmish.ecs.systems.fw.base import FwBase


def shot_energy(sys: FwBase, weapon: str | None, acts: tuple[tuple[str, str | None], ...]) -> int:
    """Tacpack points the declared attacks draw: the weapon's energy a shot, x3 a burst (R-9.8)."""
    if weapon is None:
        return 0
    w = sys.weapon(weapon)
    return sum(w.shot_energy(burst=a == "burst") for a, _ in acts if a in ATTACKS)


def weapon_of(sys: FwBase, eid: int, intent: FwIntent) -> str | None:
    """The weapon an intent attacks with: the one it names, else the figure's first weapon of the class its
    attack takes (a firearm to shoot, a melee weapon to strike, a grenade or missile it still has, R-9.10);
    without an attack its first firearm (None if it has none)."""
    if intent.mount is not None:  # a grav car's mount: its own weapon, or the rider's set on it
        return mounts.weapon_of(sys, eid, intent)
    if intent.weapon is not None:
        return intent.weapon
    act = next((a for a, _ in intent.acts() if a in ATTACKS), "shoot")
    return first_weapon(sys, eid, act)


def first_weapon(sys: FwBase, eid: int, act: str) -> str | None:
    """The figure's first weapon `act` takes that it still has (grenades and missiles are used up)."""
    classes = ATTACK_CLASSES[act]
    return next((w for w in sys.kit(eid).weapons if sys.weapon(w).weapon_class in classes and left(sys, eid, w)), None)


def left(sys: FwBase, eid: int, wid: str) -> int:
    """How many of weapon `wid` the figure still has: grenades and missiles are one per listing, used up when
    thrown or fired (R-9.10); any other weapon listed is always at hand."""
    listed = sys.kit(eid).weapons.count(wid)
    if sys.weapon(wid).weapon_class not in SPENT:
        return listed
    return max(0, listed - sys.body(eid).spent.count(wid))


def in_reach(sys: FwBase, eid: int, te: int) -> bool:
    """Whether `te` is within hand-to-hand reach of `eid` (R-9.4: 2 m, or a neighbouring cell, diagonals too,
    that it sees: not across a closed wall corner)."""
    return mel.touching(sys.ctx.grid, sys.w.cell(eid), sys.w.cell(te))


def intent_refusal(sys: FwBase, eid: int, intent: FwIntent) -> str | None:
    """Why this declaration is refused now (the rule first), or None (R-9.2, R-9.3, R-9.5, R-9.7, R-9.8, R-9.9)."""
    if not sys.can_act(eid):
        return "R-9.7: a fallen, unconscious or dead figure declares nothing"
    acts = intent.acts()
    for act, _ in acts:
        if act not in ACTS:
            return f"R-9.2: unknown action {act!r} (expected one of {', '.join(ACTS)})"
    why = order.refusal(tuple(act_kind(a) for a, _ in acts))
    if why:
        return why
    if intent.then not in (None, "none") and intent.act == "none":
        return "R-9.3: a second action follows a first"
    if any(a == "program" for a, _ in acts) and len(acts) > 1:
        return "R-9.9: programming all three EW functions takes the whole round"
    kit = sys.kit(eid)
    why = car_legality.car_refusal(sys, eid, intent)
    if why:
        return why
    if intent.jump:
        if not kit.jump_pack:
            return "R-9.11: no jump pack"
        if acts:
            return "R-9.2: a jump pack user moves in the movement segment and does nothing else"
    me = sys.w.peek(eid, Identity)
    if intent.mount is not None:  # fired from its car's mount: the mount's checks, the car's energy
        why = mounts.fire_refusal(sys, eid, intent)
        if why:
            return why
    elif intent.weapon is not None and intent.weapon not in kit.weapons:  # before any table look-up of it
        return f"R-9.4: {me.name} carries no {intent.weapon}"
    weapon = weapon_of(sys, eid, intent)
    for act, target in acts:
        why = _act_refusal(sys, eid, me, act, target, weapon, mounted=intent.mount is not None)
        if why:
            return why
    split = tpk.Allocation(
        screen_type=None if intent.screen == "none" else intent.screen, screen=intent.points,
        shots=0 if intent.mount is not None else shot_energy(sys, weapon, acts), cm=intent.cm, dccm=intent.dccm,
        sensors=intent.sensors, jump=intent.jump, dccm_target=intent.dccm_at)
    if intent.screen not in ("none", *SCREEN_TYPES):
        return f"R-9.8: a screen is one of {', '.join(SCREEN_TYPES)}"
    if intent.points and intent.screen == "none":
        return "R-9.8: screen points need a screen type (kinetic, diffusion, magnetic)"
    if intent.dccm_at is not None and not _enemy_in_sight(sys, eid, intent.dccm_at):
        return f"R-9.9: DCCM is beamed at an enemy in line of sight, not {intent.dccm_at!r}"
    if split.programs() and len(acts) > 1:  # a program is one of the round's two actions
        return "R-9.9: an EW program takes one of the round's two actions; it may go with one act, not two"
    pack = tpk.Tacpack(kit.generator, kit.effectors, kit.sensors)
    return tpk.refusal(pack, split, whole_round_programming=intent.act == "program")


def _act_refusal(sys: FwBase, eid: int, me: Identity, act: str, target: str | None, weapon: str | None,
                 mounted: bool = False) -> str | None:
    if act in ("mount", "dismount", "drive"):
        return None  # (car_refusal)
    if act in ATTACKS:
        if weapon is None and act in ("throw", "launch"):
            return f"R-9.10: {me.name} has no {'grenade' if act == 'throw' else 'missile'} left"
        if weapon is None:
            return f"R-9.4: no weapon to {act} with"
        if weapon not in sys.kit(eid).weapons and not mounted:  # (a mount's weapon is the car's: mounts)
            return f"R-9.4: {me.name} carries no {weapon}"
        w = sys.weapon(weapon)
        if w.weapon_class not in ATTACK_CLASSES[act]:
            rule = "R-9.10" if act in ("throw", "launch") else "R-9.4"
            return f"{rule}: a {w.name} ({w.weapon_class}) cannot {act} (it takes {', '.join(ATTACK_CLASSES[act])})"
        if not mounted and not left(sys, eid, weapon):
            return f"R-9.10: {me.name} has no {w.name} left"
        if act == "burst" and not w.burst:
            return f"R-9.5: a {w.name} fires single shots only (bursts: autoguns and support guns)"
        if act == "react":
            return None if target is None else "R-9.2: a reaction fires at the first enemy seen moving; it names none"
        cell = cell_target(target) if act == "throw" and target is not None and not sys.w.has(target) else None
        if cell is not None:  # a grenade at a cell
            return cell_throw.cell_refusal(sys, eid, cell, weapon)
        if target is None or not sys.w.has(target):
            return f"R-9.4: {act} at whom? (target {target!r})"
        te = sys.w.entity(target)
        if sys.w.peek(te, Identity).side_index == me.side_index:
            return f"R-9.4: {target} is on {me.name}'s side"
        if not sys.knows(eid, te):  # the side's knowledge only: nothing of an enemy it neither sees nor places
            return f"R-9.4: {me.side} does not know where {target} is"
        if not sys.in_action(te) and sys.seen_by_side(eid, te):  # unseen: found out at its DEX (fw_idle)
            return f"R-9.7: {target} is out of action"
        return _reach_refusal(sys, eid, te, act, w)
    if act == "aid":
        if not sys.kit(eid).medikit:
            return "R-9.7: First Aid needs a medikit"
        if target is None or not sys.w.has(target):
            return f"R-9.7: First Aid for whom? (patient {target!r})"
        pe = sys.w.entity(target)
        if sys.w.peek(pe, Identity).side_index != me.side_index:
            return f"R-9.7: {target} is not on {me.name}'s side"
        if sys.body(pe).dead:
            return f"R-9.7: {target} is dead"
        if pe in sys.ctx.withdrawn:
            return f"R-9.7: {target} has left the battle"
        return None
    if target is not None:
        return f"R-9.2: {act} names no target"
    return None


def _reach_refusal(sys: FwBase, eid: int, te: int, act: str, w: Any) -> str | None:
    """What a declared strike, throw or launch needs of its target now: an engaged figure strikes only within
    reach (it does not move, R-9.2); missiles need the target in sight (R-9.10). A shot, a throw or a strike
    at a target out of sight or reach is declared freely: the figure may move, and is idle if still short."""
    if act == "melee" and sys.engaged(eid) and not in_reach(sys, eid, te):
        return f"R-9.2: {sys.name(eid)} is engaged and does not move; {sys.name(te)} is out of reach"
    if act == "launch":
        return msl.launch_refusal(w, sys.sees(eid, te).visible)
    return None


def _enemy_in_sight(sys: FwBase, eid: int, name: str) -> bool:
    if not sys.w.has(name):
        return False
    te = sys.w.entity(name)
    return te in sys.enemies(eid) and sys.sees(eid, te).visible


# ---------------------------------------------------------------------------------------------- movement
def move_refusal(sys: FwBase, eid: int, to: geo.Cell) -> tuple[str | None, list[geo.Cell], float, bool]:
    """(why refused or None, route, metres, leap) for a move in the movement segment (R-9.2, R-9.11): a walk
    of up to 24 m less ENC along a route, or with jump energy declared a leap of 20 m a point less 40 m per
    excess ENC, in a straight line to a free cell."""
    grid = sys.ctx.grid
    to = (int(to[0]), int(to[1]))
    if not sys.can_act(eid):
        return "R-9.7: a fallen, unconscious or dead figure does not move", [], 0.0, False
    if sys.engaged(eid):
        return "R-9.2: an engaged figure has no movement segment", [], 0.0, False
    if not grid.inside(to):
        return f"cell {to[0]},{to[1]} is off the map", [], 0.0, False
    if not grid.passable(to):
        return f"cell {to[0]},{to[1]} is {grid.terrain(to).name}: no one can stand there", [], 0.0, False
    ceid = gcars.car_of(sys, eid) if sys.ctx.cars else None
    if ceid is not None:
        if not gcars.is_driver(sys, eid):
            why = f"R-9.12: {sys.name(eid)} rides the {gcars.car(sys, ceid).name}: it moves with the car"
            return why, [], 0.0, False
        flight, metres = car_moves.fly_refusal(sys, eid, to)
        return flight, [sys.w.cell(eid), to], metres, False
    here = sys.w.cell(eid)
    if to == here:
        return "R-9.2: a move goes somewhere (end stays put)", [], 0.0, False
    occupied = known_occupied(sys, eid)  # fog: an unseen enemy's cell is not known to be taken (fog_moves.bump)
    if to in occupied:
        return f"cell {to[0]},{to[1]} is taken", [], 0.0, False
    plan = sys.plan(eid)
    if plan.jump:
        body, kit = sys.body(eid), sys.kit(eid)
        reach = jump_m(plan.jump, kit.enc, body.STR)
        metres = geo.distance_m(here, to, grid.cell_m)
        if metres > reach + 1e-9:
            return f"R-9.11: {metres:.1f} m is beyond the leap of {reach} m", [], metres, True
        return None, [here, to], metres, True
    allowance = sys.kit(eid).move_m
    cost = float(_field(sys, eid)[to[1], to[0]]) * grid.cell_m
    if cost > allowance + 1e-9:
        return f"R-9.11: {to[0]},{to[1]} is beyond the move of {allowance} m", [], cost, False
    path = sys.ctx.nav.route(here, to, occupied) or [here, to]
    return None, path, round(cost, 2), False


def _field(sys: FwBase, eid: int) -> npt.NDArray[np.float64]:
    """Movement cost in cells from the figure to every cell within its move (others' cells blocked)."""
    grid = sys.ctx.grid
    blocked = np.zeros((grid.height, grid.width), dtype=bool)
    for x, y in known_occupied(sys, eid):
        blocked[y, x] = True
    return reach_field(grid, sys.w.cell(eid), sys.kit(eid).move_m / grid.cell_m, blocked)


def move_cells(sys: FwBase, eid: int) -> frozenset[geo.Cell]:
    """Every cell a move may end in now (the same checks as `move_refusal`)."""
    if not sys.can_act(eid) or sys.engaged(eid):
        return frozenset()
    if sys.aboard(eid):
        return car_moves.fly_cells(sys, eid) if gcars.is_driver(sys, eid) else frozenset()
    grid = sys.ctx.grid
    here = sys.w.cell(eid)
    occupied = known_occupied(sys, eid)
    plan = sys.plan(eid)
    out = set()
    if plan.jump:
        reach = jump_m(plan.jump, sys.kit(eid).enc, sys.body(eid).STR)
        for x in range(grid.width):
            for y in range(grid.height):
                c = (x, y)
                if c != here and c not in occupied and grid.passable(c) and \
                        geo.distance_m(here, c, grid.cell_m) <= reach + 1e-9:
                    out.add(c)
        return frozenset(out)
    field = _field(sys, eid)
    for y, x in zip(*np.nonzero(np.isfinite(field)), strict=True):
        c = (int(x), int(y))
        if c != here and c not in occupied and grid.passable(c):
            out.add(c)
    return frozenset(out)


# ---------------------------------------------------------------------------------------------- the lists
@dataclass(frozen=True)
class FwLegal(LegalActions):
    """What a figure may answer (STYLE 13). For a declaration (`kind` "declare"): `intents`, one per act and
    target (and per attack with First Aid before or after it) with the generator's rest on each screen type
    (any other valid split is accepted too: EW programs and jumps beyond the whole-generator leap are not
    listed; the list is what the board and the AIs choose among). For the movement segment (`kind` "act"): the cells of
    `walk` and staying put (`end`)."""

    intents: tuple[FwIntent, ...] = ()

    def actions(self, *, called: bool = False) -> Iterator[Action]:
        """Every listed answer."""
        if self.kind == "declare":
            yield from self.intents
            return
        if self.kind == "act":
            yield from self.moves()
            yield EndTurn(self.unit)

    def allows(self, action: Action) -> bool:
        """True if `action` is one this value lists."""
        if action.unit != self.unit:
            return False
        if isinstance(action, FwIntent):
            return self.kind == "declare" and action in self.intents
        if isinstance(action, Move):
            return self.kind == "act" and tuple(action.to) in self.walk
        return isinstance(action, EndTurn) and self.kind == "act"


def intents(sys: FwBase, eid: int) -> FwLegal:
    """The listed declarations of a figure (see FwLegal)."""
    me = sys.name(eid)
    kit = sys.kit(eid)
    targets = [sys.name(e) for e in _known_enemies(sys, eid) if sys.sees(eid, e).visible]
    attacks: list[tuple[str, str | None]] = [("react", None)]
    for t in targets:
        attacks += [("shoot", t), ("burst", t)]
    attacks += _armed_attacks(sys, eid)
    patients: list[tuple[str, str | None]] = []
    if kit.medikit:
        for f in sys.figures():
            b = sys.body(f)
            if sys.w.peek(f, Identity).side == sys.side(eid) and b.hp < b.CON and not b.dead and f not in sys.ctx.withdrawn \
                    and geo.distance_cells(sys.w.cell(f), sys.w.cell(eid)) <= 1.5:
                patients.append(("aid", sys.name(f)))
    # One action, or an attack and then First Aid at half DEX, or First Aid and then an attack.
    options: list[tuple[tuple[str, str | None], ...]] = [(), *((a,) for a in attacks), *((p,) for p in patients)]
    options += [(a, p) for a in attacks for p in patients] + [(p, a) for p in patients for a in attacks]
    out: list[FwIntent] = []
    for acts in options:
        first = acts[0] if acts else ("none", None)
        then = acts[1] if len(acts) > 1 else (None, None)
        weapon = weapon_of(sys, eid, FwIntent(me, first[0], first[1], then=then[0], then_target=then[1]))
        spare = kit.generator - shot_energy(sys, weapon, acts)
        for screen in ("none", *SCREEN_TYPES):
            it = FwIntent(me, first[0], first[1], then=then[0], then_target=then[1], screen=screen,
                          points=0 if screen == "none" else max(0, spare))
            if intent_refusal(sys, eid, it) is None and it not in out:
                out.append(it)
    if kit.jump_pack and kit.generator:
        it = FwIntent(me, jump=kit.generator)
        if intent_refusal(sys, eid, it) is None:
            out.append(it)
    if sys.ctx.cars:
        out += [it for it in car_legality.car_intents(sys, eid, attacks) if it not in out]
        out += [it for it in mounts.fire_targets(sys, eid, targets)
                if it not in out and intent_refusal(sys, eid, it) is None]
    return FwLegal(me, "declare", intents=tuple(out))


def _armed_attacks(sys: FwBase, eid: int) -> list[tuple[str, str | None]]:
    """The strikes, throws and launches worth listing (each weapon it has: `weapon_of` takes the first): a
    strike at an enemy in reach, or one it may walk into contact with when not engaged (R-9.2, R-9.4); a
    grenade at an enemy in sight within its range; a missile at an enemy in line of sight (R-9.10)."""
    out: list[tuple[str, str | None]] = []
    enemies = _known_enemies(sys, eid)
    if first_weapon(sys, eid, "melee") is not None:
        walk = 0.0 if sys.engaged(eid) else float(sys.kit(eid).move_m)
        out += [("melee", sys.name(e)) for e in enemies
                if in_reach(sys, eid, e) or sys.distance_m(eid, e) <= walk + mel.MELEE_REACH_M]
    grenade = first_weapon(sys, eid, "throw")
    if grenade is not None:
        reach = sys.weapon(grenade).range_m or msl.GRENADE_RANGE_M
        out += [("throw", sys.name(e)) for e in enemies
                if sys.sees(eid, e).visible and sys.distance_m(eid, e) <= reach]
    if first_weapon(sys, eid, "launch") is not None:
        out += [("launch", sys.name(e)) for e in enemies if sys.sees(eid, e).visible]
    return out


def _known_enemies(sys: FwBase, eid: int) -> list[int]:
    """The enemy figures a declaration may name: those the side knows where they are (sees, or placed), and
    not seen out of action (one down out of sight is found out at the DEX, fw_idle). Their true cells are
    the known ones (a figure moving unseen is no longer placed)."""
    mine = sys.w.peek(eid, Identity).side_index
    return [e for e, i in sys.w.units() if i.side_index != mine and sys.knows(eid, e)
            and (sys.in_action(e) or not sys.seen_by_side(eid, e)) and not sys.body(e).dead]


def moves(sys: FwBase, eid: int) -> FwLegal:
    """The cells a figure may move to in the movement segment, and staying put."""
    return FwLegal(sys.name(eid), "act", walk=move_cells(sys, eid))

