"""Each ruleset's part of the RL environment (docs/RL.md "Rulesets"): the action table and the observer of a
scenario, found by the scenario's `ruleset:` in a registry keyed by ruleset name (as `skirmish.rulesets` keys
the rules themselves), so the environment's code names no ruleset.

An env spec brings:
- `table(scenario, views)`: the fixed index <-> Action table of a scenario (views: each side's at the start),
  with `size`, `blocks`, `block`, `encode`, `decode(index, unit)`, `describe` and `mask(legal, check)`;
- `observer(scenario, views)`: writes one side's planes from its own view (`shape`, `observe(view, side, acting,
  declaring)`, and `channels` when the scenario adds planes: FI's mounts);
- `channels`: the observer's plane names, in channel order (unless the observer has its own); `declare_kind`: the
  Request kind that is a declaration (the "declaring" plane).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from skirmish.content.scenario import Scenario
from skirmish.ecs.view import BattleView


@dataclass(frozen=True)
class EnvSpec:
    """One ruleset's action table and observer makers (see the module's docstring)."""

    ruleset: str
    table: Callable[[Scenario, Sequence[BattleView]], Any]
    observer: Callable[[Scenario, Sequence[BattleView]], Any]
    channels: tuple[str, ...]  # the planes' names (an observer with its own `channels` for a scenario has those)
    declare_kind: str


SPECS: dict[str, EnvSpec] = {}


def register_spec(spec: EnvSpec) -> EnvSpec:
    """Add a ruleset's env spec under its name (twice is a programming error)."""
    if spec.ruleset in SPECS:
        raise ValueError(f"env spec {spec.ruleset!r} is registered twice")
    SPECS[spec.ruleset] = spec
    return spec


def spec_for(scenario: Scenario) -> EnvSpec:
    """The env spec of the scenario's ruleset (ValueError naming the file and the rulesets that have one)."""
    name = scenario.spec.ruleset
    if name not in SPECS:
        raise ValueError(f"{scenario.source}: no RL environment for ruleset {name!r}; "
                         f"known: {', '.join(sorted(SPECS))}")
    return SPECS[name]


def _fi_table(scenario: Scenario, views: Sequence[BattleView]) -> Any:
    from skirmish.env.fi_actions import FiActionTable

    bursts = {b for w in scenario.armoury.weapons.values() for b in w.bursts}
    mounts = [m.name for m in getattr(scenario.spec, "mounts", None) or ()]  # mounts: their block, last
    return FiActionTable.for_views(views, sorted(bursts), mounts)


def _fi_observer(scenario: Scenario, views: Sequence[BattleView]) -> Any:
    from skirmish.env.observation import Observer

    return Observer(views[0], mounts=bool(getattr(scenario.spec, "mounts", None)))  # mounts: their planes, last


def _register() -> None:
    from skirmish.env.fw_actions import FwActionTable
    from skirmish.env.fw_observation import FW_CHANNELS, FwObserver
    from skirmish.env.observation import CHANNELS
    from skirmish.rulesets.fw import INTENT

    register_spec(EnvSpec("fi", _fi_table, _fi_observer, CHANNELS, "declare"))
    register_spec(EnvSpec("fw", lambda _sc, views: FwActionTable.for_views(views),
                          lambda _sc, views: FwObserver(views[0]), FW_CHANNELS, INTENT))


_register()
