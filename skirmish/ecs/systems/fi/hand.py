"""Future Imperfect systems: card-hand initiative, option `initiative: cards` (R-5.8).

A layer between movement and FiSystems. Under the default (`initiative: phases`) every method here hands on
to the layer below unchanged. Under `cards` each unit draws a hand (a Reflex check vs Easy), keeps two cards
(BONUS a third, DISCARD loses itself and the highest other), and acts once per card as the steps are counted
14 → 0 (rows: `hand_table.py`). A reserve card is the wait of R-5.7 (`wait` reserves the card that came up);
a rush is planned with the hand and tested when its step is called; aim and ready take steps counted in the
continuing phase after each step; SLOW weapons take a preparation card (an aim) before the card that fires.
"""

from __future__ import annotations

from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Health, Identity, Profile, Readiness, Status, Turn
from skirmish.ecs.systems.fi import two_weapons
from skirmish.ecs.systems.fi.hand_keep import FiHandKeep, HandState
from skirmish.rules.actions import Action, Aim, EndTurn, Shoot, Wait
from skirmish.rules.checks import tn
from skirmish.rules.fi import hand as hr
from skirmish.rules.fi import initiative as ini
from skirmish.rules.fi.timing import Part, add_part


class FiHand(FiHandKeep):
    """Card-hand initiative on top of the phase systems (R-5.8): the count-down and a card's action."""

    def call_step(self, step: int) -> None:
        """The count-down calls a step: rushes planned for it are tested (R-5.8)."""
        self.step_now, self.counting = step, True
        for eid, h in sorted(self.hands.items()):
            if h.rush is None or h.rush[1] != step or not self.active(eid):
                continue
            card_step, _ = h.rush
            h.rush = None
            slot = next((s for s in h.slots if s.card.step == card_step and not s.rushed), None)
            if slot is None:
                continue
            col, row = self.w.get(eid, Profile).traits["dexterity"]
            scol, srow = hr.rush_shift(col, row, step - card_step)
            target = tn("standard", self.ctx.scope)  # type: ignore[arg-type]
            mods = sum(m.value for m in self.wound_mod(eid))
            read = self.chip_draw(eid, self.ctx.randomizer.draw()).check(scol, srow, target, mods)
            self.chip_flush()
            self.ctx.randomizer.settle()
            total = 0 if read.cf else read.result + mods
            success = not read.cf and total >= target
            slot.step = step if success else hr.failed_rush_step(card_step)
            slot.rushed = True
            self._event("rush", self.name(eid), ("R-5.8",) + (("R-3.5",) if read.cf else ()), rushed=slot.card.label,
                        step=step, column=scol, row=srow, tn=target, result=total, cf=read.cf, success=success,
                        acts_at=slot.step, **read.source)

    def step_order(self, step: int) -> list[int]:
        """Who plays a card at this step: higher fragment first, then Reflex, side, id (R-4.1, R-5.1)."""
        out: list[tuple[tuple[int, ...], int]] = []
        for eid, h in self.hands.items():
            if not self.active(eid):
                continue
            for s in h.slots:
                if s.step == step:
                    col, tr = self.w.get(eid, Profile).traits["reflexes"]
                    key = (-s.card.fragment, *ini.order_key(col, tr, self.w.get(eid, Identity).side_index, eid))
                    out.append((key, eid))
        return [eid for _, eid in sorted(out)]

    def begin_card(self, eid: int, step: int) -> bool:
        """A card of this unit comes up: start its turn on it (False: it cannot act, R-8.2)."""
        h = self.hand(eid)
        slot = None
        if eid in self.reserve_turns:  # a turn's trigger came (R-5.7, `delay.step_turns`): the reserve is played
            self.reserve_turns.discard(eid)
            if h.reserve is None or self.w.peek(eid, Health).out_of_action:
                return False
            card = h.reserve
            self._lose_reserve(eid, "spent")
            h.current, h.acted_on_card, h.preparing = card, False, False
        else:
            slot = next((s for s in h.slots if s.step == step), None)
            if slot is None or self.w.peek(eid, Health).out_of_action:
                return False
            h.slots.remove(slot)
            h.current, h.acted_on_card, h.preparing = slot.card, False, False
        self.card_begins(eid)  # its next action: an active defence ends
        if self.w.peek(eid, Status).covering is not None:
            self.w.get(eid, Status).covering = None  # covering fire ends at its next card
        if slot is not None:
            self._event("step", self.name(eid), ("R-5.8", "R-4.1"), step=step, card=slot.card.label,
                        rushed=slot.rushed)
        turn = self.w.get(eid, Turn)
        turn.parts = []
        turn.moved_this_turn = turn.ran_this_turn = False
        turn.acted = False
        if self.w.peek(eid, Health).stunned:
            self.w.get(eid, Health).stunned = False
            self._event("stunned", self.name(eid), ("R-8.2",), text="loses this action to concussion")
            h.current = None
            return False
        if not self.takes_part(eid) or not self.mind_turn(eid):  # sitting out, or distraught
            h.current = None
            return False
        return True  # a reserve held stays until an action flushes it

    def continuing(self, step: int) -> None:
        """The continuing phase after a step (R-5.8 "Continuous Tasks"): aim counters grow one a step and
        ready the weapon, then add +x (R-6.2). Covering fire and driving will take their turns here."""
        for eid, h in sorted(self.hands.items()):
            if h.readying is not None and self.active(eid):
                self._count_readying(eid, h, step)
            if h.aiming is None or not self.active(eid):
                continue
            target, counters, steps = h.aiming
            if not self.w.has(target) or self.w.peek(self.w.entity(target), Health).out_of_action:
                h.aiming = None
                continue
            if hr.aim_from_counters(counters, steps)[0] and self.w.peek(eid, Readiness).target != target:
                h.aiming = None  # readiness lost since (CT damage, a move: ): the counters go with it
                continue
            counters += 1
            h.aiming = (target, counters, steps)
            ready, aim = hr.aim_from_counters(counters, steps)
            rd = self.w.peek(eid, Readiness)
            if ready and (rd.target != target or rd.aim != aim):
                rd = self.w.get(eid, Readiness)
                rd.target, rd.aim = target, aim
                self._event("aim_step", self.name(eid), ("R-6.2", "R-5.8"), target=target, step=step,
                            counters=counters, steps=steps, ready=True, aim=aim)
            if counters >= 3 * steps:
                h.aiming = None  # at most three aim counts in a row

    def _count_readying(self, eid: int, h: HandState, step: int) -> None:
        """A card's action readied fires once its steps are counted (R-6.2 under R-5.8), every shot of it; a shot
        whose target left range or sight meanwhile is wasted."""
        assert h.readying is not None
        shots, left, card = h.readying
        if left > 1:
            h.readying = (shots, left - 1, card)
            return
        h.readying = None
        turn = self.w.get(eid, Turn)
        saved = list(turn.parts)
        try:
            for shot in shots:
                if not self.active(eid):
                    break
                turn.parts = []
                rd = self.w.get(eid, Readiness)
                rd.target, rd.aim = shot.target, 0  # readied: no snap penalty; an aimed shot adds +x
                self._event("aim_step", self.name(eid), ("R-6.2", "R-5.8"), target=shot.target, step=step,
                            counters=0, steps=0, ready=True, aim=1 if shot.mode == "aimed" else 0)
                try:
                    super().shoot(eid, shot, trigger=True)
                except IllegalAction as exc:
                    self._event("trigger_lost", self.name(eid), ("R-6.2", "R-5.8"),
                                reason=f"the readied shot is wasted: {exc}")
        finally:
            turn.parts = saved

    def shot_firer_check(self, eid: int, action: Shoot) -> Any:
        """Under cards, a card laid aside preparing takes no shot (R-5.8 "Action Speed")."""
        if self.cards_mode and self.hand(eid).preparing:
            raise IllegalAction("R-5.8: this card is laid aside preparing the weapon; the next card fires it")
        return super().shot_firer_check(eid, action)

    def shoot(self, eid: int, action: Shoot, *, trigger: bool = False, charge: bool = False) -> None:
        """Under cards, a prepared or aimed shot not ready on its target readies the card's action: it fires after
        the weapon's ready steps (twice that when aimed), with no second card, and the card's further shots join
        it (R-6.2 under R-5.8). A shot on a later card abandons a readying still counting. The shot of a charge
        (`charge`, R-5.4) fires as the charge lands: its timing is the charge's."""
        if not self.cards_mode or trigger or charge:
            super().shoot(eid, action, trigger=trigger, charge=charge)
            return
        with two_weapons.hand(self, eid, action.hand):  # an off-hand shot readies that hand's weapon
            self._card_shot(eid, action)

    def _card_shot(self, eid: int, action: Shoot) -> None:
        h = self.hand(eid)
        card = -1 if h.current is None else h.current.number
        weapon, _ = self.weapon(eid) or (None, None)
        need = 0 if weapon is None else hr.action_speed(int(weapon.speed)) - 1
        if weapon is not None and need and h.prep < need and not self.w.peek(eid, Turn).acted:
            self.shot_setup(eid, action)  # the shot's checks: it could be fired once prepared
            self.w.get(eid, Turn).parts = self.check_parts(eid, self.attack_part(eid, weapon, action.mode))
            self.w.get(eid, Turn).acted = True
            h.prep += 1
            h.preparing = True
            self._event("prepare", self.name(eid), ("R-5.8",), weapon=weapon.name, cards=h.prep, of=need,
                        target=action.target)
            return
        if h.readying is not None and h.readying[2] != card:
            self._event("trigger_lost", self.name(eid), ("R-6.2", "R-5.8"),
                        reason="the readied shot is abandoned for a new action")
            h.readying = None
        rd = self.w.peek(eid, Readiness)
        ready = rd.target == action.target
        if h.readying is None and (action.mode == "snap" or (action.mode == "prepared" and ready)):
            super().shoot(eid, action)
            return
        self.shot_setup(eid, action)  # every check of the shot now; it resolves later
        weapon, _ = self.weapon(eid)  # type: ignore[misc]
        self.w.get(eid, Turn).parts = self.check_parts(eid, self.attack_part(eid, weapon, action.mode))
        self.w.get(eid, Turn).acted = True
        if h.readying is not None:
            h.readying = ((*h.readying[0], action), h.readying[1], card)
            return
        steps = hr.ready_steps(weapon.skill, weapon.bulky)
        counts = 1 if action.mode == "prepared" or ready else 2
        h.readying = ((action,), steps * counts, card)
        self._event("aim_step", self.name(eid), ("R-6.2", "R-5.8"), target=action.target, step=self.step_now,
                    counters=0, steps=steps * counts, ready=False, aim=0)

    def end_hands(self) -> None:
        """After the round: unplayed cards are gone, a SHUFFLE card drawn into a hand shuffles (R-5.8)."""
        for h in self.hands.values():
            h.slots, h.current, h.rush, h.drawn, h.has_drawn = [], None, None, [], False
        self.reserve_turns.clear()  # a reserve turn put in order but never begun does not outlive the round
        deck = self.ctx.deck
        if self.shuffle_at_end and deck is not None:
            deck.shuffle()
        self.shuffle_at_end = False

    # ------------------------------------------------------------------ a card's action
    def check_parts(self, eid: int, extra: Part) -> list[Part]:
        """Under cards: one card is one action: a move (simple) and one complex action (an attack, aim, reload, a
        contest (R-8.4), rising or breaking free (R-7.6)), R-5.8."""
        if not self.cards_mode:
            return super().check_parts(eid, extra)
        before = self.w.peek(eid, Turn).parts
        parts = add_part(before, extra)
        if any(p.kind == "charge" for p in parts) and sum(1 for p in parts if p.kind != "free") > 1:
            raise IllegalAction("R-5.4: a charge combines with nothing")
        if sum(1 for p in parts if p.kind == "move") > 1:
            raise IllegalAction("R-5.8: one move with each action card")
        if sum(1 for p in parts if p.kind in ("attack", "aim", "reload", "skill", "ready")) > 1:
            raise IllegalAction("R-5.8: one complex action (an attack, aim, reload, contest, rising or breaking "
                                "free) per action card")
        return parts

    def after_action(self, eid: int, action: Action) -> None:
        """Under cards, after an action of a card is accepted: the first flushes a reserve held (not an aim,
        R-6.2); anything but an aim loses the aim counters; a shot spends the preparation stack."""
        if not self.cards_mode or isinstance(action, Wait):
            return
        h = self.hand(eid)
        if isinstance(action, EndTurn):
            if h.current is not None and not h.acted_on_card and h.reserve is not None:
                self._event("reserve", self.name(eid), ("R-5.8",), card=h.reserve.label, what="kept")
            h.current = None
            return
        if not isinstance(action, Aim):
            h.aiming = None
            if not isinstance(action, Shoot):
                h.readying = None  # any other action loses the readying
            if not h.acted_on_card and h.reserve is not None:
                self._lose_reserve(eid, "flushed")
            h.acted_on_card = True
        if isinstance(action, Shoot) and not h.preparing:
            h.prep = 0  # the prepared action is resolved (or readied): the stack is spent

    def aim(self, eid: int, action: Aim) -> None:
        """Under cards, aiming lays the card down and counts steps (R-6.2 under R-5.8); with an action speed 2
        weapon the card is also a preparation card."""
        if not self.cards_mode:
            super().aim(eid, action)
            return
        self.w.get(eid, Turn).parts = self.aim_check(eid, action)
        self.w.get(eid, Turn).acted = True
        wpn = self.weapon(eid)
        assert wpn is not None  # aim_check refuses an unarmed aim
        weapon, _ = wpn
        h = self.hand(eid)
        steps = hr.ready_steps(weapon.skill, weapon.bulky)
        same = h.aiming is not None and h.aiming[0] == action.target
        counters = h.aiming[1] if same and h.aiming is not None else 0
        if not same:
            rd = self.w.get(eid, Readiness)
            if rd.target != action.target:
                rd.target, rd.aim = None, 0
        h.aiming = (action.target, counters, steps)
        if hr.action_speed(int(weapon.speed)) > 1:
            h.prep = min(h.prep + 1, hr.action_speed(int(weapon.speed)) - 1)
        self._event("aim", self.name(eid), ("R-6.2", "R-5.8"), target=action.target, aim=self.w.peek(eid, Readiness).aim)

    # ------------------------------------------------------------------ the reserve (R-5.8 "Waiting")
    def wait_check(self, eid: int, action: Wait) -> None:
        super().wait_check(eid, action)
        if self.cards_mode:
            h = self.hand(eid)
            if h.current is not None and not hr.can_reserve(h.current) and h.reserve is None:
                raise IllegalAction(f"R-5.8: a {h.current.special.upper() if h.current.special else ''} card can "
                                    f"never be reserved")

    def wait(self, eid: int, action: Wait) -> None:
        """Under cards: reserve the card that came up (it waits, R-5.7), or, holding a reserve already, discard
        the card that came up and keep the reserve."""
        if not self.cards_mode:
            super().wait(eid, action)
            return
        self.wait_check(eid, action)
        h = self.hand(eid)
        if h.reserve is not None:
            self._event("reserve", self.name(eid), ("R-5.8",), card=h.reserve.label, what="kept")
        elif h.current is not None:
            h.reserve = h.current
            self._event("reserve", self.name(eid), ("R-5.8", "R-5.7"), card=h.reserve.label, what="reserved")
        h.current = None
        super().wait(eid, action)

    def on_trigger(self, eid: int) -> None:
        """A waiting unit acts on its trigger: under cards it plays its reserve card (R-5.8)."""
        if self.cards_mode and self.hand(eid).reserve is not None:
            self._lose_reserve(eid, "spent")
