"""Events: frozen values, one per resolution, naming rule ids, the draw read and every modifier (R-10.2, C-3)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened. `data` holds the type-specific fields of C-3."""

    type: str
    round: int
    phase: int | None
    actor: str | None
    rules: tuple[str, ...] = ()
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The C-3 object: common fields first, then the type-specific ones."""
        out: dict[str, Any] = {
            "type": self.type, "round": self.round, "phase": self.phase, "actor": self.actor,
            "rules": list(self.rules),
        }
        out.update(self.data)
        return out

    def to_line(self) -> str:
        """One JSON line, stable byte for byte (C-5)."""
        return json.dumps(self.to_json(), sort_keys=False, separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Event:
        """Rebuild an event from its JSON object."""
        common = {"type", "round", "phase", "actor", "rules"}
        return Event(
            type=str(raw["type"]), round=int(raw["round"]), phase=raw.get("phase"), actor=raw.get("actor"),
            rules=tuple(raw.get("rules", ())), data={k: v for k, v in raw.items() if k not in common},
        )
