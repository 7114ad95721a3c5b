"""Future*World systems, the base: the battle's context, spawning a figure, and the helpers every row uses.

A figure has the shared components (Identity, Position, Facing, Health, Status … so that the battle's tally,
the side views and the board read it as they read any unit) and its own (skirmish.ecs.fw_components). The
shared Health mirrors its condition (`sync`): out of action when unconscious or dead (R-9.7), `wounds` the
HP lost; Status.prone when it has fallen or lies prone; the shared Tacpack shows this round's screen.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from skirmish.core.events import Event, make
from skirmish.ecs.components import (
    Armour,
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
)
from skirmish.ecs.fw_components import FwBody, FwCars, FwKit, FwRound
from skirmish.ecs.knowledge import Knowledge
from skirmish.ecs.systems.fw import cars as gcars
from skirmish.ecs.world import World
from skirmish.nav import Navigator
from skirmish.rules import geometry as geo
from skirmish.rules.equipment import Armoury
from skirmish.rules.fw import car_events as _car_events  # noqa: F401  (registers the grav-car event types)
from skirmish.rules.fw import events as _fw_events  # noqa: F401  (registers the fw event types for `make`)
from skirmish.rules.fw import melee as mel
from skirmish.rules.fw.checks import Characteristics
from skirmish.rules.fw.equipment import FwArmoury, FwWeapon
from skirmish.rules.fw.movement import move_m


@dataclass
class FwCtx:
    """What the fw systems share for one battle (`round` and `phase` as the battle reads them; `scope` and
    `armoury` are the shared view's fields, Future Imperfect's, unused by fw)."""

    world: World
    grid: geo.GridMap
    armoury: Armoury
    tables: FwArmoury
    rng: random.Random
    nav: Navigator
    emit: Callable[[Event], None]
    side_names: tuple[str, ...]
    darkness: bool
    round: int = 0
    phase: int | None = None
    scope: str = "fw"
    draws: int = 0  # random resolutions made (an undo is possible only while none is)
    cars: list[int] = field(default_factory=list)  # the grav cars' entities (R-9.12; systems.fw.cars)
    height_names: dict[str, int] = field(default_factory=dict)  # options.heights: metres by terrain name
    ground_rows: tuple[str, ...] = ()  # options.ground: each cell's ground in metres (empty: a flat map)
    vertical_memo: Any = None  # (what the looks depended on, the looks) of cars.extra_sightings, kept
    cars_last: dict[tuple[str, int], Any] = field(default_factory=dict)  # (side, car) -> CarView when last seen
    car_looks: dict[tuple[Any, ...], bool] = field(default_factory=dict)  # cars.car_seen's answers, kept
    withdrawn: set[int] = field(default_factory=set)  # figures that left the battle (a scenario's extraction)


def spawn_figure(ctx: FwCtx, spec: Any, side: str, side_index: int, order: int, cars: bool = False) -> int:
    """Create a figure's entity from a checked fw scenario unit (skirmish.content.fw.Unit)."""
    ch = Characteristics.parse(dict(spec.characteristics))
    tables = ctx.tables
    weapons = [str(w) for w in spec.weapons]
    armour = spec.armour[0] if spec.armour else None
    stops = dict(tables.armour[armour].stops) if armour else {}
    tp = spec.tacpack
    enc = sum((tables.weapons[w].enc for w in weapons), Fraction(0))
    enc += tables.armour[armour].enc if armour else 0
    if tp is not None:
        enc += tables.equipment["tacpack"].enc_at(tp.generator)
        enc += tables.equipment["effectors"].enc_at(tp.effectors) + tables.equipment["sensors"].enc_at(tp.sensors)
    for item, carried in (("jump_pack", spec.jump_pack), ("medikit", spec.medikit)):
        if carried:
            enc += tables.equipment[item].enc_at()
    kit = FwKit(weapons=weapons, armour=armour, armour_stops=stops, generator=tp.generator if tp else 0,
                effectors=tp.effectors if tp else 0, sensors=tp.sensors if tp else 0,
                default_screen=tp.screen if tp else "none", default_points=tp.screen_points if tp else 0,
                jump_pack=spec.jump_pack, medikit=spec.medikit, skills=dict(spec.skills), enc=float(enc),
                move_m=move_m(enc, ch.STR))
    body = FwBody(ch.STR, ch.CON, ch.SIZ, ch.INT, ch.POW, ch.DEX, hp=ch.hp)
    eid = ctx.world.spawn(
        Identity(spec.name, side, side_index, order), Position(*spec.at), Facing(),
        Profile({}, dict(spec.skills), ch.SIZ, 0), Health(0, 0), Cover(), Armour(), Loadout(),
        Tacpack("fw", kit.generator), Declared(), Readiness(), Turn(),
        Status(prone=spec.prone, known_to=frozenset(ctx.side_names)), body, kit, FwRound(),
        *((FwCars(),) if cars else ()),  # what it sees of the grav cars (only in a battle that has some)
    )
    return eid


