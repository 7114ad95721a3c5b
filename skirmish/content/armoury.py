"""The shipped equipment tables (skirmish/data), loaded once and checked (STYLE 10)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from skirmish.content.errors import ContentError
from skirmish.rules.equipment import Armoury, TacpackType, parse_armour, parse_melee_weapon, parse_weapon

DATA_FILE = "fi_equipment.yaml"


def parse_armoury(raw: dict[str, Any], file: str) -> Armoury:
    """Build the equipment tables from parsed YAML, naming the bad key on error."""
    weapons, armour, tacpacks = {}, {}, {}
    for section in ("weapons", "armour", "tacpacks"):
        if not isinstance(raw.get(section), dict):
            raise ContentError(file, section, "expected a mapping of id -> entry")
    for wid, row in raw["weapons"].items():
        try:
            weapons[wid] = parse_weapon(wid, row)
        except (KeyError, ValueError, TypeError) as exc:
            raise ContentError(file, f"weapons.{wid}", _why(exc)) from None
    for aid, row in raw["armour"].items():
        try:
            armour[aid] = parse_armour(aid, row)
        except (KeyError, ValueError, TypeError) as exc:
            raise ContentError(file, f"armour.{aid}", _why(exc)) from None
    for tid, row in raw["tacpacks"].items():
        try:
            tacpacks[tid] = TacpackType(tid, str(row.get("name", tid)), int(row["generator"]))
        except (KeyError, ValueError, TypeError) as exc:
            raise ContentError(file, f"tacpacks.{tid}", _why(exc)) from None
    melee = {}
    if not isinstance(raw.get("melee", {}), dict):
        raise ContentError(file, "melee", "expected a mapping of id -> entry")
    for mid, row in raw.get("melee", {}).items():
        try:
            if not isinstance(row, dict):
                raise ValueError("expected a mapping of column -> value")
            melee[mid] = parse_melee_weapon(str(mid), row)
        except (KeyError, ValueError, TypeError) as exc:
            raise ContentError(file, f"melee.{mid}", _why(exc)) from None
    return Armoury(weapons, armour, tacpacks, melee)


def _why(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)


@lru_cache(maxsize=1)
def shipped() -> Armoury:
    """The equipment shipped with skirmish."""
    text = resources.files("skirmish.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_armoury(yaml.safe_load(text), f"skirmish/data/{DATA_FILE}")
