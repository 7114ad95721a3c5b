"""ARCHITECTURE §2: rules ← content ← ecs ← battle, log ← ai, sim ← ui, cli; only ecs/world.py calls esper."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "skirmish"
LAYER = {"core": 0, "rules": 0, "data": 0, "fileio": 0, "content": 1, "nav": 1, "ecs": 2, "battle": 3, "objectives": 3,
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
            out += [f"{node.module}.{a.name}" for a in node.names]  # `from skirmish.rules import fi` too
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
RULESET_PRIVATE = ("skirmish.rules.fi", "skirmish.ecs.systems.fi", "skirmish.rules.fw", "skirmish.ecs.systems.fw",
                   "skirmish.content.fi", "skirmish.content.fw")  # rules, systems, scenario schema parts
# Code that knows no ruleset by name: only the registry (`skirmish.rulesets`), never a ruleset's facade.
# (summary.py picks highlights from a ruleset's own events, through its facade, as the AIs and board do.)
RULESET_BLIND = ("content", "battle", "log", "record", "core")


def _inside(path: Path, *tops: str) -> bool:
    rel = path.relative_to(PKG).as_posix()
    return any(rel == f"{t}.py" or rel.startswith(f"{t}/") for t in tops)


# Shared modules below the facade that still name FI's turn timing (`Part`): the ECS's Turn component and the
# view's `turn_parts`. Listed, so that any other shared module importing a ruleset's code fails the test.
FI_SHAPED_SHARED = ("ecs/components.py", "ecs/view.py")


# The scenario schema parts' registry and the parts themselves (shared code uses content.parts.schema_parts).
SCHEMA_PARTS = ("content/parts.py", "content/fi.py", "content/fw.py")
FACADES = [["skirmish", "rulesets", f.stem] for f in (PKG / "rulesets").glob("*.py") if f.stem != "__init__"]


def _seam_violations(path: Path, rel: str) -> list[str]:
    """What a module at `rel` (relative to skirmish/) imports against the ruleset seam."""
    if rel.startswith(("rules/", "ecs/systems/", "rulesets/")) or rel in FI_SHAPED_SHARED or rel in SCHEMA_PARTS:
        return []  # a ruleset's own rules, systems and scenario parts, its binding, and the listed shared modules
    bad = []
    top = rel.split("/")[0].removesuffix(".py")
    for name in _imports(path):
        if any(name == p or name.startswith(p + ".") for p in RULESET_PRIVATE):
            bad.append(f"{rel}: imports {name} (reach it through skirmish.rulesets)")
        if top in RULESET_BLIND and name.split(".")[:3] in FACADES:
            bad.append(f"{rel}: imports the facade {name}; ruleset-blind code uses rulesets.get(name)")
    return bad


def test_rulesets_are_reached_through_the_registry() -> None:
    bad = [v for path in PKG.rglob("*.py") for v in _seam_violations(path, path.relative_to(PKG).as_posix())]
    assert not bad, "\n".join(bad)


def test_the_seam_test_can_fail(tmp_path: Path) -> None:
    """The rule itself catches each form of a forbidden import (so the seam test is not vacuous)."""
    cases = {
        "ai/x.py": "from skirmish.rules.fi.ranged import resolve_shot\n",
        "ui/x.py": "from skirmish.rules import fi\n",
        "battle.py": "import skirmish.ecs.systems.fi\n",
        "log.py": "from skirmish.rulesets.fi import AttackEvent\n",
        "content/references.py": "from skirmish.content import fi\n",
        "ui/y.py": "from skirmish.content.fi import Options\n",
    }
    for rel, text in cases.items():
        fake = tmp_path / rel.replace("/", "_")
        fake.write_text(text, encoding="utf-8")
        assert _seam_violations(fake, rel), rel
    fine = tmp_path / "ok.py"
    fine.write_text("from skirmish.rulesets.fi import AttackEvent\n", encoding="utf-8")
    assert not _seam_violations(fine, "ui/ok.py")  # the board may use the facade
