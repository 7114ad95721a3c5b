"""A frozen snapshot of a battle for AIs, previews and the board (ARCHITECTURE §4). No esper here."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import TYPE_CHECKING, Any

from skirmish.ecs.fi_mounts import MountView
from skirmish.rules.equipment import Weapon
from skirmish.rules.geometry import Cell, GridMap, Sight, unit_sight

if TYPE_CHECKING:
    from skirmish.rules.fi.timing import Part


@dataclass(frozen=True)
class UnitView:
    """One combatant as others may read it."""

    name: str
    side: str
    side_index: int
    cell: Cell
    traits: tuple[tuple[str, str, int], ...]
    skills: tuple[tuple[str, int], ...]
    size: int
    wounds: int
    ct: int
    ct_max: int
    out_of_action: bool
    dead: bool
    stunned: bool
    prone: bool
    weapon: Weapon | None
    rounds: int
    magazines: int
    jammed: bool
    armour: tuple[tuple[str, str, int], ...]  # (location, kind, current AV) of the outermost layer
    tacpack_generator: int
    screen_type: str
    screen_points: int
    declared: str | None
    phase: int | None
    hesitating: bool
    waiting: str | None
    ready_target: str | None
    aim: int
    moved_m: float
    cover: str
    firing: bool = False
    known_to: tuple[str, ...] = ()
    facing: tuple[int, int] = (0, 1)
    throwables: tuple[tuple[Weapon, int], ...] = ()  # thrown weapons carried, with how many
    shot_points: int = 0  # tacpack points already drawn by energy shots this round
    # Turn state, as the battle keeps it (its Turn component): the actions of the unit's current turn (of its
    # last one until its next begins) as the timing rules count them (R-5.3-R-5.5). How it moved and whether it
    # has acted read from them: its one move is a part (running or not), and every action but a free one is too.
    turn_parts: tuple[Part, ...] = ()

    @property
    def moved(self) -> str:
        """How it moved this turn: "none", "walked" or "ran" (a shot after moving pays for it, R-5.4/R-6.1)."""
        for p in self.turn_parts:
            if p.kind == "move":
                return "ran" if p.running else "walked"
        return "none"

    @property
    def attacked(self) -> bool:
        """It has shot or thrown this turn."""
        return any(p.kind == "attack" for p in self.turn_parts)
    # Side views (skirmish.ecs.knowledge): False for an enemy seen through one side's eyes, whose ammunition,
    # tacpack, CT, stun and intentions then read as unknown (0, "none", None); True for own units and all-seeing.
    full: bool = True
    ghost: bool = False  # an enemy not seen now, drawn at its last known cell
    last_seen: int | None = None  # for an enemy in a side's view: the round its position was last known
    # A ruleset's own part of the view (World.register_view_part), None for a ruleset that has none: Future*World's
    # figures carry a skirmish.ecs.fw_view.FwUnitView here (characteristics, HP, kit, declaration, tacpack split).
    ext: Any = None
    # Future Imperfect's melee part (skirmish.ecs.fi_melee_view.MeleeView: weapons carried and in hand, Close,
    # entangled, down, active defence; R-7), None for a unit that has none.
    melee: Any = None
    # Future Imperfect's states of mind (skirmish.ecs.fi_mind): surprised, catatonic, annoyed, distraught,
    # terrified, focused, fearsome/terrorsome; () for none.
    mind: tuple[str, ...] = ()
    # Future Imperfect's covering fire: the covered area's cell and the burst (0: single shots) while it
    # holds; an intention, so None for an enemy in a side's view (as `waiting`).
    covering: tuple[int, int, int] | None = None
    # The metres of its fastest move this round (FI's target speed: faster than Rate 20, −4; shot_numbers.fast_target)
    rate_m: float = 0.0
    # Two weapons (FI, a scenario unit's `two_weapons`): the weapon in the other hand (`shoot … hand=off`), its
    # rounds and breakdown; an enemy's is seen as the weapon in its main hand is (rounds 0, not jammed: unknown).
    off_hand: Weapon | None = None
    off_rounds: int = 0
    off_jammed: bool = False

    @property
    def acted(self) -> bool:
        """It has taken an action this turn (a free one aside): a wait must come first (R-5.7)."""
        return any(p.kind != "free" for p in self.turn_parts)

    @property
    def can_fire(self) -> bool:
        """The weapon in hand is loaded, not jammed, and (an energy weapon) has its tacpack power (R-6.13)."""
        w = self.weapon
        if w is None or self.jammed or self.rounds <= 0:
            return False
        return not w.energy or self.power_left >= w.power

    @property
    def power_left(self) -> int:
        """Tacpack points still free this round for energy shots (R-6.13)."""
        return max(0, self.tacpack_generator - self.screen_points - self.shot_points)

    def can_fire_burst(self, burst: int) -> bool:
        """The weapon can fire this burst now: rounds loaded and, for an energy weapon, power for every round."""
        w = self.weapon
        return (self.can_fire and w is not None and self.rounds >= (burst or 1)
                and (not w.energy or self.power_left >= w.shot_power(burst)))

    def trait(self, name: str) -> tuple[str, int]:
        """(column, training) of a trait."""
        for n, col, tr in self.traits:
            if n == name:
                return col, tr
        raise KeyError(name)

    def skill(self, name: str) -> int:
        """Skill level, 0 if untrained."""
        return dict(self.skills).get(name, 0)


_UNIT_DEFAULTS = {f.name: f.default for f in fields(UnitView) if f.default is not MISSING}
_UNIT_ORDER = tuple(f.name for f in fields(UnitView))
_UNIT_FIELDS = frozenset(_UNIT_ORDER)


def unit_view(values: dict[str, Any]) -> UnitView:
    """`UnitView(**values)`, built without the frozen dataclass's `__init__` (which sets its forty fields one
    `object.__setattr__` at a time; a snapshot makes a view of every unit for every decision): the defaults,
    then `values`, straight into the instance's `__dict__`. The result equals `UnitView(**values)`
    (tests/test_views_fast.py); an unknown field is a TypeError, as it would be there."""
    if not _UNIT_FIELDS.issuperset(values):
        raise TypeError(f"UnitView has no field {sorted(set(values) - _UNIT_FIELDS)[0]!r}")
    u = object.__new__(UnitView)
    d = u.__dict__
    d.update(values)
    for k, v in _UNIT_DEFAULTS.items():
        d.setdefault(k, v)
    if tuple(d) != _UNIT_ORDER:  # the fields in the dataclass's order, as __init__ sets them
        if len(d) != len(_UNIT_ORDER):
            raise TypeError(f"UnitView is missing {sorted(_UNIT_FIELDS - set(d))[0]!r}")
        ordered = {k: d[k] for k in _UNIT_ORDER}
        d.clear()
        d.update(ordered)
    return u


def replace_unit(u: UnitView, changes: dict[str, Any]) -> UnitView:
    """`dataclasses.replace(u, **changes)`, built as `unit_view` builds (the same result, faster)."""
    if not _UNIT_FIELDS.issuperset(changes):
        raise TypeError(f"UnitView has no field {sorted(set(changes) - _UNIT_FIELDS)[0]!r}")
    out = object.__new__(UnitView)
    d = out.__dict__
    d.update(u.__dict__)
    d.update(changes)
    return out


def patched_unit(u: UnitView, changes: dict[str, Any]) -> UnitView:
    """`replace_unit` for changes whose keys are known to be fields (World.snapshot's patches, read by the same view
    parts that made the whole view through `unit_view`, which checks them): not checked again."""
    out = object.__new__(UnitView)
    d = out.__dict__
    d.update(u.__dict__)
    d.update(changes)
    return out


@dataclass(frozen=True)
class ObjectiveView:
    """A scenario objective as a side may know it (issue 15; skirmish.objectives): `state` open, done or failed
    (every change is announced in the log, so every side knows it); `progress` (units in or through the zone,
    rounds held in a row) only for the viewer's own objectives and the all-seeing view, else None."""

    name: str
    side: str
    kind: str
    state: str
    points: int
    zone: str | None
    unit: str | None
    rounds: int | None
    units: str | int
    wins: bool
    loses: bool
    progress: int | None


