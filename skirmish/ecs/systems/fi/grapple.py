"""Future Imperfect systems: the melee maneuvers — Close and Open (R-7.2), entangle, trip and breaking free
(R-7.6), rising after a trip, active defence (R-7.5) — and their odds. Blows and charges are in
skirmish.ecs.systems.fi.melee; the list of melee actions a unit may take now in skirmish.ecs.systems.fi.melee_legal.

Martial arts maneuvers (R-7.7) are the layer above, skirmish.ecs.systems.fi.arts."""

from __future__ import annotations

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Profile, Status, Turn
from skirmish.ecs.fi_melee_components import MeleeState
from skirmish.ecs.systems.fi.melee import READY, FiMeleeBase
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action
from skirmish.rules.checks import Modifier, contest_winner
from skirmish.rules.checks import Pool as CheckPool
from skirmish.rules.deck import Card
from skirmish.rules.equipment import MeleeWeapon
from skirmish.rules.fi import melee as ml
from skirmish.rules.fi.melee_actions import BreakFree, Close, Defend, Entangle, Open, Trip
from skirmish.rules.fi.melee_odds import ManeuverOdds, check_odds, contest_odds
from skirmish.rules.fi.timing import Part
from skirmish.rules.randomizer import Read


def _sum(*groups: object) -> int:
    """The sum of the modifiers in several groups."""
    return sum(m.value for g in groups for m in g)  # type: ignore[attr-defined]


