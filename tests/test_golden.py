"""Golden check (issue 11): the shipped scenarios, seeds 1-5, hold and utility on both sides, play the same
events byte for byte as the recorded logs in tests/data/golden (tools/golden.py records them). The even seeds play
with the maps' sight worked out as the battles ask for it, the odd ones read it from the shipped bakes
(skirmish.content.sight_bakes): the logs hold both ways to the same events."""

from __future__ import annotations

import gzip
from contextlib import nullcontext

import pytest

from skirmish.content.sight_bakes import bakes_off
from tools.golden import cases, first_difference, golden_file, play


@pytest.mark.parametrize("case", list(cases()), ids=lambda c: f"{c[0].stem}-{c[1]}-s{c[2]}")
def test_events_match_the_golden_log(case: tuple) -> None:
    path, ai, seed = case
    f = golden_file(path, ai, seed)
    assert f.exists(), f"{f.name} missing: run python tools/golden.py record"
    with bakes_off() if seed % 2 == 0 else nullcontext():
        got = play(path, ai, seed)
    diff = first_difference(gzip.decompress(f.read_bytes()).decode("utf-8"), got)
    assert diff is None, f"{f.name}: {diff}"


def test_first_difference_names_the_event() -> None:
    assert first_difference("a\nb\n", "a\nb\n") is None
    assert "event 2 differs" in (first_difference("a\nb\n", "a\nc\n") or "")
    assert "in length" in (first_difference("a\n", "a\nb\n") or "")


def test_help_and_bad_words_write_nothing(tmp_path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    """`record --help` once re-recorded all 50 logs; help and unknown words must leave the logs alone."""
    import tools.golden as golden

    monkeypatch.setattr(golden, "GOLDEN", tmp_path)
    monkeypatch.setattr(golden, "play", lambda *a, **k: pytest.fail("a log was played"))
    (tmp_path / "keep.jsonl.gz").write_bytes(b"x")
    assert golden.main(["record", "--help"]) == 0
    assert golden.main(["record", "-n"]) == 2
    assert golden.main(["record", "no_such_scenario"]) == 2
    assert "unknown scenario no_such_scenario" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["keep.jsonl.gz"]
