"""Future Imperfect systems: spawning, initiative, actions and bookkeeping on one battle's world.

Each method checks, then applies (STYLE 4): a broken rule raises IllegalAction naming it; nothing is
written before the checks pass. Every resolution emits an event with rule ids and modifiers (R-10.2).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.core.events import Event, make
from skirmish.ecs.components import (
    Armour,
    ArmourPiece,
    Cover,
    Declared,
    Facing,
    Health,
    Identity,
    Loadout,
    Position,
    Profile,
    Readiness,
    Status,
    Tacpack,
    Turn,
    WeaponState,
)
from skirmish.ecs.world import World
from skirmish.nav import Navigator
from skirmish.rules import geometry as geo
from skirmish.rules.actions import (
    Action,
    Aim,
    Declare,
    EndTurn,
    Move,
    Reload,
    SetTacpack,
    Shoot,
    Throw,
    Wait,
)
from skirmish.rules.checks import Modifier, contest_winner, settle, skill_pool, tn
from skirmish.rules.checks import Pool as CheckPool
from skirmish.rules.deck import LOCATIONS, SIDES
from skirmish.rules.equipment import SCREEN_TYPES, Armoury, Speed, Weapon, parse_trait
from skirmish.rules.fi import events as _fi_events  # noqa: F401  (registers FI's event types for `make`)
from skirmish.rules.fi import initiative as ini
from skirmish.rules.fi import thrown as thr
from skirmish.rules.fi.damage import after_damage, ct_max, wound_penalty
from skirmish.rules.fi.ranged import (
    BUMP_SPENDS,
    ArmourLayer,
    ShotFacts,
    ShotSetup,
    TargetState,
    resolve_shot,
    shot_numbers,
)
from skirmish.rules.fi.timing import (
    ATTACK_MODES,
    Part,
    TimingError,
    add_part,
    check_turn,
    declared_speed,
    run_m,
    walk_m,
)
from skirmish.rules.randomizer import Randomizer


@dataclass
class _Hits:
    """Hits to apply, shaped like a shot outcome."""

    hits: list[Any]


@dataclass
class Ctx:
    """What the systems share for one battle."""

    world: World
    grid: Any
    armoury: Armoury
    randomizer: Randomizer
    nav: Navigator
    emit: Callable[[Event], None]
    scope: str
    side_names: tuple[str, ...]
    initiative_cards: str
    concussion_saves: bool
    round: int = 0
    phase: int | None = None


def spawn_unit(ctx: Ctx, spec: Any, side: str, side_index: int, order: int) -> int:
    """Create a combatant's entity from a checked scenario unit."""
    traits = {k: parse_trait(v) for k, v in spec.traits.items()}
    vigor_col = traits["vigor"][0]
    armour = Armour([
        ArmourPiece(a, ctx.armoury.armour[a].name, ctx.armoury.armour[a].kind,
                    {loc: ctx.armoury.armour[a].av for loc in ctx.armoury.armour[a].locations})
        for a in spec.armour
    ])
    weapons = []
    for w in spec.weapons:
        wid = w if isinstance(w, str) else w.weapon
        weapon = ctx.armoury.weapons[wid]
        rounds = weapon.magazine if isinstance(w, str) or w.ammo is None else w.ammo
        mags = 2 if isinstance(w, str) else w.magazines
        weapons.append(WeaponState(wid, rounds, mags))
    if spec.tacpack is not None:
        gen = ctx.armoury.tacpacks[spec.tacpack.type].generator
        tp = Tacpack(spec.tacpack.type, gen, spec.tacpack.screen, spec.tacpack.screen_points,
                     spec.tacpack.screen_points, 0, spec.tacpack.screen, spec.tacpack.screen_points)
    else:
        tp = Tacpack("none", 0)
    cmax = ct_max(SIDES[vigor_col])
    cond = after_damage(0, cmax, spec.wounds, 0, 0)
    health = Health(cond.wounds, cond.ct, cond.dead, cond.incapacitated, cond.unconscious)
    return ctx.world.spawn(
        Identity(spec.name, side, side_index, order), Position(*spec.at), Facing(),
        Profile(traits, dict(spec.skills), spec.size, cmax), health, Cover(), armour,
        Loadout(weapons, _first_fired(ctx.armoury, weapons)), tp, Declared(), Readiness(), Turn(),
        Status(prone=spec.prone or health.incapacitated, known_to=frozenset(ctx.side_names)),
    )


_OCTANTS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))  # by angle from east (y down)


def _condition(hp: Health) -> str:
    """A combatant's state for events: standing, unconscious, incapacitated or dead (R-8.1)."""
    if hp.dead:
        return "dead"
    if hp.incapacitated:
        return "incapacitated"
    return "unconscious" if hp.unconscious else "standing"


def _first_fired(armoury: Armoury, weapons: list[WeaponState]) -> int:
    """The weapon in hand at the start: the first one that is fired rather than thrown."""
    for i, ws in enumerate(weapons):
        if not armoury.weapons[ws.weapon_id].thrown:
            return i
    return 0


