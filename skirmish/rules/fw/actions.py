"""Future*World's own action: the declaration of a round (R-9.2), registered with the shared verbs so that
orders, records and the board read and write it (STYLE 3). Movement in the movement segment is the shared
`move UNIT X,Y` (a leap when the declaration gave the jump pack energy), and `end UNIT` stays put.

Text form: `intent UNIT ACT [target=U] [then=ACT] [then_target=U] [weapon=ID] [screen=TYPE points=N] [cm=N]
[dccm=N dccm_at=U] [sensors=N] [jump=N] [car_screen=TYPE car_points=N car_weapons=N car_ew=N] [at=X,Y] [mount=ID]`, e.g.
`intent Kell burst target=Vosh screen=kinetic points=3`,
`intent Ann melee target=Cid weapon=force_sword`, `intent Bo throw target=Cid weapon=fragmentation_grenade`,
`intent Eve launch target=Cid weapon=seeker_missile dccm=2 dccm_at=Cid`, `intent Cy burst target=Cid
mount=support_gun` (a rider fires its car's mount, R-9.12), `intent Ann drive then=shoot
then_target=Cid car_screen=kinetic car_points=30`, `intent Bo mount target=Skiff`, `intent Bo dismount`.

A grenade may be thrown at a cell rather than a figure (R-9.10): `intent Bo throw at=12,4` (or `target=12,4`, the
form it is written back in: `at` names the cell of whichever of the two actions is the throw, and is kept as that
action's target, so a declaration, its record and its log read the cell as the throw's target).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from skirmish.rules.actions import Action, ActionParseError, register_action

# What a figure may declare for one resolution slot: an attack (one shot or a burst of three,
# a melee strike, R-9.4; a thrown grenade or a launched missile, R-9.10: all are "attack" for the
# never-twice rule), First Aid with a medikit, a conditional reaction (fire at the first enemy seen
# moving this round), a whole round of EW programming, or nothing.
ACTS = ("shoot", "burst", "melee", "throw", "launch", "aid", "react", "program", "drive", "mount", "dismount", "none")
# Grav cars: `drive` (the driver flies the car in the movement segment on its split: car_screen=TYPE
# car_points=N car_weapons=N car_ew=N), `mount target=CAR` (board at DEX, within 2 m), `dismount` (leave at DEX).
CAR_ACTS = ("drive", "mount", "dismount")
ATTACKS = ("shoot", "burst", "melee", "throw", "launch", "react")
# The weapon classes each attack takes (the weapons table's `class`, R-9.4, R-9.10).
FIREARMS = ("projectile", "laser", "blaster")
ATTACK_CLASSES: dict[str, tuple[str, ...]] = {"shoot": FIREARMS, "burst": FIREARMS, "react": FIREARMS,
                                              "melee": ("melee",), "throw": ("grenade",), "launch": ("missile",)}
SPENT = ("grenade", "missile")  # the classes used up when fired: each one listed in a figure's weapons is one
_INTS = ("cm", "dccm", "sensors", "jump", "car_points", "car_weapons", "car_ew")


_CELL = re.compile(r"^(-?\d+),(-?\d+)$")  # (a cell off the map is refused by the rules, named)


def cell_target(target: str | None) -> tuple[int, int] | None:
    """The cell a throw is aimed at when its target is one (`X,Y`, R-9.10), else None (a figure's name)."""
    m = _CELL.match(target or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def act_kind(act: str) -> str:
    """The action an act counts as for R-9.3's "never the same action twice": every attack is one."""
    return "attack" if act in ATTACKS else act


@dataclass(frozen=True)
class FwIntent(Action):
    """A Future*World declaration (R-9.2): up to two different actions (the second at half DEX, R-9.3) and the
    tacpack's split for the round (R-9.8: screen type and points, EW programs, jump pack; the energy shots
    are worked out from the attacks declared)."""

    verb: ClassVar[str] = "intent"
    act: str = "none"
    target: str | None = None
    then: str | None = None
    then_target: str | None = None
    weapon: str | None = None
    screen: str = "none"
    points: int = 0
    cm: int = 0
    dccm: int = 0
    dccm_at: str | None = None
    sensors: int = 0
    jump: int = 0
    car_screen: str = "none"
    car_points: int = 0
    car_weapons: int = 0
    car_ew: int = 0
    at: tuple[int, int] | None = None  # a throw at a cell: kept as the throw's target `X,Y`
    mount: str | None = None  # the rider's car's mount its attack fires from (R-9.12: mount=support_gun)

    def __post_init__(self) -> None:
        for name in _INTS:  # the shared text codec reads unknown keys as text
            value = getattr(self, name)
            if isinstance(value, str):
                try:
                    object.__setattr__(self, name, int(value))
                except ValueError:
                    raise ActionParseError(f"cannot read action: bad value {value!r} for {name}") from None
        if self.at is not None:
            x, y = self.at
            slot = "target" if self.act == "throw" else "then_target" if self.then == "throw" else None
            if slot is None:
                raise ActionParseError("cannot read action: at=X,Y is the cell a grenade is thrown at (R-9.10); "
                                       "declare throw")
            if getattr(self, slot) is not None:
                raise ActionParseError("cannot read action: a throw names a figure (target) or a cell (at), not both")
            object.__setattr__(self, slot, f"{int(x)},{int(y)}")
            object.__setattr__(self, "at", None)

    def acts(self) -> tuple[tuple[str, str | None], ...]:
        """The declared actions in order, (act, target), without "none"."""
        out = [] if self.act == "none" else [(self.act, self.target)]
        if self.then is not None and self.then != "none":
            out.append((self.then, self.then_target))
        return tuple(out)


register_action(FwIntent, positional="act")

__all__ = ["ACTS", "ATTACKS", "ATTACK_CLASSES", "CAR_ACTS", "FIREARMS", "SPENT", "FwIntent", "act_kind", "cell_target"]
