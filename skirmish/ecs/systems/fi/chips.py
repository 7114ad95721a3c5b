"""Future Imperfect systems: story chips in the engine (R-8.5, option `chips`).

`ChipBank` holds the bin and each side's hand for one battle. It is made at setup (the sides' carried-over chips
taken out, then each side's draws from the battle's seeded random source) and announces the draws at the start
of round 1 (`chips_drawn` events). Two hooks where a read or damage lands:
- `check_draw`: a shot's draw wrapped so that its attack check may take a chip (white: the entry above or
  below; red: another card, the better kept; blue: another card's chained value added) — the `chip` event
  comes before the `attack` event, which shows the result with the chip;
- `save_skin`: an attack's wounds (and CT) negated before they are applied (the seed's table).
Who decides: a scripted side by its `chip_orders` (`UNIT check COLOUR USE` or `UNIT wounds COLOUR…`, each used
once, at that unit's next check or damage); an AI side by the policy in skirmish.rules.fi.chips (a chip that
turns a miss into a hit on the entry above; chips that keep a combatant in action); an idle side spends none."""

from __future__ import annotations

from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.core.events import make
from skirmish.ecs.components import Health, Identity
from skirmish.rules.fi import chip_events as _chip_events  # noqa: F401  (registers the chip events)
from skirmish.rules.fi.chips import (
    DRAW_LIMIT_AI,
    DRAW_LIMIT_LED,
    POLICIES,
    CheckOffer,
    ChipBin,
    ChipPolicy,
    ai_check_chip,
    ai_wound_chips,
    bounty_points,
    check_allowed,
    counts,
    draws_for,
    negate,
    parse_chip_order,
)
from skirmish.rules.fi.damage import INCAPACITATED_AT
from skirmish.rules.randomizer import CardDraw, Read

RULES = ("R-8.5",)


