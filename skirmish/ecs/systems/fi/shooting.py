"""Future Imperfect systems: shooting, damage and concussion (R-6, R-8.1, R-8.2); aiming, reloading and the tacpack's
split are readying.py's (FiReadying, the next class down)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import (
    Armour,
    Declared,
    Facing,
    Health,
    Identity,
    Profile,
    Readiness,
    Status,
    Tacpack,
    Turn,
    WeaponState,
)
from skirmish.ecs.systems.fi import attack_event, covering, shot_kinds, two_weapons, unintended
from skirmish.ecs.systems.fi.base import _condition
from skirmish.ecs.systems.fi.round import FiRound
from skirmish.rules import geometry as geo
from skirmish.rules.actions import (
    Shoot,
)
from skirmish.rules.checks import Pool as CheckPool
from skirmish.rules.checks import settle, tn
from skirmish.rules.equipment import Weapon
from skirmish.rules.fi.damage import after_damage
from skirmish.rules.fi.ranged import (
    BUMP_SPENDS,
    CALLED_SHOTS,
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
)
from skirmish.rules.randomizer import Draw


class FiShooting(FiRound):
    """Shots and what they do (aim, reload and tacpack settings: FiReadying)."""

    # ------------------------------------------------------------------ shooting
    def shot_setup(self, eid: int, action: Shoot, *, trigger: bool = False,
                   charge: bool = False) -> tuple[ShotSetup, TargetState, int]:
        """Check a shot and work out its TN, modifiers and target state (R-6.1–R-6.6). Only reads (`World.peek`):
        legality and the odds ask it for shots never made, and `shoot` changes what it changes itself."""
        special = shot_kinds.setup(self, eid, action, trigger)  # off hand, double tap, split burst (issue 14)
        if special is not None:
            return special
        w = self.w
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        tgt = self.enemy_named(eid, action.target)
        weapon, _ = self.shot_firer_check(eid, action)
        grid = self.ctx.grid
        here, there = w.cell(eid), w.cell(tgt)
        sight = self.sight(eid, tgt)
        if not sight.visible:
            raise IllegalAction(f"R-6.1: {action.target} is not in line of sight")
        dist = geo.distance_m(here, there, grid.cell_m)
        if dist > weapon.max_range_m + 1e-9:
            raise IllegalAction(f"R-6.1: {dist:.0f} m is beyond the {weapon.name}'s {weapon.max_range_m:g} m")
        if not trigger and not charge:  # (a charge's timing is the charge's own, R-5.4)
            self.check_parts(eid, self.attack_part(eid, weapon, action.mode))
        return self._shot_numbers(eid, tgt, action, weapon, sight, dist, trigger)

    def shot_firer_check(self, eid: int, action: Shoot) -> tuple[Weapon, WeaponState]:
        """`shot_setup`'s checks about the firer, its weapon, the mode and the burst (not the target, nor the
        timing: `check_parts` comes after the target's sight and range), in its order; raises IllegalAction.
        The weapon in hand and its state."""
        w = self.w
        dec = w.peek(eid, Declared)
        if dec.speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
        wpn = self.weapon(eid)
        if wpn is None:
            raise IllegalAction("no weapon")
        weapon, ws = wpn
        if weapon.thrown or weapon.launched:
            how = "launched at a cell (launch)" if weapon.launched else "thrown at a cell (throw)"
            raise IllegalAction(f"R-6.10: the {weapon.name} is {how}, not fired")
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
        tp = w.peek(eid, Tacpack)
        power = weapon.shot_power(action.burst)
        if weapon.energy and tp.spent + power > tp.generator:
            what = f"a burst of {action.burst} draws {power}" if action.burst else f"the {weapon.name} draws {power}"
            raise IllegalAction(f"R-6.13: the tacpack has {max(0, tp.generator - tp.spent)} point(s) left this "
                                f"round; {what}")
        if action.called is not None and action.called not in CALLED_SHOTS:
            raise IllegalAction(f"R-6.1: unknown called location {action.called!r}; a shot may be called at "
                                f"{', '.join(CALLED_SHOTS)}")
        for spend in action.spends or ():
            name, at, index = spend.partition("@")
            if name not in BUMP_SPENDS or (at and not index.isdigit()):
                raise IllegalAction(f"R-6.4: unknown bump spend {spend!r}; spends are {', '.join(BUMP_SPENDS)} "
                                    f"(damage, armour, a_to_p and d_to_a may name a hit: damage@1)")
        return weapon, ws

    def _shot_numbers(self, eid: int, tgt: int, action: Shoot, weapon: Weapon, sight: geo.Sight, dist: float,
                      trigger: bool) -> tuple[ShotSetup, TargetState, int]:
        """A shot `shot_setup` accepts: its TN, modifiers and target state (refuses nothing)."""
        w = self.w
        here, there = w.cell(eid), w.cell(tgt)
        tprof = w.get(tgt, Profile)
        dodging = w.peek(tgt, Declared).speed == "dodge" and self.ctx.round > 0
        turn = w.peek(eid, Turn)
        moved = "none"
        if not trigger and turn.moved_this_turn:
            moved = "ran" if turn.ran_this_turn else "walked"
        rd = w.peek(eid, Readiness)
        facts = ShotFacts(
            distance_m=dist, mode=action.mode, burst=action.burst, called=action.called, firer_moved=moved,
            ready=rd.target == action.target, aims=rd.aim, target=action.target, target_size=tprof.size,
            target_dodge=tprof.skills.get("dodge", 0) if dodging else 0, target_moved_m=w.peek(tgt, Turn).moved_m,
            target_rate_m=w.peek(tgt, Turn).rate_m,
            concealed=sight.concealed, firer_mounted=w.peek(eid, Status).mounted,
        )
        target_tn, tn_mods, shot_mods = shot_numbers(weapon, facts, tn("standard", self.ctx.scope))  # type: ignore[arg-type]
        focused = self.mind_tn_mods(tgt)  # a focused auxiliary action lowers the TN
        if focused:
            target_tn += sum(m.value for m in focused)
            tn_mods = [*tn_mods, *focused]
        pool = self.skill_pool(eid, weapon.skill, "dexterity")
        mods = (list(pool.modifiers) + list(self.wound_mod(eid)) + list(self.mind_mods(eid)) + shot_mods
                + two_weapons.modifiers(self, eid, weapon) + covering.pinned_mods(self, eid))  # pinned
        exposed: frozenset[str] = frozenset()
        concealed = sight.concealed
        if sight.cover == "high":
            exposed = frozenset({"head", "chest", "right_arm"})
        st_t = w.peek(tgt, Status)
        prone_rule = st_t.prone and dist > 2.0 + 1e-9
        point_blank = geo.adjacent(here, there)
        setup = ShotSetup(
            weapon=weapon, column=pool.column, row=pool.row, halve=pool.halve, tn=target_tn,
            tn_mods=tuple(tn_mods), result_mods=tuple(mods), distance_m=dist, burst=action.burst,
            cover=sight.cover, cover_av=sight.cover_av, concealed=concealed, exposed=exposed,
            point_blank=point_blank, prone_rule=prone_rule, called=action.called, spends=action.spends,
        )
        return setup, self._target_state(tgt), tgt

    def shot_target_ok(self, eid: int, target: str) -> bool:
        """`shot_setup`'s checks about the target alone, for the weapon in hand: it exists, is an enemy still in
        action, in sight and within the weapon's range (R-6.1). The rest of shot_setup reads only the firer, the
        mode and the burst (legality lists shots with it; tests/test_legality_fast.py holds them equal)."""
        w = self.w
        wpn = self.weapon(eid)
        if wpn is None or not self.aim_target_ok(eid, target):
            return False
        return geo.distance_m(w.cell(eid), w.cell(w.entity(target)), self.ctx.grid.cell_m) <= wpn[0].max_range_m + 1e-9

    def aim_target_ok(self, eid: int, target: str) -> bool:
        """`aim_check`'s checks about the target alone: it exists, is an enemy still in action and in sight
        (R-6.2). The rest of aim_check reads only the firer (legality lists aims with it)."""
        w = self.w
        if not w.has(target):
            return False
        tgt = w.entity(target)
        if w.peek(tgt, Identity).side_index == w.peek(eid, Identity).side_index or w.peek(tgt, Health).out_of_action:
            return False
        return self.sight(eid, tgt).visible

    def attack_part(self, eid: int, weapon: Weapon, mode: str, shots: int = 1) -> Part:
        """`eid`'s attack part with `weapon` for `shots` shots: a two-gun unit's hands share one action, each up to
        its own rate of fire (R-6.12)."""
        return two_weapons.attack_part(self, eid, weapon, mode, shots) or self._attack_part(weapon, mode)

    @staticmethod
    def _attack_part(weapon: Weapon, mode: str) -> Part:
        """A shot's timing part: shots up to the rate of fire share one attack action (R-6.3)."""
        return Part("attack", int(weapon.speed), mode, weapon=weapon.id, rof=max(1, weapon.rof))

    def _target_state(self, tgt: int) -> TargetState:
        """What the rules need of a target: size, armour layers by location, screen, prone."""
        w = self.w
        armour: dict[str, list[ArmourLayer]] = {}
        for i, piece in enumerate(w.peek(tgt, Armour).pieces):
            for loc, av in piece.av.items():
                armour.setdefault(loc, []).append(ArmourLayer(i, piece.name, piece.kind, av))
        ttp = w.peek(tgt, Tacpack)
        return TargetState(
            size=w.get(tgt, Profile).size, armour={k: tuple(v) for k, v in armour.items()},
            screen_type=ttp.screen_type if ttp.screen_type != "none" else None, screen_av=ttp.screen_av,
            prone=w.peek(tgt, Status).prone,
        )

    def shoot(self, eid: int, action: Shoot, *, trigger: bool = False, charge: bool = False) -> None:
        """Fire: one draw resolves hit, burst, location, cover, armour, damage and breakdown (R-6); a burst split
        between targets draws one card per target (R-6.3, skirmish.ecs.systems.fi.split); `charge`: the shot of a
        charge, whose move and timing are made (R-5.4)."""
        if shot_kinds.shoot(self, eid, action, trigger):  # off hand, double tap, split burst (issue 14)
            return
        setup, target, tgt = self.shot_setup(eid, action, trigger=trigger, charge=charge)
        weapon, ws = self.weapon(eid)  # type: ignore[misc]
        self.spend_shot(eid, weapon, ws, action, trigger or charge)
        self.fire_at(eid, action, setup, target, tgt, trigger, charge=charge)

    def spend_shot(self, eid: int, weapon: Weapon, ws: WeaponState, action: Shoot, trigger: bool,
                   rounds: int = 0) -> None:
        """A checked shot's action, rounds and tacpack power (R-5.3, R-6.3, R-6.12, R-6.13); `rounds` single shots
        in one pull (a double tap: 2) count as that many shots of the rate of fire; `trigger` (or a charge's shot)
        adds no part to the turn."""
        w = self.w
        if not trigger:
            part = replace(self.attack_part(eid, weapon, action.mode, max(1, rounds)), shots=max(1, rounds))
            w.get(eid, Turn).parts = parts = self.check_parts(eid, part)
            two_weapons.count_shot(self, eid, parts, part.shots)  # each hand's shots in the action
        w.get(eid, Turn).acted = True
        ws.rounds -= rounds or action.burst or 1
        if weapon.energy:  # checked in shot_setup: never above the generator
            w.get(eid, Tacpack).shot_points += weapon.shot_power(action.burst) * max(1, rounds)

    def fire_at(self, eid: int, action: Shoot, setup: ShotSetup, target: TargetState, tgt: int, trigger: bool, *,
                split_plan: dict[str, Any] | None = None, extra: int = 0, power: bool = True, draw: Draw | None = None,
                tap: int | None = None, settle: bool = True, covering: bool = False, charge: bool = False) -> None:
        """One card's shot at one target (its rounds spent by `spend_shot`): the draw (or `draw`, a double tap's
        card read again; a fresh draw's attack check may take a story chip, R-8.5), the unintended targets (R-6.11;
        `extra` rounds of a split burst miss besides), the event, the damage; `settle` False leaves the draw open
        for a second read."""
        w = self.w
        ws = self.weapon(eid)[1]  # type: ignore[index]
        on_line = unintended.listed(self, eid, tgt, setup)  # listed before the draw
        if draw is None:
            draw = self.ctx.randomizer.draw()
            if self.ctx.chips is not None:  # the attack check may take a story chip
                draw = self.ctx.chips.check_draw(self, eid, draw, setup.halve)
        out = resolve_shot(draw, setup, target)
        if self.ctx.chips is not None:
            self.ctx.chips.flush(self)  # the chip events come before the attack they changed
        strays = unintended.strays(self, eid, draw, setup, out, on_line, extra)
        rd = w.get(eid, Readiness)
        rd.target, rd.aim = action.target, 0  # after a shot the weapon stays ready on that target
        w.get(eid, Status).firing = True
        a, b = w.cell(eid), w.cell(tgt)
        face = w.get(eid, Facing)
        face.dx, face.dy = (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])
        if out.breakdown:
            ws.jammed = True
        attack_event.emit(self, eid, action, setup, target, out, draw, on_line, trigger=trigger,
                          split_plan=split_plan, tap=tap, power=power, covering=covering, charge=charge)
        unintended.report(self, eid, draw, strays)
        if settle:
            self.ctx.randomizer.settle()
        self._apply_hits(tgt, out)
        unintended.apply(self, strays)

    def _apply_hits(self, tgt: int, out: Any) -> None:
        if self.holding:  # simultaneous actions: it lands after both (triggers.held_damage)
            self.held.append((tgt, out))
            return
        w = self.w
        if self.ctx.chips is not None:  # saving your skin, before the wounds land
            self.ctx.chips.save_skin(self, tgt, out)
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
        if self.ctx.chips is not None:  # a chip may turn the save
            draw = self.ctx.chips.check_draw(self, eid, draw)
        read = draw.check(col, training, target, sum(m.value for m in mods))
        if self.ctx.chips is not None:
            self.ctx.chips.flush(self)
        res = settle(read.result, read.cf, CheckPool(col, training, "vigor"), target, mods)
        if not res.success:
            self.w.get(eid, Health).stunned = True
        self._event("concussion", self.name(eid), ("R-8.2",), column=col, row=training, tn=target,
                    result=res.total, cf=res.cf, success=res.success, stunned=not res.success,
                    modifiers=[m.to_json() for m in mods], **draw.record())
        self.ctx.randomizer.settle()
