"""Refusals: why an action is not allowed now, with the rule id as a field (STYLE 4, 13)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_RULE = re.compile(r"^(R-\d+(?:\.\d+)?):\s*(.*)$", re.S)


@dataclass(frozen=True)
class Refusal:
    """An action the rules do not allow now: the rule (an R-id, or "" where no rule is named, such as an
    unknown unit) and the reason in the game's words."""

    rule: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}" if self.rule else self.reason

    @staticmethod
    def from_text(text: str) -> Refusal:
        """Read a sentence like "R-6.1: Guard-2 is not in line of sight" into rule and reason."""
        m = _RULE.match(text)
        return Refusal(m.group(1), m.group(2)) if m else Refusal("", text)


class IllegalAction(ValueError):
    """Raised by the checked entry points when the rules refuse an action; `refusal` says which rule and why,
    and str() is the sentence the board shows."""

    def __init__(self, reason: str | Refusal) -> None:
        self.refusal = reason if isinstance(reason, Refusal) else Refusal.from_text(reason)
        super().__init__(str(self.refusal))
