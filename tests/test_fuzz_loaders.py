"""Seeded fuzzing of every loader through the real CLI (C-6, issue 10): the shipped scenarios, maps, tileset
and a stacked deck, damaged byte by byte and value by value, are checked in-process. Each must exit 0 or 2;
on 2 every stderr line names the file (one line per error, nothing else), there is never a traceback, a
hang or a slow, memory-hungry case; `run` on a refused file prints exactly one line."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish.rules.deck import builtin
from tests.conftest import cli as run_cli

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
MAPS = sorted((ROOT / "maps").glob("*.tmj"))
TILESET = (ROOT / "maps/terrain.tsj").read_bytes()
DEPOT = (ROOT / "scenarios/depot_breach.yaml").read_text(encoding="utf-8")
CARRIER = DEPOT.replace("map: depot_yard.tmj", "map: yard.tmj\ndeck: {cards: deck.json, shuffle: false}")
DECK = json.dumps([c.to_json() for c in builtin("B")[:8]], indent=1).encode()
SEED = 20240610
PER_CASE_SECONDS = 30.0  # a hang, not a clock: one case reads in well under a second, but a shared machine at load 11 took 10 s



def deep_list(depth: int) -> Any:
    """[[[...[1]...]]] nested `depth` times."""
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


HUGE_FLOAT = "__1e400__"  # written into JSON as the literal 1e400 (a float overflow to inf)
BIG_INT = "__bigint__"  # written as an integer of 5000 digits
NASTY: list[Any] = [
    None, True, False, "false", "true", "", "abc", "III-2", -1, 0, 1, 2, 1.5, -0.0, 7.0, 10**30, 2**63, 32768,
    10**9, float("nan"), float("inf"), float("-inf"), HUGE_FLOAT, BIG_INT, [], {}, [None], [0, 0], {"a": None},
    "a\nresult: winner=X rounds=1 seed=1", "\x1b[31mred", "line\u2028sep", "bidi\u202e", "x" * 3000,
    "../../../etc/passwd", "/dev/zero", "terrain.tsj", "CF", "fw", "#ff0000", "mauve",
    deep_list(24), [0] * 3000,
]


# ------------------------------------------------------------------------------------------------ running

def cli(*argv: str) -> tuple[int, str, str]:
    """The real entry point in-process, each case bounded in time (tests/conftest.py)."""
    return run_cli(*argv, timeout=PER_CASE_SECONDS)


def assert_contract(path: Path, what: str) -> int:
    """`check path`, then `run path` if refused: the C-6 promises. Returns check's exit code."""
    code, out, err = cli("check", str(path))  # a case that hangs fails by the per-case timeout, not by a clock
    assert "Traceback" not in err and "Traceback" not in out, (what, err)
    assert code in (0, 2), (what, code, err)
    lines = err.splitlines()
    errors = [ln for ln in lines if not ln.startswith("skirmish: warning: ")]
    for line in lines:  # every line names the file: a forged line cannot hide among them
        assert line.startswith((f"skirmish: {path}: ", f"skirmish: warning: {path}: ")), (what, line)
    if code == 0:
        assert not errors and out.startswith(f"ok: {path}: ") and len(out.splitlines()) == 1, (what, out, err)
        return 0
    assert errors and not out, (what, out, err)
    if path.suffix == ".yaml":
        code, out, err = cli("run", "--quiet", str(path))
        assert code == 2 and not out and len(err.splitlines()) == 1, (what, err)
        assert err.startswith(f"skirmish: {path}: ") and "Traceback" not in err, (what, err)
    return 2


