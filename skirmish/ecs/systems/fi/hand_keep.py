"""Future Imperfect systems: card-hand initiative's hands (R-5.8): the draw, the keep, the hand answers the
rules take, the reserve's loss; the state each unit's hand keeps over rounds. The count-down and a card's
action are `hand.py`'s layer above this one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Declared, Profile, Status
from skirmish.ecs.systems.fi.movement import FiMovement
from skirmish.rules.actions import Action, Declare, Shoot
from skirmish.rules.checks import bumps as bumps_of
from skirmish.rules.checks import tn
from skirmish.rules.deck import Card
from skirmish.rules.fi import hand as hr
from skirmish.rules.fi import initiative as ini


@dataclass
class Slot:
    """A kept card and the step it acts at (its own, or where a rush put it)."""

    card: hr.HandCard
    step: int
    rushed: bool = False


@dataclass
class HandState:
    """One unit's hand (R-5.8): what the round's draw left, the reserve held over rounds, the planned rush,
    the preparation stack and the aim counters."""

    drawn: list[hr.HandCard] = field(default_factory=list)
    has_drawn: bool = False
    slots: list[Slot] = field(default_factory=list)
    reserve: hr.HandCard | None = None
    rush: tuple[int, int] | None = None  # (card step, step rushed at)
    current: hr.HandCard | None = None  # the card of the turn in progress
    acted_on_card: bool = False  # the turn's card has taken an action (the reserve was flushed, if any)
    preparing: bool = False  # the turn's card was laid aside preparing an action speed 2 weapon
    prep: int = 0  # preparation cards laid aside for an action speed 2 weapon
    aiming: tuple[str, int, int] | None = None  # (target, counters, steps a count)
    readying: tuple[tuple[Shoot, ...], int, int] | None = None  # a card's action readied: shots, steps left, card

    def to_json(self) -> dict[str, Any]:
        return {"slots": [[s.card.number, s.step, s.rushed] for s in self.slots],
                "reserve": None if self.reserve is None else self.reserve.number, "rush": self.rush,
                "prep": self.prep, "aiming": self.aiming,
                "readying": None if self.readying is None else
                [[str(a) for a in self.readying[0]], self.readying[1], self.readying[2]]}


def hand_card(card: Card) -> hr.HandCard:
    return hr.HandCard(card.number, card.step, card.fragment, card.special)


class FiHandKeep(FiMovement):
    """The hands of card-hand initiative (R-5.8), under the count-down (hand.py)."""

    def __init__(self, ctx: Any) -> None:
        super().__init__(ctx)
        self.hands: dict[int, HandState] = {}
        self.shuffle_at_end = False  # a special card was drawn into a hand: shuffle after the round
        self.step_now = hr.TOP_STEP  # the step the count-down has called
        self.counting = False  # the count-down has begun this round (False while hands are drawn)
        self.reserve_turns: set[int] = set()  # waiters whose turn trigger came: their next turn plays the reserve

    @property
    def cards_mode(self) -> bool:
        return getattr(self.ctx, "initiative", "phases") == "cards"

    def hand(self, eid: int) -> HandState:
        got = self.hands.get(eid)
        if got is None:
            got = self.hands[eid] = HandState()
        return got

    # ------------------------------------------------------------------ the draw and the keep
    def draw_hand(self, eid: int) -> None:
        """The Reflex check vs Easy and the cards it draws (R-5.8); wound penalties count."""
        h = self.hand(eid)
        r, deck = self.ctx.randomizer, self.ctx.deck
        assert deck is not None  # setup builds a deck for `initiative: cards`
        col, training = self.w.get(eid, Profile).traits["reflexes"]
        target = tn("easy", self.ctx.scope)  # type: ignore[arg-type]
        mods = self.wound_mod(eid)
        mod_total = sum(m.value for m in mods)
        read = self.chip_draw(eid, r.draw(), kind="initiative").check(col, training, target, mod_total)  # a chip may help
        self.chip_flush()
        r.settle()
        total = 0 if read.cf else read.result + mod_total
        success = not read.cf and total >= target
        bumps = bumps_of(total, target) if success else 0
        drawn = []
        for _ in range(hr.cards_to_draw(success, bumps, read.cf)):
            card = deck.draw()
            if deck.pending_shuffle:  # SHUFFLE on a special card: after the round, not mid-hand
                deck.pending_shuffle = False
                self.shuffle_at_end = True
            drawn.append(hand_card(card))
        h.drawn, h.has_drawn = drawn, True
        self._event("hand_draw", self.name(eid), ("R-5.8", "R-3.3") + (("R-3.5",) if read.cf else ()),
                    column=col, row=training, tn=target, result=total, cf=read.cf, success=success, bumps=bumps,
                    drawn=[c.label for c in drawn], modifiers=[m.to_json() for m in mods], **read.source)

    def hand_check(self, eid: int, action: Action) -> tuple[hr.Hand, bool]:
        """The answer to the hand request as a Hand, and whether it forgoes the draw; IllegalAction if refused."""
        if not isinstance(action, Declare):
            raise IllegalAction("R-5.8: answer the hand request with `hand` (keep, forgo, rush) or a declaration")
        if action.speed not in ini.DECLARATIONS:
            raise IllegalAction(f"R-5.1: declare one of {', '.join(ini.DECLARATIONS)}, not {action.speed!r}")
        if isinstance(action, hr.Hand) and action.speed not in ("normal", "dodge"):
            raise IllegalAction(f"R-5.8: with card hands the speed is normal or dodge, not {action.speed!r}")
        hand = action if isinstance(action, hr.Hand) else hr.Hand(action.unit, speed=action.speed)
        try:
            forgo = hand.forgoes()
            hand.keep_steps()
            hand.rush_plan()
            hand.bonus_step()
        except hr.HandError as exc:
            raise IllegalAction(str(exc)) from None
        h = self.hand(self.w.entity(action.unit))
        if forgo and h.reserve is None:
            raise IllegalAction("R-5.8: only a unit holding a reserve card may forgo the draw")
        if forgo and h.has_drawn:
            raise IllegalAction("R-5.8: the cards are drawn already; keep from them")
        if h.has_drawn:
            try:
                kept, _ = hr.choose_keep(hr.sort_draw(h.drawn, h.reserve is not None).keepable, hand.keep_steps())
                self._rush_check(self.w.entity(action.unit), hand.rush_plan(), kept)
            except hr.HandError as exc:
                raise IllegalAction(str(exc)) from None
        return hand, forgo

    def keep(self, eid: int, action: Action) -> bool:
        """Apply the answer to the hand request; True when the hand is settled (False: drawn now, keep next)."""
        hand, forgo = self.hand_check(eid, action)
        h = self.hand(eid)
        dec = self.w.get(eid, Declared)
        if forgo:
            dec.speed = "dodge" if hand.speed == "dodge" else "normal"
            h.slots = []
            self._event("hand_keep", self.name(eid), ("R-5.8",), kept=[], bonus=[], discarded=[],
                        reserve=None if h.reserve is None else h.reserve.label, forgo=True,
                        reserve_lost=False)
            return True
        if not h.has_drawn:
            self.draw_hand(eid)
            return False
        sorted_ = hr.sort_draw(h.drawn, h.reserve is not None)
        try:
            kept, dropped = hr.choose_keep(sorted_.keepable, hand.keep_steps())
            rush = self._rush_check(eid, hand.rush_plan(), kept)
        except hr.HandError as exc:
            raise IllegalAction(str(exc)) from None
        dec.speed = "dodge" if hand.speed == "dodge" else "normal"  # only DODGE means anything with hands
        bonus_at = hand.bonus_step()
        h.slots = [Slot(c, c.step) for c in kept] + [Slot(c, bonus_at) for c in sorted_.bonus]
        h.rush = rush
        lost = sorted_.reserve_lost and h.reserve is not None
        reserve_label = None if h.reserve is None else h.reserve.label
        if lost:
            self._lose_reserve(eid, "lost")
        elif sorted_.discarded and any(c.special == "discard" for c in h.drawn) and h.prep:
            h.prep -= 1  # a DISCARD also takes a preparation card when no reserve went
        self._event("hand_keep", self.name(eid), ("R-5.8", "R-4.1"), kept=[c.label for c in kept],
                    bonus=[c.label for c in sorted_.bonus], discarded=[c.label for c in [*sorted_.discarded, *dropped]],
                    reserve=reserve_label, reserve_lost=lost, forgo=False,
                    rush=None if rush is None else f"{rush[0]}@{rush[1]}")
        h.drawn = []
        return True

    def hand_options(self, eid: int) -> list[hr.Hand]:
        """Every `hand` answer the rules take now (legal_actions): forgo or draw for a reserve holder before
        its draw; after it, each keep of up to two cards' steps, each with each rush its Dexterity allows."""
        h, me = self.hand(eid), self.name(eid)
        out: list[hr.Hand] = []
        if not h.has_drawn:
            if h.reserve is None:
                return out
            return [hr.Hand(me, speed=s, forgo=f) for s in ("normal", "dodge") for f in ("no", "yes")]
        steps = [c.step for c in hr.sort_draw(h.drawn, h.reserve is not None).keepable]
        combos: list[tuple[int, ...]] = [()]
        for i, a in enumerate(steps):
            combos.append((a,))
            combos += [(a, b) for b in steps[i + 1:]]
        col, row = self.w.get(eid, Profile).traits["dexterity"]
        seen: set[tuple[int, ...]] = set()
        for combo in combos:
            key = tuple(sorted(combo))
            if key in seen:
                continue
            seen.add(key)
            keep = ",".join(str(s) for s in combo)
            rushes = [""] + [f"{s}@{at}" for s in sorted(set(combo))
                             for at in range(s + 1, min(hr.TOP_STEP, s + hr.max_rush(col, row)) + 1)]
            out += [hr.Hand(me, speed=sp, keep=keep, rush=r) for sp in ("normal", "dodge") for r in rushes]
        return out

    def _rush_check(self, eid: int, plan: tuple[int, int] | None, kept: list[hr.HandCard]) -> tuple[int, int] | None:
        if plan is None:
            return None
        card_step, at = plan
        if not any(c.step == card_step for c in kept):
            raise hr.HandError(f"R-5.8: no kept card of step {card_step} to rush")
        if at <= card_step:
            raise hr.HandError(f"R-5.8: a rush acts earlier than its card: step {at} is not before {card_step}")
        col, row = self.w.get(eid, Profile).traits["dexterity"]
        hr.rush_shift(col, row, at - card_step)
        return plan

    # ------------------------------------------------------------------ the count-down
    def _lose_reserve(self, eid: int, what: str) -> None:
        h = self.hand(eid)
        if h.reserve is None:
            return
        self._event("reserve", self.name(eid), ("R-5.8",), card=h.reserve.label, what=what)
        h.reserve = None
        if self.w.peek(eid, Status).waiting is not None:
            self.w.get(eid, Status).waiting = None

    def hand_view(self, eid: int) -> dict[str, Any]:
        """What the board shows of a unit's hand: cards drawn (before the keep), kept cards with the step each
        acts at, the reserve, the preparation stack and the aim counters."""
        h = self.hand(eid)
        return {"drawn": list(h.drawn), "slots": [(s.card, s.step, s.rushed) for s in h.slots],
                "reserve": h.reserve, "prep": h.prep, "aiming": h.aiming, "rush": h.rush}

    def hands_state(self) -> dict[str, Any]:
        """The hands for `hash_state` (units by name)."""
        return {self.name(e): h.to_json() for e, h in sorted(self.hands.items())}
