"""The JSON Schema of the scenario format (issue 15 item 1; `skirmish schema`, docs/FILES.md "JSON Schema for
editors"): pydantic's schema of each ruleset's scenario model (skirmish.content.parts), with the models' and
fields' descriptions, so that an editor (VS Code's YAML extension: `# yaml-language-server: $schema=FILE`)
completes and checks a scenario as it is typed. Cross-references (a zone an objective names, a unit's weapon in
the equipment tables) are checked by `skirmish check`, not by the schema."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from skirmish.content.parts import DEFAULT, PARTS, schema_parts

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"


def scenario_schema(ruleset: str | None = None) -> dict[str, Any]:
    """The scenario format's JSON Schema: one ruleset's (KeyError naming the known ones), or, with None, any
    ruleset's (a file matches the one its `ruleset:` names; none: Future Imperfect's)."""
    if ruleset is not None:
        parts = schema_parts(ruleset)
        schema = parts.scenario.model_json_schema()
        title = f"skirmish scenario ({parts.title})"
    else:
        models = [PARTS[DEFAULT].scenario, *(p.scenario for n, p in sorted(PARTS.items()) if n != DEFAULT)]
        union: Any = models[0]
        for m in models[1:]:
            union = union | m
        schema = TypeAdapter(union).json_schema()
        title = "skirmish scenario (" + ", ".join(PARTS[n].title for n in [DEFAULT, *sorted(set(PARTS) - {DEFAULT})]) + ")"
        branches = schema.get("anyOf", [])
        for branch in branches:  # a file without `ruleset:` is Future Imperfect's: only that branch may omit it
            target = schema.get("$defs", {}).get(branch.get("$ref", "").rsplit("/", 1)[-1], {})
            ruleset_prop = target.get("properties", {}).get("ruleset", {})
            if ruleset_prop.get("const", ruleset_prop.get("default")) != DEFAULT:
                target.setdefault("required", []).append("ruleset")
    return {"$schema": SCHEMA_URI, "title": title,
            "description": "A skirmish scenario file (docs/FILES.md). `skirmish check FILE` makes the checks a "
                           "schema cannot: names, cells, equipment.",
            **{k: v for k, v in schema.items() if k not in ("title", "description")}}
