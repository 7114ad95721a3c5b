"""What a unit may do now, as data (STYLE 13): action kinds with their parameter domains. The board's
shading and menus, the AIs and an RL action mask read this one value instead of re-deriving rules."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Generic, Literal, TypeVar

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


class LazyCells(AbstractSet[Cell]):
    """A set of cells worked out when first read, then kept: a legal list's throw cells (their sight from the
    thrower costs a batch of first-time look-ups, and most decisions never read them). It reads, compares,
    hashes, copies and pickles as the frozenset `work()` returns; `work` must not depend on what changes
    after it is made (legality passes it the thrower's cell and reach as they are). `among` (optional) answers
    for a few cells whether each is in the set without working it out (the same per-cell rule, read for those
    cells only: the AI asks about the cells near the enemies it sees, ai/blast.py)."""

    __slots__ = ("_among", "_cells", "_work")

    def __init__(self, work: Callable[[], frozenset[Cell]],
                 among: Callable[[Sequence[Cell]], list[bool]] | None = None) -> None:
        self._work: Callable[[], frozenset[Cell]] | None = work
        self._cells: frozenset[Cell] | None = None
        self._among = among

    def cells(self) -> frozenset[Cell]:
        """The cells (worked out on the first call)."""
        if self._cells is None:
            assert self._work is not None
            self._cells, self._work, self._among = self._work(), None, None
        return self._cells

    def among(self, cells: Sequence[Cell]) -> list[bool]:
        """Whether each of `cells` is in the set: by the per-cell rule while the set is not worked out (if the
        maker gave one), else from the set."""
        if self._cells is None and self._among is not None:
            return self._among(cells)
        got = self.cells()
        return [c in got for c in cells]

    def __contains__(self, x: object) -> bool:
        return x in self.cells()

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells())

    def __len__(self) -> int:
        return len(self.cells())

    def __eq__(self, other: object) -> bool:
        return self.cells() == (other.cells() if isinstance(other, LazyCells) else other)

    def __hash__(self) -> int:
        return hash(self.cells())

    def __repr__(self) -> str:
        return repr(self.cells())

    @classmethod
    def _from_iterable(cls, it: Iterable[Any]) -> frozenset[Any]:  # set operations give plain frozensets
        return frozenset(it)

    def __reduce__(self) -> tuple[Any, ...]:
        return (frozenset, (tuple(self.cells()),))

    def __copy__(self) -> frozenset[Cell]:
        return self.cells()

    def __deepcopy__(self, memo: dict[int, Any]) -> frozenset[Cell]:
        return self.cells()


A = TypeVar("A", bound=Action)


class LazyActions(Sequence[A], Generic[A]):
    """A tuple of actions worked out when first read, then kept: the parts of a legal list most decisions never
    read (FI: tacpack splits, each put to the timing rules; the melee list, each candidate put to its check). It
    reads, compares, hashes, copies and pickles as the tuple `work()` returns. `fresh` (optional) says whether
    the battle is still where the list was made: a first read after it moved on raises RuntimeError instead of
    listing what is legal in another state (read a request's list while it is pending)."""

    __slots__ = ("_acts", "_fresh", "_work")

    def __init__(self, work: Callable[[], tuple[A, ...]], fresh: Callable[[], bool] | None = None) -> None:
        self._work: Callable[[], tuple[A, ...]] | None = work
        self._fresh = fresh
        self._acts: tuple[A, ...] | None = None

    def acts(self) -> tuple[A, ...]:
        """The actions (worked out on the first call)."""
        if self._acts is None:
            assert self._work is not None
            if self._fresh is not None and not self._fresh():
                raise RuntimeError("a legal list's lazy part read after its request was answered")
            self._acts, self._work, self._fresh = tuple(self._work()), None, None
        return self._acts

    def __getitem__(self, i: Any) -> Any:
        return self.acts()[i]

    def __contains__(self, x: object) -> bool:
        return x in self.acts()

    def __iter__(self) -> Iterator[A]:
        return iter(self.acts())

    def __len__(self) -> int:
        return len(self.acts())

    def __eq__(self, other: object) -> bool:
        return self.acts() == (other.acts() if isinstance(other, LazyActions) else other)

    def __hash__(self) -> int:
        return hash(self.acts())

    def __repr__(self) -> str:
        return repr(self.acts())

    def __add__(self, other: Any) -> tuple[Action, ...]:
        return self.acts() + tuple(other)

    def __radd__(self, other: Any) -> tuple[Action, ...]:
        return tuple(other) + self.acts()

    def __reduce__(self) -> tuple[Any, ...]:
        return (tuple, (self.acts(),))

    def __copy__(self) -> tuple[Action, ...]:
        return self.acts()

    def __deepcopy__(self, memo: dict[int, Any]) -> tuple[Action, ...]:
        return self.acts()


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
    throws: tuple[tuple[str, AbstractSet[Cell]], ...] = ()  # (LazyCells: worked out when first read)
    aims: tuple[Aim, ...] = ()
    reload: bool = False
    waits: tuple[Wait, ...] = ()
    wait_cells: frozenset[Cell] = frozenset()  # cells a wait may name (FI R-5.7 `enemy_enters:X,Y`; not in `actions()`)
    screens: Sequence[SetTacpack] = ()  # (FI: LazyActions, worked out when first read)
    melee: Sequence[Action] = ()  # a ruleset's hand-to-hand actions, listed whole (FI: blows, charges, R-7);
    # not in `actions()` (the RL action table has no place for them yet, docs/RL.md); FI: LazyActions
    contests: tuple[Action, ...] = ()  # psychological contests (FI: target × kind × mode)
    # The shots that are more than one shot at one target, listed whole (FI: double taps, R-6.12; bursts split
    # between two of the listed targets, default dice, R-6.3); not in `actions()`, as `melee`.
    ranged: tuple[Shoot, ...] = ()
    # The shots of the weapon in the other hand (FI two weapons, `hand=off`: single, bursts, double taps),
    # listed whole; not in `actions()` (the RL table's `off_shot` block, env/fi_actions.py). FI: LazyActions.
    offhand: Sequence[Shoot] = ()
    covers: tuple[int, ...] = ()  # the bursts covering fire may be laid with now (0: single shots; FI)
    launches: bool = False  # the weapon in hand launches at a cell now (FI)
    off_launches: bool = False  # the launcher in the other hand launches now (FI two weapons, `hand=off`)
    mounts: tuple[Action, ...] = ()  # mounting and dismounting (FI mounts), listed whole; not in `actions()`
    # Whether a cell may be named: cell_ok("cover" | "launch" | "off_launch", cell); a question, as the cells are too
    # many to list ("off_launch": the other hand's launcher, its range).
    cell_ok: Callable[[str, Cell], bool] | None = field(default=None, compare=False, repr=False)

    @property
    def end_turn(self) -> bool:
        """Ending the turn is always allowed in a turn."""
        return self.kind == "act"

    @cached_property
    def shot_set(self) -> frozenset[Shoot]:
        """`shots` as a set (made on the first read, then kept with the value; not a field: compared, hashed and
        replaced as before): `allows` asks it once per shot weighed, a hash each instead of a scan of the tuple (a
        24 v 24 battle's lists hold dozens of shots)."""
        return frozenset(self.shots)

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
            if action.hand == "main":  # the main hand's shots are the plain ones (FI ), as the battle takes them
                action = replace(action, hand="")
            if (action.hand == "off" or action.double_tap) and not (action.also or action.split):
                # an off-hand shot or a double tap, called or with spends, as the listed one's (a called location
                # holds for both shots of a tap, R-6.12)
                plain = Shoot(action.unit, action.target, mode=action.mode, burst=action.burst,
                              double_tap=action.double_tap, hand=action.hand)
                called_ok = action.called is None or (not action.burst and action.called in self.called)
                return called_ok and plain in (self.offhand if action.hand == "off" else self.ranged)
            if action.double_tap or action.also or action.split or action.hand:
                return action in self.ranged
            plain = Shoot(action.unit, action.target, mode=action.mode, burst=action.burst)
            return plain in self.shot_set and (action.called is None or (not action.burst and action.called in self.called))
        if isinstance(action, Throw):
            items = [item for item, _ in self.throws]
            item = action.item or (items[0] if items else "")  # no item named: the first one carried
            return any(i == item and tuple(action.at) in cells for i, cells in self.throws)
        if isinstance(action, (CoverFire, Launch)):
            cell = (int(action.at[0]), int(action.at[1]))
            if isinstance(action, CoverFire):
                return action.burst in self.covers and self.cell_ok is not None and self.cell_ok("cover", cell)
            if action.hand == "off":  # the other hand's launcher
                return self.off_launches and self.cell_ok is not None and self.cell_ok("off_launch", cell)
            return (self.launches and action.hand in ("", "main") and self.cell_ok is not None
                    and self.cell_ok("launch", cell))
        if isinstance(action, Reload):
            return self.reload
        if isinstance(action, EndTurn):
            return True
        # each list holds one kind (a lazy part is worked out only when an action of its kind is asked about)
        if isinstance(action, Aim):
            return action in self.aims
        if isinstance(action, Wait):
            if action.trigger.startswith("enemy_enters:"):
                xy = action.trigger.partition(":")[2].split(",")
                return len(xy) == 2 and all(v.lstrip("-").isdigit() for v in xy) and \
                    (int(xy[0]), int(xy[1])) in self.wait_cells
            return action in self.waits
        if isinstance(action, SetTacpack):
            return action in self.screens
        return action in self.melee or action in self.contests or action in self.mounts

    def count(self) -> int:
        """How many actions are listed (called-shot variants not counted)."""
        return sum(1 for _ in self.actions())
