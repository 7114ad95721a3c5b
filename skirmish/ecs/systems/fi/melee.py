"""Future Imperfect systems: melee blows and charges (R-7.1–R-7.5, R-5.4), and what holds a figure in place.

Engaged figures are enemies within 1 m (adjacent cells, R-1.3). A blow is worked out by the pure rules
(skirmish.rules.fi.melee) as a shot and resolved by ranged combat's `resolve_shot`; its wounds go through the
same injury path as a shot's (`_apply_hits`: wounds, CT, concussion, incapacitation). The maneuvers (Close, Open,
entangle, trip, breaking free, rising, active defence) are in skirmish.ecs.systems.fi.grapple."""

from __future__ import annotations

from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs import fi_melee_view as _melee_view  # noqa: F401  (registers the melee part of the unit view)
from skirmish.ecs.components import Declared, Facing, Health, Identity, Profile, Status, Turn
from skirmish.ecs.fi_melee_components import MeleeState
from skirmish.ecs.systems.fi.movement import FiMovement
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Shoot
from skirmish.rules.checks import Modifier, tn
from skirmish.rules.checks import Pool as CheckPool
from skirmish.rules.deck import LOCATIONS
from skirmish.rules.equipment import MeleeWeapon, Speed
from skirmish.rules.fi import melee as ml
from skirmish.rules.fi.melee_actions import Charge, MeleeAttack
from skirmish.rules.fi.ranged import BUMP_SPENDS, ShotOutcome, ShotSetup, TargetState, resolve_shot
from skirmish.rules.fi.timing import Part, TimingError, add_part, check_turn

READY = Part("ready", int(Speed.NORMAL))  # readying a bulky weapon, breaking free, rising (docs/RULES-NOTES.md)


