"""Future Imperfect's melee component (STYLE 6), beside the shared ones every unit has: the hand-to-hand weapons a
combatant carries and holds, whose longer weapons it has closed on (R-7.2), who entangles it (R-7.6), whether a
trip has put it on the ground, and its active defence standing (R-7.5). Plain values only, so the battle's state
hash writes them as they are (the fi systems' `hash_state`, when any unit has left the defaults)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class MeleeState:
    """A combatant's hand-to-hand state (R-7)."""

    carried: list[str] = field(default_factory=list)  # melee weapon ids (the `melee:` table), in the scenario's order
    held: str = "fists"  # the weapon in hand for melee; "fists" when empty-handed (Brawling, R-7.1)
    inside: list[str] = field(default_factory=list)  # enemies whose longer weapon it has closed on
    entangled_by: str | None = None  # the unit whose weapon entangles it
    entangle_weapon: str | None = None
    down: bool = False  # tripped: on the ground until it rises
    defence: int | None = None  # its active defence result, standing until its next action
    guard: int = 0  # +1 Defense from a martial arts maneuver, until its next action
    block: str | None = None  # a Block standing until its next action: "halve" or "cancel" (with a weapon, R-7.7)
    gripping: str | None = None  # the unit it holds, lifts or locks (R-7.7 grapples, ecs/systems/fi/holds.py)
    grip: str | None = None  # "hold", "lift" or "lock"
    grip_effect: str | None = None  # "choke" (a hold) or "disable" (a lock) when it carries one
    grip_bonus: int = 0  # the disabling contest's cumulative +1 (seed "Disable")
    gripped_by: str | None = None  # the unit that holds, lifts or locks it
    start: tuple[str, ...] = ()  # `carried` as the scenario gave it: a disarm or a breakdown shows as a change (hash)

    def plain(self) -> bool:
        """True when nothing has happened to it in melee (the state hash leaves such units out)."""
        return not (self.inside or self.entangled_by or self.down or self.defence is not None or self.guard
                    or self.block or self.gripping or self.gripped_by)
