"""Two weapons (R-6.12; the seed's "Two Weapons" and "Two handed ranged weapons"): a unit whose scenario entry says
`two_weapons: true` holds its first fired weapon in its main hand and its next one in the other. Every attack it
makes takes −2; a shot with the off hand (`shoot U T hand=off`) −4 more (−6 in all); a two-handed weapon fired
with one hand −2 more. Each hand fires up to its weapon's rate of fire in one attack action; each shot is its own
task. The off hand's weapon is made the active one for its shot and put back after (checks change nothing)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Loadout, Status
from skirmish.rules.checks import Modifier
from skirmish.rules.equipment import Weapon
from skirmish.rules.fi.timing import Part

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting

HANDS = ("", "main", "off")


def off_hand(sys: FiShooting, eid: int) -> int | None:
    """The loadout index of the off hand's weapon when the unit holds one in each hand, else None."""
    if not sys.w.peek(eid, Status).two_weapons:
        return None
    load = sys.w.peek(eid, Loadout)
    fired = [i for i, ws in enumerate(load.weapons) if not sys.ctx.armoury.weapons[ws.weapon_id].thrown]
    return fired[1] if len(fired) >= 2 else None


def modifiers(sys: FiShooting, eid: int, weapon: Weapon) -> list[Modifier]:
    """What holding two weapons costs the shot about to be made with `weapon` (the active one)."""
    off = off_hand(sys, eid)
    if off is None:
        return []
    out = [Modifier(-2, "two weapons (R-6.12)")]
    if sys.w.peek(eid, Loadout).active == off:
        out.append(Modifier(-4, "off hand (R-6.12)"))
    if weapon.two_handed:
        out.append(Modifier(-2, f"the two-handed {weapon.name} in one hand (R-6.12)"))
    return out


def attack_part(sys: FiShooting, eid: int, weapon: Weapon, mode: str) -> Part | None:
    """A two-gun unit's attack part: both hands share one attack action, up to both weapons' rates of fire
    (R-6.3, R-6.12); None for anyone else."""
    off = off_hand(sys, eid)
    if off is None:
        return None
    load = sys.w.peek(eid, Loadout)
    main_id = next(ws.weapon_id for i, ws in enumerate(load.weapons)
                   if not sys.ctx.armoury.weapons[ws.weapon_id].thrown)
    off_id = load.weapons[off].weapon_id
    rof = max(1, sys.ctx.armoury.weapons[main_id].rof) + max(1, sys.ctx.armoury.weapons[off_id].rof)
    return Part("attack", int(weapon.speed), mode, weapon=f"{main_id}|{off_id}", rof=rof)


@contextmanager
def hand(sys: FiShooting, eid: int, which: str) -> Iterator[None]:
    """Within: the weapon in `which` hand is the active one ("" or "main": no change)."""
    if which not in HANDS:
        raise IllegalAction(f"R-6.12: hand is main or off, not {which!r}")
    if which != "off":
        yield
        return
    off = off_hand(sys, eid)
    if off is None:
        raise IllegalAction(f"R-6.12: {sys.name(eid)} does not hold a weapon in each hand (a scenario unit's "
                            f"two_weapons: true, with two fired weapons)")
    load = sys.w.get(eid, Loadout)
    was = load.active
    load.active = off
    try:
        yield
    finally:
        load.active = was
