"""Seeded fuzzing of the martial arts loaders through the real CLI (C-6, R-7.7): the shipped
fi_martial_arts.yaml and a scenario whose units carry disciplines and per-level choices, damaged byte by byte
and value by value, meet the loaders' contract (tests/test_fuzz_loaders.py: exit 0 or 2, every line naming
the file, never a traceback); and any value at any key path of the choices is refused or accepted the same way."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.content.fi import ARTS_FILE
from tests.conftest import ascii_scenario
from tests.test_fuzz_loaders import assert_contract, byte_damage, dump_yaml, json_values, paths, value_damage

ROOT = Path(__file__).resolve().parents[1]
DATA = (ROOT / "skirmish" / "data" / ARTS_FILE).read_bytes()
UNIT = ("{name: %s, at: [%d, 1], traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, "
        "acuity: II-2}, skills: {%s}, martial_arts: %s}")
SCENARIO = ascii_scenario(
    ["........", "........", "........"],
    "[" + UNIT % ("Kayla", 1, '"Martial Arts:TU Space Marine Fighting": 2',
                     "{sm_fighting: [basic, {techniques: [knee_strike, chop], dice: {strike_short: 1, "
                     "strike_medium: 1, strike_low: 1}}]}") + "]",
    "[" + UNIT % ("Li", 6, '"Martial Arts:Kung Fu": 1',
                     "{kung_fu: [{dice: {strike_medium: 2, strike_short: 2}, extras: {strike_medium: 1}}]}") + "]")
SEED = 20261123


def test_the_carrier_is_good(tmp_path: Path) -> None:
    p = tmp_path / "s.yaml"
    p.write_text(SCENARIO, encoding="utf-8")
    assert assert_contract(p, "carrier") == 0


def test_fuzz_martial_arts_files_through_the_cli(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    sources = [("arts.yaml", DATA), ("s.yaml", SCENARIO.encode())]
    outcomes = {0: 0, 2: 0}
    for i in range(160):
        name, data = sources[i % 2]
        if rng.random() < 0.4:
            kind, damaged = byte_damage(rng, data)
        else:
            kind, doc = value_damage(rng, yaml.safe_load(data))
            damaged = dump_yaml(doc)
        p = tmp_path / f"c{i}" / name
        p.parent.mkdir()
        p.write_bytes(damaged)
        outcomes[assert_contract(p, f"#{i} {name}: {kind}")] += 1
    assert outcomes[2] > 60 and outcomes[0] > 10, outcomes


CHOICES = yaml.safe_load(SCENARIO)["sides"][0]["units"][0]["martial_arts"]
CHOICE_PATHS = list(paths(CHOICES))


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(index=st.integers(min_value=0), value=json_values)
def test_any_value_in_the_choices(tmp_path_factory: pytest.TempPathFactory, index: int, value: Any) -> None:
    doc = yaml.safe_load(SCENARIO)
    choices = json.loads(json.dumps(CHOICES))
    loc = CHOICE_PATHS[index % len(CHOICE_PATHS)]
    parent = choices
    for part in loc[:-1]:
        parent = parent[part]
    parent[loc[-1]] = value
    doc["sides"][0]["units"][0]["martial_arts"] = choices
    p = tmp_path_factory.mktemp("arts") / "s.yaml"
    p.write_bytes(yaml.safe_dump(doc, allow_unicode=True).encode("utf-8", "surrogatepass"))
    assert_contract(p, f"{loc} = {value!r:.60}")
