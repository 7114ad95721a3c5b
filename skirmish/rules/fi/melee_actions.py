"""Future Imperfect's melee actions (R-5.4, R-7.1–R-7.6): frozen values with a text form, registered in the action
codec when this module is imported (`skirmish.rules.actions.register_action`), so scripted orders, the board's
command line and records read them like every other action:

    melee Hrulfgarr Pirate weapon=vibro_knife        attack an adjacent enemy (lethal=yes|no for a club)
    melee Kayla Pirate maneuver=strike_medium effects=damage   a martial arts maneuver (R-7.7, option)
    charge Sid Kyr-2 at=5,3                          move and attack at once, -2 (R-5.4)
    close Hrulfgarr Constable                        get inside a longer weapon (R-7.2)
    open Constable Hrulfgarr                         make distance again (R-7.2)
    defend Kayla fighting to=4,2                     active defence until the next action (R-7.5)
    entangle Kyr-1 Chuk weapon=net                   R-7.6
    trip Kyr-1 Chuk weapon=staff                     R-7.6
    break Chuk strength                              break free: strength, or wriggle (R-7.6)
    rise Chuk                                        stand up after a trip
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from skirmish.rules.actions import Action, register_action
from skirmish.rules.geometry import Cell


@dataclass(frozen=True)
class MeleeAttack(Action):
    """Attack an adjacent enemy hand to hand (R-7.1): with the weapon named (a carried one; none: the one in hand),
    lethal or not where the weapon chooses (R-7.4), a called location, bump spends as a shot's (R-6.4)."""

    verb: ClassVar[str] = "melee"
    target: str = ""
    weapon: str = ""
    lethal: str = ""  # yes | no: chosen before the draw, heavier improvised weapons only
    called: str | None = None
    spends: tuple[str, ...] | None = None
    maneuver: str = ""  # R-7.7 (option martial_arts): a maneuver of the attacker's discipline instead of Fighting
    effects: str = ""  # its enhanced effects, comma-separated: damage, defense, falls (docs/RULES-NOTES.md)
    to: Cell | None = None  # an Escape's step: with a raise, the escaper moves to this adjacent cell


@dataclass(frozen=True)
class Charge(Action):
    """Move to `at` and attack `target` at once (R-5.4): −2, the attack's speed, no SLOW attacks, nothing else
    this turn. A hand-to-hand weapon (`weapon`, or the one in hand) strikes an enemy adjacent to `at`; with
    `ranged=yes` the gun in hand fires instead, from `at`."""

    verb: ClassVar[str] = "charge"
    target: str = ""
    at: Cell = (0, 0)
    weapon: str = ""
    ranged: str = ""  # yes: fire the gun in hand (the charge of with a ranged attack)


@dataclass(frozen=True)
class Close(Action):
    """Get inside an adjacent enemy's longer weapon (R-7.2): an attack roll at the normal TN, no damage."""

    verb: ClassVar[str] = "close"
    target: str = ""
    weapon: str = ""


@dataclass(frozen=True)
class Open(Action):
    """Make distance again from an enemy inside one's longer weapon (R-7.2): as Close, the Defense penalty still
    applying."""

    verb: ClassVar[str] = "open"
    target: str = ""


@dataclass(frozen=True)
class Defend(Action):
    """Active defence (R-7.5): spend the action on a Fighting or Dodge check that stands as the attackers' TN
    until this unit's next action; `to` is the step of at least 1 m it takes (none: −4)."""

    verb: ClassVar[str] = "defend"
    skill: str = "fighting"
    to: Cell | None = None


@dataclass(frozen=True)
class Entangle(Action):
    """Entangle an adjacent enemy with an entangling weapon (R-7.6): Fighting against its Dexterity."""

    verb: ClassVar[str] = "entangle"
    target: str = ""
    weapon: str = ""


@dataclass(frozen=True)
class Trip(Action):
    """Trip an adjacent enemy with a weapon that can (R-7.6): Fighting against its Dexterity; it falls."""

    verb: ClassVar[str] = "trip"
    target: str = ""
    weapon: str = ""


@dataclass(frozen=True)
class BreakFree(Action):
    """Break an entanglement (R-7.6): `strength` against the weapon's TN (a fragile one breaks) or `wriggle`:
    Dexterity against the entangler's skill."""

    verb: ClassVar[str] = "break"
    how: str = "strength"


@dataclass(frozen=True)
class Rise(Action):
    """Stand up after being tripped (a NORMAL action, docs/RULES-NOTES.md)."""

    verb: ClassVar[str] = "rise"


MELEE_ACTIONS: tuple[type[Action], ...] = (MeleeAttack, Charge, Close, Open, Defend, Entangle, Trip, BreakFree, Rise)
for _cls, _positional in ((MeleeAttack, "target"), (Charge, "target"), (Close, "target"), (Open, "target"),
                          (Defend, "skill"), (Entangle, "target"), (Trip, "target"), (BreakFree, "how"), (Rise, None)):
    register_action(_cls, _positional)
