"""What the editor's document starts from: a new unit of each ruleset, which files are shipped (never written
by Ctrl+S), and the zone references a rename follows (a unit's and a mount's: renames.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skirmish.content.scenario import SCENARIOS_DIR
from skirmish.content.tiled import EMBEDDED_DIR, MAPS_DIR
from skirmish.ui.editor.renames import mount_renamed, unit_renamed

NEW_SIZE = (24, 16)
DEFAULT_TILE = "ground"  # what a new map and the cells a resize adds are made of
FI_TRAITS = {"strength": "III-2", "dexterity": "III-2", "reflexes": "III-2", "vigor": "III-2", "acuity": "II-2"}
FW_CHARACTERISTICS = {"STR": 11, "CON": 11, "SIZ": 11, "INT": 11, "POW": 11, "DEX": 11}
Cell = tuple[int, int]


def new_unit(ruleset: str, name: str, at: Cell) -> dict[str, Any]:
    """A plain trooper of the ruleset, to be edited."""
    if ruleset == "fw":
        return {"name": name, "at": [at[0], at[1]], "characteristics": dict(FW_CHARACTERISTICS),
                "skills": {"rifle": 50}, "weapons": ["heavy_rifle"]}
    return {"name": name, "at": [at[0], at[1]], "traits": dict(FI_TRAITS), "skills": {"shooting:rifle": 2},
            "weapons": ["blast_carbine"]}


def shipped(path: Path) -> bool:
    """Whether a file is one skirmish ships (scenarios/, maps/ or the package's copy): Ctrl+S never writes one."""
    try:
        p = path.resolve()
    except OSError:
        return False
    return any(p.is_relative_to(d.resolve()) for d in (SCENARIOS_DIR, MAPS_DIR, EMBEDDED_DIR))


ZONE_REFS = ("zone", "deployment", "enters", "leaves")  # the keys whose value names a zone


def renamed(node: Any, old: str, new: str) -> Any:
    """`node` with every zone reference to `old` (ZONE_REFS, and `hold/reach ZONE` AI orders) made `new`."""
    if isinstance(node, dict):
        return {k: (new if k in ZONE_REFS and v == old else renamed(v, old, new)) for k, v in node.items()}
    if isinstance(node, list):
        return [renamed(v, old, new) for v in node]
    if isinstance(node, str) and node in (f"hold {old}", f"reach {old}"):
        return node.split(" ", 1)[0] + " " + new
    return node


__all__ = ["DEFAULT_TILE", "NEW_SIZE", "Cell", "mount_renamed", "new_unit", "renamed", "shipped", "unit_renamed"]
