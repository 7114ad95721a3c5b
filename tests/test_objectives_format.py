"""Issue 15 item 1: the format of zones, objectives, triggers and deployment (docs/FILES.md): zones as cells,
Tiled object layers, every reference checked on load with the key path (C-6), exit 2 from `check`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from skirmish.content.scenario import check_text, parse_scenario

T = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"
ROOT = Path(__file__).resolve().parents[1]


def scenario(extra: str = "", blue: str = "", red: str = "", rows: str = "['......', '......', '......']",
             map_ref: str | None = None) -> str:
    return (f"name: t\nmap: {map_ref or '{ascii: ' + rows + '}'}\n{extra}sides:\n"
            f"  - name: Blue\n    controller: scripted\n{blue}    units: [{{name: B1, at: [0, 0], traits: {T}}}, "
            f"{{name: B2, at: [0, 1], traits: {T}}}]\n"
            f"  - name: Red\n    controller: scripted\n{red}    units: [{{name: R1, at: [5, 2], traits: {T}}}]\n")


def errors(text: str, tmp_path: Path | None = None) -> list[str]:
    sc, errs = check_text(text, "t.yaml", base=tmp_path)
    assert sc is None
    return [e.text for e in errs]


def test_zones_as_cells_rect_and_polygon() -> None:
    sc = parse_scenario(scenario("zones:\n  relay: {rect: [1, 0, 2, 1]}\n  tri: {polygon: [[0, 0], [3, 0], [0, 3]]}\n"
                                 "  edge: {rect: [4, 1, 9, 9]}\n"), "t.yaml")
    assert sc.zones["relay"] == ((1, 0), (2, 0), (1, 1), (2, 1))
    # centres inside x + y < 3: (0.5,0.5) (1.5,0.5) (0.5,1.5) yes; (2.5,0.5) no; (1.5, 1.5) no
    assert sc.zones["tri"] == ((0, 0), (1, 0), (0, 1))
    assert sc.zones["edge"] == ((4, 1), (5, 1), (4, 2), (5, 2))  # cells off the map dropped


def test_objectives_triggers_deployment_load() -> None:
    blue = ("    deployment: west\n    objectives:\n      - {kind: hold, zone: relay, rounds: 2, points: 3}\n"
            "      - {kind: kill, unit: R1, wins: true}\n")
    red = "    objectives:\n      - {kind: survive, rounds: 3, name: last}\n"
    extra = ("zones:\n  relay: {rect: [2, 0, 3, 2]}\n  west: {rect: [0, 0, 1, 2]}\n  north: {rect: [4, 0, 5, 0]}\n"
             "triggers:\n  - when: {objective: Blue:hold}\n    then: [{message: held}, {end: {winner: Blue}}]\n"
             f"  - when: {{round: 2}}\n    then: [{{reinforce: {{side: Red, zone: north, units: [{{name: R2, at: [4, 0], "
             f"traits: {T}}}]}}}}]\n"
             "  - when: {enters: relay, side: Blue}\n    once: false\n    then: [{ai: {side: Red, orders: [hold relay]}}]\n")
    sc = parse_scenario(scenario(extra, blue, red), "t.yaml")
    assert [o.kind for o in sc.spec.sides[0].objectives] == ["hold", "kill"]
    assert sc.spec.triggers[1].then[0].reinforce is not None
    assert sc.spec.triggers[1].then[0].reinforce.units[0].name == "R2"
    assert sc.spec.triggers[2].once is False


@pytest.mark.parametrize(("extra", "blue", "want"), [
    ("zones:\n  z: {rect: [2, 2, 1, 1]}\n", "", "t.yaml: zones.z: rect: expected x0 <= x1 and y0 <= y1"),
    ("zones:\n  z: {rect: [0, 0, 1, 1], polygon: [[0, 0], [1, 0], [1, 1]]}\n", "",
     "t.yaml: zones.z: a zone takes exactly one of rect, polygon; got rect, polygon"),
    ("zones:\n  z: {rect: [20, 20, 21, 21]}\n", "", "t.yaml: zones.z: zone 'z' holds no cell of the map (6x3)"),
    ("", "    deployment: nowhere\n", "t.yaml: sides[0].deployment: unknown zone 'nowhere'; zones: none"),
    ("zones:\n  z: {rect: [0, 0, 0, 0]}\n", "    deployment: z\n",
     "t.yaml: sides[0].deployment: zone 'z' has 1 cells to stand on for 2 units"),
    ("", "    objectives: [{kind: hold}]\n", "t.yaml: sides[0].objectives[0]: a hold objective needs a `zone`"),
    ("", "    objectives: [{kind: protect}]\n", "t.yaml: sides[0].objectives[0]: a protect objective needs a `unit`"),
    ("", "    objectives: [{kind: survive}]\n", "t.yaml: sides[0].objectives[0]: a survive objective needs `rounds`"),
    ("", "    objectives: [{kind: hold, zone: z}]\n", "t.yaml: sides[0].objectives[0].zone: unknown zone 'z'"),
    ("", "    objectives: [{kind: kill, unit: B2}]\n",
     "t.yaml: sides[0].objectives[0].unit: 'B2' is on side 'Blue': kill an enemy"),
    ("", "    objectives: [{kind: protect, unit: R1}]\n", "t.yaml: sides[0].objectives[0].unit: 'R1' is not on side"),
    ("", "    objectives: [{kind: kill, unit: Nobody}]\n", "t.yaml: sides[0].objectives[0].unit: unknown unit 'Nobody'"),
    ("", "    objectives: [{kind: eliminate}, {kind: eliminate, name: 'Blue:eliminate'}]\n",
     "t.yaml: sides[0].objectives[1].name: duplicate objective name 'Blue:eliminate' (also sides[0].objectives[0])"),
    ("triggers:\n  - when: {round: 2, falls: B1}\n    then: [{message: x}]\n", "",
     "t.yaml: triggers[0].when: `when` takes exactly one of round, enters, leaves, falls, casualties, objective; "
     "got round, falls"),
    ("triggers:\n  - when: {falls: Ghost}\n    then: [{message: x}]\n", "", "t.yaml: triggers[0].when.falls: unknown unit"),
    ("triggers:\n  - when: {enters: z}\n    then: [{message: x}]\n", "", "t.yaml: triggers[0].when.enters: unknown zone 'z'"),
    ("zones: {z: {rect: [0, 0, 1, 1]}}\ntriggers:\n  - when: {enters: z, side: Green}\n    then: [{message: x}]\n", "",
     "t.yaml: triggers[0].when.side: unknown side 'Green'; sides: 'Blue', 'Red'"),
    ("triggers:\n  - when: {falls: B1, side: Red}\n    then: [{message: x}]\n", "",
     "t.yaml: triggers[0].when: `side` goes with enters or leaves"),
    ("triggers:\n  - when: {casualties: {side: Green, at_least: 1}}\n    then: [{message: x}]\n", "",
     "t.yaml: triggers[0].when.casualties.side: unknown side 'Green'"),
    ("triggers:\n  - when: {objective: Blue:hold}\n    then: [{message: x}]\n", "",
     "t.yaml: triggers[0].when.objective: unknown objective 'Blue:hold'; objectives: none"),
    ("triggers:\n  - when: {round: 2}\n    then: [{message: x, end: {winner: Blue}}]\n", "",
     "t.yaml: triggers[0].then[0]: an effect takes exactly one of reinforce, message, ai, door, end; got message, end"),
    ("triggers:\n  - when: {round: 2}\n    then: [{end: {winner: Purple}}]\n", "",
     "t.yaml: triggers[0].then[0].end.winner: unknown side 'Purple'"),
    ("triggers:\n  - when: {round: 2}\n    then: [{door: {zone: gate, open: true}}]\n", "",
     "t.yaml: triggers[0].then[0].door.zone: unknown zone 'gate'"),
    ("triggers:\n  - when: {round: 2}\n    then: [{ai: {side: Red, orders: [dance]}}]\n", "",
     "t.yaml: triggers[0].then[0].ai: order 'dance': expected hold, reach, protect, kill, attack"),
    ("triggers:\n  - when: {round: 2}\n    then: [{ai: {side: Red, orders: [kill Ghost]}}]\n", "",
     "t.yaml: triggers[0].then[0].ai.orders[0]: unknown unit 'Ghost'"),
    ("zones: {n: {rect: [4, 0, 4, 0]}}\ntriggers:\n  - when: {round: 2}\n    then: [{reinforce: {side: Red, zone: n, "
     f"units: [{{name: B1, at: [4, 0], traits: {T}}}]}}}}]\n", "",
     "t.yaml: triggers[0].then[0].reinforce.units[0].name: duplicate unit name 'B1'"),
    ("zones: {n: {rect: [4, 0, 4, 0]}}\ntriggers:\n  - when: {round: 2}\n    then: [{reinforce: {side: Red, zone: n, "
     f"units: [{{name: X1, at: [4, 0], traits: {T}}}, {{name: X2, at: [4, 0], traits: {T}}}]}}}}]\n", "",
     "t.yaml: triggers[0].then[0].reinforce.zone: zone 'n' has 1 cells to stand on for 2 units"),
    ("triggers:\n  - when: {round: 2}\n    then: [{reinforce: {side: Red, zone: n, units: [{name: X1, at: [4, 0], "
     "traits: {strength: III-2}}]}}]\n", "", "t.yaml: triggers[0].then[0].reinforce.units[0].traits: missing trait"),
])
def test_bad_references_name_the_key(extra: str, blue: str, want: str) -> None:
    got = errors(scenario(extra, blue))
    assert any(e.startswith(want) for e in got), got


def tmj(tmp_path: Path, objects: list[dict[str, object]]) -> Path:
    from skirmish.content.tiled import to_tmj
    from skirmish.rules.geometry import GridMap  # noqa: F401
    sc = parse_scenario(scenario(), "t.yaml")
    doc = to_tmj(sc.grid, str(ROOT / "maps" / "terrain.tsj"))
    doc["layers"].append({"id": 2, "name": "zones", "type": "objectgroup", "objects": objects})
    path = tmp_path / "m.tmj"
    path.write_text(json.dumps(doc))
    return path


def test_tiled_object_layer_zones(tmp_path: Path) -> None:
    tmj(tmp_path, [{"id": 1, "name": "relay", "x": 32, "y": 0, "width": 64, "height": 64},
                   {"id": 2, "name": "tri", "x": 0, "y": 0, "polygon": [{"x": 0, "y": 0}, {"x": 96, "y": 0},
                                                                         {"x": 0, "y": 96}]},
                   {"id": 3, "name": "", "x": 0, "y": 0, "width": 32, "height": 32},
                   {"id": 4, "name": "spot", "x": 10, "y": 10, "point": True}])
    sc = parse_scenario(scenario("zones: {own: {rect: [5, 0, 5, 0]}}\n", map_ref="m.tmj"), "t.yaml", base=tmp_path)
    assert sc.zones == {"relay": ((1, 0), (2, 0), (1, 1), (2, 1)), "tri": ((0, 0), (1, 0), (0, 1)),
                        "own": ((5, 0),)}


def test_a_zone_in_map_and_file_is_refused(tmp_path: Path) -> None:
    tmj(tmp_path, [{"id": 1, "name": "relay", "x": 32, "y": 0, "width": 64, "height": 64}])
    got = errors(scenario("zones: {relay: {rect: [5, 0, 5, 0]}}\n", map_ref="m.tmj"), tmp_path)
    assert got == ["t.yaml: zones.relay: zone 'relay' is also an object of the map's object layer; rename one"]


def test_check_exits_2_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(scenario("", "    objectives: [{kind: hold, zone: relay}]\n"))
    run = subprocess.run([sys.executable, "-m", "skirmish", "check", str(path)], capture_output=True, text=True,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2
    assert "sides[0].objectives[0].zone: unknown zone 'relay'" in run.stdout + run.stderr
    assert "Traceback" not in run.stderr
