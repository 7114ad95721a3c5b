"""Shared helpers: stacked cards built from deck A with the fields a worked example prints."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from skirmish.rules.deck import COLUMNS, Card, Entry, builtin

ROOT = Path(__file__).resolve().parents[1]


def make_card(number: int, *, upper: dict[tuple[str, int], Any] | None = None,
              lower: dict[tuple[str, int], int] | None = None, **fields: Any) -> Card:
    """Deck A's card `number` with some entries replaced. Upper values: int, 'CF' or (int, explodes)."""
    base = builtin("A")[number - 1]
    up = {c: list(base.upper[c]) for c in COLUMNS}
    # Never chain unexpectedly: clear every exploding mark unless the example sets one.
    for c in COLUMNS:
        up[c] = [Entry(e.value, False, e.cf) for e in up[c]]
    for (col, row), v in (upper or {}).items():
        if v == "CF":
            up[col][row - 1] = Entry(0, False, True)
        elif isinstance(v, tuple):
            up[col][row - 1] = Entry(v[0], v[1])
        else:
            up[col][row - 1] = Entry(int(v), False)
    low = {c: list(base.lower[c]) for c in COLUMNS}
    for (col, row), v in (lower or {}).items():
        low[col][row - 1] = v
    fields.setdefault("extra_damage", False)
    fields.setdefault("breakdown", None)
    fields.setdefault("special", None)
    fields.setdefault("shuffle", False)
    return dataclasses.replace(
        base, upper={c: tuple(up[c]) for c in COLUMNS}, lower={c: tuple(low[c]) for c in COLUMNS}, **fields
    )


def write_deck(path: Path, cards: list[Card]) -> Path:
    """Write cards in draw order as C-2 JSON."""
    path.write_text(json.dumps([c.to_json() for c in cards]), encoding="utf-8")
    return path


@pytest.fixture
def root() -> Path:
    """The repository root."""
    return ROOT
