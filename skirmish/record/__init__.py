"""Battle records (ARCHITECTURE §5, docs/RECORDS.md): save a battle at any point, replay it, verify it, resume it.

A record holds the scenario text and every file it names (embedded, with their sha256), the ruleset, options and
seed, every answer given to the battle in order (refused ones too, with the AI's reasons) and a state hash after
every round. With the engine's determinism (C-5) that is the whole battle: replaying feeds the recorded answers
to a fresh `Battle` (no AI is asked), and each round's `Battle.state_hash()` must equal the recorded one, so a
changed record or a changed engine is caught at the first round that differs (C-6: one line, exit 2).

The package: `model` (what a record holds, and capturing the scenario's files), `file` (making, writing, reading
and checking the JSON file: record_of, to_text, save, parse, load) and `play` (the scenario rebuilt from the
record alone, and replaying it: scenario_of, resume, replay, advance). Every name is importable from here.
"""

from __future__ import annotations

from skirmish.record.file import (
    FORMAT,
    MAX_ACTION_TEXT,
    MAX_JSON_DEPTH,
    MAX_JSON_NODES,
    RECORD_FILE_LIMIT,
    VERSION,
    load,
    parse,
    record_of,
    save,
    to_text,
)
from skirmish.record.model import (
    ROLES,
    Checkpoint,
    Record,
    Role,
    SourceFile,
    Sources,
    capture,
    controller_labels,
    sha256_text,
)
from skirmish.record.play import DRIFT, advance, replay, resume, scenario_of

__all__ = [
    "DRIFT", "FORMAT", "MAX_ACTION_TEXT", "MAX_JSON_DEPTH", "MAX_JSON_NODES", "RECORD_FILE_LIMIT", "ROLES", "VERSION",
    "Checkpoint", "Record", "Role", "SourceFile", "Sources", "advance", "capture", "controller_labels", "load",
    "parse", "record_of", "replay", "resume", "save", "scenario_of", "sha256_text", "to_text",
]
