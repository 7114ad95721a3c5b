"""Future Imperfect systems: spawning, initiative, actions and bookkeeping on one battle's world.

Each method checks, then applies (STYLE 4): a broken rule raises IllegalAction naming it; nothing is
written before the checks pass. Every resolution emits an event with rule ids and modifiers (R-10.2). The
systems are one class built in layers, one module each: base (context, spawn, helpers) < round
(declaration, initiative, turns, bookkeeping) < shooting (with aim, reload, tacpack) < thrown < movement
(with waits and triggers; delay.py puts a turn's triggers round the phase order) < melee (blows, charges) < grapple
(Close, Open, entangle, trip, breaking free, active defence) < arts (martial arts maneuvers) < holds (Hold, Lift,
Lock, Escape) < melee_legal (the melee actions listed) < FiSystems (check and apply an action of a turn)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from typing import Any, Literal

from skirmish.content.fi import Options, martial_arts_pools
from skirmish.content.scenario import Scenario
from skirmish.core.errors import IllegalAction, Refusal
from skirmish.core.events import Event
from skirmish.core.flow import Request, RoundTable
from skirmish.core.legal import LegalActions
from skirmish.ecs.components import Health, Identity, Profile, Turn
from skirmish.ecs.knowledge import Knowledge
from skirmish.ecs.systems.fi import covering, hand_table, launched, legality, mounts, split, table
from skirmish.ecs.systems.fi.base import Ctx, spawn_unit
from skirmish.ecs.systems.fi.chips import ChipBank
from skirmish.ecs.systems.fi.hand import FiHand
from skirmish.ecs.systems.fi.melee_legal import FiMelee
from skirmish.ecs.systems.fi.mind import FiMind
from skirmish.ecs.world import World
from skirmish.nav import Navigator
from skirmish.rules.actions import (
    Action,
    Aim,
    CoverFire,
    Declare,
    EndTurn,
    Launch,
    Move,
    Reload,
    SetTacpack,
    Shoot,
    Throw,
    Wait,
)
from skirmish.rules.deck import Card, Deck, builtin
from skirmish.rules.fi.chips import ChipPolicy
from skirmish.rules.fi.melee_actions import Charge, MeleeAttack
from skirmish.rules.fi.melee_odds import ManeuverOdds
from skirmish.rules.fi.mind import Contest
from skirmish.rules.fi.mounts import Dismount, Mount
from skirmish.rules.fi.odds import ShotOdds, shot_odds
from skirmish.rules.fi.ranged_launch import place_launch
from skirmish.rules.fi.ranged_split import SplitOdds
from skirmish.rules.fi.thrown import Bystander, ThrowOdds, throw_odds
from skirmish.rules.fi.timing import Part
from skirmish.rules.randomizer import Randomizer

__all__ = ["Ctx", "FiSystems", "IllegalAction", "setup", "spawn_unit"]


class FiSystems(FiMelee, FiHand, FiMind):
    """The rules applied to the world for the `fi` ruleset."""

    def check(self, eid: int, action: Action) -> None:
        """Raise IllegalAction if the rules refuse this action of a turn now; change nothing. The same checks
        gate `apply`, so what this accepts is what `apply` does (STYLE 13)."""
        if isinstance(action, EndTurn):
            return
        if isinstance(action, Declare):
            raise IllegalAction("R-5.1: speeds are declared at the start of the round, not in a turn")
        if isinstance(action, ChipPolicy):  # a person's chip policy: free, whatever the unit's state
            if self.ctx.chips is None:
                raise IllegalAction("R-8.5: this battle plays without story chips (option chips)")
            self.ctx.chips.policy_check(self, eid, action)
            return
        self.mind_check(eid, action)  # a terrified unit only runs
        if isinstance(action, Move):
            _, _, running = self.plan_move(eid, action.to)
            self.check_parts(eid, Part("move", running=running))
        elif isinstance(action, Shoot):
            self.shot_setup(eid, action)
        elif isinstance(action, Throw):
            self.throw_setup(eid, action)
        elif isinstance(action, Launch):
            launched.launch_setup(self, eid, action)
        elif isinstance(action, CoverFire):
            covering.check(self, eid, action)
        elif isinstance(action, Aim):
            self.aim_check(eid, action)
        elif isinstance(action, Reload):
            self.reload_check(eid)
        elif isinstance(action, SetTacpack):
            self.tacpack_check(eid, action)
        elif isinstance(action, Wait):
            self.wait_check(eid, action)
        elif isinstance(action, Contest):
            self.contest_check(eid, action)
        elif isinstance(action, Mount | Dismount):  # mounts in play (R-6.1, ecs/systems/fi/mounts.py)
            mounts.check(self, eid, action)
        elif not self.melee_gate(eid, action):  # melee, charges and maneuvers
            raise IllegalAction(f"{action.verb} is not an action in a turn")

    knowledge: Knowledge | None = None  # the sides' knowledge (side_views), when a battle made it

    applied = 0  # actions applied so far (a legal list's lazy parts are read while none more is: legality)

    def apply(self, eid: int, action: Action) -> bool:
        """Check and apply one action of a turn; True when the turn is over."""
        done = self._apply(eid, action)
        if self.w.mounts:  # a rider down comes off its mount (R-6.1 mounts)
            mounts.unseat_fallen(self)
        self.applied += 1
        return done

    def _apply(self, eid: int, action: Action) -> bool:
        if isinstance(action, EndTurn):
            self.after_action(eid, action)  # card hands: a card passed keeps the reserve
            self._event("end_turn", self.name(eid), ("R-5.3",))
            return True
        if isinstance(action, ChipPolicy):
            self.check(eid, action)
            self.ctx.chips.choose(self, eid, action)
            return False  # it costs nothing: the turn goes on
        if not isinstance(action, Declare):
            self.mind_check(eid, action)
        if isinstance(action, Move):
            self.move(eid, action)
        elif isinstance(action, Shoot):
            self.shoot(eid, action)
        elif isinstance(action, Throw):
            self.throw(eid, action)
        elif isinstance(action, Launch):
            launched.launch(self, eid, action)
        elif isinstance(action, CoverFire):
            covering.declare(self, eid, action)
        elif isinstance(action, Aim):
            self.aim(eid, action)
        elif isinstance(action, Reload):
            self.reload(eid)
        elif isinstance(action, SetTacpack):
            self.set_tacpack(eid, action)
        elif isinstance(action, Wait):
            self.wait(eid, action)
            covering.other_action(self, eid, action)
            return True
        elif (done := self.melee_apply(eid, action)) is not None:
            self.after_action(eid, action)  # card hands too: a blow or maneuver flushes a reserve
            covering.other_action(self, eid, action)
            return done
        elif isinstance(action, Contest):
            self.contest(eid, action)
        elif isinstance(action, Mount | Dismount):
            mounts.apply(self, eid, action)
        else:
            self.check(eid, action)  # a declaration or anything else that is not an action in a turn: refused
        self.after_action(eid, action)  # card hands: a reserve flushed, aim counters lost
        covering.other_action(self, eid, action)  # covering fire ends at a different action
        return not self.active(eid)

    # ------------------------------------------------------------------ the seam the battle uses (core.ruleset)
    def round_table(self) -> RoundTable:
        """Declaration → initiative → phases I–IV → bookkeeping, as rows (R-5.1); or with card hands, hand →
        steps 14 → 0 with their continuing phases → bookkeeping (R-5.8). With story chips the draws are told as
        round 1 begins (R-8.5)."""
        rows = hand_table.cards_table(self) if self.cards_mode else table.round_table(self)
        bank = self.ctx.chips
        if bank is None:
            return rows
        first = rows.begin_round

        def begin_round() -> None:  # the chips drawn are told once, as round 1 begins
            first()
            bank.announce(self)

        return dataclasses.replace(rows, begin_round=begin_round)

    def start_info(self) -> dict[str, Any]:
        """The battle_start event's ruleset fields: how the random reads are made and with which deck."""
        return {"randomizer": self.ctx.randomizer.mode, "deck": self.ctx.deck_name}

    def legal_actions(self, req: Request) -> LegalActions:
        """What the unit asked by `req` may answer (STYLE 13): every declaration, or in its turn the cells it
        may move to walking and running, the shots, throws, aims, reload, wait and tacpack splits."""
        if req.kind == "declare":
            plain = legality.declarations(req.unit)
            if not self.cards_mode:
                return plain
            hands = tuple(self.hand_options(self.w.entity(req.unit)))  # card hands
            return LegalActions(req.unit, "declare", declare=plain.declare + hands)
        if req.kind == "act":
            eid = self.w.entity(req.unit)
            return self.mind_legal(eid, legality.turn_actions(self, eid))
        raise ValueError(f"fi has no {req.kind!r} requests (declare, act)")

    def refusal(self, req: Request, action: Action) -> Refusal | None:
        """None if the rules accept `action` as the answer to `req` now, else why not; nothing changes."""
        if req.kind == "declare":
            try:
                if self.cards_mode:
                    self.hand_check(self.w.entity(req.unit), action)
                else:
                    self.declare_check(action)
            except IllegalAction as exc:
                return exc.refusal
            return None
        if req.kind != "act":
            raise ValueError(f"fi has no {req.kind!r} requests (declare, act)")
        refused = legality.refusal_of(self, self.w.entity(req.unit), action)
        return refused.refusal if refused is not None else None

    @staticmethod
    def fallback(req: Request) -> Action:
        """What a controller whose answer was refused is taken to answer: NORMAL, or the end of its turn."""
        if req.kind not in ("declare", "act"):
            raise ValueError(f"fi has no {req.kind!r} requests (declare, act)")
        return Declare(req.unit, "normal") if req.kind == "declare" else EndTurn(req.unit)

    def side_views(self, sides: tuple[str, ...]) -> Knowledge:
        """Fog of war as Future Imperfect sees it: R-6.1 sight and the sides' knowledge of positions
        (skirmish.ecs.knowledge; docs/RULES-NOTES.md "Side views"), with the mounts a side sees (R-6.1 mounts); kept so
        odds read what the asker knows."""
        self.knowledge = mounts.MountKnowledge(sides, self.ctx.armoury)
        return self.knowledge

    def draws(self) -> int:
        """Card or dice resolutions made so far."""
        return self.ctx.randomizer.draws

    # ------------------------------------------------------------------ a scenario's triggers (skirmish.objectives)
    def reinforce(self, unit: Any, side: str) -> int:
        """A checked scenario unit arrives on `side` (a trigger's reinforcements, at the start of a round)."""
        order = len(self.w.units())
        if getattr(self.ctx, "arts", None) is not None and getattr(unit, "martial_arts", None):
            self.ctx.arts[unit.name] = martial_arts_pools(unit)
        eid = spawn_unit(self.ctx, unit, side, self.ctx.side_names.index(side), order)
        if self.ctx.mounts_due:  # a mounted reinforcement comes on its mount (R-6.1 mounts)
            mounts.arrive(self, eid)
        self.refresh_cover()
        return eid

    def withdraw(self, eid: int) -> None:
        """A unit leaves the battle (extracted): out of action from now on, where it stands."""
        self.w.get(eid, Health).unconscious = True
        self.refresh_cover()

    def set_grid(self, grid: Any) -> None:
        """The map changed (a door): routes, reach and cover are worked out on the new one."""
        self.ctx.grid = grid
        self.ctx.nav = Navigator.of(grid)
        self.refresh_cover()

    def hash_state(self) -> dict[str, Any]:
        """The random state the world's components do not hold: the deck's piles and the draws made."""
        deck = self.ctx.deck
        hands = {"hands": self.hands_state()} if self.cards_mode else {}
        return {
            **hands,
            "deck": None if deck is None else {
                "draw": [c.number for c in deck.draw_pile], "discard": [c.number for c in deck.discard_pile],
                "pending_shuffle": deck.pending_shuffle, "shuffles": deck.shuffles},
            "draws": self.ctx.randomizer.draws,
            **({"melee": melee} if (melee := self.melee_hash()) else {}),
            **self.mind_state(),  # only when a state of mind is set
            **({"chips": self.ctx.chips.state()} if self.ctx.chips is not None else {}),
            **mounts.state(self),  # only when the battle has mounts
        }

    def _pile(self) -> list[Card] | None:
        """The cards the next draw may turn (None in dice mode)."""
        deck = self.ctx.deck
        if deck is not None and self.ctx.randomizer.mode == "cards":
            return list(deck.draw_pile) or list(deck.discard_pile)
        return None

    def odds(self, eid: int, action: Action, seed: int) -> ShotOdds | ThrowOdds | ManeuverOdds | SplitOdds:
        """The odds of a shot, blow or throw by `eid`, without making it (R-6, R-7; IllegalAction if not
        allowed): a blow is read as the shot it is resolved as."""
        maneuver = self.maneuver_odds(eid, action, self._pile(), seed)  # Close, Open … and checks
        if maneuver is not None:
            return maneuver
        if isinstance(action, MeleeAttack) or (isinstance(action, Charge) and action.ranged != "yes"):
            if isinstance(action, Charge):
                self.charge_check(eid, action)
                msetup, mtarget, mtgt, _, _ = self.melee_setup(eid, action, charge=True, at=action.at)
            else:
                self.melee_check(eid, action)
                msetup, mtarget, mtgt, _, _ = self.melee_setup(eid, action)
            return shot_odds(msetup, mtarget, cards=self._pile(), seed=seed, **self._known_health(eid, mtgt))
        if isinstance(action, Shoot) and action.also:  # a split burst: each target's shot
            plan, shots = split.setups(self, eid, action)
            return SplitOdds(tuple((share.target, shot_odds(setup, target, cards=self._pile(), seed=seed,
                                                            **self._known_health(eid, tgt)))
                                   for share, (setup, target, tgt) in zip(plan.shares, shots, strict=True)))
        if isinstance(action, Launch):  # a launched grenade: a throw's odds, scattered as a launch
            people = [Bystander(i.name, self.w.cell(e), self.armoured(e)) for e, i in self.w.units()
                      if not self.w.get(e, Health).dead]
            return throw_odds(launched.launch_setup(self, eid, action), self.ctx.grid, self.w.cell(eid),
                              (int(action.at[0]), int(action.at[1])), people, cards=self._pile(), seed=seed,
                              place=place_launch)
        if isinstance(action, Shoot):
            setup, target, tgt = self.shot_setup(eid, action)
            return shot_odds(setup, target, cards=self._pile(), seed=seed, **self._known_health(eid, tgt))
        if isinstance(action, Throw):
            thrown = self.throw_setup(eid, action)
            people = [Bystander(i.name, self.w.cell(e), self.armoured(e)) for e, i in self.w.units()
                      if not self.w.get(e, Health).dead]
            return throw_odds(thrown, self.ctx.grid, self.w.cell(eid), (int(action.at[0]), int(action.at[1])),
                              people, cards=self._pile(), seed=seed)
        raise IllegalAction(f"no odds for {action.verb}: only shots, throws, blows and maneuvers are rolled against")

    def _known_health(self, eid: int, tgt: int) -> dict[str, Any]:
        """The target's wounds and CT as `eid`'s side knows them, for odds (fog, docs/RULES-NOTES.md "Side views"):
        a friend's as they are; an enemy's wounds as they showed when last seen, its CT (and stun) never shown,
        so estimated full (`ct_known` False)."""
        hp = self.w.peek(tgt, Health)
        side = self.w.peek(eid, Identity).side_index
        k = self.knowledge
        if k is None or self.w.peek(tgt, Identity).side_index == side:
            return {"wounds": hp.wounds, "ct": hp.ct}
        last = k.last.get(k.sides[side], {}).get(self.name(tgt))
        return {"wounds": last.wounds if last is not None else hp.wounds, "ct": self.w.peek(tgt, Profile).ct_max,
                "ct_known": False}

    def move_refusal(self, eid: int) -> str | None:
        """Why `eid` may not move now, or None if some move (a walk, or a run, the only move under FAST,
        R-5.4) fits its declared speed."""
        try:
            if self.w.get(eid, Turn).moved_this_turn:
                return "one movement action per turn (docs/RULES-NOTES.md)"
            held = self.held_reason(eid)
            if held:
                return held
            self.check_parts(eid, Part("move", running=True))  # a run is the fastest move
        except IllegalAction as exc:
            return str(exc)
        return None

    def preview_move(self, eid: int, to: tuple[int, int]) -> tuple[list[tuple[int, int]], float, bool]:
        """Route, metres and whether it is a run: the checks `apply` makes for that move."""
        path, metres, running = self.plan_move(eid, to)
        self.check_parts(eid, Part("move", running=running))
        return path, metres, running


