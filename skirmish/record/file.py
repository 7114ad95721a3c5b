"""The battle record file (docs/RECORDS.md): a record made from a battle, written as JSON text whole or not
at all, and read back with every value checked, errors naming the file and the key path (C-6)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from skirmish import rulesets
from skirmish.battle import Answer, Battle, Request
from skirmish.content.errors import MIB, ContentError, check_tree, one_line, quote, read_text
from skirmish.content.limits import SCENARIO_FILE_LIMIT
from skirmish.core.events import check_fields
from skirmish.core.jsontypes import ShapeError
from skirmish.fileio import write_text
from skirmish.record.model import ROLES, Checkpoint, Record, SourceFile, Sources, capture
from skirmish.rules.actions import ActionParseError, parse_action

FORMAT = "skirmish-record"
VERSION = 1
RECORD_FILE_LIMIT = 64 * MIB  # like an event log: the AI traces are most of it
MAX_JSON_DEPTH = 16
MAX_JSON_NODES = 8_000_000  # a 100-round battle of 200 units with every trace stays below this
MAX_ACTION_TEXT = 1000


def _made_by() -> str:
    try:
        from importlib.metadata import version

        return f"skirmish {version('skirmish')}"
    except Exception:  # not installed (a source checkout on the path): informational only
        return "skirmish"


# ----------------------------------------------------------------------------------------------------------
# Making and writing a record.


def record_of(battle: Battle, sources: Sources, controllers: Mapping[str, str] | None = None) -> Record:
    """The record of `battle` as it stands now (finished or not): every answer given so far, the state hash
    of every finished round and of the present state."""
    if not battle.hashes:
        raise ValueError("a record needs the battle's round hashes: create it with Battle(..., hashes=True)")
    answers = tuple(battle.answers)
    for i, a in enumerate(answers):
        text = str(a.action)
        try:
            back = parse_action(text)
        except ActionParseError:
            back = None
        if back != a.action:  # a programming error: an action whose text form does not round-trip (STYLE 3)
            raise ValueError(f"answer {i}: {text!r} does not read back as the action given ({a.action!r})")
    spec = battle.scenario.spec
    counts = _round_ends(battle)
    rounds = tuple(Checkpoint(n + 1, counts[n], h) for n, h in enumerate(battle.round_hashes))
    labels = dict(controllers) if controllers is not None else {
        side: type(ctrl).__name__ for side, ctrl in battle.controllers.items()}
    return Record(
        label="", sources=sources, ruleset=spec.ruleset, options=spec.options.model_dump(), seed=battle.seed,
        controllers=labels, answers=answers, rounds=rounds,
        final=Checkpoint(0, len(answers), battle.state_hash()),
        result=battle.outcome.summary() if battle.outcome else None, made_by=_made_by(),
    )


def _round_ends(battle: Battle) -> list[int]:
    """How many answers had been given when each round ended: the answer that ends a round's last turn is the
    last answer of its round, so round n ends before the first answer of round n + 1 (or of none: the end)."""
    ends: list[int] = []
    for i, a in enumerate(battle.answers):
        while len(ends) < len(battle.round_hashes) and a.round > len(ends) + 1:
            ends.append(i)
    while len(ends) < len(battle.round_hashes):
        ends.append(len(battle.answers))
    return ends


def to_text(rec: Record) -> str:
    """The record as JSON text: one key a line, one answer a line (docs/RECORDS.md)."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def answer(a: Answer) -> dict[str, Any]:
        req = a.request
        out: dict[str, Any] = {"round": a.round, "phase": a.phase, "kind": req.kind, "unit": req.unit,
                               "side": req.side, "action": str(a.action)}
        if a.trace is not None:
            out["trace"] = a.trace
        if a.direct:
            out["direct"] = True
        return out

    files = []
    for f in rec.sources.files:
        entry: dict[str, Any] = {"role": f.role, "name": f.name}
        if f.map is not None:
            entry["map"] = f.map
        entry.update(sha256=f.sha256, text=f.text)
        files.append(entry)
    head: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "made_by": rec.made_by,
        "scenario": {"file": rec.sources.file, "sha256": rec.sources.sha256, "text": rec.sources.text},
        "ruleset": rec.ruleset, "options": rec.options, "seed": rec.seed, "controllers": rec.controllers,
        "result": rec.result,
        "final": {"answers": rec.final.answers, "state": rec.final.state},
    }
    lines = [f" {dump(k)}: {dump(v)}," for k, v in head.items()]
    lines.append(' "files": [' + ",".join("\n  " + dump(f) for f in files) + ("\n ]," if files else "],"))
    lines.append(' "rounds": [' + ",".join("\n  " + dump({"round": c.round, "answers": c.answers, "state": c.state})
                                          for c in rec.rounds) + ("\n ]," if rec.rounds else "],"))
    lines.append(' "answers": [' + ",".join("\n  " + dump(answer(a)) for a in rec.answers)
                 + ("\n ]" if rec.answers else "]"))
    return "{\n" + "\n".join(lines) + "\n}\n"


