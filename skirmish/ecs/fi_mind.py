"""Future Imperfect's mind component (R-8.3, R-8.4, fear and terror of `000_…`): data only (STYLE 6), and its
part of the frozen view (`UnitView.mind`, the conditions the board and the AIs read). The rules that set and
clear it are skirmish/ecs/systems/fi/mind.py. Kept apart from ecs/components.py so that `Battle.state_hash`
of a battle with no such state is what it was (the systems' `hash_state` adds it when there is some)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from skirmish.ecs.world import register_view_part
from skirmish.rules.equipment import Armoury

CAUSES = {"fear": "fearsome", "terror": "terrifying"}  # how the view names what a unit causes


@dataclass(slots=True)
class Mind:
    """A combatant's nerve: what it causes, what it must still pass, and the states on it now."""

    fearsome: str | None = None  # "fear" or "terror": enemies who see it test (000 "Fear and Terror")
    fear_tn: int = 0  # the TN of that test
    surprise: str | None = None  # the Bravery difficulty it must pass when the next round begins
    expecting: bool = False  # surprised while expecting danger (Standard) or not (Incredible)
    sitting_out: str | None = None  # "surprised" or "catatonic": no declaration, initiative or turn this round
    annoyed: bool = False  # −4 to its next action and to resisting before it
    annoyed_now: bool = False  # this round's turn is the annoyed action
    distraught: bool = False  # loses its next action
    focused: bool = False  # a focused auxiliary action: attackers' TN −2 until its next turn (R-5.4)
    terrified: str | None = None  # this round it may only move away from this unit (000 "Terrified")
    terrified_next: str | None = None  # catatonic now, terrified of this unit next round
    tested: tuple[str, ...] = ()  # the fear kinds it has tested ("fear", "terror"): once each a battle

    def conditions(self) -> tuple[str, ...]:
        """The states shown on the board and read by the AIs, in a fixed order."""
        out = []
        if self.sitting_out == "surprised":
            out.append("surprised")
        if self.sitting_out == "catatonic":
            out.append("catatonic")
        if self.annoyed or self.annoyed_now:
            out.append("annoyed")
        if self.distraught:
            out.append("distraught")
        if self.terrified:
            out.append("terrified")
        if self.focused:
            out.append("focused")
        if self.fearsome:
            out.append(CAUSES[self.fearsome])
        return tuple(out)

    def is_default(self) -> bool:
        """Nothing set: a battle whose minds are all so hashes as it did before the mind was built."""
        return all(getattr(self, f.name) == f.default for f in fields(self))


def _mind(c: dict[type[Any], Any], _a: Armoury) -> dict[str, Any]:
    m = c.get(Mind)
    return {"mind": m.conditions()} if m is not None else {}


register_view_part((Mind,), _mind)
