"""ARCHITECTURE §2: rules ← content ← ecs ← battle, log ← ai, sim ← ui, cli; only ecs/world.py calls esper."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "skirmish"
LAYER = {"core": 0, "rules": 0, "data": 0, "fileio": 0, "content": 1, "nav": 1, "ecs": 2, "battle": 3, "legality": 3,
         "log": 3, "record": 3, "summary": 3, "rulesets": 3, "ai": 4, "sim": 4, "env": 4,
         "ui": 5, "cli": 5, "__main__": 6, "__init__": 6}
THIRD_PARTY_ALLOWED = {"rules": {"numpy"}}


def _module_of(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0].removesuffix(".py")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def test_import_direction() -> None:
    bad = []
    for path in PKG.rglob("*.py"):
        mine = _module_of(path)
        for name in _imports(path):
            if name.startswith("skirmish."):
                other = name.split(".")[1]
                if other in ("ui", "cli") and mine not in ("ui", "cli", "__main__"):
                    bad.append(f"{path}: imports {name}")
                elif LAYER.get(other, 0) > LAYER[mine]:
                    bad.append(f"{path}: {mine} imports higher layer {name}")
            top = name.split(".")[0]
            if top == "esper" and path.relative_to(PKG).as_posix() != "ecs/world.py":
                bad.append(f"{path}: only ecs/world.py may import esper")
            if top == "pygame" and mine != "ui":
                bad.append(f"{path}: only skirmish.ui may import pygame")
            if mine in ("rules", "core") and top not in ("skirmish", "numpy", "__future__") and \
                    top not in __import__("sys").stdlib_module_names:
                bad.append(f"{path}: rules must be stdlib + numpy only, imports {name}")
    assert not bad, "\n".join(bad)


# The ruleset seam (ARCHITECTURE §5, issue 11): a ruleset's own code is reached only through skirmish.rulesets.
RULESET_PRIVATE = ("skirmish.rules.fi", "skirmish.ecs.systems.fi", "skirmish.rules.fw", "skirmish.ecs.systems.fw")
# Code that knows no ruleset by name: only the registry (`skirmish.rulesets`), never a ruleset's facade.
# (summary.py picks highlights from a ruleset's own events, through its facade, as the AIs and board do.)
RULESET_BLIND = ("content", "battle", "log", "record", "core")


def _inside(path: Path, *tops: str) -> bool:
    rel = path.relative_to(PKG).as_posix()
    return any(rel == f"{t}.py" or rel.startswith(f"{t}/") for t in tops)


def test_rulesets_are_reached_through_the_registry() -> None:
    bad = []
    for path in PKG.rglob("*.py"):
        if _inside(path, "rules", "ecs", "rulesets"):
            continue  # a ruleset's own rules and systems, and its binding
        for name in _imports(path):
            if any(name == p or name.startswith(p + ".") for p in RULESET_PRIVATE):
                bad.append(f"{path}: imports {name} (reach it through skirmish.rulesets)")
            if _module_of(path) in RULESET_BLIND and name.startswith("skirmish.rulesets."):
                bad.append(f"{path}: imports the facade {name}; ruleset-blind code uses rulesets.get(name)")
    assert not bad, "\n".join(bad)


# A ruleset's scenario schema parts (skirmish.content.fi, …) are reached through the registry
# (skirmish.content.parts.schema_parts(name)) by shared code; only the registry, the parts' own module, and
# a ruleset's binding, systems and rules import them by name.
PARTS_ALLOWED = ("content/parts.py", "rulesets", "ecs", "rules")


def _schema_modules() -> set[str]:
    from skirmish.content.parts import PARTS, PLANNED
    return {f"skirmish.content.{name}" for name in (*PARTS, *PLANNED)}


def _imported_names(path: Path) -> list[str]:
    """Every module `path` imports, `from package import module` included (as package.module)."""
    out = _imports(path)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out += [f"{node.module}.{a.name}" for a in node.names]
    return out


def test_scenario_parts_are_reached_through_their_registry() -> None:
    own = _schema_modules()
    assert "skirmish.content.fi" in own
    bad = []
    for path in PKG.rglob("*.py"):
        rel = path.relative_to(PKG).as_posix()
        if rel.removesuffix(".py") in {m.removeprefix("skirmish.").replace(".", "/") for m in own} or \
                rel == PARTS_ALLOWED[0] or _inside(path, *PARTS_ALLOWED[1:]):
            continue
        for name in _imported_names(path):
            if any(name == m or name.startswith(m + ".") for m in own):
                bad.append(f"{path}: imports {name} (shared code uses skirmish.content.parts.schema_parts)")
    assert not bad, "\n".join(bad)


def test_the_seam_test_can_fail(tmp_path: Path) -> None:
    """The walk above sees a forbidden import (so the seam test is not vacuous)."""
    fake = tmp_path / "x.py"
    fake.write_text("from skirmish.rules.fi.ranged import resolve_shot\n", encoding="utf-8")
    assert any(n.startswith(RULESET_PRIVATE[0]) for n in _imports(fake))
    fake.write_text("from skirmish.content import fi\nfrom skirmish.content.fi import Options\n", encoding="utf-8")
    assert _imported_names(fake).count("skirmish.content.fi") == 2 and "skirmish.content.fi" in _schema_modules()
