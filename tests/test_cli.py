"""The CLI contracts: C-1 summary line, C-2 deck JSON, C-6 bad input exits 2 naming file and key."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run

ROOT = Path(__file__).resolve().parents[1]



def test_run_default_prints_log_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["run", "--seed", "5"], capsys)
    assert code == 0
    assert out.strip().splitlines()[-1].startswith("result: winner=")
    assert out.strip().splitlines()[-1].endswith("seed=5")
    assert "Reflex" in out and "[R-5.1, R-5.2]" in out


def test_run_json_and_events_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events = tmp_path / "ev.jsonl"
    code, out, _ = run(["run", str(ROOT / "scenarios/killhouse_drill.yaml"), "--json", "--events", str(events)],
                       capsys)
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["type"] == "battle_start" and lines[-1]["type"] == "result"
    assert events.read_text().splitlines() == out.splitlines()


def test_deck_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["deck", "--name", "B", "--json"], capsys)
    cards = json.loads(out)
    assert code == 0 and len(cards) == 54
    c = cards[0]
    assert set(c) >= {"number", "impulse", "step", "fragment", "toggle", "special", "shuffle", "upper",
                      "hit_locations", "burst", "extra_damage", "ablation", "breakdown", "clock", "scatter",
                      "unintended", "lower"}
    assert set(c["burst"]) == {"3", "5", "10"} and len(c["lower"]["VI"]) == 7


def test_deck_stats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["deck", "--stats"], capsys)
    assert code == 0 and "model" in out and out.count("upper") == 30


GOOD = (ROOT / "scenarios/killhouse_drill.yaml").read_text()


@pytest.mark.parametrize(
    ("mutate", "expect"),
    [
        (lambda t: t.replace("name: Killhouse drill", "name: [unclosed"), "not valid YAML"),
        (lambda t: t.replace("weapons: [blast_pistol]", "weapons: [lasrifle]"),
         "sides[0].units[0].weapons[0]: unknown weapon 'lasrifle'"),
        (lambda t: t.replace("at: [3, 1]", "at: [0, 0]"), "sides[0].units[0].at: cell 0,0 is wall"),
        (lambda t: t.replace("at: [3, 1]", "at: [30, 1]"), "sides[0].units[0].at: cell 30,1 is off the map"),
        (lambda t: t.replace("victory: {eliminate: true, max_rounds: 25}", "victory: {eliminate: true, rounds: 3}"),
         "victory.rounds: unknown key"),
    ],
    ids=["broken-yaml", "unknown-weapon", "unit-on-wall", "off-map", "unknown-key"],
)
def test_bad_scenarios_exit_2(mutate, expect: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(mutate(GOOD))
    out_file = tmp_path / "never.jsonl"
    code, _, err = run(["run", str(bad), "--events", str(out_file)], capsys)
    assert code == 2
    assert str(bad) in err and expect in err
    assert "Traceback" not in err
    assert not out_file.exists()


def test_unreadable_map_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.tmj").write_text("{ not json")
    bad = tmp_path / "s.yaml"
    bad.write_text(GOOD.split("map:")[0] + "map: broken.tmj\n" + "sides:" + GOOD.split("sides:")[1])
    code, _, err = run(["check", str(bad)], capsys)
    assert code == 2 and "map: broken.tmj" in err and "not valid JSON" in err


def test_bad_deck_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "deck.json").write_text('[{"number": 1}]')
    bad = tmp_path / "s.yaml"
    bad.write_text(GOOD.replace("victory:", "deck: {cards: deck.json}\nvictory:"))
    code, _, err = run(["check", str(bad)], capsys)
    assert code == 2 and "deck.cards: deck.json: [0].impulse: required key is missing" in err


def test_run_py_without_display_plays_headless() -> None:
    env = {"SDL_VIDEODRIVER": "dummy", "PATH": "/usr/bin:/bin"}
    import os

    env = {**os.environ, **env}
    env.pop("DISPLAY", None)
    p = subprocess.run([sys.executable, str(ROOT / "run.py")], capture_output=True, text=True, env=env,
                       timeout=120, cwd=ROOT)
    assert p.returncode == 0
    assert "no display" in p.stderr
    assert p.stdout.strip().splitlines()[-1].startswith("result: winner=")


def test_run_ai_override_and_decision_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """`--ai SIDE=AI` swaps a side's AI for one run; the utility side explains itself, the other does not."""
    killhouse = str(ROOT / "scenarios/killhouse_drill.yaml")
    code, out, _ = run(["run", killhouse, "--seed", "2", "--ai", "Red=hold", "--ai", "Blue=utility:hard"], capsys)
    assert code == 0
    decides = [line for line in out.splitlines() if " decides: " in line]
    assert decides and all(" Blue-" in line for line in decides)
    assert any("(over " in line for line in decides)
    for bad, expect in ((["--ai", "Green=utility"], "SIDE one of Blue, Red"), (["--ai", "Red=genius"], "Red=genius"),
                        (["--ai", "Red"], "expected SIDE=AI")):
        code, _, err = run(["run", killhouse, *bad], capsys)
        assert code == 2 and expect in err and "Traceback" not in err


def test_bench_reports_cpu_time_beside_wall_time(capsys: pytest.CaptureFixture[str]) -> None:
    scenario = str(Path(__file__).resolve().parents[1] / "scenarios" / "killhouse_drill.yaml")
    code, out, _ = run(["bench", scenario, "--battles", "2", "--repeat", "1"], capsys)
    first = out.splitlines()[0]
    assert code == 0 and "ms wall" in first and "ms CPU" in first and "battles/s CPU" in first


def test_check_with_no_files_checks_every_shipped_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    """`skirmish check` alone: the top-level scenarios, the Future Imperfect variants and Future*World's, each ok."""
    code, out, _ = run(["check"], capsys)
    checked = {Path(line.split(": ")[1]).relative_to(ROOT).as_posix() for line in out.splitlines()
               if line.startswith("ok: ") and "/scenarios/" in line}
    shipped = {p.relative_to(ROOT).as_posix() for d in ("scenarios", "scenarios/fi", "scenarios/fw", "scenarios/training")
               for p in (ROOT / d).glob("*.yaml")}
    assert code == 0 and shipped <= checked, sorted(shipped - checked)
