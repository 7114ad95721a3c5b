"""What one player at the board may see (STYLE 14). There is one notion of it, the battle's own: a side's eyes
are `Battle.observe(side)` (fog of war, ghosts at their last known cells, the other sides' declarations hidden
until initiative is flipped, R-5.1). Watching all-seeing, the declarations stay hidden the same way until the
flip. In hot-seat play the board is covered while it is passed between people."""

from __future__ import annotations

from skirmish.ecs.knowledge import HIDDEN, hide_declarations
from skirmish.ecs.view import BattleView, UnitView
from skirmish.ui.session import Session

__all__ = ["HIDDEN", "SeenView", "declared_label", "seen_by"]


def declared_label(u: UnitView, reveal: set[str]) -> str:
    """The tracker's speed column: the speed for a side shown, "declared" for a hidden one that has declared,
    "—" for a unit that has not declared yet this round."""
    if u.declared is None:
        return "—"
    if u.side in reveal and u.declared != HIDDEN:
        return u.declared.upper()
    return "declared"


def seen_by(view: BattleView, reveal: set[str]) -> BattleView:
    """The all-seeing view with the declarations of sides not in `reveal` hidden (the same object if nothing is)."""
    return hide_declarations(view, reveal)


class SeenView:
    """The view the board draws, remembered for the last battle state (the board draws every frame): through
    side `eyes` (`Session.observe`), or all-seeing (`eyes` None) with the declarations of sides not in `reveal`
    hidden."""

    def __init__(self) -> None:
        self._key: tuple[int, str | None, frozenset[str]] | None = None
        self._view: BattleView | None = None
        self._src: BattleView | None = None

    def __call__(self, session: Session, eyes: str | None, reveal: set[str]) -> BattleView:
        """The view as the player at the board sees it."""
        if eyes is not None:
            return session.observe(eyes)
        view = session.view()
        key = (id(view), None, frozenset(reveal))
        if self._key != key or self._src is not view or self._view is None:
            self._key, self._src, self._view = key, view, seen_by(view, reveal)
        return self._view
