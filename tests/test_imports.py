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