def setup(scenario: Scenario, rng: random.Random, world: World, emit: Callable[[Event], None]) -> FiSystems:
    """The systems of one Future Imperfect battle: the deck or dice (R-4), the context, every unit spawned
    facing the enemy, and cover worked out."""
    spec = scenario.spec
    opts = spec.options
    if not isinstance(opts, Options):  # the scenario was checked by FI's schema parts (skirmish.content.fi)
        raise ValueError(f"{scenario.source}: ruleset: {spec.ruleset!r} is not Future Imperfect")
    deck: Deck | None = None
    if opts.randomizer == "cards" or scenario.stacked or opts.initiative == "cards":  # hands need cards
        if scenario.stacked is not None and spec.deck is not None:
            deck = Deck(scenario.stacked, rng, shuffle=spec.deck.shuffle)
        else:
            deck = Deck(builtin(opts.deck), rng)
    mode: Literal["cards", "dice"] = "cards" if scenario.stacked else opts.randomizer
    ctx = Ctx(
        world=world, grid=scenario.grid, armoury=scenario.armoury, randomizer=Randomizer(mode, rng, deck),
        nav=Navigator.of(scenario.grid), emit=emit, scope=opts.scope, side_names=tuple(s.name for s in spec.sides),
        initiative_cards=opts.initiative_cards, concussion_saves=opts.concussion_saves, deck=deck,
        deck_name="stacked" if scenario.stacked else opts.deck, initiative=opts.initiative,
        unintended_targets=opts.unintended_targets,
    )
    if opts.chips:  # the bin and each side's draws, from the battle's one random source
        ctx.chips = ChipBank(spec.sides, rng)
    sys = FiSystems(ctx)
    order = 0
    for si, side in enumerate(spec.sides):
        for unit in side.units:
            if opts.martial_arts and getattr(unit, "martial_arts", None):  # R-7.7: the practitioners' pools
                ctx.arts[unit.name] = martial_arts_pools(unit)
            spawn_unit(ctx, unit, side.name, si, order)
            order += 1
    sys.init_minds(spec)  # surprised sides and units, fearsome units
    mounts.init(sys, spec)  # the scenario's mounts, a `mounted: true` unit on one riding it
    sys.face_enemies()
    sys.refresh_cover()
    return sys
