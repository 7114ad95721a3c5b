"""Future Imperfect scenario key `mounts:` (docs/FILES.md; docs/RULES-NOTES.md "Mounts"): the mounts that stand on
the map when the battle begins, each `{name, kind, at: [x, y], move_m}` (`kind` one of rules.fi.mounts.MOUNT_KINDS,
which skirmish.content.fi passes in; `move_m`, the walk in metres, defaults to the kind's). A mount may share its
cell only with a unit marked `mounted: true`, which starts the battle riding it. Checked on load (C-6): unknown
kind, off the map, a cell no one can stand on, two mounts or a mount and an unmounted unit on one cell, a name a
unit or another mount has, two mounted reinforcements asking for one mount's cell. A mount at the cell a trigger's
reinforcement `mounted: true` asks for comes with it (`due_mounts`)."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from pydantic import Field, StrictInt

from skirmish.content.errors import quote
from skirmish.content.limits import Name
from skirmish.content.schema import _Strict

MAX_MOUNTS = 40


class MountSpec(_Strict):
    """A mount on the map: a riderless one stands on `at`; one under a `mounted: true` unit is that unit's."""

    name: Name
    kind: Name = Field(description="horse, beast or bike (skirmish/rules/fi/mounts.py MOUNT_KINDS)")
    at: tuple[StrictInt, StrictInt]
    move_m: StrictInt | None = Field(None, ge=1, le=200, description="walk in metres per action (default: the kind's)")


MOUNT_FIELDS: dict[str, Any] = {
    "mounts": (list[MountSpec], Field(default_factory=list, max_length=MAX_MOUNTS,
                                      description="mounts on the map (docs/FILES.md, R-6.1)")),
}


def check_mounts(spec: Any, grid: Any, bad: Callable[[str, str], None], kinds: Collection[str]) -> None:
    """The scenario's mounts against the kinds table (`kinds`: their ids), the map and its units (C-6 messages at
    the file's keys)."""
    mounts = getattr(spec, "mounts", [])
    if not mounts:
        return
    units: dict[tuple[int, int], Any] = {}
    names = set()
    for side in spec.sides:
        for u in side.units:
            units[(u.at[0], u.at[1])] = u
            names.add(u.name)
    riders: dict[tuple[int, int], list[str]] = {}  # the cells mounted reinforcements ask for (their mount's, if any)
    for trig in getattr(spec, "triggers", None) or ():  # a trigger's reinforcements are units too (names only)
        for eff in trig.then:
            if getattr(eff, "reinforce", None) is not None:
                names.update(u.name for u in eff.reinforce.units)
                for u in eff.reinforce.units:
                    if getattr(u, "mounted", False):
                        riders.setdefault((u.at[0], u.at[1]), []).append(u.name)
    seen: dict[str, int] = {}
    cells: dict[tuple[int, int], str] = {}
    for i, m in enumerate(mounts):
        where = f"mounts[{i}]"
        if m.kind not in kinds:
            bad(f"{where}.kind", f"unknown mount kind {quote(m.kind)}; known: {', '.join(kinds)}")
        if m.name in names:
            bad(f"{where}.name", f"{quote(m.name)} names a unit too; a mount needs a name of its own")
        elif m.name in seen:
            bad(f"{where}.name", f"duplicate mount name {quote(m.name)} (also mounts[{seen[m.name]}])")
        seen.setdefault(m.name, i)
        x, y = m.at
        if grid is not None and not grid.inside((x, y)):
            bad(f"{where}.at", f"cell {x},{y} is off the map ({grid.width}x{grid.height})")
            continue
        if grid is not None and not grid.passable((x, y)):
            bad(f"{where}.at", f"cell {x},{y} is {grid.terrain((x, y)).name}, where no mount can stand")
        if (x, y) in cells:
            bad(f"{where}.at", f"cell {x},{y} is taken by the mount {cells[(x, y)]}")
        cells.setdefault((x, y), m.name)
        u = units.get((x, y))
        if u is not None and not getattr(u, "mounted", False):
            bad(f"{where}.at", f"cell {x},{y} is taken by {u.name}, who is not `mounted: true` (a rider starts on "
                               "its mount's cell)")
        if u is None and len(riders.get((x, y), ())) > 1:
            bad(f"{where}.at", f"cell {x},{y} is asked for by two mounted reinforcements, "
                               f"{' and '.join(riders[(x, y)][:2])}: a mount there comes with one rider")


def due_mounts(spec: Any) -> dict[str, str]:
    """The mounts that come with a trigger's reinforcement, by mount name -> the rider's name: a mount at the cell
    a `mounted: true` reinforcement asks for (`at`), where no unit stands at the start (checked: one such rider)."""
    mounts = getattr(spec, "mounts", None) or ()
    if not mounts:
        return {}
    starting = {(u.at[0], u.at[1]) for side in spec.sides for u in side.units}
    riders: dict[tuple[int, int], str] = {}
    for trig in getattr(spec, "triggers", None) or ():
        for eff in trig.then:
            if getattr(eff, "reinforce", None) is not None:
                for u in eff.reinforce.units:
                    if getattr(u, "mounted", False):
                        riders.setdefault((u.at[0], u.at[1]), u.name)
    return {m.name: riders[(m.at[0], m.at[1])] for m in mounts
            if (m.at[0], m.at[1]) in riders and (m.at[0], m.at[1]) not in starting}
