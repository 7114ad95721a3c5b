"""`skirmish sim`'s stable names and owned files (session 8's "noticed and left"; docs/SIM.md): battles.csv names a
shipped scenario by its path under the repo's scenarios/ and any other by its file name and a short hash of its
text, whatever folder the run starts from; a new result into an existing --out clears the heat maps of an earlier
run (sim's own files) and nothing else."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from skirmish.cli import main
from skirmish.content.scenario import SCENARIOS_DIR
from skirmish.sim.batch import read_rows

KILLHOUSE = SCENARIOS_DIR / "killhouse_drill.yaml"
CANAL = SCENARIOS_DIR / "canal_crossing.yaml"


def _sim(*args: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["sim", *args, "--battles", "1", "--workers", "1"])
    assert exc.value.code == 0


def test_the_file_column_is_the_same_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _sim(str(KILLHOUSE), "--out", str(tmp_path / "abs"))
    monkeypatch.chdir(SCENARIOS_DIR)
    _sim("killhouse_drill.yaml", "--out", str(tmp_path / "rel"))
    monkeypatch.chdir(tmp_path)
    _sim(os.path.relpath(KILLHOUSE, tmp_path), "--out", "up")
    csvs = [(tmp_path / d / "battles.csv").read_bytes() for d in ("abs", "rel", "up")]
    assert csvs[0] == csvs[1] == csvs[2]
    assert read_rows(tmp_path / "abs" / "battles.csv")[0]["file"] == "killhouse_drill.yaml"


def test_a_file_elsewhere_is_named_by_its_name_and_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = KILLHOUSE.read_text(encoding="utf-8")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "drill.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    _sim("a/drill.yaml", "--out", "out")
    short = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    assert read_rows(tmp_path / "out" / "battles.csv")[0]["file"] == f"drill.yaml#{short}"
    assert (tmp_path / "out" / "fallen-drill.png").is_file()


def test_a_new_result_clears_the_old_heat_maps_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    _sim(str(KILLHOUSE), str(CANAL), "--out", str(out))
    assert (out / "fallen-canal_crossing.png").is_file()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    (out / "fallen-notes.txt").write_text("mine too", encoding="utf-8")
    _sim(str(KILLHOUSE), "--out", str(out))
    names = sorted(p.name for p in out.iterdir())
    assert "fallen-canal_crossing.png" not in names  # an earlier run's heat map, gone with the result it drew
    assert "fallen-killhouse_drill.png" in names and "notes.txt" in names and "fallen-notes.txt" in names