class FwBase:
    """The helpers of the fw systems over one battle's world."""

    def __init__(self, ctx: FwCtx) -> None:
        self.ctx = ctx
        self.w = ctx.world
        self.knowledge: Knowledge | None = None  # the sides' knowledge (side_views), when a battle made it
        self.asker: int | None = None  # the figure a preview is worked out for (FwSystems.odds), else None

    # ------------------------------------------------------------------ reading
    def name(self, eid: int) -> str:
        """Figure name."""
        return self.w.peek(eid, Identity).name

    def side(self, eid: int) -> str:
        """Its side's name."""
        return self.w.peek(eid, Identity).side

    def body(self, eid: int) -> FwBody:
        """Its body, only to read (World.peek: its view is kept)."""
        return self.w.peek(eid, FwBody)

    def change_body(self, eid: int) -> FwBody:
        """Its body, to change (World.get: its view is made again)."""
        return self.w.get(eid, FwBody)

    def kit(self, eid: int) -> FwKit:
        """Its kit (read only: nothing changes a kit during a battle)."""
        return self.w.peek(eid, FwKit)

    def plan(self, eid: int) -> FwRound:
        """This round's declaration and split, only to read (changed through World.get by the rows)."""
        return self.w.peek(eid, FwRound)

    def can_act(self, eid: int) -> bool:
        """Alive, conscious and on its feet (R-9.7)."""
        b = self.w.peek(eid, FwBody)
        return not (b.dead or b.unconscious or b.fallen)

    def in_action(self, eid: int) -> bool:
        """Alive and conscious (a fallen figure is still in the fight: it may rise, R-9.7)."""
        b = self.w.peek(eid, FwBody)
        return not (b.dead or b.unconscious)

    def figures(self) -> list[int]:
        """Every figure in scenario order."""
        return [e for e, _ in self.w.units()]

    def enemies(self, eid: int) -> list[int]:
        """The figures of the other sides still in action."""
        mine = self.w.peek(eid, Identity).side_index
        return [e for e, i in self.w.units() if i.side_index != mine and self.in_action(e)]

    def weapon(self, wid: str) -> FwWeapon:
        """A weapon of the fw table."""
        return self.ctx.tables.weapons[wid]

    def sees(self, a: int, b: int) -> geo.Sight:
        """What `a` sees of `b` from where they stand (line of sight and cover, R-6.6's geometry); in the vertical
        when either rides a grav car (R-9.12, cars.vertical_sight)."""
        if self.ctx.cars and (gcars.car_of(self, a) is not None or gcars.car_of(self, b) is not None):
            return gcars.vertical_sight(self, a, b)
        return geo.sight(self.ctx.grid, self.w.cell(a), self.w.cell(b))

    def aboard(self, eid: int) -> bool:
        """Whether the figure rides a grav car (R-9.12)."""
        return bool(self.ctx.cars) and gcars.car_of(self, eid) is not None

    def armour_of(self, te: int) -> dict[str, int]:
        """The points an attack on `te` meets per damage class (R-9.6): its armour, and a rider's car's ceramet
        on top (docs/RULES-NOTES.md: riders are covered by the car's armour)."""
        stops = self.kit(te).armour_stops
        ceid = gcars.car_of(self, te) if self.ctx.cars else None
        if ceid is None:
            return stops
        extra = gcars.table(self, ceid).armour
        points = next(iter(extra.values()), 0)
        return {c: stops.get(c, 0) + points for c in {*stops, "P", "B", "L"}} if points else stops

    def distance_m(self, a: int, b: int) -> float:
        """Metres between two figures."""
        return geo.distance_m(self.w.cell(a), self.w.cell(b), self.ctx.grid.cell_m)

    def screen_of(self, te: int) -> tuple[str | None, int]:
        """The screen (type or None, points) an attack on `te` meets: its split this round (R-9.8); for a
        preview asked by another side's figure (`asker`) while `te` has declared, its usual split (the
        scenario's), as a side does not see an enemy's declaration (docs/RULES-NOTES.md)."""
        ceid = gcars.car_of(self, te) if self.ctx.cars else None
        if ceid is not None:  # a rider meets its car's screen when the car has one up (docs/RULES-NOTES.md)
            c = gcars.car(self, ceid)
            kind, points = c.screen, c.screen_points
            if self.asker is not None and self.side(self.asker) != self.side(te):
                kind, points = c.default_screen, c.default_points
            if points:
                return (None if kind == "none" else kind), points
        plan = self.w.peek(te, FwRound)
        kind, points = plan.screen, plan.screen_points
        if self.asker is not None and plan.declared and self.side(self.asker) != self.side(te):
            kit = self.kit(te)
            kind, points = kit.default_screen, kit.default_points
        return (None if kind == "none" else kind), points

    def seen_by_side(self, eid: int, te: int) -> bool:
        """Whether `eid`'s side sees figure `te` now (the shared Knowledge's look; all-seeing without one)."""
        k = self.knowledge
        return k is None or self.name(te) in k.seen.get(self.side(eid), ())

    def last_shown(self, eid: int, te: int) -> tuple[Any, ...] | None:
        """What showed of figure `te` when `eid`'s side last saw it (FwKnowledge.shown: hp, fallen, unconscious,
        dead, blind_until, and in a battle with cars the car it rode), or None when the side reads it as it is:
        a friend, a figure seen now, or a battle without side views."""
        shown = getattr(self.knowledge, "shown", None)
        if shown is None or self.side(eid) == self.side(te) or self.seen_by_side(eid, te):
            return None
        out: tuple[Any, ...] | None = shown(self.side(eid), self.name(te))
        return out

    def knows(self, eid: int, te: int) -> bool:
        """Whether `eid`'s side knows where `te` is: it sees it now, or its position is known to the side (it has
        not moved unseen since it was last seen, or combat sensors found it)."""
        return self.side(eid) in self.w.peek(te, Status).known_to or self.seen_by_side(eid, te)

    def engaged(self, eid: int) -> bool:
        """Next to an enemy in action, in contact (not across a closed wall corner): engaged, so it has no
        movement segment (R-9.2)."""
        if self.aboard(eid):  # 10 m up: nobody on the ground touches it
            return False
        here = self.w.cell(eid)
        return any(mel.touching(self.ctx.grid, here, self.w.cell(e)) for e in self.enemies(eid) if not self.aboard(e))

    # ------------------------------------------------------------------ writing
    def event(self, etype: str, actor: str | None, rules: tuple[str, ...], **data: Any) -> None:
        """Emit an fw event of a registered type."""
        self.ctx.emit(make(etype, self.ctx.round, self.ctx.phase, actor, rules, **data))

    def roll(self, sides: int) -> int:
        """One die on the battle's random source (counted for undo checks)."""
        self.ctx.draws += 1
        return self.ctx.rng.randint(1, sides)

    def sync(self, eid: int) -> None:
        """Mirror the figure's condition and split into the shared components the battle, views and board read."""
        b = self.w.peek(eid, FwBody)
        hp = self.w.get(eid, Health)
        hp.wounds = max(0, b.CON - b.hp)
        hp.dead, hp.unconscious = b.dead, b.unconscious and not b.dead
        if b.fallen:
            self.w.get(eid, Status).prone = True  # (rising stands it up: resolve.rise)
        rnd = self.w.peek(eid, FwRound)
        tp = self.w.get(eid, Tacpack)
        tp.screen_type, tp.screen_points, tp.shot_points = rnd.screen, rnd.screen_points, rnd.shots
        if self.ctx.cars:  # a car's driver is its first rider on its feet: what the cars show may change
            gcars.refresh(self)
