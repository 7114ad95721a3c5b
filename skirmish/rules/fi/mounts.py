"""Mounts in play (R-6.1 "firer is mounted −2"; `000_…` says no more of riding, so the rest is the table's choice,
docs/RULES-NOTES.md "Mounts"): the kinds of mount as data, the verbs `mount` and `dismount` (registered in the
action codec when this module is imported) and their typed events (C-1, docs/EVENTS.md).

    mount Rider Bike-1                 climb onto an adjacent riderless mount (a NORMAL action, R-5.4)
    dismount Rider to=4,3              step off to an adjacent open cell (a NORMAL action); the mount stays

A rider moves at its mount's allowance (walk = the kind's `move_m`, run twice it, R-5.6) and every shot it fires
takes −2 (R-6.1). A riderless mount stands on its cell: it fills the cell as a figure does, and like a figure it
does not block sight.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from skirmish.core.events import Event, register
from skirmish.rules.actions import Action, register_action
from skirmish.rules.geometry import Cell


@dataclass(frozen=True)
class MountKind:
    """A kind of mount: its walk in metres per action (run: twice it, R-5.6) and how people name it."""

    id: str
    title: str
    move_m: int


# The kinds a scenario's `mounts:` may name (data: a human's walk is its Dexterity die, 6–10 m; a horse walks at
# about twice that, a riding beast a little less, a bike three times).
MOUNT_KINDS: dict[str, MountKind] = {
    "horse": MountKind("horse", "horse", 16),
    "beast": MountKind("beast", "riding beast", 12),
    "bike": MountKind("bike", "bike", 30),
}

MOUNT_ACTION_SPEED = "normal"  # mounting and dismounting are each a NORMAL action (R-5.4's other actions)


def walk_run(move_m: float) -> tuple[float, float]:
    """A rider's (walk, run) in metres on a mount of walk `move_m` (R-5.6: the run is twice the walk)."""
    return float(move_m), 2.0 * float(move_m)


@dataclass(frozen=True)
class Mount(Action):
    """Climb onto the riderless mount `mount` from an adjacent cell (R-6.1; docs/RULES-NOTES.md "Mounts")."""

    verb: ClassVar[str] = "mount"
    mount: str = ""


@dataclass(frozen=True)
class Dismount(Action):
    """Step off one's mount to the adjacent open cell `to`; the mount stays where it stood."""

    verb: ClassVar[str] = "dismount"
    to: Cell | None = None


register_action(Mount, "mount")
register_action(Dismount, None)


@register("mount")
@dataclass(frozen=True, slots=True, kw_only=True)
class MountEvent(Event):
    """A figure climbs onto a mount: from `start` onto the mount's cell `at`; its walk is now `move_m`."""

    mount: str
    kind: str
    start: list[int]
    at: list[int]
    move_m: int

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} mounts {self.mount} (a {self.kind}) at {self.at[0]},{self.at[1]}: "
                f"walks {self.move_m} m, shoots at −2{self.rules_text()}")


@register("dismount")
@dataclass(frozen=True, slots=True, kw_only=True)
class DismountEvent(Event):
    """A rider steps off its mount to `to`; the mount stays riderless at `at`."""

    mount: str
    at: list[int]
    to: list[int]

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} dismounts from {self.mount} to {self.to[0]},{self.to[1]}; "
                f"{self.mount} stands at {self.at[0]},{self.at[1]}{self.rules_text()}")


@register("unseated")
@dataclass(frozen=True, slots=True, kw_only=True)
class UnseatedEvent(Event):
    """A rider down (tripped, thrown, knocked prone or put out of action) comes off its mount: from the mount's cell
    `at`, where the mount stays riderless, to the next open cell `to`; `cause` says why ("out of action", "down",
    "prone")."""

    mount: str
    at: list[int]
    to: list[int]
    cause: str

    def describe(self) -> str:
        return (f"{self.where()} {self.actor or ''} comes off {self.mount} ({self.cause}) to {self.to[0]},{self.to[1]}; "
                f"{self.mount} stands at {self.at[0]},{self.at[1]}{self.rules_text()}")