class FiMeleeBase(FiMovement):
    """Hand-to-hand blows and charges, and the melee state other actions ask about."""

    # ------------------------------------------------------------------ the melee state
    def melee_state(self, eid: int) -> MeleeState:
        """A unit's melee component, read only."""
        return self.w.peek(eid, MeleeState)

    def melee_weapon(self, eid: int, wid: str = "") -> MeleeWeapon:
        """The hand-to-hand weapon named (a carried one, or fists), or the one in hand (R-7.1)."""
        ms = self.melee_state(eid)
        wid = wid or ms.held
        if wid != "fists" and wid not in ms.carried:
            have = ", ".join([*ms.carried, "fists"])
            raise IllegalAction(f"R-7.1: {self.name(eid)} carries no {wid}; it can fight with {have}")
        return self.ctx.armoury.melee.get(wid, ml.UNARMED)

    def fighter(self, eid: int, weapon: MeleeWeapon | None = None) -> ml.Fighter:
        """What the melee rules need of a unit, holding `weapon` (None: the weapon in hand)."""
        prof = self.w.get(eid, Profile)
        return ml.Fighter(self.name(eid), prof.size, prof.traits["strength"], prof.traits["dexterity"],
                          prof.skills, weapon or self.melee_weapon(eid), self.melee_state(eid).down)

    def engaged_with(self, eid: int) -> list[int]:
        """The enemies in action within 1 m of a unit (R-1.3): those it is engaged with."""
        here, side = self.w.cell(eid), self.w.peek(eid, Identity).side_index
        return [e for e, i in self.w.units() if i.side_index != side and not self.w.peek(e, Health).out_of_action
                and ml.in_contact(self.ctx.grid, here, self.w.cell(e))]

    def closed(self, a: int, d: int) -> str | None:
        """Who is inside whose guard between attacker `a` and defender `d` (R-7.2): "attacker" when `a` has closed
        on `d`'s longer weapon, "defender" when `d` has closed on `a`'s, None otherwise (or when not adjacent)."""
        if not ml.in_contact(self.ctx.grid, self.w.cell(a), self.w.cell(d)):
            return None
        wa, wd = self.melee_weapon(a), self.melee_weapon(d)
        if self.name(d) in self.melee_state(a).inside and wd.length > wa.length:
            return "attacker"
        if self.name(a) in self.melee_state(d).inside and wa.length > wd.length:
            return "defender"
        return None

    def held_reason(self, eid: int) -> str | None:
        """Why a unit may not move now (None: it may): entangled, down after a trip (R-7.6), or closed on by an
        enemy inside its longer weapon, who must be pushed off with Open first (R-7.2)."""
        ms = self.melee_state(eid)
        if ms.entangled_by is not None:
            return f"R-7.6: {self.name(eid)} is entangled by {ms.entangled_by}'s {ms.entangle_weapon}; break free first"
        if ms.down:
            return f"R-7.6: {self.name(eid)} is on the ground after a trip; rise first"
        for e in self.engaged_with(eid):
            if self.closed(eid, e) == "defender":
                return f"R-7.2: {self.name(e)} is inside {self.name(eid)}'s reach; open the distance first"
        return None

    # ------------------------------------------------------------------ hooks into the turn and the move
    def begin_turn(self, eid: int) -> bool:
        """An active defence stands until the unit's next action (R-7.5): it ends when its turn begins."""
        if self.melee_state(eid).defence is not None:
            self.w.get(eid, MeleeState).defence = None
        return super().begin_turn(eid)

    def card_begins(self, eid: int) -> None:
        """Under card hands the next action is the next card (R-5.8): an active defence ends as it comes up."""
        if self.melee_state(eid).defence is not None:
            self.w.get(eid, MeleeState).defence = None
        super().card_begins(eid)

    def plan_move(self, eid: int, to: geo.Cell) -> tuple[list[geo.Cell], float, bool]:
        """A move, refused while the unit is held in place (R-7.2, R-7.6)."""
        if self.active(eid):
            held = self.held_reason(eid)
            if held:
                raise IllegalAction(held)
        return super().plan_move(eid, to)

    def walk_path(self, eid: int, path: list[geo.Cell], metres: float, running: bool, parts: list[Part],
                  rules: tuple[str, ...] = ()) -> None:
        """After any move, a Close lasts only while the two stay within 1 m (R-7.2)."""
        super().walk_path(eid, path, metres, running, parts, rules)
        me = self.name(eid)
        for e, _ in self.w.units():
            ms = self.melee_state(e)
            keep = [n for n in ms.inside if self.w.has(n)
                    and ml.in_contact(self.ctx.grid, self.w.cell(e), self.w.cell(self.w.entity(n)))]
            if keep != ms.inside and (e == eid or me in ms.inside):
                self.w.get(e, MeleeState).inside = keep

    # ------------------------------------------------------------------ a blow
    def foe(self, eid: int, target: str, *, adjacent: bool = True) -> int:
        """The enemy named, checked for a hand-to-hand action: it exists, is an enemy in action, within 1 m
        (R-1.3); the actor is in action and not dodging (R-5.4)."""
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if self.w.peek(eid, Declared).speed == "dodge":
            raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
        self.unseen_check(eid, target)
        tgt = self.enemy_named(eid, target)
        if adjacent and not ml.in_contact(self.ctx.grid, self.w.cell(eid), self.w.cell(tgt)):
            raise IllegalAction(f"R-1.3: {target} is not within 1 m of {self.name(eid)} (an adjacent cell, not across "
                                f"a closed wall corner)")
        return tgt

    def unseen_check(self, eid: int, target: str) -> None:
        """Refuse a hand-to-hand action at an enemy the actor's side neither sees now nor knows the position of
        (R-6.1, fog; a charge may go at a known position): the refusal names sight only, never the enemy's real
        state or place (docs/RULES-NOTES.md "Side views")."""
        k = getattr(self, "knowledge", None)
        if k is None or not self.w.has(target):
            return
        side, tgt = self.w.peek(eid, Identity).side_index, self.w.entity(target)
        mine = k.sides[side]
        if self.w.peek(tgt, Identity).side_index != side and target not in k.seen.get(mine, ()) \
                and mine not in self.w.peek(tgt, Status).known_to:
            raise IllegalAction(f"R-6.1: {target} is not in sight of {self.name(eid)}'s side, nor is where it stands known")

    def melee_tn(self, eid: int, tgt: int, weapon: MeleeWeapon) -> tuple[int, list[Modifier]]:
        """The TN of a hand-to-hand roll by `eid` holding `weapon` against `tgt` (R-7.1, R-7.2, R-7.5)."""
        dodging = self.w.peek(tgt, Declared).speed == "dodge" and self.ctx.round > 0
        tn_value, mods = ml.attack_tn(self.fighter(eid, weapon), self.fighter(tgt), closed=self.closed(eid, tgt),
                                      defence=self.melee_state(tgt).defence,
                                      dodge=self.w.peek(tgt, Profile).skills.get("dodge", 0) if dodging else 0,
                                      base=tn("standard", self.ctx.scope))  # type: ignore[arg-type]
        focused = self.mind_tn_mods(tgt)  # a focused auxiliary action lowers the TN, as a shot's
        return tn_value + sum(m.value for m in focused), [*mods, *focused]

    def melee_setup(self, eid: int, action: MeleeAttack | Charge, *, charge: bool = False,
                    at: geo.Cell | None = None) -> tuple[ShotSetup, TargetState, int, bool, ml.StrikeNumbers]:
        """Check a blow and work out its numbers (R-7.1–R-7.5): the shot `resolve_shot` reads, the target's state,
        the target, lethal or not, and the damage read with why. Only reads. `at`: a charge's end cell."""
        tgt = self.foe(eid, action.target, adjacent=at is None)
        if at is not None and not ml.in_contact(self.ctx.grid, tuple(at), self.w.cell(tgt)):  # type: ignore[arg-type]
            raise IllegalAction(f"R-5.4: a charge ends within 1 m of its target; {at[0]},{at[1]} is not next to "
                                f"{action.target}")
        weapon = self.melee_weapon(eid, action.weapon)
        called = self.blow_called(action)
        spends = action.spends if isinstance(action, MeleeAttack) else None
        if called is not None and called not in LOCATIONS:
            raise IllegalAction(f"R-6.1: unknown called location {called!r}")
        for spend in spends or ():
            name, sep, index = spend.partition("@")
            if name not in BUMP_SPENDS or (sep and index != "0"):
                raise IllegalAction(f"R-6.4: unknown bump spend {spend!r}; spends are {', '.join(BUMP_SPENDS)}")
        try:
            lethal = ml.lethal_choice(weapon, action.lethal if isinstance(action, MeleeAttack) else None)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        me, them = self.fighter(eid, weapon), self.fighter(tgt)
        tn_value, tn_mods = self.blow_tn(eid, tgt, weapon, action)
        pool = self.blow_pool(eid, action, weapon)
        penalised = called if isinstance(action, MeleeAttack) and action.called else None
        mods = [*pool.modifiers, *self.wound_mod(eid), *self.mind_mods(eid),  # annoyed −4
                *ml.result_modifiers(me, them, charge=charge, called=penalised)]
        strength_ok = self.closed(eid, tgt) != "defender"
        setup, numbers = ml.as_shot(me, pool.row, pool.column, pool.halve, tn_value, tn_mods, mods, lethal=lethal,
                                    strength_ok=strength_ok, called=called, spends=spends)
        return setup, self._target_state(tgt), tgt, lethal, numbers

    # Hooks of a blow, answered by the martial arts layer (skirmish.ecs.systems.fi.arts, R-7.7): a plain blow here.
    def blow_called(self, action: MeleeAttack | Charge) -> str | None:
        """The location a blow is aimed at (a called shot, R-6.1), or None."""
        return action.called if isinstance(action, MeleeAttack) else None

    def blow_tn(self, eid: int, tgt: int, weapon: MeleeWeapon, action: MeleeAttack | Charge) -> tuple[int, list[Modifier]]:
        """The TN of a blow (R-7.1, R-7.2, R-7.5)."""
        return self.melee_tn(eid, tgt, weapon)

    def blow_pool(self, eid: int, action: MeleeAttack | Charge, weapon: MeleeWeapon) -> CheckPool:
        """What a blow rolls: Fighting with the weapon on Dexterity (R-7.1, R-3.6)."""
        return self.skill_pool(eid, weapon.skill, "dexterity")

    def shape_blow(self, eid: int, tgt: int, action: MeleeAttack | Charge, out: ShotOutcome,
                   lethal: bool) -> dict[str, Any]:
        """Change a resolved blow's hits before they land; the event's extra fields."""
        return {}

    def after_blow(self, eid: int, tgt: int, action: MeleeAttack | Charge, out: ShotOutcome) -> None:
        """What follows a blow once its hits have landed."""

    def melee_parts(self, eid: int, weapon: MeleeWeapon, kind: str = "melee") -> list[Part]:
        """The turn's parts with a hand-to-hand roll at its weapon's speed (a bulky weapon readied first, R-7.1),
        if the declared speed allows them (R-5.3–R-5.5); under card hands, if the card has no complex action yet."""
        parts = list(self.w.peek(eid, Turn).parts)
        if weapon.bulky:
            parts = add_part(parts, READY)
        attack = Part("attack", int(weapon.speed), "prepared", weapon=f"{kind}:{weapon.id}")
        parts = add_part(parts, attack)
        if self.ctx.initiative == "cards":  # one complex action a card, the blow's readying in it
            self.check_parts(eid, attack)
            return parts
        try:
            check_turn(self._declared_speed(eid), parts)
        except TimingError as exc:
            raise IllegalAction(str(exc)) from None
        return parts

    def melee_check(self, eid: int, action: MeleeAttack) -> list[Part]:
        """Refuse a blow the rules do not allow now; the turn's parts with it."""
        self.melee_setup(eid, action)
        return self.melee_parts(eid, self.melee_weapon(eid, action.weapon))

    def melee(self, eid: int, action: MeleeAttack) -> None:
        """Strike: one draw resolves the hit, bumps, location, armour and damage as a shot's (R-7, R-6.4–R-6.8)."""
        parts = self.melee_check(eid, action)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        self._strike(eid, action)

    def _strike(self, eid: int, action: MeleeAttack | Charge, charge: bool = False) -> None:
        setup, target, tgt, lethal, numbers = self.melee_setup(eid, action, charge=charge)
        weapon = self.melee_weapon(eid, action.weapon)
        ms = self.w.get(eid, MeleeState)
        ms.held = weapon.id if weapon.id in ms.carried else "fists"  # drawn as part of the blow (RULES-NOTES)
        a, b = self.w.cell(eid), self.w.cell(tgt)
        face = self.w.get(eid, Facing)
        face.dx, face.dy = (b[0] > a[0]) - (b[0] < a[0]), (b[1] > a[1]) - (b[1] < a[1])
        draw = self.chip_draw(eid, self.ctx.randomizer.draw(), setup.halve)  # a chip on the attack check
        out = resolve_shot(draw, setup, target)
        self.chip_flush()
        shaped = self.shape_blow(eid, tgt, action, out, lethal)
        capped = None if lethal else self._hold_short(tgt, out)
        broken = out.breakdown and weapon.id in ms.carried
        if broken:  # the weapon breaks (a bottle smashes): the hand is empty
            ms.carried.remove(weapon.id)
            ms.held = ms.carried[0] if ms.carried else "fists"
        rules = ["R-7.1", "R-3.3", "R-6.4"] + (["R-5.4"] if charge else [])
        if self.closed(eid, tgt):
            rules.append("R-7.2")
        if numbers.notes:
            rules.append("R-7.3")
        if not lethal:
            rules.append("R-7.4")
        if any("R-7.5" in m.reason for m in setup.tn_mods):
            rules.append("R-7.5")
        if any(h.layers for h in out.hits):
            rules.append("R-6.7")
        if out.hits:
            rules += ["R-4.4", "R-6.8"]
        if out.cf:
            rules.append("R-3.5")
        if broken:
            rules.append("R-4.8")
        if shaped:
            rules.append("R-7.7")
        first = out.hits[0] if out.hits else None
        self._event(
            "melee", self.name(eid), tuple(rules), target=action.target, weapon=weapon.id, charge=charge,
            lethal=lethal, called=setup.called, tn=out.tn, tn_modifiers=[m.to_json() for m in setup.tn_mods],
            column=setup.column, row=setup.row, halved=setup.halve, read=out.read, cf=out.cf, result=out.total,
            hit=out.hit, bumps=out.bumps, bump_pool=out.pool, spent=out.spent, damage_dice=str(numbers.damage),
            strength=list(numbers.notes), location=first.location if first else None,
            ablation=first.layers if first else [], damage=out.damage, wounds=out.wounds, ct=out.ct,
            hits=[h.to_json() for h in out.hits], extra_damage=out.extra, capped=capped, breakdown=broken,
            modifiers=[m.to_json() for m in setup.result_mods], **shaped, **draw.record(),
        )
        self.ctx.randomizer.settle()
        self._apply_hits(tgt, out)
        self.after_blow(eid, tgt, action, out)

    def _hold_short(self, tgt: int, out: ShotOutcome) -> int | None:
        """R-7.4: a non-lethal blow never kills outright: its wounds are held short of death (the number held to,
        or None when nothing was held back)."""
        wounds = self.w.peek(tgt, Health).wounds
        capped = None
        for h in out.hits:
            allowed = ml.nonlethal_wounds(wounds, h.wounds, h.location)
            if allowed < h.wounds:
                h.wounds, capped = allowed, allowed
            wounds += h.wounds
        return capped

    # ------------------------------------------------------------------ the charge
    def charge_check(self, eid: int, action: Charge) -> tuple[list[geo.Cell], float, list[Part]]:
        """Refuse a charge the rules do not allow now (R-5.4): the route to `at` (at most a run), the attack from
        there, and a turn with nothing else in it, at the attack's speed, no SLOW attacks. The route, metres and
        parts."""
        at = (int(action.at[0]), int(action.at[1]))
        if action.ranged not in ("", "yes", "no"):
            raise IllegalAction(f"R-5.4: ranged is yes or no, not {action.ranged!r}")
        if action.ranged == "yes":
            tgt = self.foe(eid, action.target, adjacent=False)
            wpn = self.weapon(eid)
            if wpn is None or wpn[0].thrown:
                raise IllegalAction("R-5.4: no gun in hand to fire in a charge")
            weapon_id, speed = wpn[0].id, wpn[0].speed
            self.shot_firer_check(eid, Shoot(action.unit, action.target))
            if not geo.unit_sight(self.ctx.grid, at, self.w.cell(tgt), False, True).visible:
                raise IllegalAction(f"R-6.1: {action.target} is not in line of sight from {at[0]},{at[1]}")
            dist = geo.distance_m(at, self.w.cell(tgt), self.ctx.grid.cell_m)
            if dist > wpn[0].max_range_m + 1e-9:
                raise IllegalAction(f"R-6.1: {dist:.0f} m from {at[0]},{at[1]} is beyond the {wpn[0].name}'s range")
        else:
            tgt = self.foe(eid, action.target, adjacent=False)
            if not self.sight(eid, tgt).visible and \
                    self.w.peek(eid, Identity).side not in self.w.peek(tgt, Status).known_to:
                raise IllegalAction(f"R-6.1: {self.name(eid)} neither sees {action.target} nor knows where it is; "
                                    f"no charge at it")
            self.melee_setup(eid, action, charge=True, at=at)
            weapon = self.melee_weapon(eid, action.weapon)
            if weapon.bulky:
                raise IllegalAction(f"R-5.4: the {weapon.name} is bulky: readying it is an action of its own, and a "
                                    f"charge combines with nothing")
            weapon_id, speed = weapon.id, weapon.speed
        if speed == Speed.SLOW:
            raise IllegalAction("R-5.4: no SLOW attacks in a charge")
        parts = self.check_parts(eid, Part("charge", int(speed), weapon=weapon_id))
        path, metres, _ = self.plan_move(eid, at)
        return path, metres, parts

    def charge(self, eid: int, action: Charge) -> None:
        """Move and attack at once (R-5.4): the run, waiting enemies reacting on the way (R-5.7), then the blow or
        shot at −2 if the charger still stands and its target is still there."""
        path, metres, parts = self.charge_check(eid, action)
        self.walk_path(eid, path, metres, True, parts, ("R-5.4",))
        lost = self._charge_lost(eid, action)
        if lost:
            self._event("charge_lost", self.name(eid), ("R-5.4",), target=action.target, reason=lost)
            return
        if action.ranged == "yes":
            self.shoot(eid, Shoot(action.unit, action.target, mode="prepared"), charge=True)
        else:
            self._strike(eid, action, charge=True)

    def _charge_lost(self, eid: int, action: Charge) -> str | None:
        try:
            if action.ranged == "yes":
                self.shot_setup(eid, Shoot(action.unit, action.target, mode="prepared"), charge=True)
            else:
                self.melee_setup(eid, action, charge=True)
        except IllegalAction as exc:
            return str(exc)
        return None

    def melee_hash(self) -> dict[str, Any]:
        """The melee state of every unit that has left the defaults (for the battle's state hash): in a melee, with
        another weapon in hand than its first, or carrying other weapons than it started with (a disarm, R-7.7, or a
        breakdown, R-4.8: the hand may read the same, fists or a second club, docs/RECORDS.md)."""
        out = {}
        for e, ident in self.w.units():
            ms = self.melee_state(e)
            if not ms.plain() or ms.held != (ms.carried[0] if ms.carried else "fists") or \
                    tuple(ms.carried) != ms.start:
                out[ident.name] = [ms.carried, ms.held, ms.inside, ms.entangled_by, ms.entangle_weapon, ms.down,
                                   ms.defence, *([ms.guard, ms.block] if ms.guard or ms.block else []),
                                   *([ms.gripping, ms.grip, ms.grip_effect, ms.grip_bonus, ms.gripped_by]
                                     if ms.gripping or ms.gripped_by else [])]
        return out
