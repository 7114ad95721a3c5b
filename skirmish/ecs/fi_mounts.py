"""Future Imperfect mounts on the world (docs/RULES-NOTES.md "Mounts"): a mount's state while the battle runs, and
its frozen view in `BattleView.mounts`. A ridden mount stands where its rider stands; a riderless one fills its
cell (`World.occupied`)."""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass
class MountState:
    """One mount: its name, kind, walk in metres (R-5.6), where it stands when riderless, and its rider's name."""

    name: str
    kind: str
    move_m: int
    cell: Cell
    rider: str | None = None


@dataclass(frozen=True)
class MountView:
    """A mount as a side sees it: where it stands (its rider's cell when ridden) and who rides it."""

    name: str
    kind: str
    move_m: int
    cell: Cell
    rider: str | None
