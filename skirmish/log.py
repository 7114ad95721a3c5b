"""The append-only event log: JSON lines in and out, and a readable line per event (R-10.2, C-3)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from skirmish.content.errors import MIB, ContentError, one_line, read_text
from skirmish.core.events import Event, EventError
from skirmish.rulesets import REGISTRY as _RULESETS  # noqa: F401  (each ruleset registers its event types)

LOG_FILE_LIMIT = 64 * MIB  # an event log of a long battle with every AI trace is a few MiB


class EventLog:
    """Events in order of happening."""

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events: list[Event] = list(events)

    def append(self, event: Event) -> None:
        """Add an event."""
        self.events.append(event)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def __getitem__(self, i: int) -> Event:
        return self.events[i]

    def jsonl(self) -> str:
        """All events as JSON lines (C-3), byte-stable for a seed (C-5)."""
        return "".join(e.to_line() + "\n" for e in self.events)

    def write(self, path: Path) -> None:
        """Write JSON lines whole or not at all (C-6): see skirmish.fileio; OutputError (an OSError) names
        the path if it cannot be written."""
        from skirmish.fileio import write_text

        write_text(path, self.jsonl())

    @staticmethod
    def read(path: Path) -> EventLog:
        """Read a JSON-lines log with the loaders' bounds (a regular file of at most LOG_FILE_LIMIT bytes);
        ContentError (C-6) names the file and the line."""
        label = str(path)
        events = []
        for n, line in enumerate(read_text(path, label, LOG_FILE_LIMIT).splitlines(), 1):
            if not line.strip():
                continue
            try:
                events.append(Event.from_json(json.loads(line)))
            except (json.JSONDecodeError, EventError, RecursionError) as exc:
                raise ContentError(label, f"line {n}", f"not an event ({one_line(str(exc))[:160]})") from None
        return EventLog(events)


def describe(e: Event) -> str:
    """One readable line that explains the event (the rolls, the TN, the modifiers, the rules): the text its
    ruleset gives its type (skirmish/core/events.py, skirmish/rules/fi/events.py, …)."""
    return e.describe()


def headline(e: Event) -> str:
    """A short line for the board's log panel (the full explanation is `describe` and `details`)."""
    return e.headline()


def details(e: Event) -> list[str]:
    """The lines shown when a log line is opened: the draw, the TN, each modifier with its reason, the rules."""
    return e.details()
