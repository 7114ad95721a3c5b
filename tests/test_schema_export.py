"""Issue 15 item 1: `skirmish schema` exports the scenario format's JSON Schema (docs/FILES.md "JSON Schema for
editors"): every shipped scenario validates against it, a scenario with zones, objectives and triggers too, and
it refuses what the loader refuses in shape (both rect and polygon, an unknown objective kind, an fw unit in an
fi file)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml")
                 if isinstance(d := yaml.safe_load(p.read_text(encoding="utf-8")), dict) and "sides" in d)


def cli_schema(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skirmish", "schema", *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


@pytest.fixture(scope="module")
def validator() -> Any:
    run = cli_schema()
    assert run.returncode == 0, run.stderr
    schema = json.loads(run.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_there_are_shipped_scenarios_of_both_rulesets() -> None:
    kinds = {yaml.safe_load(p.read_text(encoding="utf-8")).get("ruleset", "fi") for p in SHIPPED}
    assert kinds == {"fi", "fw"} and len(SHIPPED) >= 10


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_scenario_validates(validator: Any, path: Path) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(
        yaml.safe_load(path.read_text(encoding="utf-8")))]
    assert errors == []


def relay() -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load((ROOT / "scenarios" / "depot_breach.yaml").read_text(encoding="utf-8"))
    doc["zones"] = {"relay": {"rect": [3, 1, 4, 2]}, "ridge": {"polygon": [[0, 0], [4, 0], [0, 4]]}}
    doc["sides"][0]["objectives"] = [{"kind": "hold", "zone": "relay", "rounds": 2, "points": 3},
                                     {"kind": "survive", "rounds": 4, "units": 2}]
    doc["sides"][0]["deployment"] = "ridge"
    unit = dict(doc["sides"][1]["units"][0], name="Late")
    doc["triggers"] = [{"name": "wave", "when": {"round": 2}, "then": [
        {"reinforce": {"side": doc["sides"][1]["name"], "zone": "relay", "units": [unit]}}, {"message": "wave"}]},
        {"when": {"enters": "relay", "side": doc["sides"][0]["name"]}, "once": False,
         "then": [{"ai": {"side": doc["sides"][1]["name"], "orders": ["hold relay"]}}]}]
    return doc


def test_zones_objectives_and_triggers_validate(validator: Any) -> None:
    assert list(validator.iter_errors(relay())) == []


@pytest.mark.parametrize("change", ["both", "kind", "when", "effect", "fw_unit", "unit_in_reinforce"])
def test_shapes_the_loader_refuses_are_refused(validator: Any, change: str) -> None:
    doc = relay()
    if change == "both":
        doc["zones"]["relay"]["polygon"] = [[0, 0], [1, 0], [1, 1]]
    elif change == "kind":
        doc["sides"][0]["objectives"][0]["kind"] = "capture"
    elif change == "when":
        doc["triggers"][0]["when"] = {"round": 2, "falls": "x"}
    elif change == "effect":
        doc["triggers"][0]["then"][1] = {"message": "x", "end": {"winner": "draw"}}
    elif change == "fw_unit":
        doc["sides"][0]["units"][0]["characteristics"] = {"STR": 10}
    else:
        doc["triggers"][0]["then"][0]["reinforce"]["units"][0]["jump_pack"] = True
    assert list(validator.iter_errors(doc)) != []


def test_one_ruleset_and_out_file(tmp_path: Path) -> None:
    out = tmp_path / "fw.schema.json"
    run = cli_schema("--ruleset", "fw", "--out", str(out))
    assert run.returncode == 0, run.stderr
    schema = json.loads(out.read_text(encoding="utf-8"))
    assert "Future*World" in schema["title"]
    fw = [p for p in SHIPPED if yaml.safe_load(p.read_text(encoding="utf-8")).get("ruleset") == "fw"]
    v = jsonschema.Draft202012Validator(schema)
    assert all(not list(v.iter_errors(yaml.safe_load(p.read_text(encoding="utf-8")))) for p in fw)
    fi = yaml.safe_load((ROOT / "scenarios" / "depot_breach.yaml").read_text(encoding="utf-8"))
    assert list(v.iter_errors(fi)) != []
    # descriptions for editors: the objective kinds are explained
    assert "hold" in schema["$defs"]["Objective"]["properties"]["kind"]["description"]


def test_bad_ruleset_exits_2() -> None:
    run = cli_schema("--ruleset", "nope")
    assert run.returncode == 2 and "--ruleset" in run.stderr and "Traceback" not in run.stderr