class FiSystems:
    """The rules applied to the world for the `fi` ruleset."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.w = ctx.world

    # ------------------------------------------------------------------ helpers
    def name(self, eid: int) -> str:
        """Unit name."""
        return self.w.get(eid, Identity).name

    def active(self, eid: int) -> bool:
        """In action (not dead, incapacitated or unconscious)."""
        return not self.w.get(eid, Health).out_of_action

    def _event(self, etype: str, actor: str | None, rules: tuple[str, ...], **data: Any) -> None:
        # Built by its registered type (skirmish.rules.fi.events); an initiative event's `phase` is the phase
        # the unit got, which C-3 writes in the common key (initiative comes before the phases).
        phase = data.pop("phase", self.ctx.phase)
        self.ctx.emit(make(etype, self.ctx.round, phase, actor, rules, **data))

    def weapon(self, eid: int) -> tuple[Weapon, WeaponState] | None:
        """The active weapon and its state."""
        load = self.w.get(eid, Loadout)
        if not load.weapons:
            return None
        ws = load.weapons[load.active]
        return self.ctx.armoury.weapons[ws.weapon_id], ws

    def skill_pool(self, eid: int, skill: str, trait: str) -> CheckPool:
        """Pool for a skill: trained, related specialisation (−2), or unskilled (halve) (R-3.6)."""
        prof = self.w.get(eid, Profile)
        return skill_pool(prof.traits[trait], prof.skills, skill)

    def wound_mod(self, eid: int) -> tuple[Modifier, ...]:
        """Wound penalty as a modifier list (R-8.1)."""
        pen = wound_penalty(self.w.get(eid, Health).wounds)
        return (Modifier(pen, f"{-pen} wound(s)"),) if pen else ()

    def sight(self, a: int, b: int) -> geo.Sight:
        """Sight from one unit to another, with firing exposure and known positions (R-6.1, R-6.6)."""
        st = self.w.get(b, Status)
        return geo.unit_sight(self.ctx.grid, self.w.cell(a), self.w.cell(b), st.firing,
                              self.w.get(a, Identity).side in st.known_to)

    def _update_known(self, mover: int, before_last: geo.Cell | None) -> None:
        """After a move, the mover's position is known to its side and to every enemy side with a member
        who saw it at its final cell or at its last step before it (docs/RULES-NOTES.md)."""
        st = self.w.get(mover, Status)
        me = self.w.get(mover, Identity)
        grid = self.ctx.grid
        known = {me.side}
        here = self.w.cell(mover)
        for eid, ident in self.w.units():
            if ident.side in known or not self.active(eid):
                continue
            seer = self.w.cell(eid)
            for cell in (here, before_last):
                if cell is None:
                    continue
                if geo.unit_sight(grid, seer, cell, firing=False, known=False).visible:  # seen openly
                    known.add(ident.side)
                    break
        st.known_to = frozenset(known)

    # ------------------------------------------------------------------ declaration and initiative
    def declare(self, eid: int, action: Declare) -> None:
        """Set a unit's declaration for the round (R-5.1)."""
        if action.speed not in ini.DECLARATIONS:
            raise IllegalAction(f"R-5.1: declare one of {', '.join(ini.DECLARATIONS)}, not {action.speed!r}")
        dec = self.w.get(eid, Declared)
        st = self.w.get(eid, Status)
        speed = action.speed
        if st.waiting:
            speed = "fast"  # waiting into the next round declares FAST for readiness
        dec.speed = speed
        dec.phase_pref = action.phase
        self._event("declare", self.name(eid), ("R-5.1",), speed=speed,
                    carried_wait=bool(st.waiting))

    def initiative(self, eids: list[int]) -> None:
        """Turn the initiative card(s) and read every Reflex on it (R-5.1, R-5.2)."""
        r = self.ctx.randomizer
        shared = r.draw() if self.ctx.initiative_cards == "one" else None
        per_side: dict[int, Any] = {}
        for eid in eids:
            ident = self.w.get(eid, Identity)
            if self.ctx.initiative_cards == "per_side":
                if ident.side_index not in per_side:
                    per_side[ident.side_index] = r.draw()
                draw = per_side[ident.side_index]
            elif shared is not None:
                draw = shared
            else:
                draw = r.draw()
            dec = self.w.get(eid, Declared)
            col, training = self.w.get(eid, Profile).traits["reflexes"]
            speed = ini.timing_speed(dec.speed, dec.hesitated_last)
            mods = self.wound_mod(eid)
            mod_total = sum(m.value for m in mods)
            phase_tns = ini.INITIATIVE_BAR[speed]
            read = draw.check(col, training, phase_tns[0], mod_total, want_bumps=False)
            total = 0 if read.cf else read.result + mod_total
            options = ini.phase_options(total, read.cf, speed)
            dec.read, dec.cf = total, read.cf
            if options:
                pref = dec.phase_pref or options[0]
                later = [p for p in options if p >= pref]
                dec.phase = later[0] if later else options[-1]
                dec.hesitating = False
            else:
                dec.phase = None
                dec.hesitating = True
            self._event(
                "initiative", ident.name, ("R-5.1", "R-5.2") + (("R-3.5",) if read.cf else ()),
                declared=dec.speed, bar=speed.label, column=col, row=training, result=total, cf=read.cf,
                tns=list(phase_tns), options=options, phase=dec.phase, hesitate=dec.hesitating,
                modifiers=[m.to_json() for m in mods], **read.source,
            )
            r.settle()

    def phase_order(self, eids: list[int], phase: int) -> list[int]:
        """Who acts in a phase and in what order (R-5.1)."""
        chosen = [e for e in eids if self.w.get(e, Declared).phase == phase]

        def key(e: int) -> tuple[int, ...]:
            col, tr = self.w.get(e, Profile).traits["reflexes"]
            return ini.order_key(col, tr, self.w.get(e, Identity).side_index, e)

        return sorted(chosen, key=key)

    # ------------------------------------------------------------------ turns
    def begin_turn(self, eid: int) -> bool:
        """Start a unit's turn; False if it cannot act (stunned loses this action, R-8.2)."""
        hp = self.w.get(eid, Health)
        turn = self.w.get(eid, Turn)
        turn.parts = []
        turn.moved_this_turn = turn.ran_this_turn = False
        turn.acted = False
        if hp.stunned:
            hp.stunned = False
            self._event("stunned", self.name(eid), ("R-8.2",), text="loses this action to concussion")
            return False
        st = self.w.get(eid, Status)
        if st.waiting:
            st.waiting = None  # its turn came: it acts now instead
        return True

    def _declared_speed(self, eid: int) -> Speed:
        return declared_speed(self.w.get(eid, Declared).speed)

    def check_parts(self, eid: int, extra: Part) -> list[Part]:
        """The turn's parts with `extra` added, if the declared speed allows them (R-5.3–R-5.5, R-6.3)."""
        parts = add_part(self.w.get(eid, Turn).parts, extra)
        try:
            check_turn(self._declared_speed(eid), parts)
        except TimingError as exc:
            raise IllegalAction(str(exc)) from None
        return parts

    def check(self, eid: int, action: Action) -> None:
        """Raise IllegalAction if the rules refuse this action of a turn now; change nothing. The same checks
        gate `apply`, so what this accepts is what `apply` does (STYLE 13)."""
        if isinstance(action, EndTurn):
            return
        if isinstance(action, Declare):
            raise IllegalAction("R-5.1: speeds are declared at the start of the round, not in a turn")
        if isinstance(action, Move):
            _, _, running = self.plan_move(eid, action.to)
            self.check_parts(eid, Part("move", running=running))
        elif isinstance(action, Shoot):
            self.shot_setup(eid, action)
        elif isinstance(action, Throw):
            self.throw_setup(eid, action)
        elif isinstance(action, Aim):
            self.aim_check(eid, action)
        elif isinstance(action, Reload):
            self.reload_check(eid)
        elif isinstance(action, SetTacpack):
            self.tacpack_check(eid, action)
        elif isinstance(action, Wait):
            self.wait_check(eid, action)
        else:
            raise IllegalAction(f"{action.verb} is not an action in a turn")

    def fits(self, eid: int, part: Part) -> bool:
        """True if the turn's parts with `part` added fit the declared speed (R-5.3–R-5.5)."""
        try:
            self.check_parts(eid, part)
        except IllegalAction:
            return False
        return True

    def apply(self, eid: int, action: Action) -> bool:
        """Check and apply one action of a turn; True when the turn is over."""
        if isinstance(action, EndTurn):
            self._event("end_turn", self.name(eid), ("R-5.3",))
            return True
        if isinstance(action, Move):
            self.move(eid, action)
        elif isinstance(action, Shoot):
            self.shoot(eid, action)
        elif isinstance(action, Throw):
            self.throw(eid, action)
        elif isinstance(action, Aim):
            self.aim(eid, action)
        elif isinstance(action, Reload):
            self.reload(eid)
        elif isinstance(action, SetTacpack):
            self.set_tacpack(eid, action)
        elif isinstance(action, Wait):
            self.wait(eid, action)
            return True
        else:
            self.check(eid, action)  # a declaration or anything else that is not an action in a turn: refused
        return not self.active(eid)

    # ------------------------------------------------------------------ movement
    def move_allowance(self, eid: int) -> tuple[float, float]:
        """(walk, run) in metres this turn (R-5.6); a dodging combatant only walks (R-5.4)."""
        col, _ = self.w.get(eid, Profile).traits["dexterity"]
        walk = walk_m(SIDES[col])
        dec = self.w.get(eid, Declared)
        return walk, walk if dec.speed == "dodge" else run_m(SIDES[col])

    def plan_move(self, eid: int, to: geo.Cell) -> tuple[list[geo.Cell], float, bool]:
        """Route, metres and whether it is a run; raises IllegalAction with the reason."""
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if self.w.get(eid, Turn).moved_this_turn:
            raise IllegalAction("one movement action per turn (docs/RULES-NOTES.md)")
        grid = self.ctx.grid
        if not grid.inside(to):
            raise IllegalAction(f"cell {to[0]},{to[1]} is off the map")
        if not grid.passable(to):
            raise IllegalAction(f"cell {to[0]},{to[1]} is {grid.terrain(to).name}: no one can stand there")
        here = self.w.cell(eid)
        occupied = self.w.occupied(except_eid=eid)
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

    def move(self, eid: int, action: Move) -> None:
        """Walk or run along a route, step by step, letting waiting enemies react (R-5.6, R-5.7)."""
        path, metres, running = self.plan_move(eid, action.to)
        parts = self.check_parts(eid, Part("move", running=running))
        turn = self.w.get(eid, Turn)
        turn.parts = parts
        turn.moved_this_turn = True
        turn.ran_this_turn = running
        turn.acted = True
        rd = self.w.get(eid, Readiness)
        rd.target, rd.aim = None, 0  # moving loses readiness and aim
        self.w.get(eid, Status).firing = False
        grid = self.ctx.grid
        self._event("move", self.name(eid), ("R-5.6",) + (("R-5.4",) if running else ()),
                    path=[list(c) for c in path], metres=round(metres, 2), running=running)
        pos = self.w.get(eid, Position)
        face = self.w.get(eid, Facing)
        before_last: geo.Cell | None = None
        beaten: list[int] = []  # waiters the mover beat in the Reflex contest: they act once it stops
        for a, b in itertools.pairwise(path):
            pos.x, pos.y = b
            face.dx, face.dy = b[0] - a[0], b[1] - a[1]
            turn.moved_m += geo.step_cost(grid, a, b) * grid.cell_m
            self._check_triggers(eid, beaten)
            if not self.active(eid):
                self._event("move_stopped", self.name(eid), ("R-8.1",), at=list(b))
                break
            before_last = a
        self._update_known(eid, before_last)
        for waiter in beaten:
            self._late_trigger(waiter, eid)
        self.refresh_cover()

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

    def _check_triggers(self, mover: int, beaten: list[int]) -> None:
        """Waiting enemies who now see the mover react, after a Reflex contest (R-5.7): a waiter that wins
        (or ties: simultaneous) fires at once; one the mover beats is added to `beaten` and acts after the move."""
        mover_side = self.w.get(mover, Identity).side_index
        for eid, ident in self.w.units():
            st = self.w.get(eid, Status)
            if st.waiting != "enemy_in_view" or ident.side_index == mover_side or not self.active(eid):
                continue
            if eid in beaten:
                continue
            if not self.active(mover):
                return
            if not self.sight(eid, mover).visible:
                continue
            draw_w = self.ctx.randomizer.draw()
            draw_m = self.ctx.randomizer.draw()
            pw = self.w.get(eid, Profile).traits["reflexes"]
            pm = self.w.get(mover, Profile).traits["reflexes"]
            rw = draw_w.check(pw[0], pw[1], 0, 0)
            rm = draw_m.check(pm[0], pm[1], 0, 0)
            tw = 0 if rw.cf else rw.result + sum(m.value for m in self.wound_mod(eid))
            tm = 0 if rm.cf else rm.result + sum(m.value for m in self.wound_mod(mover))
            winner = contest_winner(tw, tm, draw_w.impulse, draw_m.impulse)
            self._event("trigger", ident.name, ("R-5.7", "R-3.8"), target=self.name(mover),
                        waiter_result=tw, mover_result=tm, waiter_first=winner != 1, simultaneous=winner == -1,
                        waiter_draw=draw_w.record(), mover_draw=draw_m.record())
            self.ctx.randomizer.settle()
            if winner == 1:
                beaten.append(eid)  # the mover goes first: it finishes its move before the waiter acts
                continue
            st.waiting = None
            self._trigger_shot(eid, mover)

    def _trigger_shot(self, eid: int, target: int) -> None:
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
        """Refuse a wait the rules do not allow now (R-5.7, R-5.4)."""
        if action.trigger != "enemy_in_view":
            raise IllegalAction("R-5.7: the trigger understood is 'enemy_in_view'")
        if self.w.get(eid, Turn).acted:
            raise IllegalAction("R-5.7: waiting holds the whole action; this turn has already acted")
        if self.w.get(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")

    def wait(self, eid: int, action: Wait) -> None:
        """Hold the action for a trigger (R-5.7)."""
        self.wait_check(eid, action)
        self.w.get(eid, Status).waiting = action.trigger
        self._event("wait", self.name(eid), ("R-5.7",), trigger=action.trigger)

    # ------------------------------------------------------------------ shooting
    def shot_setup(self, eid: int, action: Shoot, *, trigger: bool = False) -> tuple[ShotSetup, TargetState, int]:
        """Check a shot and work out its TN, modifiers and target state (R-6.1–R-6.6)."""
        w = self.w
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if not w.has(action.target):
            raise IllegalAction(f"no unit called {action.target!r}")
        tgt = w.entity(action.target)
        if w.get(tgt, Identity).side_index == w.get(eid, Identity).side_index:
            raise IllegalAction(f"{action.target} is on your side")
        if w.get(tgt, Health).out_of_action:
            raise IllegalAction(f"{action.target} is already out of action")
        dec = w.get(eid, Declared)
        if dec.speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
        wpn = self.weapon(eid)
        if wpn is None:
            raise IllegalAction("no weapon")
        weapon, ws = wpn
        if weapon.thrown:
            raise IllegalAction(f"R-6.10: the {weapon.name} is thrown at a cell (throw), not fired")
        if ws.jammed:
            raise IllegalAction(f"R-4.8: the {weapon.name} has broken down; clear it with a reload action")
        if action.mode not in ATTACK_MODES:
            raise IllegalAction(f"R-6.2: attack mode is snap, prepared or aimed, not {action.mode!r}")
        if action.burst:
            if action.burst not in weapon.bursts:
                raise IllegalAction(f"R-6.3: the {weapon.name} cannot fire a burst of {action.burst}")
            if action.mode == "aimed" or action.called:
                raise IllegalAction("R-6.3: no aiming or called shots on automatic")
        needed = action.burst or 1
        if ws.rounds < needed:
            raise IllegalAction(f"R-6.12: {ws.rounds} round(s) left, {needed} needed; reload")
        tp = w.get(eid, Tacpack)
        power = weapon.shot_power(action.burst)
        if weapon.energy and tp.spent + power > tp.generator:
            what = f"a burst of {action.burst} draws {power}" if action.burst else f"the {weapon.name} draws {power}"
            raise IllegalAction(f"R-6.13: the tacpack has {max(0, tp.generator - tp.spent)} point(s) left this "
                                f"round; {what}")
        if action.called is not None and action.called not in LOCATIONS:
            raise IllegalAction(f"R-6.1: unknown called location {action.called!r}")
        for spend in action.spends or ():
            name, at, index = spend.partition("@")
            if name not in BUMP_SPENDS or (at and not index.isdigit()):
                raise IllegalAction(f"R-6.4: unknown bump spend {spend!r}; spends are {', '.join(BUMP_SPENDS)} "
                                    f"(damage, armour, a_to_p and d_to_a may name a hit: damage@1)")
        grid = self.ctx.grid
        here, there = w.cell(eid), w.cell(tgt)
        sight = self.sight(eid, tgt)
        if not sight.visible:
            raise IllegalAction(f"R-6.1: {action.target} is not in line of sight")
        dist = geo.distance_m(here, there, grid.cell_m)
        if dist > weapon.max_range_m + 1e-9:
            raise IllegalAction(f"R-6.1: {dist:.0f} m is beyond the {weapon.name}'s {weapon.max_range_m:g} m")
        if not trigger:
            self.check_parts(eid, self._attack_part(weapon, action.mode))

        tprof = w.get(tgt, Profile)
        dodging = w.get(tgt, Declared).speed == "dodge" and self.ctx.round > 0
        turn = w.get(eid, Turn)
        moved = "none"
        if not trigger and turn.moved_this_turn:
            moved = "ran" if turn.ran_this_turn else "walked"
        rd = w.get(eid, Readiness)
        facts = ShotFacts(
            distance_m=dist, mode=action.mode, burst=action.burst, called=action.called, firer_moved=moved,
            ready=rd.target == action.target, aims=rd.aim, target=action.target, target_size=tprof.size,
            target_dodge=tprof.skills.get("dodge", 0) if dodging else 0, target_moved_m=w.get(tgt, Turn).moved_m,
            concealed=sight.concealed,
        )
        target_tn, tn_mods, shot_mods = shot_numbers(weapon, facts, tn("standard", self.ctx.scope))  # type: ignore[arg-type]
        pool = self.skill_pool(eid, weapon.skill, "dexterity")
        mods = list(pool.modifiers) + list(self.wound_mod(eid)) + shot_mods
        exposed: frozenset[str] = frozenset()
        concealed = sight.concealed
        if sight.cover == "high":
            exposed = frozenset({"head", "chest", "right_arm"})
        st_t = w.get(tgt, Status)
        prone_rule = st_t.prone and dist > 2.0 + 1e-9
        point_blank = geo.adjacent(here, there)
        setup = ShotSetup(
            weapon=weapon, column=pool.column, row=pool.row, halve=pool.halve, tn=target_tn,
            tn_mods=tuple(tn_mods), result_mods=tuple(mods), distance_m=dist, burst=action.burst,
            cover=sight.cover, cover_av=sight.cover_av, concealed=concealed, exposed=exposed,
            point_blank=point_blank, prone_rule=prone_rule, called=action.called, spends=action.spends,
        )
        return setup, self._target_state(tgt), tgt

    @staticmethod
    def _attack_part(weapon: Weapon, mode: str) -> Part:
        """A shot's timing part: shots up to the rate of fire share one attack action (R-6.3)."""
        return Part("attack", int(weapon.speed), mode, weapon=weapon.id, rof=max(1, weapon.rof))

    def _target_state(self, tgt: int) -> TargetState:
        """What the rules need of a target: size, armour layers by location, screen, prone."""
        w = self.w
        armour: dict[str, list[ArmourLayer]] = {}
        for i, piece in enumerate(w.get(tgt, Armour).pieces):
            for loc, av in piece.av.items():
                armour.setdefault(loc, []).append(ArmourLayer(i, piece.name, piece.kind, av))
        ttp = w.get(tgt, Tacpack)
        return TargetState(
            size=w.get(tgt, Profile).size, armour={k: tuple(v) for k, v in armour.items()},
            screen_type=ttp.screen_type if ttp.screen_type != "none" else None, screen_av=ttp.screen_av,
            prone=w.get(tgt, Status).prone,
        )

    def shoot(self, eid: int, action: Shoot, *, trigger: bool = False) -> None:
        """Fire: one draw resolves hit, burst, location, cover, armour, damage and breakdown (R-6)."""
        setup, target, tgt = self.shot_setup(eid, action, trigger=trigger)
        w = self.w
        weapon, ws = self.weapon(eid)  # type: ignore[misc]
        if not trigger:
            w.get(eid, Turn).parts = self.check_parts(eid, self._attack_part(weapon, action.mode))
        w.get(eid, Turn).acted = True
        draw = self.ctx.randomizer.draw()
        out = resolve_shot(draw, setup, target)
        ws.rounds -= action.burst or 1
        tp = w.get(eid, Tacpack)
        if weapon.energy:
            tp.shot_points += weapon.shot_power(action.burst)  # checked in shot_setup: never above the generator
        rd = w.get(eid, Readiness)
        rd.target, rd.aim = action.target, 0  # after a shot the weapon stays ready on that target
        w.get(eid, Status).firing = True
        a, b = w.cell(eid), w.cell(tgt)
        face = w.get(eid, Facing)
        face.dx, face.dy = (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])
        if out.breakdown:
            ws.jammed = True
        rules = ["R-6.1", "R-6.2", "R-3.3", "R-6.4"]
        if action.burst:
            rules.append("R-6.3")
        if setup.cover != "none":
            rules.append("R-6.6")
        if any(h.layers for h in out.hits):
            rules.append("R-6.7")
        if out.hits:
            rules += ["R-4.4", "R-6.8"]
        if setup.prone_rule:
            rules.append("R-6.5")
        if out.cf:
            rules.append("R-3.5")
        if out.breakdown:
            rules.append("R-4.8")
        if target.screen_type:
            rules.append("R-6.13")
        first = out.hits[0] if out.hits else None
        self._event(
            "attack", self.name(eid), tuple(rules),
            target=action.target, weapon=weapon.id, mode=action.mode, burst=action.burst,
            called=action.called, trigger=trigger, distance_m=round(setup.distance_m, 2),
            tn=out.tn, tn_modifiers=[m.to_json() for m in setup.tn_mods],
            column=setup.column, row=setup.row, halved=setup.halve, read=out.read, cf=out.cf,
            result=out.total, hit=out.hit, bumps=out.bumps, bump_pool=out.pool, spent=out.spent,
            rounds_hit=out.rounds_hit, cover=setup.cover, cover_av=setup.cover_av,
            location=first.location if first else None,
            ablation=first.layers if first else [],
            damage=out.damage, wounds=out.wounds, ct=out.ct,
            hits=[h.to_json() for h in out.hits], extra_damage=out.extra,
            breakdown=out.breakdown, ammo_left=ws.rounds,
            **({"power": weapon.shot_power(action.burst), "power_left": tp.generator - tp.spent} if weapon.energy
               else {}),
            modifiers=[m.to_json() for m in setup.result_mods], **draw.record(),
        )
        self.ctx.randomizer.settle()
        self._apply_hits(tgt, out)

    def _apply_hits(self, tgt: int, out: Any) -> None:
        w = self.w
        arm = w.get(tgt, Armour)
        ttp = w.get(tgt, Tacpack)
        hp = w.get(tgt, Health)
        total_ct = 0
        for h in out.hits:
            for piece, loss in h.av_loss:
                p = arm.pieces[piece]
                p.av[h.location] = max(0, p.av[h.location] - loss)
            if h.screen_loss:
                ttp.screen_av = max(0, ttp.screen_av - h.screen_loss)
            if h.wounds or h.ct:
                was = _condition(hp)
                cond = after_damage(hp.wounds, hp.ct, h.wounds, h.ct, h.wounds if h.location == "head" else 0)
                hp.wounds, hp.ct = cond.wounds, cond.ct
                hp.dead = hp.dead or cond.dead
                hp.incapacitated = (not hp.dead) and (hp.incapacitated or cond.incapacitated)
                hp.unconscious = (not hp.dead) and (hp.unconscious or cond.unconscious)
                total_ct += h.ct
                state = _condition(hp)
                if state != was:  # every change of state gets its event, e.g. incapacitated, then dead
                    st = w.get(tgt, Status)
                    st.prone = True
                    st.waiting = None
                    self._event("out_of_action", self.name(tgt), ("R-8.1",), state=state,
                                wounds=hp.wounds, ct=hp.ct, **({"was": was} if was != "standing" else {}))
        if total_ct:
            rd = w.get(tgt, Readiness)
            rd.target, rd.aim = None, 0  # CT damage loses readiness
        if total_ct and not hp.out_of_action and self.ctx.concussion_saves:
            self.concussion_save(tgt)

    def concussion_save(self, eid: int) -> None:
        """Vigor check vs Standard after CT damage; failure stuns (R-8.2)."""
        col, training = self.w.get(eid, Profile).traits["vigor"]
        target = tn("standard", self.ctx.scope)  # type: ignore[arg-type]
        mods = self.wound_mod(eid)
        draw = self.ctx.randomizer.draw()
        read = draw.check(col, training, target, sum(m.value for m in mods))
        res = settle(read.result, read.cf, CheckPool(col, training, "vigor"), target, mods)
        if not res.success:
            self.w.get(eid, Health).stunned = True
        self._event("concussion", self.name(eid), ("R-8.2",), column=col, row=training, tn=target,
                    result=res.total, cf=res.cf, success=res.success, stunned=not res.success,
                    modifiers=[m.to_json() for m in mods], **draw.record())
        self.ctx.randomizer.settle()

    # ------------------------------------------------------------------ thrown explosives
    def throwable(self, eid: int, item: str) -> tuple[Weapon, WeaponState]:
        """The carried thrown weapon called `item` (the first one carried if `item` is empty)."""
        for ws in self.w.get(eid, Loadout).weapons:
            weapon = self.ctx.armoury.weapons[ws.weapon_id]
            if weapon.thrown and (ws.weapon_id == item or not item) and ws.rounds > 0:
                return weapon, ws
        what = item.replace("_", " ") if item else "thrown weapon"
        raise IllegalAction(f"R-6.10: {self.name(eid)} carries no {what} to throw")

    def throw_setup(self, eid: int, action: Throw) -> ShotSetup:
        """Check a throw and work out its TN and modifiers (R-6.10, R-6.1); raises IllegalAction."""
        w = self.w
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if w.get(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
        weapon, _ = self.throwable(eid, action.item)
        grid = self.ctx.grid
        here, at = w.cell(eid), (int(action.at[0]), int(action.at[1]))
        if not grid.inside(at):
            raise IllegalAction(f"cell {at[0]},{at[1]} is off the map")
        if grid.blocks_sight[at[1], at[0]]:
            raise IllegalAction(f"R-6.10: cell {at[0]},{at[1]} is {grid.terrain(at).name}; throw at an open cell")
        if not geo.sight(grid, here, at).visible:
            raise IllegalAction(f"R-6.10: no line of sight to {at[0]},{at[1]}")
        strength = w.get(eid, Profile).traits["strength"][0]
        dist = geo.distance_m(here, at, grid.cell_m)
        limit = thr.max_throw_m(strength)
        if dist > limit + 1e-9:
            raise IllegalAction(f"R-6.10: {dist:.0f} m is beyond a Strength {strength} throw of {limit:g} m")
        self.check_parts(eid, Part("attack", int(weapon.speed), "prepared"))
        target_tn, range_mod = thr.throw_tn(dist, strength, tn("standard", self.ctx.scope))  # type: ignore[arg-type]
        pool = self.skill_pool(eid, weapon.skill, "dexterity")
        mods = list(pool.modifiers) + list(self.wound_mod(eid))
        turn = w.get(eid, Turn)
        if turn.moved_this_turn:
            mods.append(Modifier(-2, "running attack (R-5.4)") if turn.ran_this_turn
                        else Modifier(-1, "thrower walked (R-6.1)"))
        setup = ShotSetup(weapon=weapon, column=pool.column, row=pool.row, halve=pool.halve, tn=target_tn,
                          tn_mods=(range_mod,), result_mods=tuple(mods), distance_m=dist)
        return setup

    def caught(self, land: geo.Cell, weapon: Weapon) -> list[tuple[int, float, geo.Sight]]:
        """Combatants the burst at `land` can harm, nearest first: in reach (armour keeps out the outer ring),
        with a straight line from the burst not stopped by a wall (R-6.9, docs/RULES-NOTES.md)."""
        grid = self.ctx.grid
        out = []
        for eid, _ in self.w.units():
            if self.w.get(eid, Health).dead:
                continue
            cell = self.w.cell(eid)
            if thr.in_blast(grid, weapon, land, cell, self.armoured(eid)) is not None:
                out.append((eid, geo.distance_m(land, cell, grid.cell_m), geo.sight(grid, land, cell)))
        out.sort(key=lambda t: (t[1], t[0]))
        return out

    def armoured(self, eid: int) -> bool:
        """Wears any armour with AV left (R-6.9: keeps out the outer ring of a burst)."""
        return any(any(piece.av.values()) for piece in self.w.get(eid, Armour).pieces)

    def throw(self, eid: int, action: Throw) -> None:
        """Throw: one draw places it (a miss scatters, R-6.10); each combatant the burst reaches draws a
        card for its damage (R-6.9, R-6.8)."""
        setup = self.throw_setup(eid, action)
        weapon = setup.weapon
        w = self.w
        _, ws = self.throwable(eid, action.item)
        turn = w.get(eid, Turn)
        turn.parts = self.check_parts(eid, Part("attack", int(weapon.speed), "prepared"))
        turn.acted = True
        grid = self.ctx.grid
        here, aim = w.cell(eid), (int(action.at[0]), int(action.at[1]))
        draw = self.ctx.randomizer.draw()
        place = thr.place_throw(draw, setup, grid, here, aim)
        land, scatter = place.landed, place.scatter
        ws.rounds -= 1
        rd = w.get(eid, Readiness)
        rd.target, rd.aim = None, 0  # throwing is not firing the readied weapon
        face = w.get(eid, Facing)
        face.dx, face.dy = (aim[0] > here[0]) - (aim[0] < here[0]), (aim[1] > here[1]) - (aim[1] < here[1])
        rules = ["R-6.10", "R-3.3"] + (["R-4.9"] if scatter else []) + (["R-3.5"] if place.cf else [])
        victims = self.caught(land, weapon)
        self._event(
            "throw", self.name(eid), tuple(rules), item=weapon.id, at=list(aim), distance_m=round(setup.distance_m, 2),
            tn=setup.tn, tn_modifiers=[m.to_json() for m in setup.tn_mods], column=setup.column, row=setup.row,
            halved=setup.halve, read=place.read, cf=place.cf, result=place.total, hit=place.hit,
            scatter=scatter.to_json() if scatter else None, landed=list(land), radius_m=weapon.blast_m,
            reach_m=thr.blast_reach_m(weapon), caught=[self.name(v) for v, _, _ in victims], left=ws.rounds,
            modifiers=[m.to_json() for m in setup.result_mods], **draw.record(),
        )
        self.ctx.randomizer.settle()
        for victim, dist, sight in victims:
            self._blast_hit(eid, victim, weapon, land, dist, sight)

    def _blast_hit(self, eid: int, victim: int, weapon: Weapon, land: geo.Cell, dist: float, sight: geo.Sight) -> None:
        """One combatant caught by a burst: its own card gives location, armour and damage (R-6.9)."""
        target = self._target_state(victim)
        column = thr.blast_column(weapon, dist, self.armoured(victim))
        if column is None:
            return
        draw = self.ctx.randomizer.draw()
        h = thr.resolve_blast(draw, weapon, column, target, cover=sight.cover, cover_av=sight.cover_av,
                              distance_m=dist)
        zone = "full" if dist <= weapon.blast_m + 1e-9 else "outer"
        rules = ["R-6.9", "R-6.8"] + (["R-6.6"] if h.cover else []) + (["R-6.7"] if h.layers else [])
        self._event(
            "blast", self.name(eid), tuple(rules), target=self.name(victim), item=weapon.id, at=list(land),
            distance_m=round(dist, 2), zone=zone, column=column, row=weapon.damage.row, cover=sight.cover,
            cover_av=sight.cover_av, location=h.location, ablation=h.layers, damage=h.damage, wounds=h.wounds,
            ct=h.ct, hits=[h.to_json()], **draw.record(),
        )
        self.ctx.randomizer.settle()
        self._apply_hits(victim, _Hits([h]))

    # ------------------------------------------------------------------ aim, reload, tacpack
    def aim_check(self, eid: int, action: Aim) -> list[Part]:
        """Refuse an aim the rules do not allow now (R-6.2, R-5.4); the turn's parts with it."""
        if not self.w.has(action.target):
            raise IllegalAction(f"no unit called {action.target!r}")
        wpn = self.weapon(eid)
        if wpn is None:
            raise IllegalAction("no weapon")
        weapon, _ = wpn
        if weapon.thrown:
            raise IllegalAction(f"R-6.10: a {weapon.name} is thrown at a cell; there is no aiming")
        if self.w.get(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
        tgt = self.w.entity(action.target)
        if self.w.get(tgt, Identity).side_index == self.w.get(eid, Identity).side_index:
            raise IllegalAction(f"{action.target} is on your side")
        if self.w.get(tgt, Health).out_of_action:
            raise IllegalAction(f"{action.target} is already out of action")
        if not self.sight(eid, tgt).visible:
            raise IllegalAction(f"R-6.2: {action.target} is not in line of sight")
        return self.check_parts(eid, Part("aim", int(weapon.speed)))

    def aim(self, eid: int, action: Aim) -> None:
        """An action spent only aiming: readies the weapon on the target and adds +x (R-6.2)."""
        self.w.get(eid, Turn).parts = self.aim_check(eid, action)
        self.w.get(eid, Turn).acted = True
        rd = self.w.get(eid, Readiness)
        # an action spent only aiming readies the weapon on the target and adds +x (at most +2x)
        rd.aim = min(2, rd.aim + 1) if rd.target == action.target else 1
        rd.target = action.target
        self._event("aim", self.name(eid), ("R-6.2",), target=action.target, aim=rd.aim)

    def reload_check(self, eid: int) -> list[Part]:
        """Refuse a reloading action the rules do not allow now (R-6.12); the turn's parts with it."""
        wpn = self.weapon(eid)
        if wpn is None:
            raise IllegalAction("no weapon")
        weapon, ws = wpn
        if weapon.thrown:
            raise IllegalAction(f"R-6.12: a {weapon.name} is not reloaded")
        if not ws.jammed and ws.rounds == weapon.magazine:
            raise IllegalAction("R-6.12: the magazine is full")
        if not ws.jammed and ws.magazines <= 0:
            raise IllegalAction("R-6.12: no spare magazines")
        return self.check_parts(eid, Part("reload", int(Speed.NORMAL)))

    def reload(self, eid: int) -> None:
        """One reloading action: clears a breakdown, or takes a magazine out / puts one in (R-6.12)."""
        self.w.get(eid, Turn).parts = self.reload_check(eid)
        self.w.get(eid, Turn).acted = True
        weapon, ws = self.weapon(eid)  # type: ignore[misc]
        rd = self.w.get(eid, Readiness)
        rd.target, rd.aim = None, 0
        if ws.jammed:
            ws.jammed = False
            self._event("reload", self.name(eid), ("R-4.8",), cleared=True, rounds=ws.rounds)
            return
        ws.reload_stage += 1
        done = ws.reload_stage >= weapon.reload_actions
        if done:
            ws.reload_stage = 0
            ws.magazines -= 1
            ws.rounds = weapon.magazine
        self._event("reload", self.name(eid), ("R-6.12",), stage=ws.reload_stage if not done else
                    weapon.reload_actions, of=weapon.reload_actions, done=done, rounds=ws.rounds,
                    magazines=ws.magazines)

    def tacpack_check(self, eid: int, action: SetTacpack) -> list[Part]:
        """Refuse a generator split the rules do not allow now (R-6.13, R-5.3); the turn's parts with it."""
        tp = self.w.get(eid, Tacpack)
        if tp.generator == 0:
            raise IllegalAction("no tacpack")
        if action.screen != "none" and action.screen not in SCREEN_TYPES:
            raise IllegalAction(f"R-6.13: screen is one of {', '.join(SCREEN_TYPES)} or none")
        points = action.points if action.screen != "none" else 0
        if points < 0 or points + tp.shot_points > tp.generator:
            raise IllegalAction(f"R-6.13: {points} screen point(s) + {tp.shot_points} spent on shots exceeds the "
                                f"generator's {tp.generator}")
        return self.check_parts(eid, Part("free"))

    def set_tacpack(self, eid: int, action: SetTacpack) -> None:
        """Split the generator (a free action): screen type and points (R-6.13)."""
        self.w.get(eid, Turn).parts = self.tacpack_check(eid, action)
        tp = self.w.get(eid, Tacpack)
        points = action.points if action.screen != "none" else 0
        tp.screen_type, tp.screen_points, tp.screen_av = action.screen, points, points
        self._event("tacpack", self.name(eid), ("R-6.13",), screen=action.screen, points=points,
                    generator=tp.generator)

    def face_enemies(self) -> None:
        """At the start, each miniature faces the middle of the enemy force (to the nearest 45°)."""
        units = [(e, i, self.w.cell(e)) for e, i in self.w.units()]
        for eid, ident, (x, y) in units:
            foes = [c for _, i, c in units if i.side_index != ident.side_index]
            if not foes:
                continue
            dx = sum(c[0] for c in foes) / len(foes) - x
            dy = sum(c[1] for c in foes) / len(foes) - y
            if dx == 0 and dy == 0:
                continue
            octant = round(math.atan2(dy, dx) / (math.pi / 4)) % 8
            face = self.w.get(eid, Facing)
            face.dx, face.dy = _OCTANTS[octant]

    # ------------------------------------------------------------------ bookkeeping
    def refresh_cover(self) -> None:
        """Each combatant's best cover against enemies that can see it (for the AI and the board)."""
        units = [(e, i) for e, i in self.w.units() if self.active(e)]
        for eid, ident in units:
            best = (0, 0)
            for oid, other in units:
                if other.side_index == ident.side_index:
                    continue
                s = geo.sight(self.ctx.grid, self.w.cell(oid), self.w.cell(eid))
                if s.visible:
                    best = max(best, (geo.COVER_LEVEL[s.cover], s.cover_av))
            cov = self.w.get(eid, Cover)
            cov.level, cov.av = geo.COVER_NAME[best[0]], best[1]

    def end_round(self) -> None:
        """Bookkeeping: hesitation carries a speed-up, tacpacks reset, movement tallies clear (R-5.2, R-6.13)."""
        for eid, _ in self.w.units():
            dec = self.w.get(eid, Declared)
            dec.hesitated_last = dec.hesitating and not dec.cf
            dec.speed = None  # the next round's declaration is made afresh
            dec.phase = None
            dec.hesitating = False
            turn = self.w.get(eid, Turn)
            turn.moved_m = 0.0
            tp = self.w.get(eid, Tacpack)
            tp.shot_points = 0
            tp.screen_av = tp.screen_points
            st = self.w.get(eid, Status)
            if not self.active(eid):
                st.waiting = None

