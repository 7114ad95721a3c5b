"""What a unit may do now, as data (STYLE 13): action kinds with their parameter domains. The board's
shading and menus, the AIs and an RL action mask read this one value instead of re-deriving rules."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from skirmish.rules.actions import (
    Action,
    Aim,
    CoverFire,
    Declare,
    EndTurn,
    Launch,
    Move,
    Reload,
    SetTacpack,
    Shoot,
    Throw,
    Wait,
)
from skirmish.rules.geometry import Cell


@dataclass(frozen=True)
class LegalActions:
    """Everything `unit` may answer to the pending request. For a declaration: `declare`. For an action in
    a turn: cells a move may end in (walking, running), the shots (target × mode × burst; a single shot may
    also call any location in `called`), the cells each carried explosive may be thrown at, aims, reload,
    wait, tacpack splits, psychological contests, and ending the turn (always allowed). `kind` is "none" when the unit is not the
    one the battle is waiting for."""

    unit: str
    kind: Literal["declare", "act", "none"]
    declare: tuple[Declare, ...] = ()
    walk: frozenset[Cell] = frozenset()
    run: frozenset[Cell] = frozenset()
    shots: tuple[Shoot, ...] = ()
    called: tuple[str, ...] = ()
    throws: tuple[tuple[str, frozenset[Cell]], ...] = ()
    aims: tuple[Aim, ...] = ()
    reload: bool = False
    waits: tuple[Wait, ...] = ()
    screens: tuple[SetTacpack, ...] = ()
    melee: tuple[Action, ...] = ()  # a ruleset's hand-to-hand actions, listed whole (FI: blows, charges, R-7);
    # not in `actions()` (the RL action table has no place for them yet, docs/RL.md)
    contests: tuple[Action, ...] = ()  # psychological contests (FI: target × kind × mode)
    # The shots that are more than one shot at one target, listed whole (FI: double taps, R-6.12; bursts split
    # between two of the listed targets, default dice, R-6.3); not in `actions()`, as `melee`.
    ranged: tuple[Shoot, ...] = ()
    covers: tuple[int, ...] = ()  # the bursts covering fire may be laid with now (0: single shots; FI)
    launches: bool = False  # the weapon in hand launches at a cell now (FI)
    # Whether a cell may be named: cell_ok("cover" | "launch", cell); a question, as the cells are too many to list.
    cell_ok: Callable[[str, Cell], bool] | None = field(default=None, compare=False, repr=False)

    @property
    def end_turn(self) -> bool:
        """Ending the turn is always allowed in a turn."""
        return self.kind == "act"

    def moves(self) -> Iterator[Move]:
        """Every legal move (walks first, then runs)."""
        for cell in sorted(self.walk) + sorted(self.run - self.walk):
            yield Move(self.unit, cell)

    def actions(self, *, called: bool = False) -> Iterator[Action]:
        """Every legal action, one by one (called-shot variants only with `called`: there are many), but the
        hand-to-hand ones, which are listed whole in `melee` (the RL action table has no place for them yet)."""
        yield from self.declare
        if self.kind != "act":
            return
        yield from self.moves()
        for shot in self.shots:
            yield shot
            if called and not shot.burst:
                for loc in self.called:
                    yield Shoot(shot.unit, shot.target, mode=shot.mode, called=loc)
        for item, cells in self.throws:
            for cell in sorted(cells):
                yield Throw(self.unit, cell, item)
        yield from self.aims
        if self.reload:
            yield Reload(self.unit)
        yield from self.waits
        yield from self.screens
        yield from self.contests
        yield EndTurn(self.unit)

    def allows(self, action: Action) -> bool:
        """True if `action` is one this value lists (bump spends are a choice inside a shot, not listed)."""
        if action.unit != self.unit:
            return False
        if isinstance(action, Declare):
            if type(action) is not Declare:  # a ruleset's own declaration (a card hand, R-5.8): as listed
                same = getattr(action, "same_as", None)
                return any(same(d) if same is not None else d == action for d in self.declare)
            return any(d.speed == action.speed and type(d) is Declare for d in self.declare)
        if self.kind != "act":
            return False
        if isinstance(action, Move):
            return tuple(action.to) in self.walk or tuple(action.to) in self.run
        if isinstance(action, Shoot):
            if action.double_tap or action.also or action.split or action.hand:
                return action in self.ranged
            plain = Shoot(action.unit, action.target, mode=action.mode, burst=action.burst)
            return plain in self.shots and (action.called is None or (not action.burst and action.called in self.called))
        if isinstance(action, Throw):
            items = [item for item, _ in self.throws]
            item = action.item or (items[0] if items else "")  # no item named: the first one carried
            return any(i == item and tuple(action.at) in cells for i, cells in self.throws)
        if isinstance(action, (CoverFire, Launch)):
            cell = (int(action.at[0]), int(action.at[1]))
            if isinstance(action, CoverFire):
                return action.burst in self.covers and self.cell_ok is not None and self.cell_ok("cover", cell)
            return self.launches and self.cell_ok is not None and self.cell_ok("launch", cell)
        if isinstance(action, Reload):
            return self.reload
        if isinstance(action, EndTurn):
            return True
        return action in (*self.aims, *self.waits, *self.screens, *self.melee, *self.contests)

    def count(self) -> int:
        """How many actions are listed (called-shot variants not counted)."""
        return sum(1 for _ in self.actions())