class ChipBank:
    """The bin and the sides' hands, their orders and policies, for one battle."""

    def __init__(self, sides: Any, rng: Any) -> None:
        self.bin = ChipBin()
        self.hands: dict[str, dict[str, int]] = {}
        self.policy: dict[str, str] = {}
        self.orders: dict[str, list[tuple[str, str, tuple[str, ...]]]] = {}
        self.drawn: list[tuple[str, dict[str, int], list[str]]] = []
        for side in sides:  # carried-over chips come out of the bin before anyone draws (seed)
            held = counts(**getattr(side, "chips", {}))
            for c, n in held.items():
                self.bin.take(c, n)
            self.hands[side.name] = held
        for side in sides:
            held = dict(self.hands[side.name])
            limit = side.chip_draws if getattr(side, "chip_draws", None) is not None else \
                DRAW_LIMIT_AI if side.controller == "ai" else DRAW_LIMIT_LED
            got = self.bin.draw(rng, draws_for(held, limit))
            for c in got:
                self.hands[side.name][c] += 1
            self.drawn.append((side.name, held, got))
            self.policy[side.name] = {"ai": "ai", "scripted": "orders"}.get(side.controller, "none")
            self.orders[side.name] = [parse_chip_order(o) for o in getattr(side, "chip_orders", [])]
        self.first_policy = dict(self.policy)
        self.pending: list[Any] = []  # chip events of the draw in progress, emitted before its attack event
        self.announced = False

    def state(self) -> dict[str, Any]:
        """For the battle's state hash (the policies only once a person changed one: older hashes stay)."""
        out = {"bin": dict(self.bin.chips), "hands": {s: dict(h) for s, h in self.hands.items()},
               "orders": {s: len(o) for s, o in self.orders.items()}}
        if self.policy != self.first_policy:
            out["policy"] = dict(self.policy)
        return out

    def bounty(self) -> dict[str, int]:
        """Each side's unspent chips counted as bounty points as the battle ends (R-8.5, seed 000 "Bounty"), for
        the `result` event."""
        return {side: bounty_points(hand) for side, hand in self.hands.items()}

    def announce(self, sys: Any) -> None:
        """The `chips_drawn` events, once, at the start of round 1."""
        if self.announced:
            return
        self.announced = True
        bin_after = dict(self.bin.chips)
        for side, held, got in self.drawn:
            sys._event("chips_drawn", None, RULES, side=side, held=held, drawn=got, hand=dict(self.hands[side]),
                       bin=bin_after)

    def earn(self, sys: Any, unit: str, side: str) -> None:
        """`side` earns a chip (R-8.4 broken): one drawn from the bin with the battle's one random source, told as
        a `chips_drawn` event of `unit` (what the side held, the chip, its hand and the bin after)."""
        held = dict(self.hands[side])
        got = self.bin.draw(sys.ctx.randomizer.rng, 1)
        for c in got:
            self.hands[side][c] += 1
        sys._event("chips_drawn", unit, RULES, side=side, held=held, drawn=got, hand=dict(self.hands[side]),
                   bin=dict(self.bin.chips))

    # -------------------------------------------------------------------------------------------- deciding
    def policy_check(self, sys: Any, eid: int, action: ChipPolicy) -> None:
        """Refuse a chip policy that is not `spend` or `keep`, or a scripted side's (its orders decide)."""
        side = sys.ctx.side_names[sys.w.get(eid, Identity).side_index]
        if action.policy not in POLICIES:
            raise IllegalAction(f"R-8.5: a side spends or keeps its chips ({', '.join(POLICIES)}), "
                                f"not {action.policy!r}")
        if self.policy[side] == "orders":
            raise IllegalAction(f"R-8.5: {side} is scripted: its chip_orders decide")

    def choose(self, sys: Any, eid: int, action: ChipPolicy) -> None:
        """A person's standing choice (a prompt in the middle of a draw has no place in the engine: an attack
        resolves whole): the side of `eid` spends as the AI does, or keeps every chip; a `chip_policy` event."""
        self.policy_check(sys, eid, action)
        side = sys.ctx.side_names[sys.w.get(eid, Identity).side_index]
        self.policy[side] = POLICIES[action.policy]
        sys._event("chip_policy", sys.name(eid), RULES, side=side, policy=action.policy)

    def _order(self, side: str, unit: str, when: str) -> tuple[str, ...] | None:
        for i, (u, w, what) in enumerate(self.orders[side]):
            if u == unit and w == when:
                del self.orders[side][i]
                return what
        return None

    def _spend(self, side: str, colour: str) -> bool:
        if self.hands[side][colour] <= 0:
            return False
        self.hands[side][colour] -= 1
        self.bin.put(colour)  # spent chips return to the bin
        return True

    def _event(self, sys: Any, unit: str, side: str, colour: str, use: str, **data: Any) -> Any:
        return make("chip", sys.ctx.round, sys.ctx.phase, unit, RULES, side=side, colour=colour, use=use,
                    **data)

    # -------------------------------------------------------------------------------------------- hooks
    def check_draw(self, sys: Any, eid: int, draw: Any, halve: bool = False, *, target: int | None = None,
                   banned: str | None = None, kind: str = "check", kept: Read | None = None) -> Any:
        """A draw whose first check (a shot's, a blow's or a maneuver's attack check, a concussion save, an
        initiative read, a Reflex contest of a trigger, a Bravery test, a psychological contest) may take a chip from
        the side of `eid`, the one checking; `halve`: the read is halved (unskilled, R-3.6); `target`: the result the
        chip would be spent to reach when it is not the check's own TN (initiative: the last phase's, not to
        hesitate); `banned`: why no chip may be spent on it (a terror test, R-8.4) — an order for one is refused;
        `kind`: which of a scripted side's orders it takes (CHECK_KINDS: check, initiative, contest, bravery);
        `kept`: the first check's read already made on `draw` (a contest reads both cards first, in the order it
        does without chips), offered to the chip instead of reading again."""
        side = sys.ctx.side_names[sys.w.get(eid, Identity).side_index]
        if self.policy[side] == "none":
            return draw
        return _ChipDraw(self, sys, sys.name(eid), side, draw, halve, target, banned, kind, kept)

    def flush(self, sys: Any) -> None:
        """Emit the chip events of the draw just resolved (before its attack event)."""
        for ev in self.pending:
            sys.ctx.emit(ev)
        self.pending.clear()

    def save_skin(self, sys: Any, tgt: int, out: Any) -> None:
        """Saving your skin: the target's side may spend chips on this attack's wounds (and CT) before they are
        applied; changes `out.hits` and emits a `chip` event per chip."""
        hits = [h for h in out.hits if h.wounds or h.ct]
        if not hits:
            return
        side = sys.ctx.side_names[sys.w.get(tgt, Identity).side_index]
        unit = sys.name(tgt)
        wounds, cts = [h.wounds for h in hits], [h.ct for h in hits]
        heads = [h.location == "head" for h in hits]
        if self.policy[side] == "orders":
            chips = list(self._order(side, unit, "wounds") or ())
        elif self.policy[side] == "ai":
            chips = ai_wound_chips(self.hands[side], sys.w.get(tgt, Health).wounds, wounds, heads, INCAPACITATED_AT)
        else:
            chips = []
        spent = []
        for c in chips:
            if self._spend(side, c):
                spent.append(c)
            else:
                sys.ctx.emit(self._event(sys, unit, side, c, "wounds", refused=f"{side} holds no {c} chip"))
        if not spent:
            return
        result = negate(wounds, cts, heads, spent)
        for h, left, ct_left in zip(hits, result.wounds, result.ct, strict=True):
            h.wounds, h.ct = left, ct_left
        for colour, n, ct_off in result.used:
            sys.ctx.emit(self._event(sys, unit, side, colour, "wounds", wounds_negated=n, ct_negated=ct_off,
                                     hand=dict(self.hands[side])))