# ------------------------------------------------------------------------------------------- damaging
def byte_damage(rng: random.Random, data: bytes) -> tuple[str, bytes]:
    """One random byte-level injury."""
    at = rng.randrange(len(data) + 1)
    kind = rng.choice(["flip", "truncate", "nul", "bad-utf8", "lone-lead", "delete", "duplicate", "random",
                       "deep", "bom", "crlf", "tab", "syntax"])
    if kind == "flip":
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        return kind, bytes(b)
    if kind == "truncate":
        return kind, data[:at]
    if kind == "nul":
        return kind, data[:at] + b"\0" + data[at:]
    if kind == "bad-utf8":
        return kind, data[:at] + b"\xff\xfe\xc0" + data[at:]
    if kind == "lone-lead":
        return kind, data[:at] + b"\xc3" + data[at:]
    if kind == "delete":
        return kind, data[:at] + data[at + rng.randint(1, 200):]
    if kind == "duplicate":
        chunk = data[at:at + rng.randint(1, 300)]
        return kind, data[:at] + chunk * rng.randint(2, 5) + data[at:]
    if kind == "random":
        return kind, data[:at] + rng.randbytes(rng.randint(1, 30)) + data[at:]
    if kind == "deep":
        n = rng.choice([40, 3000, 60000])
        return kind, data[:at] + b"[" * n + b"]" * n + data[at:]
    if kind == "bom":
        return kind, b"\xef\xbb\xbf" + data
    if kind == "syntax":  # YAML and JSON constructs: anchors, aliases, tags, merges, documents, escapes
        snippet = rng.choice([b"&a ", b"*nope", b"!!python/object/apply:os.system ['true'] ", b"!!binary aGk= ",
                              b"\n<<: 5\n", b"\n? [a]\n: 1\n", b"\n---\n", b"%YAML 1.1\n", b'"\\ud800"',
                              b'"\\u0000"', b"1e400", b"-0", b"NaN", b"{", b"}", b"]", b",,", b'"a":1,'])
        return kind, data[:at] + snippet + data[at:]
    if kind == "crlf":
        return kind, data.replace(b"\n", b"\r\n")
    return kind, data[:at] + b"\t" + data[at:]


