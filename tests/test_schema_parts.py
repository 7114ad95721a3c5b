"""A ruleset brings its scenario schema parts (issue 11 item 1): the `ruleset:` key picks the options model and
the units' traits and skills; the rest of the file is the shared schema. A throwaway ruleset's parts are
registered here and a scenario naming it is checked with C-6 messages at the file's own key paths."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from pydantic import Field, StrictBool, StrictInt, field_validator

from skirmish import rulesets
from skirmish.battle import Battle
from skirmish.content import parts
from skirmish.content.errors import ContentError
from skirmish.content.limits import Name
from skirmish.content.scenario import Options, check_text, load_scenario, parse_scenario
from skirmish.content.schema import RulesetOptions, ScenarioSpec, UnitSpec

ROOT = Path(__file__).resolve().parents[1]
STATS = ("STR", "CON", "SIZ", "INT", "POW", "DEX")


class ZzOptions(RulesetOptions):
    """A throwaway ruleset's options: nothing like Future Imperfect's."""

    pace: Literal["brisk", "slow"] = "brisk"
    morale: StrictBool = False


class ZzUnit(UnitSpec):
    """Characteristics 3-18 and percentile skills (as Future*World's will be)."""

    traits: dict[str, StrictInt]
    skills: dict[Name, StrictInt] = Field(default_factory=dict, max_length=50)

    @field_validator("traits")
    @classmethod
    def _traits(cls, v: dict[str, int]) -> dict[str, int]:
        for name in v:
            if name not in STATS:
                raise ValueError(f"unknown characteristic {name!r}; they are {', '.join(STATS)}")
        for name in STATS:
            if not 3 <= v.get(name, 0) <= 18:
                raise ValueError(f"{name}: expected 3-18, got {v.get(name)}")
        return v

    @field_validator("skills")
    @classmethod
    def _skills(cls, v: dict[str, int]) -> dict[str, int]:
        for name, pct in v.items():
            if not 1 <= pct <= 100:
                raise ValueError(f"skill {name!r}: expected a percentage 1-100, got {pct}")
        return v


@pytest.fixture
def zz(monkeypatch: pytest.MonkeyPatch) -> Iterator[parts.SchemaParts]:
    """The throwaway ruleset's parts, registered for one test (the registry is restored after it)."""
    monkeypatch.setattr(parts, "PARTS", dict(parts.PARTS))
    yield parts.register_parts(parts.SchemaParts("zz", "Zigzag", ZzOptions, ZzUnit, {"old_pace": "R-0.1"}))


ZZ_TRAITS = "{STR: 12, CON: 11, SIZ: 13, INT: 10, POW: 9, DEX: 14}"
ZZ = f"""
name: Zigzag duel
ruleset: zz
seed: 2
options: {{pace: slow, morale: true}}
map: {{ascii: ["..........", "..........", "....#.....", ".........."]}}
sides:
  - name: Blue
    units:
      - {{name: B1, at: [0, 0], traits: {ZZ_TRAITS}, skills: {{"shooting:pistol": 45}}, weapons: [slug_pistol]}}
  - name: Red
    units:
      - {{name: R1, at: [9, 3], traits: {ZZ_TRAITS}, armour: [flak_vest]}}
"""


def _errors(text: str) -> list[str]:
    scenario, errors = check_text(text, "zz.yaml")
    assert scenario is None and errors
    return [e.text for e in errors]


def test_a_registered_ruleset_brings_its_options_and_traits(zz: parts.SchemaParts) -> None:
    sc = parse_scenario(ZZ, "zz.yaml")
    spec = sc.spec
    assert isinstance(spec, ScenarioSpec) and type(spec) is zz.scenario
    assert spec.ruleset == "zz" and isinstance(spec.options, ZzOptions)
    assert spec.options.model_dump() == {"pace": "slow", "morale": True}
    unit = spec.sides[0].units[0]
    assert isinstance(unit, ZzUnit) and unit.traits["DEX"] == 14 and unit.skills == {"shooting:pistol": 45}
    assert spec.sides[1].units[0].armour == ["flak_vest"]  # the shared part of a unit is read as ever
    changed = sc.with_options(pace="brisk")  # checked by the ruleset's own options model
    assert isinstance(changed.spec.options, ZzOptions) and changed.spec.options.pace == "brisk"
    with pytest.raises(ContentError, match=r"zz.yaml: options.pace: Input should be 'brisk' or 'slow', got 'x'"):
        sc.with_options(pace="x")
    with pytest.raises(ContentError, match=r"options.randomizer: unknown key"):
        sc.with_options(randomizer="dice")  # Future Imperfect's option is not this ruleset's
    # The loader checked it; the battle refuses a ruleset it has no binding for.
    with pytest.raises(ValueError, match="ruleset: 'zz' is not playable yet"):
        Battle(sc, seed=1)


def test_its_options_and_traits_are_checked_at_the_files_key_paths(zz: parts.SchemaParts) -> None:
    assert _errors(ZZ.replace("pace: slow", "pace: fast")) == [
        "zz.yaml: options.pace: Input should be 'brisk' or 'slow', got 'fast'"]
    assert _errors(ZZ.replace("pace: slow", "randomizer: dice")) == ["zz.yaml: options.randomizer: unknown key"]
    assert _errors(ZZ.replace("pace: slow", "old_pace: slow")) == [
        "zz.yaml: options.old_pace: not built yet (R-0.1); remove it"]
    assert _errors(ZZ.replace("DEX: 14}, skills", "DEX: 19}, skills")) == [
        "zz.yaml: sides[0].units[0].traits: DEX: expected 3-18, got 19"]
    assert _errors(ZZ.replace("POW: 9, DEX: 14}, armour", "POW: 9, LUCK: 4, DEX: 14}, armour")) == [
        "zz.yaml: sides[1].units[0].traits: unknown characteristic 'LUCK'; they are STR, CON, SIZ, INT, POW, DEX"]
    assert _errors(ZZ.replace('"shooting:pistol": 45', '"shooting:pistol": 145')) == [
        "zz.yaml: sides[0].units[0].skills: skill 'shooting:pistol': expected a percentage 1-100, got 145"]
    # A mapping given as something else is named as the file knows it, not by the model's class name.
    assert _errors(ZZ.replace("{pace: slow, morale: true}", "5")) == [
        "zz.yaml: options: Input should be a valid dictionary, got 5"]
    assert _errors(ZZ.replace("      - {name: R1", "      - R1\n      - {name: R1")) == [
        "zz.yaml: sides[1].units[0]: Input should be a valid dictionary, got 'R1'"]
    # Future Imperfect's traits are not this ruleset's; and the reference checks still run beside them.
    fi_traits = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
    errors = _errors(ZZ.replace(ZZ_TRAITS + ", skills", fi_traits + ", skills").replace("[flak_vest]", "[tinfoil]"))
    assert errors[0] == "zz.yaml: sides[0].units[0].traits.strength: Input should be a valid integer, got 'III-2'"
    assert errors[-1].startswith("zz.yaml: sides[1].units[0].armour[0]: unknown armour 'tinfoil'")


def test_future_imperfect_parts_refuse_the_throwaway_rulesets_units(zz: parts.SchemaParts) -> None:
    errors = _errors(ZZ.replace("ruleset: zz", "ruleset: fi").replace("pace: slow, morale: true", "scope: pulp"))
    assert errors[0] == "zz.yaml: sides[0].units[0].traits.STR: Input should be a valid string, got 12"
    assert "zz.yaml: sides[0].units[0].skills: skill 'shooting:pistol': level must be 1-5, got 45" in errors
    assert sum(".traits." in e for e in errors) == 2 * len(STATS) and len(errors) == 2 * len(STATS) + 1
    errors = _errors(ZZ.replace("ruleset: zz", "ruleset: fi").replace("pace: slow, morale: true", "scope: pulp")
                     .replace("STR: 12", "STR: II-2").replace("CON: 11, SIZ: 13, INT: 10, POW: 9, DEX: 14", ""))
    assert errors[0] == ("zz.yaml: sides[0].units[0].traits: unknown trait 'STR'; traits are strength, dexterity, "
                         "reflexes, vigor, acuity")


def test_an_unknown_ruleset_is_named_and_the_rest_still_checked() -> None:
    text = (ROOT / "scenarios/killhouse_drill.yaml").read_text(encoding="utf-8")
    errors = _errors(text.replace("ruleset: fi", "ruleset: chess").replace("scope: gritty", "scope: grim"))
    assert errors == ["zz.yaml: ruleset: expected a ruleset ('fi', 'fw'), got 'chess'",
                      "zz.yaml: options.scope: Input should be 'pulp' or 'gritty', got 'grim'"]
    fw = _errors(text.replace("ruleset: fi", "ruleset: fw"))  # Future*World's parts check it: FI's keys refused
    assert fw[:2] == ["zz.yaml: options.randomizer: unknown key", "zz.yaml: options.scope: unknown key"]
    assert ("zz.yaml: sides[0].units[0].traits: a Future*World unit has characteristics (STR CON SIZ INT POW DEX), "
            "not traits") in fw and "zz.yaml: sides[1].units[1].characteristics: required key is missing" in fw


def test_every_ruleset_binding_lists_the_parts_registered_under_its_name() -> None:
    for name, binding in rulesets.REGISTRY.items():
        assert binding.scenario_parts is parts.schema_parts(name)
    fi = parts.schema_parts("fi")
    assert fi.options is Options and load_scenario(ROOT / "scenarios/killhouse_drill.yaml").spec.options.__class__ is Options
    assert sorted(fi.retired_options.values()) == ["R-6.6"]  # the options are named in test_loaders


def test_parts_are_checked_when_registered(zz: parts.SchemaParts) -> None:
    with pytest.raises(ValueError, match="registered twice"):
        parts.register_parts(parts.SchemaParts("zz", "Zigzag", ZzOptions, ZzUnit))

    class Bare(RulesetOptions):
        pace: str

    with pytest.raises(ValueError, match="every option needs a default"):
        parts.SchemaParts("yy", "Yonder", Bare, ZzUnit)
    with pytest.raises(ValueError, match="both built and retired"):
        parts.SchemaParts("yy", "Yonder", ZzOptions, ZzUnit, {"pace": "R-0.1"})
