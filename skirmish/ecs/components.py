"""Data-only components (STYLE 6). Systems in skirmish.ecs.systems hold the logic."""

from __future__ import annotations

from dataclasses import dataclass, field

from skirmish.rules.fi.timing import Part


@dataclass(slots=True)
class Identity:
    """Who this is: name (the unit id in actions and events), side name and side order."""

    name: str
    side: str
    side_index: int
    order: int


@dataclass(slots=True)
class Position:
    """Grid cell."""

    x: int
    y: int


@dataclass(slots=True)
class Facing:
    """Direction of the last move or shot (for the board)."""

    dx: int = 0
    dy: int = 1


@dataclass(slots=True)
class Profile:
    """Traits (column, training), skills, size and CT maximum (R-2)."""

    traits: dict[str, tuple[str, int]]
    skills: dict[str, int]
    size: int
    ct_max: int


@dataclass(slots=True)
class Health:
    """Wounds, concussion track and conditions (R-8.1, R-8.2)."""

    wounds: int
    ct: int
    dead: bool = False
    incapacitated: bool = False
    unconscious: bool = False
    stunned: bool = False

    @property
    def out_of_action(self) -> bool:
        """True if it can take no actions."""
        return self.dead or self.incapacitated or self.unconscious


@dataclass(slots=True)
class Cover:
    """The best cover the combatant has against the enemies that can see it (R-6.6), kept for AI and board."""

    level: str = "none"
    av: int = 0


@dataclass(slots=True)
class ArmourPiece:
    """One worn piece with its current AV per location (ablation lowers it, R-6.7)."""

    type_id: str
    name: str
    kind: str
    av: dict[str, int]


@dataclass(slots=True)
class Armour:
    """Worn armour, outermost first."""

    pieces: list[ArmourPiece] = field(default_factory=list)


@dataclass(slots=True)
class WeaponState:
    """A carried weapon: loaded rounds, spare magazines, reload progress, breakdown."""

    weapon_id: str
    rounds: int
    magazines: int
    reload_stage: int = 0
    jammed: bool = False


@dataclass(slots=True)
class Loadout:
    """Carried weapons; the active one is fired."""

    weapons: list[WeaponState] = field(default_factory=list)
    active: int = 0


@dataclass(slots=True)
class Tacpack:
    """Generator points per round split between the screen and energy shots (R-6.13)."""

    type_id: str
    generator: int
    screen_type: str = "none"
    screen_points: int = 0
    screen_av: int = 0
    shot_points: int = 0
    default_screen: str = "none"
    default_points: int = 0

    @property
    def spent(self) -> int:
        """Points allotted this round."""
        return self.screen_points + self.shot_points


@dataclass(slots=True)
class Declared:
    """This round's declaration and initiative (R-5.1, R-5.2)."""

    speed: str | None = None  # None until it declares this round
    phase_pref: int | None = None
    read: int = 0
    cf: bool = False
    phase: int | None = None
    hesitating: bool = False
    hesitated_last: bool = False


@dataclass(slots=True)
class Readiness:
    """Weapon readied on a target and aim actions spent on it since (R-6.2)."""

    target: str | None = None
    aim: int = 0


@dataclass(slots=True)
class Turn:
    """The actions taken in the current turn and movement this round."""

    parts: list[Part] = field(default_factory=list)
    moved_this_turn: bool = False
    ran_this_turn: bool = False
    moved_m: float = 0.0
    rate_m: float = 0.0  # the metres of its fastest move this round (the seed's Rate: a target faster than 20, −4)
    acted: bool = False


@dataclass(slots=True)
class Status:
    """Marks the board shows and the rules read."""

    prone: bool = False
    waiting: str | None = None
    firing: bool = False
    known_to: frozenset[str] = frozenset()  # sides that know where it is (R-6.1 concealment)
    mounted: bool = False  # fires from a mount or a moving vehicle (R-6.1: -2), from the scenario's `mounted`
    two_weapons: bool = False  # holds a weapon in each hand, from the scenario's `two_weapons`
    hand_shots: tuple[int, int, int] = (0, 0, 0)  # two weapons: (turn parts then, main, off hand shots) in the action
    covering: tuple[int, int, int] | None = None  # covering fire: the area's cell and the burst
