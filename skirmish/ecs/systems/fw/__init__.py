"""Future*World systems (RULES.md §9): spawning, the round table (declaration, movement, resolution by DEX,
bookkeeping), legality and the side views, over one battle's world. Layers, one module each: base (context,
spawn, helpers) < legality (refusals and the lists) < resolve (attacks, damage, wounds, bookkeeping) < table
(the rows) < FwSystems (the seam the battle uses, skirmish.core.ruleset.Systems)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from skirmish.content.scenario import Scenario
from skirmish.core.errors import IllegalAction, Refusal
from skirmish.core.events import Event
from skirmish.core.flow import Request, RoundTable
from skirmish.core.legal import LegalActions
from skirmish.ecs import fw_view as _fw_view  # noqa: F401  (registers fw's part of the unit view)
from skirmish.ecs.components import Position
from skirmish.ecs.fw_components import FwBody, FwCar, FwKit, FwRound
from skirmish.ecs.systems.fw import arms, cell_throw, legality, resolve, table
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.ecs.systems.fw.base import FwBase, FwCtx, spawn_figure
from skirmish.ecs.systems.fw.views import FwKnowledge
from skirmish.ecs.world import World
from skirmish.nav import Navigator
from skirmish.rules.actions import Action, EndTurn, Move
from skirmish.rules.fw.actions import FwIntent, cell_target
from skirmish.rules.fw.checks import attack_chance
from skirmish.rules.fw.equipment import FwArmoury
from skirmish.rules.fw.odds import Preview

__all__ = ["ODDS_ACTS", "FwCtx", "FwSystems", "setup"]
ODDS_ACTS = ("shoot", "burst", "melee", "throw", "launch")  # the declared attacks the board previews


class FwSystems(FwBase):
    """The rules applied to the world for the `fw` ruleset."""

    def declare(self, eid: int, action: Any) -> bool:
        """Check and apply a declaration (the declaration row's answer)."""
        return table.declare(self, eid, action)

    def move(self, eid: int, action: Any) -> bool:
        """Check and apply a move or a stay (the movement row's answer)."""
        return table.move(self, eid, action)

    # ------------------------------------------------------------------ the seam the battle uses (core.ruleset)
    def round_table(self) -> RoundTable:
        """Declaration → movement → resolution → bookkeeping, as rows (R-9.2)."""
        return table.round_table(self)

    def start_info(self) -> dict[str, Any]:
        """The battle_start event's ruleset fields: dice, no deck."""
        return {"randomizer": "dice", "deck": "none"}

    def legal_actions(self, req: Request) -> LegalActions:
        """What the figure asked by `req` may answer (STYLE 13)."""
        eid = self.w.entity(req.unit)
        if req.kind == table.INTENT:
            return legality.intents(self, eid)
        if req.kind == table.MOVE:
            return legality.moves(self, eid)
        raise ValueError(f"fw has no {req.kind!r} requests ({table.INTENT}, {table.MOVE})")

    def refusal(self, req: Request, action: Action) -> Refusal | None:
        """None if the rules accept `action` as the answer to `req` now, else why not; nothing changes."""
        eid = self.w.entity(req.unit)
        if req.kind == table.INTENT:
            if not isinstance(action, FwIntent):
                return Refusal("R-9.2", f"the declaration comes first ({action.verb} is not a declaration)")
            why = legality.intent_refusal(self, eid, action)
        elif req.kind == table.MOVE:
            if isinstance(action, EndTurn):
                return None
            if not isinstance(action, Move):
                return Refusal("R-9.2", f"the movement segment takes a move or end, not {action.verb}")
            why = legality.move_refusal(self, eid, action.to)[0]
        else:
            raise ValueError(f"fw has no {req.kind!r} requests ({table.INTENT}, {table.MOVE})")
        return None if why is None else Refusal.from_text(why)

    def fallback(self, req: Request) -> Action:
        """What a controller whose answer was refused is taken to answer: no action with its usual screen, or
        staying put."""
        if req.kind == table.INTENT:
            kit = self.kit(self.w.entity(req.unit))
            return FwIntent(req.unit, "none", screen=kit.default_screen, points=kit.default_points)
        if req.kind == table.MOVE:
            return EndTurn(req.unit)
        raise ValueError(f"fw has no {req.kind!r} requests ({table.INTENT}, {table.MOVE})")

    def side_views(self, sides: tuple[str, ...]) -> FwKnowledge:
        """Fog of war: sight as the map gives it, and what shows of an enemy figure (FwUnitView.as_enemy)."""
        self.knowledge = FwKnowledge(sides, self)  # legality lists and accepts targets by what a side knows
        return self.knowledge

    def draws(self) -> int:
        """Dice rolled so far."""
        return self.ctx.draws

    # ------------------------------------------------------------------ a scenario's triggers (skirmish.objectives)
    def reinforce(self, unit: Any, side: str) -> int:
        """A checked fw scenario unit arrives on `side` (a trigger's reinforcements, at the start of a round)."""
        eid = spawn_figure(self.ctx, unit, side, self.ctx.side_names.index(side), len(self.w.units()),
                           cars=bool(self.ctx.cars))
        self.sync(eid)
        return eid

    def withdraw(self, eid: int) -> None:
        """A figure leaves the battle (extracted): out of action from now on, where it stands; it neither bleeds
        nor takes First Aid (`FwCtx.withdrawn`)."""
        self.ctx.withdrawn.add(eid)
        self.change_body(eid).unconscious = True
        self.sync(eid)

    def set_grid(self, grid: Any) -> None:
        """The map changed (a door): routes and sight are worked out on the new one."""
        self.ctx.grid = grid
        self.ctx.nav = Navigator.of(grid)

    def hash_state(self) -> dict[str, Any]:
        """fw's own components (the battle hashes the shared ones) and the dice rolled so far; with cars, what each
        side last saw of the enemy's (cars.car_view's `cars_last`: where the side knows a car is, fog)."""
        kinds: tuple[type[Any], ...] = (FwBody, FwKit, FwRound) + ((FwCar,) if self.ctx.cars else ())
        out = {"fw": {t.__name__: self.w.query(t) for t in kinds}, "draws": self.ctx.draws}
        if self.ctx.cars:
            out["cars_last"] = [[side, ceid, view] for (side, ceid), view in sorted(self.ctx.cars_last.items())]
        return out

    # ------------------------------------------------------------------ previews (nothing changes)
    odds_requests: tuple[str, ...] = (table.INTENT,)  # Battle.odds answers while a declaration is asked

    def odds(self, eid: int, action: Any, seed: int) -> Preview:
        """The exact odds of a declared-style shot, burst, strike or missile at `action.target` now (R-9.4 -
        R-9.6, R-9.10), without rolling: `odds.odds` of the same `Attack` value the resolution rolls
        (`resolve.ranged_attack`, `arms.attack_value`); a grenade's: the target caught by its blast
        (`missiles.p_caught`, `odds.blast_odds`)."""
        if not isinstance(action, FwIntent) or action.act not in ODDS_ACTS or action.target is None:
            raise IllegalAction(f"odds are given for an intent to {', '.join(ODDS_ACTS)} at a target")
        why = legality.intent_refusal(self, eid, action)
        if why:
            raise IllegalAction(why)
        self.asker = eid  # the target's screen as the asker's side may know it (screen_of)
        try:
            return self._odds(eid, action)
        finally:
            self.asker = None

    def _odds(self, eid: int, action: Any) -> Preview:
        wid = legality.weapon_of(self, eid, action)
        assert wid is not None
        cell = cell_target(action.target) if action.act == "throw" and not self.w.has(action.target) else None
        if cell is not None:  # a grenade at a cell: who it may catch is worked out per figure (fw_preview.catches)
            return cell_throw.cell_preview(self, eid, cell, wid)
        te = self.w.entity(action.target)
        hp = self._known_hp(eid, te)
        mounted = action.mount is not None  # from a grav car's mount: the mounted chance
        if action.act in ("melee", "launch"):
            ch, value = arms.attack_value(self, eid, te, action.act, wid, mounted)
            steps = () if ch is None else tuple(s.reason for s in ch.steps)
            return Preview.of(value.chance, steps, value, hp)
        if action.act == "throw":
            return arms.throw_preview(self, eid, te, wid, hp)  # HP as the asker's side knows it (review7a)
        ch = attack_chance(resolve.base_chance(self, eid, wid, mounted), resolve.conditions(self, eid, te))
        value = resolve.ranged_attack(self, eid, te, action.act, wid, mounted)
        return Preview.of(ch.value, (s.reason for s in ch.steps), value, hp)

    def _known_hp(self, eid: int, te: int) -> int:
        """`te`'s HP as `eid`'s side knows it (the preview's chance to drop it): now if it is a friend or seen now,
        else as it showed when last seen (its place may be known while its wounds are not)."""
        shown = self.last_shown(eid, te)
        return self.body(te).hp if shown is None else shown[0]

    def move_refusal(self, eid: int) -> str | None:
        """Why `eid` may not move now, or None."""
        if not self.can_act(eid):
            return "R-9.7: a fallen, unconscious or dead figure does not move"
        return "R-9.2: an engaged figure has no movement segment" if self.engaged(eid) else None

    def preview_move(self, eid: int, to: tuple[int, int]) -> tuple[list[tuple[int, int]], float, bool]:
        """Route, metres and False (fw has no run): the checks a move makes."""
        why, path, metres, _ = legality.move_refusal(self, eid, to)
        if why:
            raise IllegalAction(why)
        return path, metres, False

    def move_allowance(self, eid: int) -> tuple[float, float]:
        """(walk, walk): the movement segment's metres after ENC (R-9.11); a rider's: its car's flight this round
        (R-9.12: none for a passenger)."""
        ceid = gcars.car_of(self, eid) if self.ctx.cars else None
        if ceid is not None:
            m = float(gcars.allowance(self, ceid)) if gcars.is_driver(self, eid) else 0.0
            return m, m
        m = float(self.kit(eid).move_m)
        return m, m


def setup(scenario: Scenario, rng: random.Random, world: World, emit: Callable[[Event], None],
          tables: FwArmoury) -> FwSystems:
    """The systems of one Future*World battle: the context and every figure spawned."""
    spec = scenario.spec
    darkness = bool(getattr(spec.options, "darkness", False))
    ctx = FwCtx(world=world, grid=scenario.grid, armoury=scenario.armoury, tables=tables, rng=rng,
                nav=Navigator.of(scenario.grid), emit=emit, side_names=tuple(s.name for s in spec.sides),
                darkness=darkness, height_names=dict(getattr(spec.options, "heights", {}) or {}),
                ground_rows=tuple(getattr(spec.options, "ground", None) or ()))
    sys = FwSystems(ctx)
    n = 0
    has_cars = any(getattr(side, "cars", None) for side in spec.sides)
    for si, side in enumerate(spec.sides):
        for unit in side.units:
            spawn_figure(ctx, unit, side.name, si, n, cars=has_cars)
            n += 1
    ctx.cars = gcars.spawn_cars(ctx, spec)
    for ceid in ctx.cars:  # riders aboard at the start stand at the car's cell
        for name in gcars.car(sys, ceid).riders:
            pos = world.get(world.entity(name), Position)
            pos.x, pos.y = world.cell(ceid)
    gcars.refresh(sys)
    for eid in sys.figures():
        sys.sync(eid)
    return sys