def paths(doc: Any, loc: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path in a parsed document (the root excluded)."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield (*loc, k)
            yield from paths(v, (*loc, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield (*loc, i)
            yield from paths(v, (*loc, i))


def value_damage(rng: random.Random, doc: Any) -> tuple[str, Any]:
    """One random value-level injury at a random key path: a nasty value, a deleted or unknown key, a
    wrapped value, a long list."""
    doc = json.loads(json.dumps(doc, allow_nan=True))
    all_paths = list(paths(doc))
    loc = rng.choice(all_paths)
    parent = doc
    for part in loc[:-1]:
        parent = parent[part]
    key = loc[-1]
    kind = rng.choice(["nasty"] * 6 + ["delete", "unknown", "wrap", "repeat"])
    if kind == "nasty":
        value = rng.choice(NASTY)
        parent[key] = value
        return f"{loc} = {value!r:.40}", doc
    if kind == "delete":
        del parent[key]
        return f"del {loc}", doc
    if kind == "unknown" and isinstance(parent, dict):
        parent[rng.choice(["extra", "a\nb", "unintended_targets", "cover_reach", "colour", "7"])] = 1
        return f"unknown key beside {loc}", doc
    if kind in ("wrap", "unknown"):
        parent[key] = [parent[key]]
        return f"wrap {loc}", doc
    parent[key] = [parent[key]] * rng.choice([2, 65, 300])
    return f"repeat {loc}", doc


def dump_json(doc: Any) -> bytes:
    text = json.dumps(doc, allow_nan=True)
    return text.replace(f'"{HUGE_FLOAT}"', "1e400").replace(f'"{BIG_INT}"', "9" * 5000).encode()


def dump_yaml(doc: Any) -> bytes:
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=200)
    return text.replace(f"{HUGE_FLOAT}", "1.0e+400").replace(BIG_INT, "9" * 5000).encode()


# ------------------------------------------------------------------------------------------- the corpus
def corpus(rng: random.Random, n: int) -> Iterator[tuple[str, str, bytes]]:
    """(what, which file, damaged bytes): which is 'scenario' (a shipped scenario alone), or one of the
    carrier's files 'yard.tmj', 'terrain.tsj', 'deck.json', 's.yaml'."""
    sources: list[tuple[str, bytes, str]] = [(p.name, p.read_bytes(), "scenario") for p in SCENARIOS]
    sources += [(p.name, p.read_bytes(), "yard.tmj") for p in MAPS[:1]] + [("depot_yard.tmj",
                                                                           (ROOT / "maps/depot_yard.tmj").read_bytes(),
                                                                           "yard.tmj")]
    sources += [("terrain.tsj", TILESET, "terrain.tsj"), ("deck.json", DECK, "deck.json"),
                ("carrier", CARRIER.encode(), "s.yaml")]
    for i in range(n):
        name, data, role = sources[i % len(sources)]
        if rng.random() < 0.45:
            kind, damaged = byte_damage(rng, data)
        else:
            is_yaml = role in ("scenario", "s.yaml")
            doc = yaml.safe_load(data) if is_yaml else json.loads(data)
            kind, doc = value_damage(rng, doc)
            damaged = dump_yaml(doc) if is_yaml else dump_json(doc)
        yield f"#{i} {name}: {kind}", role, damaged


def carrier(folder: Path, role: str, damaged: bytes) -> Path:
    """The depot scenario with its map, tileset and deck beside it, `role` damaged; the file to check."""
    folder.mkdir()
    if role == "scenario":
        (folder / "s.yaml").write_bytes(damaged)
        return folder / "s.yaml"
    files = {"s.yaml": CARRIER.encode(), "yard.tmj": (ROOT / "maps/depot_yard.tmj").read_bytes(),
             "terrain.tsj": TILESET, "deck.json": DECK}
    files[role] = damaged
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder / "s.yaml"


def test_fuzz_corpus_through_the_cli(tmp_path: Path) -> None:
    """A fixed-seed corpus of damaged files: every one meets the contract, checked as part of its scenario
    and (map, tileset, deck) on its own."""
    rng = random.Random(SEED)
    outcomes = {0: 0, 2: 0}
    for i, (what, role, damaged) in enumerate(corpus(rng, 500)):
        scenario = carrier(tmp_path / f"c{i}", role, damaged)
        outcomes[assert_contract(scenario, what)] += 1
        if role in ("yard.tmj", "terrain.tsj", "deck.json"):
            assert_contract(scenario.parent / role, what + " (alone)")
    assert outcomes[2] > 300 and outcomes[0] > 20, outcomes  # the corpus both breaks and keeps files


# --------------------------------------------------------------------------- property: any value anywhere
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
TARGETS = {
    "s.yaml": yaml.safe_load(CARRIER),
    "yard.tmj": json.loads((ROOT / "maps/depot_yard.tmj").read_bytes()),
    "terrain.tsj": json.loads(TILESET),
    "deck.json": json.loads(DECK),
}
TARGET_PATHS = {k: list(paths(v)) for k, v in TARGETS.items()}


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(target=st.sampled_from(sorted(TARGETS)), index=st.integers(min_value=0), value=json_values)
def test_any_value_at_any_key_path(tmp_path_factory: pytest.TempPathFactory, target: str, index: int,
                                   value: Any) -> None:
    """Hypothesis puts an arbitrary JSON/YAML value at an arbitrary key path of a good file."""
    doc = json.loads(json.dumps(TARGETS[target]))
    loc = TARGET_PATHS[target][index % len(TARGET_PATHS[target])]
    parent = doc
    for part in loc[:-1]:
        parent = parent[part]
    parent[loc[-1]] = value
    if target == "s.yaml":
        data = yaml.safe_dump(doc, allow_unicode=True).encode("utf-8", "surrogatepass")
    else:
        data = json.dumps(doc, allow_nan=True).encode("utf-8", "surrogatepass")
    folder = tmp_path_factory.mktemp("prop")
    files = {"s.yaml": CARRIER.encode(), "yard.tmj": (ROOT / "maps/depot_yard.tmj").read_bytes(),
             "terrain.tsj": TILESET, "deck.json": DECK, target: data}
    for name, content in files.items():
        (folder / name).write_bytes(content)
    assert_contract(folder / "s.yaml", f"{target} {loc} = {value!r:.60}")
    if target != "s.yaml":
        assert_contract(folder / target, f"{target} alone {loc}")


def test_nasty_values_are_json_safe() -> None:
    """The corpus's own helpers: 1e400 and 5000 digits really reach the files."""
    assert b"1e400" in dump_json({"a": HUGE_FLOAT}) and json.loads(dump_json({"a": HUGE_FLOAT}))["a"] == math.inf
    assert len(dump_yaml({"a": BIG_INT})) > 5000
