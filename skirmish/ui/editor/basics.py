"""What the editor's document starts from: a new unit of each ruleset, which files are shipped (never written
by Ctrl+S), and the zone and unit references a rename follows."""

from __future__ import annotations

import copy
import shlex
from pathlib import Path
from typing import Any

from skirmish.content.scenario import SCENARIOS_DIR
from skirmish.content.tiled import EMBEDDED_DIR, MAPS_DIR

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


def unit_renamed(data: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of scenario data with every reference to the unit `old` made `new` (the unit's own `name` aside):
    objectives' `unit` (protect, kill, reach, extract), triggers' `when: {falls}`, `ai` effects' orders (`protect
    UNIT`, `kill UNIT`), the sides' scripted `orders` (the unit acting and any value naming it: `target=`, `also=`,
    a wait's `acts:`/`preempt:`, a shot's positional target), Future Imperfect `chip_orders` (`UNIT check …`) and
    Future*World cars' `riders`. Mount names differ from unit names (skirmish.content.fi_mounts), so a word equal
    to the old name in an order is the unit."""
    out = copy.deepcopy(data)
    for side in out.get("sides") or []:
        if not isinstance(side, dict):
            continue
        for obj in side.get("objectives") or []:
            if isinstance(obj, dict) and obj.get("unit") == old:
                obj["unit"] = new
        if isinstance(side.get("orders"), list):
            side["orders"] = [_order_renamed(o, old, new) for o in side["orders"]]
        if isinstance(side.get("chip_orders"), list):
            side["chip_orders"] = [_chip_renamed(o, old, new) for o in side["chip_orders"]]
        for car in side.get("cars") or []:
            if isinstance(car, dict) and isinstance(car.get("riders"), list):
                car["riders"] = [new if r == old else r for r in car["riders"]]
    for trig in out.get("triggers") or []:
        if not isinstance(trig, dict):
            continue
        when = trig.get("when")
        if isinstance(when, dict) and when.get("falls") == old:
            when["falls"] = new
        for effect in trig.get("then") or []:
            ai = effect.get("ai") if isinstance(effect, dict) else None
            if isinstance(ai, dict) and isinstance(ai.get("orders"), list):
                ai["orders"] = [f"{o.split(' ', 1)[0]} {new}" if isinstance(o, str) and o.split(" ", 1)[0] in (
                    "protect", "kill") and o.split(" ", 1)[-1].strip() == old else o for o in ai["orders"]]
    return out


def _order_renamed(text: Any, old: str, new: str) -> Any:
    """A scripted order (`VERB UNIT [key=value | positional]…`) with the words naming `old` made `new`."""
    if not isinstance(text, str):
        return text
    try:
        words = shlex.split(text)
    except ValueError:
        return text

    def value(v: str) -> str:
        if v == old:
            return new
        if ":" in v and v.split(":", 1)[1] == old:  # a wait's trigger: acts:NAME, preempt:NAME
            return f"{v.split(':', 1)[0]}:{new}"
        if "," in v and old in v.split(","):  # a split burst's also=A,B
            return ",".join(new if p == old else p for p in v.split(","))
        return v

    out = words[:1] + [(f"{w.split('=', 1)[0]}={value(w.split('=', 1)[1])}" if "=" in w else value(w))
                       for w in words[1:]]
    return shlex.join(out) if out != words else text


def _chip_renamed(text: Any, old: str, new: str) -> Any:
    """A chip order (`UNIT check COLOUR USE`, `UNIT wounds COLOUR…`; the unit's name may hold spaces) for `old`,
    made `new`'s."""
    if not isinstance(text, str):
        return text
    from skirmish.rulesets.fi import parse_chip_order

    try:
        unit = parse_chip_order(text)[0]
    except ValueError:
        return text
    if unit != old:
        return text
    words = text.split()
    return " ".join([new, *words[len(old.split()):]])
