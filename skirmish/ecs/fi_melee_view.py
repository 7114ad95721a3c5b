"""Future Imperfect's melee part of a unit's frozen view (`UnitView.melee`, World.register_view_part): the
hand-to-hand weapons a combatant carries and holds, whose longer weapons it has closed on (R-7.2), what entangles it
and whether a trip has put it down (R-7.6), its active defence standing (R-7.5). What the AIs and the board read of
melee; all of it shows on the table (an enemy's too). No esper here; plain values only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from skirmish.ecs.fi_melee_components import MeleeState
from skirmish.ecs.world import register_view_part
from skirmish.rules.equipment import Armoury, MeleeWeapon


@dataclass(frozen=True)
class MeleeView:
    """A combatant's hand-to-hand state as the view shows it (R-7)."""

    held: str  # the weapon in hand's id ("fists": empty-handed, Brawling)
    carried: tuple[MeleeWeapon, ...]  # its hand-to-hand weapons, as the tables give them
    inside: tuple[str, ...] = ()  # enemies whose longer weapon it has closed on
    entangled_by: str | None = None
    down: bool = False  # tripped: on the ground until it rises
    defence: int | None = None  # its active defence result, until its next action

    @property
    def held_in_place(self) -> bool:
        """Entangled or down: it may not move until it breaks free or rises (R-7.6). (Being closed on is read from
        the enemy's `inside`.)"""
        return self.entangled_by is not None or self.down


def _melee_part(c: dict[type[Any], Any], armoury: Armoury) -> dict[str, Any]:
    ms = c.get(MeleeState)
    if ms is None:
        return {}
    return {"melee": MeleeView(ms.held, tuple(armoury.melee[m] for m in ms.carried if m in armoury.melee),
                               tuple(ms.inside), ms.entangled_by, ms.down, ms.defence)}


register_view_part((MeleeState,), _melee_part)
