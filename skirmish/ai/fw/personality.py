"""How the Future*World utility AI weighs things, as data (docs/AI.md, "Future*World"): a personality is a row
of weights, so a new one is a new entry in `TABLE`, not new code. `utility:<name>` names one.

Every weight multiplies an amount in HP (expected damage through armour and screen, R-9.6) or a fraction of
a move, so the options of a declaration and the cells of a move are compared on one scale.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from skirmish.ai.utility.personality import draw as draw  # the utility AI's (blake2b of the key), re-exported
from skirmish.rulesets.fw import UTILITY

# The names are the scenario schema's (skirmish/content/fw.py, `utility:<name>`): one list; the table below must
# weigh each of them and no other (checked on import).
NAMES = tuple(spec.partition(":")[2] for spec in UTILITY if spec.startswith("utility:"))  # search:<name> takes the same


@dataclass(frozen=True)
class FwPersonality:
    """One personality's weights (pure data)."""

    name: str = "normal"
    harm: float = 1.0  # the expected HP it takes off the enemy
    kill: float = 1.3  # x the target's HP, times the chance the attack puts it down
    danger: float = 1.0  # x what an enemy could take off us this round, times the chance the attack drops it
    caution: float = 1.0  # the expected HP it loses to the enemies that see its cell
    ahead: float = 0.25  # x what enemies a walk from seeing a cell could fire into it next round (x caution)
    cover: float = 0.4  # HP-equivalent of standing in cover from each enemy that sees the cell
    press: float = 4.0  # HP-equivalent of closing a whole move on the nearest enemy when pressing
    fall_back: float = 1.5  # HP-equivalent of a whole move away while falling back
    sensors: float = 1.0  # HP-equivalent of sweeping for unseen enemies with combat sensors
    blind: float = 3.0  # HP-equivalent of an enemy blinded by a photon flash (x1/5 for 1d6 rounds, R-9.10)
    aid: float = 3.0  # First Aid for an unconscious friend beside it
    aim: float = 0.5  # x the best shot it would have from a cell next round standing there (not moving, R-9.4)
    react: float = 0.35  # a conditional reaction's worth, as a share of a shot at the nearest enemy
    focus: float = 0.9  # how much a target already likely to drop (allies' declared fire) is worth less
    noise: float = 0.0  # a blunt personality misjudges each option by up to this share (deterministic)
    runners_up: int = 3  # options kept in the trace besides the chosen one


TABLE: dict[str, dict[str, float]] = {
    "normal": {},
    "hard": {"kill": 1.5, "caution": 1.1, "cover": 0.5},
    "aggressive": {"harm": 1.2, "caution": 0.5, "press": 5.0, "fall_back": 0.5},
    "cautious": {"caution": 1.3, "cover": 0.6, "press": 1.5, "fall_back": 2.5},
    "easy": {"kill": 0.3, "caution": 0.4, "cover": 0.1, "focus": 0.0, "noise": 0.5},
}

_FIELDS = {f.name for f in fields(FwPersonality)}
if set(TABLE) != set(NAMES):
    raise ValueError(f"fw personalities: the table weighs {sorted(TABLE)}, the scenario schema names {sorted(NAMES)}")
for _name, _row in TABLE.items():  # a typo in the table fails on import, naming the key
    for _key in _row:
        if _key not in _FIELDS:
            raise ValueError(f"fw personality {_name!r}: unknown weight {_key!r}")

PERSONALITIES: dict[str, FwPersonality] = {
    name: replace(FwPersonality(name=name), **row) for name, row in TABLE.items()}  # type: ignore[arg-type]
