"""The editor's inspector fields (no drawing here): which keys of the scenario, the selected side and the
selected unit are shown, how a value is written in its line (YAML's inline form) and read back, and the
equipment ids a loadout field offers from the ruleset's tables (fi_equipment.yaml, fw_equipment.yaml).

Every key of the ruleset's models is offered, so what a scenario file can say the editor can set; the
loader's check (shown live) says what is wrong with a value, naming its key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from skirmish.content.parts import PARTS, schema_parts

Keys = tuple[str | int, ...]
TEXT_KEYS = {"name", "description", "colour", "ai", "controller", "ruleset"}  # typed as text, not YAML
SCENARIO_KEYS = ("name", "description", "ruleset", "seed", "options", "victory", "deck")
MAP_KEYS = ("map name", "cell_m", "size")  # the map's own: its name, metres per cell, width x height
HIDDEN_UNIT = ("at",)  # set by placing and dragging on the map


@dataclass(frozen=True)
class Field:
    """One line of the inspector: its label, the key path it sets, whether it is plain text."""

    label: str
    keys: Keys
    text: bool = False


def rulesets() -> list[str]:
    """The rulesets a scenario may name."""
    return sorted(PARTS)


def scenario_fields() -> list[Field]:
    """The scenario's own lines (the map's are the editor's: MAP_KEYS)."""
    return [Field(k, (k,), k in TEXT_KEYS) for k in SCENARIO_KEYS] + [Field(k, ("@map", k)) for k in MAP_KEYS]


def side_fields(ruleset: str, side: int) -> list[Field]:
    """A side's lines, by its ruleset's side model (its units are edited on the map)."""
    keys = [k for k in schema_parts(_known(ruleset)).side.model_fields if k not in ("units", "objectives")]
    return [Field(k, ("sides", side, k), k in TEXT_KEYS) for k in keys]


def zone_fields(zones: dict[str, Any], first: str | None) -> list[Field]:
    """Two lines a zone (its name, typed to rename it; its area), the selected one first."""
    names = sorted(zones, key=lambda n: (n != first, list(zones).index(n)))
    out = []
    for name in names:
        out += [Field("zone", ("@zone", name), True), Field("  area", ("zones", name))]
    return out


NEW_TRIGGER = {"when": {"round": 2}, "then": [{"message": "round 2 begins"}]}
NEW_OBJECTIVE = {"kind": "eliminate"}


def unit_fields(ruleset: str, side: int, unit: int) -> list[Field]:
    """A unit's lines, by its ruleset's unit model (fw has no traits; fi no characteristics)."""
    keys = [k for k in schema_parts(_known(ruleset)).unit.model_fields if k not in HIDDEN_UNIT]
    if ruleset == "fw":
        keys = [k for k in keys if k not in ("traits", "size", "wounds")]
    return [Field(k, ("sides", side, "units", unit, k), k in TEXT_KEYS) for k in keys]


def unset_hint(ruleset: str, keys: Keys) -> str:
    """What an unset line shows: the options a ruleset offers (all at their defaults), else nothing."""
    if keys == ("options",):
        names = list(schema_parts(_known(ruleset)).options.model_fields)
        return "defaults; keys: " + ", ".join(names)
    return ""


def _known(ruleset: str) -> str:
    return ruleset if ruleset in PARTS else "fi"


def show(value: Any, text: bool = False) -> str:
    """A value as its inspector line: text as it is, anything else in YAML's inline form ("" for unset)."""
    if value is None:
        return ""
    if text and isinstance(value, str):
        return value
    out = yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True, sort_keys=False)
    return out.strip().removesuffix("...").strip()


def parse(line: str, text: bool = False) -> Any:
    """An inspector line read back: text as typed, else YAML (an empty line unsets the key). ValueError with
    YAML's reason when it does not parse."""
    if text:
        return line if line.strip() else None
    if not line.strip():
        return None
    try:
        return yaml.safe_load(line)
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise ValueError(f"not valid YAML: {problem}") from None


LOADOUT = ("weapons", "armour", "melee")


def choices(ruleset: str, key: str) -> list[tuple[str, str]]:
    """(id, name) of the equipment a loadout key takes, from the ruleset's tables; [] for other keys."""
    if key not in LOADOUT:
        return []
    if ruleset == "fw":
        from skirmish.rulesets.fw import tables as fw_tables

        fw = fw_tables()
        tables: dict[str, dict[str, Any]] = {"weapons": fw.weapons, "armour": fw.armour}
        table = tables.get(key, {})
    else:
        from skirmish.content.armoury import shipped

        a = shipped()
        fi_tables: dict[str, dict[str, Any]] = {"weapons": a.weapons, "armour": a.armour, "melee": a.melee}
        table = fi_tables[key]
    return [(str(k), str(getattr(v, "name", k))) for k, v in table.items()]


def with_item(value: Any, item: str) -> list[Any]:
    """A loadout list with `item` added at its end."""
    items = list(value) if isinstance(value, list) else []
    return [*items, item]