@dataclass(frozen=True)
class BattleView:
    """The battle at one moment: all of it (`viewer` None), or what side `viewer` may know (Battle.observe)."""

    round: int
    phase: int | None
    grid: GridMap
    units: tuple[UnitView, ...]
    sides: tuple[str, ...]
    scope: str
    max_rounds: int = 0  # the round limit (a draw), 0 if none: an AI plays against the clock
    viewer: str | None = None  # the side whose view this is; None: all-seeing
    # A scenario's zones ((name, cells in row order) in name order), objectives and the AI orders its triggers
    # gave ((side, personality or None, orders)); empty when it has none (issue 15, skirmish.objectives).
    zones: tuple[tuple[str, tuple[Cell, ...]], ...] = ()
    objectives: tuple[ObjectiveView, ...] = ()
    ai_orders: tuple[tuple[str, str | None, tuple[str, ...]], ...] = ()
    # The units that left the battle through an extraction zone (still in `units`, out of action where they
    # left): a side's own, and the enemies it sees now; all of them in the all-seeing view.
    extracted: tuple[str, ...] = ()
    # Future Imperfect mounts the viewer knows of (ecs/fi_mounts.py; a side sees those in sight, docs/RULES-NOTES.md
    # "Mounts"); a ridden one stands at its rider's cell.
    mounts: tuple[MountView, ...] = ()
    # A key fixed by the battle's seed (Battle.salt): a blunt AI's deterministic misjudgements (hesitant rounds,
    # misjudged options) are drawn from it with the round and unit, so they differ from battle to battle and stay
    # the same for a scenario and seed (issue 12). It tells nothing of the dice (a hash, not the seed).
    salt: str = ""

    def zone(self, name: str) -> tuple[Cell, ...]:
        """A zone's cells (KeyError if the scenario has no such zone)."""
        for zname, cells in self.zones:
            if zname == name:
                return cells
        raise KeyError(name)

    def unit(self, name: str) -> UnitView:
        """A unit by name."""
        for u in self.units:
            if u.name == name:
                return u
        raise KeyError(name)

    def find(self, name: str | None) -> UnitView | None:
        """A unit by name, or None if this view does not show it (an enemy a side has never known)."""
        for u in self.units:
            if u.name == name:
                return u
        return None

    def enemies(self, of: UnitView) -> list[UnitView]:
        """Enemies still in action (as far as the view knows: ghosts included, at their last known cells)."""
        kept = self._kept()
        out = kept.get(of.side)
        if out is None:
            out = kept[of.side] = [u for u in self.units if u.side != of.side and not u.out_of_action]
        return list(out)

    def friends(self, of: UnitView) -> list[UnitView]:
        """Friends still in action (not counting itself)."""
        kept = self._kept()
        key = (of.side, of.name)
        out = kept.get(key)
        if out is None:
            out = kept[key] = [u for u in self.units if u.side == of.side and u.name != of.name and not u.out_of_action]
        return list(out)

    def _kept(self) -> dict[object, list[UnitView]]:
        """The lists `enemies` and `friends` made from this view's units (a view is frozen: the AIs ask the same
        lists many times a decision). Kept in the instance with the units tuple they were made from, so a view
        made by copying another's fields (Knowledge.observe) with other units makes its own."""
        kept = self.__dict__.get("_lists")
        if kept is None or kept[0] is not self.units:
            kept = self.__dict__["_lists"] = (self.units, {})
        return kept[1]

    def sight(self, frm: UnitView, to: UnitView, at: Cell | None = None) -> Sight:
        """What `frm` (standing at `at`, default its own cell) sees of `to` under R-6.1/R-6.6 (of a ghost: of its
        last known cell, had it stayed there)."""
        return unit_sight(self.grid, at or frm.cell, to.cell, to.firing, frm.side in to.known_to)

    def occupied(self, except_name: str | None = None) -> set[Cell]:
        """Cells standing combatants (and bodies) fill, and riderless mounts."""
        out = {u.cell for u in self.units if u.name != except_name}
        if self.mounts:
            out.update(m.cell for m in self.mounts if m.rider is None)
        return out