class FiGrapple(FiMeleeBase):
    """The melee maneuvers and active defence, and their odds."""

    # ------------------------------------------------------------------ reads
    def _roll(self, eid: int, pool: CheckPool, tn_value: int, extra: list[Modifier],
              chip_target: int | None = None) -> tuple[Read, int, dict]:
        """One check: the read, the total after halving and modifiers (0 on a CF), what was turned or rolled; the
        draw may take a story chip (R-8.5; `chip_target`: what it would be spent to reach, when not `tn_value`)."""
        mods = [*pool.modifiers, *extra]
        draw = self.chip_draw(eid, self.ctx.randomizer.draw(), pool.halve, target=chip_target)
        read = draw.check(pool.column, pool.row, tn_value, sum(m.value for m in mods))
        self.chip_flush()
        base = read.result // 2 if pool.halve else read.result
        total = 0 if read.cf else base + sum(m.value for m in mods)
        return read, total, {"draw": draw.record(), "impulse": draw.impulse, "mods": mods}

    def _fighting_pool(self, eid: int, weapon: MeleeWeapon) -> CheckPool:
        return self.skill_pool(eid, weapon.skill, "dexterity")

    # ------------------------------------------------------------------ Close and Open
    def close_check(self, eid: int, action: Close) -> list[Part]:
        """Refuse a Close the rules do not allow now: a shorter weapon (or empty hands) against a longer one
        within 1 m, not already inside it; the turn's parts with it."""
        tgt = self.foe(eid, action.target)
        weapon = self.melee_weapon(eid, action.weapon)
        why = ml.may_close(self.fighter(eid, weapon), self.fighter(tgt))
        if why:
            raise IllegalAction(why)
        if action.target in self.melee_state(eid).inside:
            raise IllegalAction(f"R-7.2: {self.name(eid)} is already inside {action.target}'s reach")
        return self.melee_parts(eid, weapon, "close")

    def open_check(self, eid: int, action: Open) -> list[Part]:
        """Refuse an Open the rules do not allow now: the target must be inside this unit's longer weapon."""
        tgt = self.foe(eid, action.target)
        if self.closed(eid, tgt) != "defender":
            raise IllegalAction(f"R-7.2: {action.target} is not inside {self.name(eid)}'s reach: nothing to open")
        return self.melee_parts(eid, self.melee_weapon(eid), "open")

    def maneuver(self, eid: int, action: Close | Open) -> None:
        """Close or Open: an attack roll at the normal TN (R-7.2), no damage; success moves the guard."""
        parts = self.close_check(eid, action) if isinstance(action, Close) else self.open_check(eid, action)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        tgt, weapon, tn_value, tn_mods, pool, extra = self._maneuver_numbers(eid, action)
        read, total, got = self._roll(eid, pool, tn_value, extra)
        success = not read.cf and total >= tn_value
        if success and isinstance(action, Close):
            self.w.get(eid, MeleeState).inside.append(action.target)
        elif success:
            inside = self.w.get(tgt, MeleeState).inside
            inside.remove(self.name(eid))
        self._event("maneuver", self.name(eid), ("R-7.2", "R-7.1") + (("R-3.5",) if read.cf else ()),
                    maneuver=action.verb, target=action.target, weapon=weapon.id, tn=tn_value,
                    tn_modifiers=[m.to_json() for m in tn_mods], column=pool.column, row=pool.row, halved=pool.halve,
                    read=read.result, cf=read.cf, result=total, success=success,
                    modifiers=[m.to_json() for m in got["mods"]], **got["draw"])
        self.ctx.randomizer.settle()

    def _maneuver_numbers(self, eid: int, action: Close | Open) -> tuple[int, MeleeWeapon, int, list[Modifier],
                                                                         CheckPool, list[Modifier]]:
        """A Close's or Open's target, weapon, TN with its reasons, pool and result modifiers (R-7.2)."""
        tgt = self.w.entity(action.target)
        weapon = self.melee_weapon(eid, action.weapon if isinstance(action, Close) else "")
        tn_value, tn_mods = self.melee_tn(eid, tgt, weapon)
        extra = [*self.wound_mod(eid), *self.mind_mods(eid),  # annoyed −4
                 *ml.result_modifiers(self.fighter(eid, weapon), self.fighter(tgt))]
        return tgt, weapon, tn_value, tn_mods, self._fighting_pool(eid, weapon), extra

    def _contest_pools(self, eid: int, action: Entangle | Trip) -> tuple[CheckPool, list[Modifier], CheckPool,
                                                                        list[Modifier]]:
        """An entangle's or trip's pools and modifiers: the attacker's Fighting, the defender's Dexterity (R-7.6)."""
        tgt = self.w.entity(action.target)
        weapon = self.melee_weapon(eid, action.weapon)
        col, training = self.w.get(tgt, Profile).traits["dexterity"]
        return (self._fighting_pool(eid, weapon),
                [*self.wound_mod(eid), *self.mind_mods(eid),
                 *ml.result_modifiers(self.fighter(eid, weapon), self.fighter(tgt))],
                CheckPool(col, training, "dexterity"), list(self.wound_mod(tgt)))

    def _wriggle_pools(self, eid: int) -> tuple[CheckPool, list[Modifier], CheckPool, int]:
        """A wriggle's pools: the entangled figure's Dexterity against the entangler's skill with the weapon."""
        ms = self.melee_state(eid)
        by = ms.entangled_by or ""
        weapon = self.ctx.armoury.melee.get(ms.entangle_weapon or "", ml.UNARMED)
        col, training = self.w.get(eid, Profile).traits["dexterity"]
        other = self.w.entity(by) if self.w.has(by) else eid
        return CheckPool(col, training, "dexterity"), [*self.wound_mod(eid), *self.mind_mods(eid)], \
            self.skill_pool(other, weapon.skill, "dexterity"), other

    def maneuver_odds(self, eid: int, action: Action, cards: list[Card] | None, seed: int) -> ManeuverOdds | None:
        """The chance a Close, Open, entangle, trip or break for freedom succeeds (None for other actions), after
        the same checks that gate it; nothing changes."""
        if isinstance(action, Close | Open):
            _ = self.close_check(eid, action) if isinstance(action, Close) else self.open_check(eid, action)
            _, _, tn_value, _, pool, extra = self._maneuver_numbers(eid, action)
            return check_odds(pool, tn_value, _sum(pool.modifiers, extra), cards=cards, seed=seed)
        if isinstance(action, Entangle | Trip):
            self.grapple_check(eid, action)
            mine, my_mods, theirs, their_mods = self._contest_pools(eid, action)
            return contest_odds(mine, _sum(mine.modifiers, my_mods), theirs, _sum(theirs.modifiers, their_mods),
                                cards=cards, seed=seed)
        if isinstance(action, BreakFree):
            self.break_check(eid, action)
            if action.how == "wriggle":
                mine, my_mods, theirs, _ = self._wriggle_pools(eid)
                return contest_odds(mine, _sum((), my_mods), theirs, _sum(theirs.modifiers, []), cards=cards,
                                    seed=seed)
            weapon = self.ctx.armoury.melee.get(self.melee_state(eid).entangle_weapon or "", ml.UNARMED)
            col, training = self.w.get(eid, Profile).traits["strength"]
            return check_odds(CheckPool(col, training, "strength"), weapon.entangle,
                              _sum((), self.wound_mod(eid), self.mind_mods(eid)), cards=cards, seed=seed)
        return None

    # ------------------------------------------------------------------ entangle and trip
    def grapple_check(self, eid: int, action: Entangle | Trip) -> list[Part]:
        """Refuse an entangle or trip the rules do not allow now; the turn's parts with it."""
        tgt = self.foe(eid, action.target)
        weapon = self.melee_weapon(eid, action.weapon)
        if isinstance(action, Entangle):
            if not weapon.entangle:
                raise IllegalAction(f"R-7.6: the {weapon.name} does not entangle")
            if self.melee_state(tgt).entangled_by is not None:
                raise IllegalAction(f"R-7.6: {action.target} is already entangled")
        else:
            if not weapon.trip:
                raise IllegalAction(f"R-7.6: the {weapon.name} cannot trip")
            if self.melee_state(tgt).down or self.w.peek(tgt, Status).prone:
                raise IllegalAction(f"R-7.6: {action.target} is already on the ground")
        return self.melee_parts(eid, weapon, action.verb)

    def grapple(self, eid: int, action: Entangle | Trip) -> None:
        """Entangle or trip: the attacker's Fighting against the defender's Dexterity, highest wins (R-7.6, R-3.8)."""
        parts = self.grapple_check(eid, action)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        tgt = self.w.entity(action.target)
        weapon = self.melee_weapon(eid, action.weapon)
        success, ev = self._contest(eid, tgt, *self._contest_pools(eid, action))
        if success:
            ms = self.w.get(tgt, MeleeState)
            if isinstance(action, Entangle):
                ms.entangled_by, ms.entangle_weapon = self.name(eid), weapon.id
                mine_ms = self.w.get(eid, MeleeState)  # the weapon stays on the target (docs/RULES-NOTES.md)
                if weapon.id in mine_ms.carried:
                    mine_ms.carried.remove(weapon.id)
                    mine_ms.held = mine_ms.carried[0] if mine_ms.carried else "fists"
            else:
                ms.down = True
                self.w.get(tgt, Status).prone = True
        self._event("melee_contest", self.name(eid), ("R-7.6", "R-3.8"), maneuver=action.verb, target=action.target,
                    weapon=weapon.id, against="Dexterity", success=success, **ev)

    def _contest(self, eid: int, other: int, mine: CheckPool, my_mods: list[Modifier], theirs: CheckPool,
                 their_mods: list[Modifier]) -> tuple[bool, dict]:
        """An opposed check, the actor's read first (R-3.8): whether the actor wins, and the event's fields."""
        read, total, got = self._roll(eid, mine, 0, my_mods)
        self.ctx.randomizer.settle()
        oread, ototal, ogot = self._roll(other, theirs, 0, their_mods, chip_target=total + 1)
        self.ctx.randomizer.settle()
        success = contest_winner(total, ototal, got["impulse"], ogot["impulse"]) == 0
        return success, dict(
            column=mine.column, row=mine.row, result=total, cf=read.cf, modifiers=[m.to_json() for m in got["mods"]],
            other_column=theirs.column, other_row=theirs.row, other_result=ototal, other_cf=oread.cf,
            other_modifiers=[m.to_json() for m in ogot["mods"]], draw=got["draw"], other_draw=ogot["draw"])

    def break_check(self, eid: int, action: BreakFree) -> list[Part]:
        """Refuse a break for freedom the rules do not allow now; the turn's parts with it (a NORMAL action)."""
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if action.how not in ("strength", "wriggle"):
            raise IllegalAction(f"R-7.6: break free by strength or wriggle, not {action.how!r}")
        if self.melee_state(eid).entangled_by is None:
            raise IllegalAction(f"R-7.6: {self.name(eid)} is not entangled")
        return self.check_parts(eid, READY)

    def break_free(self, eid: int, action: BreakFree) -> None:
        """Strength against the weapon's TN (a fragile weapon breaks), or wriggle: Dexterity against the
        entangler's skill with it (R-7.6). Either way, free, the weapon is off."""
        parts = self.break_check(eid, action)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        ms = self.melee_state(eid)
        wid, by = ms.entangle_weapon or "", ms.entangled_by or ""
        weapon = self.ctx.armoury.melee.get(wid, ml.UNARMED)
        if action.how == "strength":
            col, training = self.w.get(eid, Profile).traits["strength"]
            pool = CheckPool(col, training, "strength")
            read, total, got = self._roll(eid, pool, weapon.entangle, [*self.wound_mod(eid), *self.mind_mods(eid)])
            success = ml.breaks_free_by_strength(total, read.cf, weapon)
            self._event("break_free", self.name(eid), ("R-7.6",), weapon=wid, entangler=by, tn=weapon.entangle,
                        column=col, row=training, result=total, cf=read.cf, success=success,
                        broken=success and weapon.fragile, modifiers=[m.to_json() for m in got["mods"]],
                        **got["draw"])
            self.ctx.randomizer.settle()
        else:
            mine, my_mods, theirs, other = self._wriggle_pools(eid)
            success, ev = self._contest(eid, other, mine, my_mods, theirs, [])
            self._event("melee_contest", self.name(eid), ("R-7.6", "R-3.8"), maneuver="wriggle", target=by,
                        weapon=wid, against=f"{by}'s {weapon.skill}", success=success, **ev)
        if success:
            free = self.w.get(eid, MeleeState)
            free.entangled_by = free.entangle_weapon = None

    def rise_check(self, eid: int) -> list[Part]:
        """Refuse rising when the unit is not down from a trip; the turn's parts with it (a NORMAL action)."""
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if not self.melee_state(eid).down:
            raise IllegalAction(f"R-7.6: {self.name(eid)} has not been tripped")
        return self.check_parts(eid, READY)

    def rise(self, eid: int) -> None:
        """Stand up after a trip."""
        parts = self.rise_check(eid)
        turn = self.w.get(eid, Turn)
        turn.parts, turn.acted = parts, True
        self.w.get(eid, MeleeState).down = False
        self.w.get(eid, Status).prone = False
        self._event("rise", self.name(eid), ("R-7.6",))

    # ------------------------------------------------------------------ active defence
    def defend_more(self, eid: int, action: Defend) -> dict[str, str]:
        """What else an active defence sets (the martial arts layer's Block): the event's extra fields."""
        return {}

    def defend_check(self, eid: int, action: Defend) -> tuple[CheckPool, list[geo.Cell] | None, float]:
        """Refuse an active defence the rules do not allow now: the whole action, Fighting or Dodge, against an
        enemy within reach, the step (if any) one cell; the pool, the step's route and metres."""
        if not self.active(eid):
            raise IllegalAction("R-8.1: out of action")
        if action.skill not in ml.DEFENCE_SKILLS:
            raise IllegalAction(f"R-7.5: defend with fighting or dodge, not {action.skill!r}")
        if self.w.peek(eid, Turn).acted:
            raise IllegalAction("R-7.5: an active defence spends the whole action; this turn has already acted")
        if not self.engaged_with(eid):
            raise IllegalAction("R-7.5: no enemy within 1 m to defend against")
        if action.skill == "fighting":
            pool = self._fighting_pool(eid, self.melee_weapon(eid))
        else:
            pool = self.skill_pool(eid, "dodge", "reflexes")
        if action.to is None:
            return pool, None, 0.0
        to = (int(action.to[0]), int(action.to[1]))
        if not geo.adjacent(self.w.cell(eid), to):
            raise IllegalAction("R-7.5: the defence's step goes to an adjacent cell")
        path, metres, _ = self.plan_move(eid, to)
        return pool, path, metres

    def defend(self, eid: int, action: Defend) -> None:
        """Spend the action on a Fighting or Dodge check that stands as the attackers' TN until this unit's next
        action (R-7.5); without a step of at least 1 m, −4."""
        pool, path, metres = self.defend_check(eid, action)
        start = self.w.cell(eid)
        if path is not None:
            self.walk_path(eid, path, metres, False, [], ("R-7.5",))
            if self.w.cell(eid) == start:  # the step ran into an enemy its side did not know of (`bumped`)
                path = None
        if not self.active(eid):
            return
        extra = [*self.wound_mod(eid), *self.mind_mods(eid), *ml.defence_modifiers(path is not None)]
        read, total, got = self._roll(eid, pool, 0, extra)
        self.w.get(eid, MeleeState).defence = total
        turn = self.w.get(eid, Turn)
        turn.acted = True
        more = self.defend_more(eid, action)  # a martial arts Block (R-7.7, skirmish.ecs.systems.fi.arts)
        self._event("defend", self.name(eid), ("R-7.5",) + (("R-7.7",) if more else ()) + (("R-3.5",) if read.cf else ()),
                    skill=action.skill, column=pool.column, row=pool.row, halved=pool.halve, read=read.result,
                    cf=read.cf, result=total, to=list(path[-1]) if path else None,
                    modifiers=[m.to_json() for m in got["mods"]], **more, **got["draw"])
        self.ctx.randomizer.settle()
