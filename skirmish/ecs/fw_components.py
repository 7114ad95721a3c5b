"""Future*World's data-only components (STYLE 6), beside the shared ones every unit has (Identity, Position,
Health for in action or not, Status for prone …): a figure's body (R-9.1, R-9.7), its kit (R-9.6, R-9.8,
R-9.11) and this round's declaration and tacpack split (R-9.2, R-9.8). Plain values only, so the battle's
state hash writes them as they are (the fw systems' `hash_state`)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class FwBody:
    """Characteristics (R-9.1), hit points and condition (R-9.7), and what the figure did this round."""

    STR: int
    CON: int
    SIZ: int
    INT: int
    POW: int
    DEX: int
    hp: int
    fallen: bool = False  # a major wound felled it: no actions, crawling only, until a bookkeeping roll
    unconscious: bool = False  # at 0 HP or below, losing 1 HP a round
    dead: bool = False  # at -CON
    treated: bool = False  # First Aid worked since it went down: it no longer bleeds (R-9.7; docs/RULES-NOTES.md)
    moved_m: float = 0.0  # metres moved in this round's movement segment (R-9.4: a moving target, firer)
    jumped: bool = False  # leapt with its jump pack this round: in the air, nothing else
    struck: bool = False  # attacked hand to hand this round: a knocked-down figure may not stand
    blind_until: int = 0  # blinded by a photon flash up to this round's end: attacks as in the dark
    spent: list[str] = field(default_factory=list)  # grenades thrown and missiles fired (one per listed weapon)


@dataclass(slots=True)
class FwKit:
    """What a figure carries: weapons (ids of the fw table), its armour's points per damage class (R-9.6), the
    tacpack (generator, EW ratings, default screen, R-9.8/R-9.9), jump pack, medikit, skills in % and the
    ENC it carries beyond its STR (R-9.11)."""

    weapons: list[str]
    armour: str | None
    armour_stops: dict[str, int]
    generator: int
    effectors: int
    sensors: int
    default_screen: str
    default_points: int
    jump_pack: bool
    medikit: bool
    skills: dict[str, int]
    enc: float
    move_m: int  # the movement segment's metres after ENC


@dataclass(slots=True)
class FwRound:
    """This round's declaration (R-9.2, R-9.3) and the tacpack split it made (R-9.8); cleared at bookkeeping
    (the energy reset)."""

    declared: bool = False
    acts: list[tuple[str, str | None]] = field(default_factory=list)  # (act, target) in order, the second at half DEX
    weapon: str | None = None
    screen: str = "none"
    screen_points: int = 0
    shots: int = 0  # energy drawn for the declared energy shots (x3 a burst)
    cm: int = 0
    dccm: int = 0
    dccm_at: str | None = None
    sensors: int = 0
    jump: int = 0
    done: list[int] = field(default_factory=list)  # slots already resolved (0 first, 1 second)
