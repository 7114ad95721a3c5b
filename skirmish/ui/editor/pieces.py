"""Units and mounts on the editor's map (the document's part that places, moves, renames and deletes them; no
drawing here): a unit is a side's, a mount (Future Imperfect `mounts:`, skirmish.content.fi_mounts; RULES-NOTES
"Mounts") is the scenario's. A rider is a unit marked `mounted: true` on its mount's cell: they move together, a
unit put on a riderless mount rides it, a mount put under a unit carries it, and deleting a ridden mount sets its
rider down. What is still wrong (a mount on a wall, two on a cell) is the loader's check's, shown live."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

from skirmish.rulesets.fi import MOUNT_KINDS as _KINDS
from skirmish.ui.editor.basics import Cell, mount_renamed, new_unit, unit_renamed

MOUNT_KINDS = tuple(_KINDS)  # horse, beast, bike: the rules' table (skirmish/rules/fi/mounts.py)


class Pieces:
    """The document's units and mounts (EditorDoc's part)."""

    data: dict[str, Any]

    def change(self) -> None:  # EditorDoc's: the state before an edit kept for undo
        raise NotImplementedError

    # ------------------------------------------------------------------ units
    def units(self) -> Iterator[tuple[int, int, dict[str, Any]]]:
        """(side index, unit index, unit) in file order."""
        for si, side in enumerate(self.data.get("sides", [])):
            for ui, unit in enumerate(side.get("units", [])):
                yield si, ui, unit

    def unit_at(self, cell: Cell) -> tuple[int, int] | None:
        """The unit standing on a cell, if any."""
        for si, ui, unit in self.units():
            at = unit.get("at")
            if isinstance(at, list) and tuple(at) == tuple(cell):
                return si, ui
        return None

    def unique_name(self, base: str) -> str:
        """`base` with the lowest free number: Blue-3."""
        names = {str(u.get("name")) for _, _, u in self.units()}
        stem = re.sub(r"-\d+$", "", base)
        n = 1
        while f"{stem}-{n}" in names:
            n += 1
        return f"{stem}-{n}"

    def place_unit(self, side: int, cell: Cell) -> int:
        """A new unit of side `side` at `cell`, like the side's last one (its kit and traits), named anew;
        returns its index."""
        sides = self.data["sides"]
        units = sides[side].setdefault("units", [])
        ruleset = str(self.data.get("ruleset", "fi"))
        template = copy.deepcopy(units[-1]) if units else new_unit(ruleset, "x", cell)
        template["name"] = self.unique_name(str(template.get("name") or sides[side].get("name") or "Unit"))
        template["at"] = [cell[0], cell[1]]
        template.pop("mounted", None)  # a rider's copy is not a rider: only on a mount's cell (below)
        self.change()
        if self.mount_at(cell) is not None:
            template["mounted"] = True
        units.append(template)
        return len(units) - 1

    def move_unit(self, side: int, index: int, cell: Cell) -> str | None:
        """Put a unit on another cell: a rider's mount goes with it (not onto another mount); onto a riderless
        mount, it rides it. Why not, or None."""
        unit = self.data["sides"][side]["units"][index]
        at = unit.get("at")
        if list(at or []) == [cell[0], cell[1]]:
            return None
        ridden = self.mount_at(tuple(at)) if unit.get("mounted") and isinstance(at, list) and len(at) == 2 else None
        there = self.mount_at(cell)
        if ridden is not None and there is not None:
            return f"{self.data['mounts'][there].get('name')} stands there already (a rider brings its mount)"
        self.change()
        unit["at"] = [cell[0], cell[1]]
        if ridden is not None:
            self.data["mounts"][ridden]["at"] = [cell[0], cell[1]]
        elif there is not None:
            unit["mounted"] = True
        return None

    def delete_unit(self, side: int, index: int) -> None:
        """Take a unit off (its side may be left empty: the check says so)."""
        self.change()
        del self.data["sides"][side]["units"][index]

    def rename_unit(self, side: int, index: int, new: str) -> None:
        """Rename a unit and every objective, trigger and order that names it (basics.unit_renamed), in one undo
        step; ValueError for an empty name or one that a unit, a reinforcement or a mount has."""
        old = str(self.data["sides"][side]["units"][index].get("name", ""))
        new = new.strip()
        if new == old:
            return
        taken = {str(u.get("name")) for _, _, u in self.units()} | self.other_names()
        if not new or new in taken:
            raise ValueError(f"a unit name, not empty and not another unit's, reinforcement's or mount's, got {new!r}")
        data = unit_renamed(self.data, old, new) if old else self.data  # ValueError: an order cannot hold it
        self.change()
        self.data = data
        self.data["sides"][side]["units"][index]["name"] = new

    def rename_reinforcement(self, keys: tuple[str | int, ...], new: str) -> None:
        """Rename a trigger's reinforcement (`keys`: its unit's path, triggers/T/then/E/reinforce/units/U) and
        every objective, trigger and order that names it, in one undo step; ValueError as for a unit."""
        unit = self.get(keys)
        if not isinstance(unit, dict):
            raise KeyError(keys)
        old, new = str(unit.get("name", "")), new.strip()
        if new == old:
            return
        taken = {str(u.get("name")) for _, _, u in self.units()} | self.other_names()
        if not new or new in taken:
            raise ValueError(f"a unit name, not empty and not another unit's, reinforcement's or mount's, got {new!r}")
        data = unit_renamed(self.data, old, new) if old else copy.deepcopy(self.data)
        self.change()
        self.data = data
        self.get(keys)["name"] = new

    def get(self, keys: tuple[str | int, ...]) -> Any:  # EditorDoc's
        raise NotImplementedError

    def other_names(self) -> set[str]:
        """The names of the triggers' reinforcements and of the mounts (a unit's name must differ from them)."""
        out = {str(m.get("name")) for m in self.data.get("mounts") or [] if isinstance(m, dict)}
        for t in self.data.get("triggers") or []:
            for e in (t.get("then") or []) if isinstance(t, dict) else []:
                r = e.get("reinforce") if isinstance(e, dict) else None
                out |= {str(u.get("name")) for u in (r.get("units") or []) if isinstance(u, dict)} if isinstance(
                    r, dict) else set()
        return out


    # ------------------------------------------------------------------ mounts
    def mounts(self) -> list[dict[str, Any]]:
        """The scenario's mounts (Future Imperfect `mounts:`), in file order."""
        got = self.data.get("mounts")
        return [m for m in got if isinstance(m, dict)] if isinstance(got, list) else []

    def mount_at(self, cell: tuple[int, ...]) -> int | None:
        """The index of the mount standing on a cell, if any."""
        for i, m in enumerate(self.data.get("mounts") or []):
            if isinstance(m, dict) and isinstance(m.get("at"), list) and tuple(m["at"]) == tuple(cell):
                return i
        return None

    def rider_of(self, index: int) -> tuple[int, int] | None:
        """The unit riding mount `index` (a `mounted: true` unit on its cell), if any."""
        at = self.data["mounts"][index].get("at")
        for si, ui, unit in self.units():
            if unit.get("mounted") and isinstance(at, list) and unit.get("at") == at:
                return si, ui
        return None

    def place_mount(self, cell: Cell, kind: str) -> int:
        """A new mount of `kind` at `cell`, named `Horse-1`, `Bike-2`, … (a name no unit or mount has); a unit
        standing there rides it. Its index."""
        taken = {str(u.get("name")) for _, _, u in self.units()} | self.other_names()
        stem, n = kind.title(), 1
        while f"{stem}-{n}" in taken:
            n += 1
        here = self.unit_at(cell)
        self.change()
        mounts = self.data.setdefault("mounts", [])
        mounts.append({"name": f"{stem}-{n}", "kind": kind, "at": [cell[0], cell[1]]})
        if here is not None:
            self.data["sides"][here[0]]["units"][here[1]]["mounted"] = True
        return len(mounts) - 1

    def move_mount(self, index: int, cell: Cell) -> str | None:
        """Put a mount on another cell (its rider with it; a unit standing there, with no mount, rides it); why
        not, or None."""
        mount = self.data["mounts"][index]
        if list(mount.get("at") or []) == [cell[0], cell[1]]:
            return None
        if self.mount_at(cell) is not None:
            return f"{self.data['mounts'][self.mount_at(cell)].get('name')} stands there already"
        rider, there = self.rider_of(index), self.unit_at(cell)
        if rider is not None and there is not None:
            return "a unit stands there already"
        self.change()
        mount["at"] = [cell[0], cell[1]]
        if rider is not None:
            self.data["sides"][rider[0]]["units"][rider[1]]["at"] = [cell[0], cell[1]]
        elif there is not None:
            self.data["sides"][there[0]]["units"][there[1]]["mounted"] = True
        return None

    def delete_mount(self, index: int) -> None:
        """Take a mount off the map; its rider, if any, is set down (no longer `mounted`)."""
        rider = self.rider_of(index)
        self.change()
        del self.data["mounts"][index]
        if not self.data["mounts"]:
            del self.data["mounts"]
        if rider is not None:
            self.data["sides"][rider[0]]["units"][rider[1]].pop("mounted", None)

    def rename_mount(self, index: int, new: str) -> None:
        """Rename a mount (nothing else names it in a scenario: scripted `mount U NAME` orders aside, which
        follow); ValueError for an empty name or one a unit, a reinforcement or another mount has (the loader's
        rule, skirmish.content.fi_mounts)."""
        old = str(self.data["mounts"][index].get("name", ""))
        new = new.strip()
        if new == old:
            return
        taken = {str(u.get("name")) for _, _, u in self.units()} | self.other_names()
        if not new or new in taken:
            raise ValueError(f"a mount name, not empty and not a unit's, a reinforcement's or another mount's, "
                             f"got {new!r}")
        data = mount_renamed(self.data, old, new) if old else self.data  # `mount U NAME` orders
        self.change()
        self.data = data
        self.data["mounts"][index]["name"] = new
