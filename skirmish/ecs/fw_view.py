"""Future*World's part of a unit's frozen view (`UnitView.ext`, World.register_view_part): what the AIs, the
board and the tests read of a figure beyond the shared fields. No esper here; plain values only."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from skirmish.ecs.components import Identity
from skirmish.ecs.fw_components import FwBody, FwCars, FwKit, FwRound
from skirmish.ecs.world import register_view_part
from skirmish.rules.equipment import Armoury


@dataclass(frozen=True)
class MountView:
    """A weapon mount of a grav car as a side sees it (R-9.12): its id and name, the weapon it fires (None: an
    empty mount, a rider's weapon of the category it `takes` set on it), who may work it, missiles left on a
    rack (None: a gun), and (its own side only) the rider declared to fire it this round."""

    id: str
    name: str
    weapon: str | None
    takes: str
    crew: str
    left: int | None = None
    gunner: str | None = None


@dataclass(frozen=True)
class CarView:
    """A grav car as a side sees it (R-9.12): another side's car where it is and who rides it while the side sees
    its hull, else as it was when last seen (systems.fw.cars.car_view); its split (screen, weapons, EW, whether it
    drives) only its own side reads (`full`)."""

    name: str
    car_type: str
    side: str
    cell: tuple[int, int]
    riders: tuple[str, ...]
    driver: str | None  # the rider at the controls: the first on its feet (None: nobody can drive it)
    seats: int
    generator: int
    armour: int  # ceramet points off every class (its first listed part, R-9.6)
    screen: str = "none"
    screen_points: int = 0
    drives: bool = False
    loading: bool = False
    moved_m: float = 0.0
    full: bool = True
    heights: tuple[tuple[str, int], ...] = ()  # the scenario's heights by terrain name (options.heights)
    ground: tuple[str, ...] = ()  # the scenario's ground heights (options.ground; empty: flat)
    mounts: tuple[MountView, ...] = ()  # its weapon mounts (R-9.12; systems.fw.mounts)
    weapons: int = 0  # (own side) the split's weapon points this round
    drawn: int = 0  # (own side) what the riders' declared mount fire draws of them (R-9.8)


@dataclass(frozen=True)
class FwUnitView:
    """A figure as Future*World reads it: characteristics, HP and condition (R-9.1, R-9.7), kit (weapons of
    the fw table by id, armour points per damage class, tacpack ratings, R-9.6, R-9.8), the movement
    segment's metres (R-9.11) and this round's declaration and split (`declared` False until it declares)."""

    STR: int
    CON: int
    SIZ: int
    INT: int
    POW: int
    DEX: int
    hp: int
    fallen: bool
    unconscious: bool
    dead: bool
    moved_m: float
    jumped: bool
    weapons: tuple[str, ...]
    armour: str | None
    armour_stops: tuple[tuple[str, int], ...]
    generator: int
    effectors: int
    sensors: int
    default_screen: str
    default_points: int
    jump_pack: bool
    medikit: bool
    skills: tuple[tuple[str, int], ...]
    move_m: int
    declared: bool = False
    acts: tuple[tuple[str, str | None], ...] = ()
    screen: str = "none"
    screen_points: int = 0
    shots: int = 0
    jump: int = 0
    spent: tuple[str, ...] = ()  # grenades thrown and missiles fired (seen by all)
    blind_until: int = 0  # blinded by a photon flash to this round's end
    full: bool = True  # False for an enemy in a side's view: its declaration and split read as unknown
    cars: tuple[CarView, ...] = ()  # every grav car as this figure's side sees it
    aboard: str | None = None  # the grav car it rides, or None

    @property
    def can_act(self) -> bool:
        """Conscious, alive and on its feet (R-9.7): it may declare actions."""
        return not (self.dead or self.unconscious or self.fallen)

    def left(self, weapon: str, grenade_or_missile: bool) -> int:
        """How many of `weapon` it still has (grenades and missiles are used up, R-9.10)."""
        n = self.weapons.count(weapon)
        return max(0, n - self.spent.count(weapon)) if grenade_or_missile else n

    def skill(self, name: str, default: int = 0) -> int:
        """A skill in %, `default` if the figure has none of that name."""
        return dict(self.skills).get(name, default)

    def as_enemy(self) -> FwUnitView:
        """What the other sides know: the roster (characteristics, kit), what shows (fallen, down, moving, in the
        air) and its HP (every hit is rolled in the open, as at a table); not its declaration or its tacpack's
        split (docs/RULES-NOTES.md, Future*World)."""
        return replace(self, declared=False, acts=(), screen="none", screen_points=0, shots=0, jump=0, full=False,
                       cars=())  # (a side reads the cars from its own figures: who rides them is `aboard`)


def _fw_part(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    body = c.get(FwBody)
    if body is None:
        return {}
    kit: FwKit = c[FwKit]
    rnd: FwRound = c[FwRound]
    cars: FwCars | None = c.get(FwCars)
    shown = cars.cars if cars is not None else ()
    name = c[Identity].name
    aboard = next((car.name for car in shown if name in car.riders), None) if shown else None
    return {"ext": FwUnitView(
        STR=body.STR, CON=body.CON, SIZ=body.SIZ, INT=body.INT, POW=body.POW, DEX=body.DEX, hp=body.hp,
        fallen=body.fallen, unconscious=body.unconscious, dead=body.dead, moved_m=body.moved_m, jumped=body.jumped,
        weapons=tuple(kit.weapons), armour=kit.armour, armour_stops=tuple(sorted(kit.armour_stops.items())),
        generator=kit.generator, effectors=kit.effectors, sensors=kit.sensors, default_screen=kit.default_screen,
        default_points=kit.default_points, jump_pack=kit.jump_pack, medikit=kit.medikit,
        skills=tuple(sorted(kit.skills.items())), move_m=kit.move_m, declared=rnd.declared, acts=tuple(rnd.acts),
        screen=rnd.screen, screen_points=rnd.screen_points, shots=rnd.shots, jump=rnd.jump, spent=tuple(body.spent),
        blind_until=body.blind_until, cars=shown, aboard=aboard)}


register_view_part((FwBody, FwKit, FwRound, FwCars), _fw_part)