def save(battle: Battle, path: str | os.PathLike[str], sources: Sources | None = None,
         controllers: Mapping[str, str] | None = None) -> Record:
    """Write the record of `battle` as it stands (mid-round too) to `path`, whole or not at all (skirmish.fileio;
    OutputError names the path). `sources`: from `capture` when the battle was loaded (best: the files as they
    were played); by default the scenario file `battle.scenario.source` and its files are read now.
    `controllers`: who played each side, informational (default: the controllers' class names). Returns the
    record written."""
    if sources is None:
        sources = capture(battle.scenario, battle.scenario.source)
    rec = record_of(battle, sources, controllers)
    write_text(path, to_text(rec))
    return replace(rec, label=one_line(os.fspath(path)))


# ----------------------------------------------------------------------------------------------------------
# Reading a record: every value checked, errors naming the file and the key path (C-6).


class _Reader:
    """Typed access to a parsed record; each getter raises ContentError naming the key path."""

    def __init__(self, label: str) -> None:
        self.label = label

    def fail(self, where: str, message: str) -> ContentError:
        return ContentError(self.label, where, message)

    def obj(self, value: Any, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object with {', '.join(keys)}, got {quote(value)}")
        for k in keys:
            if k not in value:
                raise self.fail(f"{where}.{k}" if where else k, "required key is missing")
        for k in value:
            if k not in keys and k not in optional:
                raise self.fail(f"{where}.{k}" if where else k, "unknown key")
        return value

    def text(self, value: Any, where: str, limit: int | None = None, what: str = "text") -> str:
        if not isinstance(value, str) or (limit is not None and len(value) > limit):
            size = f" of at most {limit} characters" if limit is not None else ""
            raise self.fail(where, f"expected {what}{size}, got {quote(value)}")
        return value

    def integer(self, value: Any, where: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(where, f"expected an integer {lo}-{hi}, got {quote(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {quote(value)}")
        return value

    def sha(self, value: Any, where: str) -> str:
        text = self.text(value, where, 64, "a sha256 in hex")
        if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
            raise self.fail(where, f"expected a sha256 in hex (64 characters 0-9a-f), got {quote(text)}")
        return text


_TOP = ("format", "version", "scenario", "files", "ruleset", "options", "seed", "controllers", "answers", "rounds",
        "final", "result")


def parse(text: str, label: str) -> Record:
    """Read a record's JSON text; ContentError (one line naming `label` and the key path) if it is damaged."""
    r = _Reader(label)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise r.fail(f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise r.fail("", f"not valid JSON: nested deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError:
        raise r.fail("", "not valid JSON: a number with too many digits") from None
    _check_tree(raw, label)
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        got = raw.get("format") if isinstance(raw, dict) else raw
        raise r.fail("format" if isinstance(raw, dict) else "", f"expected a {FORMAT} file, got {quote(got)}")
    doc = r.obj(raw, "", _TOP, ("made_by",))
    version = r.integer(doc["version"], "version", 1, 1_000_000)
    if version != VERSION:
        raise r.fail("version", f"this skirmish reads version {VERSION} records, got version {version}")
    sc = r.obj(doc["scenario"], "scenario", ("file", "sha256", "text"))
    scenario_text = r.text(sc["text"], "scenario.text", SCENARIO_FILE_LIMIT)
    files = []
    for i, f in enumerate(r.array(doc["files"], "files")):
        where = f"files[{i}]"
        f = r.obj(f, where, ("role", "name", "sha256", "text"), ("map",))
        role = f["role"]
        if role not in ROLES:
            raise r.fail(f"{where}.role", f"expected one of {', '.join(ROLES)}, got {quote(role)}")
        name = r.text(f["name"], f"{where}.name", 255, "a file name")
        source = SourceFile(role, name, r.text(f["text"], f"{where}.text", RECORD_FILE_LIMIT),
                            r.text(f["map"], f"{where}.map", 255, "a file name") if "map" in f else None)
        if source.sha256 != r.sha(f["sha256"], f"{where}.sha256"):
            raise r.fail(f"{where}.sha256", f"the embedded {role} {quote(name)} does not match its sha256 (the "
                         "record was changed)")
        files.append(source)
    sources = Sources(r.text(sc["file"], "scenario.file", 4096, "a file name"), scenario_text, tuple(files))
    if sources.sha256 != r.sha(sc["sha256"], "scenario.sha256"):
        raise r.fail("scenario.sha256", "the scenario text does not match its sha256 (the record was changed)")
    options = doc["options"]
    if not isinstance(options, dict):
        raise r.fail("options", f"expected an object of options, got {quote(options)}")
    controllers = doc["controllers"]
    if not isinstance(controllers, dict) or not all(isinstance(v, str) for v in controllers.values()):
        raise r.fail("controllers", f"expected an object of side: controller text, got {quote(controllers)}")
    answers = tuple(_answer(r, a, i) for i, a in enumerate(r.array(doc["answers"], "answers")))
    rounds = []
    for i, c in enumerate(r.array(doc["rounds"], "rounds")):
        where = f"rounds[{i}]"
        c = r.obj(c, where, ("round", "answers", "state"))
        rounds.append(Checkpoint(r.integer(c["round"], f"{where}.round", i + 1, i + 1),
                                 r.integer(c["answers"], f"{where}.answers", 1, len(answers)),
                                 r.sha(c["state"], f"{where}.state")))
    final = r.obj(doc["final"], "final", ("answers", "state"))
    result = doc["result"]
    if result is not None:
        result = r.text(result, "result", 200, "the result line")
    return Record(
        label=label, sources=sources, ruleset=r.text(doc["ruleset"], "ruleset", 16, "a ruleset name"),
        options=options, seed=r.integer(doc["seed"], "seed", 0, 2**63 - 1), controllers=dict(controllers),
        answers=answers, rounds=tuple(rounds),
        final=Checkpoint(0, r.integer(final["answers"], "final.answers", len(answers), len(answers)),
                         r.sha(final["state"], "final.state")),
        result=result, made_by=str(doc.get("made_by", "")),
    )


def _check_tree(raw: Any, label: str) -> None:
    """Bounds (nesting, values) before anything walks the record. Only the embedded files' text may hold line
    breaks and tabs; no other text may hold a control character, a line or paragraph separator or a bidi mark,
    so nothing a trace or an answer holds can break or forge a line of the replayed log."""
    texts = {k: raw[k] for k in ("scenario", "files") if k in raw} if isinstance(raw, dict) else {}
    check_tree(texts, label, max_depth=MAX_JSON_DEPTH, max_nodes=MAX_JSON_NODES)
    rest = {k: v for k, v in raw.items() if k not in texts} if isinstance(raw, dict) else raw
    check_tree(rest, label, max_depth=MAX_JSON_DEPTH, max_nodes=MAX_JSON_NODES, one_line_text=True,
               limits_doc="docs/RECORDS.md")


def _answer(r: _Reader, raw: Any, i: int) -> Answer:
    where = f"answers[{i}]"
    a = r.obj(raw, where, ("round", "phase", "kind", "unit", "side", "action"), ("trace", "direct"))
    phase = a["phase"]
    if phase is not None:
        phase = r.integer(phase, f"{where}.phase", 1, 4)
    kind = a["kind"]
    kinds = {k for ruleset in rulesets.REGISTRY.values() for k in ruleset.request_kinds}
    if kind not in kinds:
        raise r.fail(f"{where}.kind", f"expected a request kind ({', '.join(sorted(kinds))}), got {quote(kind)}")
    text = r.text(a["action"], f"{where}.action", MAX_ACTION_TEXT, "an action")
    try:
        action = parse_action(text)
    except ActionParseError as exc:
        raise r.fail(f"{where}.action", str(exc)) from None
    trace = a.get("trace")
    if trace is not None and not isinstance(trace, dict):
        raise r.fail(f"{where}.trace", f"expected an object (the AI's reasons), got {quote(trace)}")
    if trace is not None:
        try:  # replayed, it becomes a `decision` event: it must have that event's fields and nothing else
            check_fields("decision", trace, f"{where}.trace")
        except ShapeError as exc:
            raise r.fail(exc.where, exc.message) from None
    direct = a.get("direct", False)
    if not isinstance(direct, bool):
        raise r.fail(f"{where}.direct", f"expected true or false, got {quote(direct)}")
    request = Request(kind, r.text(a["unit"], f"{where}.unit", 64, "a unit name"),
                      r.text(a["side"], f"{where}.side", 64, "a side name"))
    return Answer(request, action, trace, r.integer(a["round"], f"{where}.round", 1, 1_000_000), phase, direct)


def load(path: str | os.PathLike[str]) -> Record:
    """Read a record file with the loaders' bounds (a regular file of at most RECORD_FILE_LIMIT bytes, UTF-8,
    nesting and size checked); ContentError naming the file and the key path if it is damaged."""
    label = one_line(os.fspath(path))
    return parse(read_text(Path(path), label, RECORD_FILE_LIMIT), label)
