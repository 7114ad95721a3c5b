"""The ruleset seam (ARCHITECTURE §5): what a ruleset brings, and the registry that names them.

A ruleset is registered by name (as python-chess registers variants and OpenSpiel registers games); the
battle, the loaders, the log, the AIs and the board find it with `get(name)` and reach its rules only
through it. `skirmish.rulesets` registers the shipped rulesets when it is imported.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from skirmish.core.errors import Refusal
from skirmish.core.flow import Request, RoundTable
from skirmish.core.legal import LegalActions


class SideViews(Protocol):
    """What each side knows of the others (fog of war): kept up to date by the battle before every decision,
    part of its state, and turned into one side's view on request (`Battle.observe`)."""

    seen: dict[str, Any]  # per side, the enemies it sees now (by name)

    def update(self, world: Any, grid: Any, round_no: int) -> None:
        """Every side looks again (the battle calls this before each decision)."""
        ...

    def observe(self, view: Any, side: str) -> Any:
        """The all-seeing view as `side` may know it."""
        ...

    def state(self) -> Any:
        """The knowledge as plain JSON values, for the state hash."""
        ...


class Systems(Protocol):
    """One battle's rules at work over its world: what the battle asks of a ruleset while it runs.

    `ctx` carries at least `round` and `phase` (the round and the step's phase, for events and records)."""

    ctx: Any

    def round_table(self) -> RoundTable:
        """The round as rows and the callbacks they run (core.flow)."""
        ...

    def start_info(self) -> dict[str, Any]:
        """The ruleset's fields of the battle_start event (C-3), in order."""
        ...

    def legal_actions(self, req: Request) -> LegalActions:
        """What the actor of `req` may answer now; every action listed is accepted."""
        ...

    def refusal(self, req: Request, action: Any) -> Refusal | None:
        """None if `action` would be accepted as the answer to `req`, else the Refusal; nothing changes."""
        ...

    def fallback(self, req: Request) -> Any:
        """The answer taken when a controller's answer is refused (it loses the decision, not the battle)."""
        ...

    def side_views(self, sides: tuple[str, ...]) -> SideViews:
        """What each side observes, and how it comes to know it (sight, sensors …)."""
        ...

    def draws(self) -> int:
        """Random resolutions made so far (an undo is possible only while none is made)."""
        ...

    def hash_state(self) -> dict[str, Any]:
        """State the battle's hash does not collect itself, as plain JSON values: random state not held by the
        world's components (e.g. the deck's piles), and the ruleset's own component types (the battle hashes
        those of skirmish.ecs.components)."""
        ...

    # What the board asks before a person commits (previews; nothing changes).
    def odds(self, eid: int, action: Any, seed: int) -> Any:
        """The odds of an attack by `eid` (the ruleset's odds type); IllegalAction if it is refused."""
        ...

    def move_refusal(self, eid: int) -> str | None:
        """Why `eid` may not move now, or None."""
        ...

    def preview_move(self, eid: int, to: tuple[int, int]) -> tuple[list[tuple[int, int]], float, bool]:
        """Route, metres and whether it is a run; IllegalAction if the move is refused."""
        ...

    def move_allowance(self, eid: int) -> tuple[float, float]:
        """(walk, run) in metres this turn."""
        ...

    # A scenario's triggers and objectives (skirmish.objectives, issue 15).
    def reinforce(self, unit: Any, side: str) -> int:
        """A checked scenario unit of the ruleset arrives on `side` (at the start of a round); its entity."""
        ...

    def withdraw(self, eid: int) -> None:
        """A unit leaves the battle (extracted): out of action from now on."""
        ...

    def set_grid(self, grid: Any) -> None:
        """The map changed (a door): everything worked out on the map uses the new one."""
        ...


@runtime_checkable
class Ruleset(Protocol):
    """A ruleset's binding: its name, its scenario schema parts, and how to set up the systems of one battle.

    The systems bring the rest (round table, legality, previews); the AIs and the board reach the ruleset's
    own names through its facade module (`skirmish.rulesets.<name>`), never `skirmish.rules.<name>`."""

    name: str  # the scenario's `ruleset:` value
    title: str  # how people name it
    scenario_parts: Any  # its scenario schema parts (skirmish.content.parts.SchemaParts: options, unit traits)
    request_kinds: tuple[str, ...]  # the kinds of the Requests its round table makes (records check answers by them)

    def setup(self, scenario: Any, rng: random.Random, world: Any, emit: Callable[[Any], None]) -> Systems:
        """The systems of one battle: randomizer, context, every unit of the scenario spawned."""
        ...


REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset under its name (a second one of the same name is a programming error)."""
    if ruleset.name in REGISTRY:
        raise ValueError(f"ruleset {ruleset.name!r} is registered twice")
    REGISTRY[ruleset.name] = ruleset
    return ruleset


def get(name: str) -> Ruleset:
    """The ruleset registered under `name`; KeyError naming the registered ones if none is."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise KeyError(f"no ruleset {name!r} (registered: {', '.join(sorted(REGISTRY)) or 'none'})") from None
