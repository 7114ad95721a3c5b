"""Future*World's side views (STYLE 14): who sees whom is the shared Knowledge's (the map's sight, and the
positions a side knows: a figure's cell is known to the sides that saw it move there, fw's `move`); what shows
of an enemy figure is less than its whole state: its roster (characteristics, kit) and what a player across
the table sees (fallen, down, moving, leaping) and its HP, never its declaration or its tacpack's split
(docs/RULES-NOTES.md, Future*World)."""

from __future__ import annotations

from skirmish.ecs.fw_view import FwUnitView
from skirmish.ecs.knowledge import Knowledge
from skirmish.ecs.view import BattleView, UnitView, replace_unit


class FwKnowledge(Knowledge):
    """Knowledge, with fw's part of every enemy's view cut to what shows (FwUnitView.as_enemy)."""

    def __init__(self, sides: tuple[str, ...]) -> None:
        super().__init__(sides)
        self._cut: dict[int, tuple[UnitView, UnitView]] = {}  # id(view as seen) -> (it, it cut), kept per view

    def observe(self, view: BattleView, side: str) -> BattleView:
        """The all-seeing `view` as `side` may know it."""
        out = super().observe(view, side)
        units = []
        changed = False
        for u in out.units:
            if u.side != side and isinstance(u.ext, FwUnitView) and u.ext.full:
                kept = self._cut.get(id(u))
                if kept is None or kept[0] is not u:
                    kept = self._cut[id(u)] = (u, replace_unit(u, {"ext": u.ext.as_enemy()}))
                u = kept[1]
                changed = True
            units.append(u)
        if not changed:
            return out
        if len(self._cut) > 4 * len(units) + 64:  # views of finished decisions: let them go
            self._cut.clear()
        cut = object.__new__(BattleView)
        cut.__dict__.update(out.__dict__)
        cut.__dict__.update(units=tuple(units))
        return cut
