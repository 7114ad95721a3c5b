"""The fixed action index of an RL environment (docs/RL.md): one Discrete space per scenario, each index one
skirmish Action for the unit whose decision it is; the mask comes from `Battle.legal_actions` (STYLE 13).

The layout depends on the scenario only (map size, units, bursts and thrown items they carry, tacpack
generators), never on the seed, so a policy trained on a scenario keeps its meaning across battles.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView
from skirmish.rules.actions import Action, Aim, Declare, EndTurn, Move, Reload, SetTacpack, Shoot, Throw, Wait
from skirmish.rules.deck import LOCATIONS
from skirmish.rules.equipment import SCREEN_TYPES
from skirmish.rulesets.fi import ATTACK_MODES, CONTESTS, DECLARATIONS, MODES, Contest

Cell = tuple[int, int]


@dataclass(frozen=True)
class Block:
    """One run of indices: its name, first index and size, and the shape its parameters form."""

    name: str
    start: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        """How many indices the block holds."""
        return int(np.prod(self.shape)) if self.shape else 1

    @property
    def stop(self) -> int:
        """One past the last index."""
        return self.start + self.size


class BlockLayout:
    """Named blocks of indices laid end to end (`blocks`, `block` by name, `size`): one Discrete space's layout,
    shared by every ruleset's action table."""

    blocks: tuple[Block, ...]
    block: dict[str, Block]
    size: int
    _starts: list[int]

    def _lay_out(self, shapes: Sequence[tuple[str, tuple[int, ...]]]) -> None:
        """Lay the blocks of `shapes` (name, the shape of its parameters) end to end, in order."""
        blocks, start = [], 0
        for name, shape in shapes:
            block = Block(name, start, shape)
            blocks.append(block)
            start = block.stop
        self.blocks = tuple(blocks)
        self.block = {b.name: b for b in self.blocks}
        self._starts = [b.start for b in self.blocks]
        self.size = start

    def _at(self, name: str, *params: int) -> int:
        """The index of block `name` at `params`."""
        block = self.block[name]
        return block.start + int(np.ravel_multi_index(params, block.shape)) if block.shape else block.start

    def _locate(self, index: int) -> tuple[Block, tuple[int, ...]]:
        """The block `index` falls in and its parameters there (ValueError if the index is outside the table)."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} outside 0..{self.size - 1}")
        block = self.blocks[bisect_right(self._starts, index) - 1]
        p = tuple(int(v) for v in np.unravel_index(index - block.start, block.shape)) if block.shape else ()
        return block, p


class ActionTable(BlockLayout):
    """Index <-> Action for one scenario. Blocks, in order (docs/RL.md has the table):

    declare[speed] · move[y, x] · shoot[target, mode, burst] · called[target, mode, location] ·
    throw[item, y, x] · aim[target] · reload · wait · tacpack[screen, points] · end ·
    contest[target, kind, mode] (R-8.4, issue 14: after `end`, so the earlier indices stand)

    `target` is a unit's place in the scenario's order (all sides; a friend is never unmasked), `burst` one
    of `bursts` (0 = a single shot), `item` one of `items` (the thrown weapons carried at the start),
    `screen` one of `screens` ("none" first) and `points` 0..the largest tacpack generator."""

    def __init__(self, width: int, height: int, units: Sequence[str], bursts: Sequence[int],
                 items: Sequence[str], max_generator: int) -> None:
        self.width, self.height = width, height
        self.units = tuple(units)
        self.bursts = tuple(bursts)
        self.items = tuple(items)
        self.modes = tuple(ATTACK_MODES)
        self.speeds = tuple(DECLARATIONS)
        self.locations = tuple(LOCATIONS)
        self.screens = ("none", *SCREEN_TYPES)
        self.points = max_generator + 1
        self.contest_kinds, self.contest_modes = tuple(CONTESTS), tuple(MODES)
        u, m = len(self.units), len(self.modes)
        shapes: list[tuple[str, tuple[int, ...]]] = [
            ("declare", (len(self.speeds),)), ("move", (height, width)),
            ("shoot", (u, m, len(self.bursts))), ("called", (u, m, len(self.locations))),
            ("throw", (len(self.items), height, width)), ("aim", (u,)), ("reload", ()), ("wait", ()),
            ("tacpack", (len(self.screens), self.points)), ("end", ()),
            ("contest", (u, len(self.contest_kinds), len(self.contest_modes))),
        ]
        self._lay_out(shapes)
        self._unit_index = {name: i for i, name in enumerate(self.units)}
        self._burst_index = {b: i for i, b in enumerate(self.bursts)}
        self._item_index = {it: i for i, it in enumerate(self.items)}

    @classmethod
    def for_views(cls, views: Sequence[BattleView], bursts: Sequence[int]) -> ActionTable:
        """The table for a battle at its start, from each side's own view (a side knows its own units in
        full: what they carry and their tacpacks); `bursts` are every burst size a weapon may fire."""
        first = views[0]
        units = [u.name for u in first.units]
        mine = [u for v, side in zip(views, first.sides, strict=True) for u in v.units if u.side == side]
        items = sorted({w.id for u in mine for w, _ in u.throwables})
        generator = max((u.tacpack_generator for u in mine), default=0)
        return cls(first.grid.width, first.grid.height, units, sorted({0, *bursts}), items, generator)

    # ------------------------------------------------------------------ index <-> action
    def encode(self, action: Action) -> int:
        """The index of an action (KeyError if the table has no place for it: a value the scenario's
        layout does not know)."""
        if isinstance(action, Declare):
            return self._at("declare", self.speeds.index(action.speed))
        if isinstance(action, Move):
            return self._at("move", action.to[1], action.to[0])
        if isinstance(action, Shoot):
            target, mode = self._unit_index[action.target], self.modes.index(action.mode)
            if action.called is not None:
                return self._at("called", target, mode, self.locations.index(action.called))
            return self._at("shoot", target, mode, self._burst_index[action.burst])
        if isinstance(action, Throw):
            return self._at("throw", self._item_index[action.item], action.at[1], action.at[0])
        if isinstance(action, Aim):
            return self._at("aim", self._unit_index[action.target])
        if isinstance(action, Reload):
            return self._at("reload")
        if isinstance(action, Wait):
            return self._at("wait")
        if isinstance(action, SetTacpack):
            return self._at("tacpack", self.screens.index(action.screen), action.points)
        if isinstance(action, EndTurn):
            return self._at("end")
        if isinstance(action, Contest):
            return self._at("contest", self._unit_index[action.target], self.contest_kinds.index(action.kind),
                            self.contest_modes.index(action.mode))
        raise KeyError(f"no index for {action}")

    def decode(self, index: int, unit: str) -> Action:
        """The Action at `index`, taken by `unit` (ValueError if the index is outside the table)."""
        block, p = self._locate(index)
        match block.name:
            case "declare":
                return Declare(unit, self.speeds[p[0]])
            case "move":
                return Move(unit, (p[1], p[0]))
            case "shoot":
                return Shoot(unit, self.units[p[0]], mode=self.modes[p[1]], burst=self.bursts[p[2]])
            case "called":
                return Shoot(unit, self.units[p[0]], mode=self.modes[p[1]], called=self.locations[p[2]])
            case "throw":
                return Throw(unit, (p[2], p[1]), self.items[p[0]])
            case "aim":
                return Aim(unit, self.units[p[0]])
            case "reload":
                return Reload(unit)
            case "wait":
                return Wait(unit)
            case "tacpack":
                return SetTacpack(unit, self.screens[p[0]], p[1])
            case "contest":
                return Contest(unit, self.units[p[0]], self.contest_kinds[p[1]], self.contest_modes[p[2]])
        return EndTurn(unit)

    def describe(self, index: int) -> str:
        """The action at `index` in its text form, for a unit named `<unit>` (for logs and docs)."""
        return str(self.decode(index, "<unit>"))

    # ------------------------------------------------------------------ the mask
    def mask(self, legal: LegalActions, check: Callable[[Action], Any] | None = None) -> npt.NDArray[np.int8]:
        """1 at every index `legal` lists (called-shot variants included), 0 elsewhere; all 0 when the unit
        has no decision to make. (`check`, the battle's refusal question, is not needed: FI's list is whole.)"""
        out = np.zeros(self.size, dtype=np.int8)
        if legal.kind == "none":
            return out
        for d in legal.declare:
            out[self.encode(d)] = 1
        if legal.kind != "act":
            return out
        move = self.block["move"]
        cells = legal.walk | legal.run
        if cells:
            xs, ys = np.array(sorted(cells), dtype=np.intp).T
            out[move.start + ys * self.width + xs] = 1
        for shot in legal.shots:
            out[self.encode(shot)] = 1
            if not shot.burst:
                for loc in legal.called:
                    out[self.encode(Shoot(shot.unit, shot.target, mode=shot.mode, called=loc))] = 1
        throw = self.block["throw"]
        for item, at in legal.throws:
            if at:
                xs, ys = np.array(sorted(at), dtype=np.intp).T
                out[throw.start + self._item_index[item] * self.width * self.height + ys * self.width + xs] = 1
        for other in (*legal.aims, *legal.waits, *legal.screens, *legal.contests):
            out[self.encode(other)] = 1
        if legal.reload:
            out[self.encode(Reload(legal.unit))] = 1
        out[self.encode(EndTurn(legal.unit))] = 1
        return out
