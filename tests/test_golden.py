"""Golden check (issue 11): the shipped scenarios, seeds 1-5, hold and utility on both sides, play the same
events byte for byte as the recorded logs in tests/data/golden (tools/golden.py records them)."""

from __future__ import annotations

import gzip

import pytest

from tools.golden import cases, first_difference, golden_file, play


@pytest.mark.parametrize("case", list(cases()), ids=lambda c: f"{c[0].stem}-{c[1]}-s{c[2]}")
def test_events_match_the_golden_log(case: tuple) -> None:
    path, ai, seed = case
    f = golden_file(path, ai, seed)
    assert f.exists(), f"{f.name} missing: run python tools/golden.py record"
    diff = first_difference(gzip.decompress(f.read_bytes()).decode("utf-8"), play(path, ai, seed))
    assert diff is None, f"{f.name}: {diff}"


def test_first_difference_names_the_event() -> None:
    assert first_difference("a\nb\n", "a\nb\n") is None
    assert "event 2 differs" in (first_difference("a\nb\n", "a\nc\n") or "")
    assert "in length" in (first_difference("a\n", "a\nb\n") or "")