class _ChipDraw:
    """A draw whose first check (the attack's) may take one chip; every other read goes to the draw kept."""

    def __init__(self, bank: ChipBank, sys: Any, unit: str, side: str, draw: Any, halve: bool,
                 target: int | None = None, banned: str | None = None, kind: str = "check",
                 kept: Read | None = None) -> None:
        self._bank, self._sys, self._unit, self._side = bank, sys, unit, side
        self._draw = draw
        self._halve = halve
        self._target = target
        self._banned = banned
        self._kind = kind
        self._checked = False
        self._kept = kept

    def __getattr__(self, name: str) -> Any:
        return getattr(self._draw, name)

    @property
    def fields(self) -> Any:
        return self._draw.fields

    @property
    def toggle(self) -> bool:
        return bool(self._draw.toggle)

    @property
    def impulse(self) -> int:
        return int(self._draw.impulse)

    def check(self, column: str, row: int, target: int, modifier: int, want_bumps: bool = True) -> Read:
        read: Read = self._draw.check(column, row, target, modifier, want_bumps) if self._kept is None or \
            self._checked else self._kept
        if self._checked:
            return read
        self._checked = True
        bank, side = self._bank, self._side
        aim = target if self._target is None else self._target
        offer = CheckOffer(read.result, read.cf, aim, modifier, self._halve, self._peek(column, row + 1),
                           self._peek(column, row - 1))
        if bank.policy[side] == "orders":
            order = bank._order(side, self._unit, self._kind)
            choice = (order[0], order[1]) if order else None
        elif self._banned is not None:
            choice = None  # the policy never offers one where the rules forbid it
        else:
            choice = ai_check_chip(bank.hands[side], offer)
        if choice is None:
            return read
        colour, use = choice
        why = self._banned or check_allowed(colour, use, read.cf) or (
            None if bank.hands[side][colour] > 0 else f"{side} holds no {colour} chip")
        if why is None and use in ("up", "down") and not 1 <= row + (1 if use == "up" else -1) <= 5:
            why = f"there is no entry {use} from row {row}"
        if why is not None:
            bank.pending.append(bank._event(self._sys, self._unit, side, colour, use, refused=why))
            return read
        bank._spend(side, colour)
        after, cards = self._use(use, column, row, target, modifier, read)
        bank.pending.append(bank._event(self._sys, self._unit, side, colour, use, before=read.result,
                                        after=after.result, cards=cards or None, hand=dict(bank.hands[side])))
        return after

    def _peek(self, column: str, row: int) -> int | None:
        """The raw value of the card's entry at (column, row), unchained (None off the grid, on a CF, or with
        dice)."""
        if not isinstance(self._draw, CardDraw) or not 1 <= row <= 5:
            return None
        entry = self._draw.card.entry(column, row)
        return None if entry.cf else int(entry.value)

    def _use(self, use: str, column: str, row: int, target: int, modifier: int, read: Read) -> tuple[Read, list[int]]:
        randomizer = self._sys.ctx.randomizer
        if use in ("up", "down"):  # the same card's (or pool's) neighbouring row
            return self._draw.check(column, row + (1 if use == "up" else -1), target, modifier), []
        other = randomizer.draw()
        cards = [other.card.number] if isinstance(other, CardDraw) else []
        if use == "redraw":  # red: another card, keep the better
            again = other.check(column, row, target, modifier)
            if not again.cf and again.result > read.result:
                self._draw = other
                return again, cards
            return read, cards
        # blue: another card's chained value added, as an exploding entry would (R-4.2: its row 1)
        more = other.check(column, 1, target, modifier + read.result)
        cards += list(getattr(other, "chained", []))
        return Read(read.result + (0 if more.cf else more.result), False, {**read.source, "chip": "blue"}), cards
