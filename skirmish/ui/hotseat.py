"""What one player at the board may see (STYLE 14): the other sides' declared speeds stay hidden until
initiative is flipped (R-5.1), and in hot-seat play the board is covered while it is passed between people."""

from __future__ import annotations

import dataclasses

from skirmish.ecs.view import BattleView, UnitView

HIDDEN = "hidden"  # what a hidden declaration reads as (unit card: "declared hidden")


def declared_label(u: UnitView, reveal: set[str]) -> str:
    """The tracker's speed column: the speed for a side shown, "declared" for a hidden one that has declared,
    "—" for a unit that has not declared yet this round."""
    if u.declared is None:
        return "—"
    if u.side in reveal and u.declared != HIDDEN:
        return u.declared.upper()
    return "declared"


def seen_by(view: BattleView, reveal: set[str]) -> BattleView:
    """The view with the declarations of sides not in `reveal` hidden (the same object if nothing is)."""
    hide = [i for i, u in enumerate(view.units) if u.side not in reveal and u.declared not in (None, HIDDEN)]
    if not hide:
        return view
    units = list(view.units)
    for i in hide:
        units[i] = dataclasses.replace(units[i], declared=HIDDEN)
    return dataclasses.replace(view, units=tuple(units))


class SeenView:
    """`seen_by`, remembered for the last view and reveal (the board draws every frame)."""

    def __init__(self) -> None:
        self._key: tuple[int, frozenset[str]] | None = None
        self._view: BattleView | None = None
        self._src: BattleView | None = None

    def __call__(self, view: BattleView, reveal: set[str]) -> BattleView:
        """The view as the player at the board sees it."""
        key = (id(view), frozenset(reveal))
        if self._key != key or self._src is not view or self._view is None:
            self._key, self._src, self._view = key, view, seen_by(view, reveal)
        return self._view
