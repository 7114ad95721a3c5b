"""Future*World's content: the shipped equipment tables (skirmish/data/fw_equipment.yaml), loaded once and
checked (R-9.12, C-6: a bad entry names the file and the key path). The scenario schema's fw parts come here
with issue 13's ruleset binding."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from importlib import resources
from typing import Any, TypeVar

import yaml

from skirmish.content.errors import ContentError
from skirmish.rules.fw.equipment import FwArmoury, number, parse_armour, parse_grav_car, parse_item, parse_weapon

DATA_FILE = "fw_equipment.yaml"
SECTIONS = ("weapons", "armour", "equipment", "grav_cars")
T = TypeVar("T")


def parse_fw_armoury(raw: Any, file: str) -> FwArmoury:
    """Build the tables from parsed YAML, naming the bad key on error."""
    if not isinstance(raw, dict):
        raise ContentError(file, "", "expected a mapping with " + ", ".join(SECTIONS))
    extra = sorted(set(map(str, raw)) - set(SECTIONS) - {"hover_m", "max_slope_deg"})
    if extra:
        raise ContentError(file, extra[0], "unknown section (expected " + ", ".join(SECTIONS) + ", hover_m, max_slope_deg)")
    for section in SECTIONS:
        if not isinstance(raw.get(section), dict):
            raise ContentError(file, section, "expected a mapping of id -> entry")
    try:
        hover = number(raw.get("hover_m", 10), "hover_m", hi=1000)
        slope = number(raw.get("max_slope_deg", 45), "max_slope_deg", hi=90)
    except ValueError as exc:
        raise ContentError(file, str(exc).split(":")[0], str(exc).split(": ", 1)[1]) from None
    return FwArmoury(
        weapons=_rows(raw["weapons"], "weapons", file, parse_weapon),
        armour=_rows(raw["armour"], "armour", file, parse_armour),
        equipment=_rows(raw["equipment"], "equipment", file, parse_item),
        grav_cars=_rows(raw["grav_cars"], "grav_cars", file, parse_grav_car),
        hover_m=hover, max_slope_deg=slope,
    )


def _rows(section: dict[Any, Any], name: str, file: str, parse: Callable[[str, Any], T]) -> dict[str, T]:
    out = {}
    for key, row in section.items():
        try:
            out[str(key)] = parse(str(key), row)
        except (KeyError, ValueError, TypeError) as exc:
            why = f"missing field {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)
            raise ContentError(file, f"{name}.{key}", why) from None
    return out


@lru_cache(maxsize=1)
def shipped() -> FwArmoury:
    """The Future*World equipment shipped with skirmish."""
    text = resources.files("skirmish.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return parse_fw_armoury(yaml.safe_load(text), f"skirmish/data/{DATA_FILE}")
