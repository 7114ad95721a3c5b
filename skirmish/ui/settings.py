"""Board settings remembered between runs (window size, speed, grid, last choices), saved as JSON."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from skirmish.fileio import write_text

CONFIG_ENV = "SKIRMISH_CONFIG_DIR"
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0)
RECENT_MAX = 8


def config_dir() -> Path:
    """Where settings live: $SKIRMISH_CONFIG_DIR, else $XDG_CONFIG_HOME/skirmish, else ~/.config/skirmish."""
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "skirmish"


@dataclass
class Settings:
    """What the board remembers."""

    window: tuple[int, int] = (1280, 800)
    speed: float = 1.0
    grid: bool = True
    reasons: bool = True  # the AI's reason label over the acting miniature
    heat: bool = False  # the AI's move scores for the selected miniature
    scenario: str | None = None
    seed: int | None = None
    controls: dict[str, str] = field(default_factory=dict)  # side name -> "ai" | "human"
    screenshots: str | None = None  # folder for screenshots (default: the config folder)
    recent: list[str] = field(default_factory=list)  # scenario files opened from outside scenarios/, newest first
    chips: str = ""  # FI story chips of a person's side (X): "spend" as the AI does, "keep", "" as the scenario
    editor: dict[str, Any] = field(default_factory=dict)  # the scenario editor's tool, brush and tile (ui/editor)
    folders: list[str] = field(default_factory=list)  # scenario folders opened in the menu, newest first

    def remember(self, path: str) -> None:
        """Put a scenario file at the front of the recent files (at most RECENT_MAX kept)."""
        self.recent = [path, *[p for p in self.recent if p != path]][:RECENT_MAX]

    def remember_folder(self, path: str) -> None:
        """Put a scenario folder at the front of the folders the menu lists (at most RECENT_MAX kept)."""
        self.folders = [path, *[p for p in self.folders if p != path]][:RECENT_MAX]

    @property
    def path(self) -> Path:
        """The settings file."""
        return config_dir() / "settings.json"

    def save(self) -> None:
        """Write atomically; a read-only config folder is reported once, never fatal."""
        path = self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text(path, json.dumps(asdict(self), indent=1))
        except OSError as exc:
            print(f"skirmish: could not save settings to {path}: {exc.strerror}", file=sys.stderr)


def load_settings() -> Settings:
    """Read the saved settings; a missing file gives defaults, a broken one is reported and ignored."""
    s = Settings()
    path = s.path
    if not path.exists():
        return s
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict):
            raise ValueError("not a JSON object")
        w, h = raw.get("window", s.window)
        s.window = (max(640, min(7680, int(w))), max(480, min(4320, int(h))))
        speed = float(raw.get("speed", s.speed))
        s.speed = min(SPEEDS, key=lambda v: abs(v - speed))
        s.grid = bool(raw.get("grid", s.grid))
        s.reasons = bool(raw.get("reasons", s.reasons))
        s.heat = bool(raw.get("heat", s.heat))
        s.scenario = raw.get("scenario") if isinstance(raw.get("scenario"), str) else None
        s.seed = int(raw["seed"]) if isinstance(raw.get("seed"), int) else None
        controls = raw.get("controls", {})
        if isinstance(controls, dict):
            s.controls = {str(k): v for k, v in controls.items() if v in ("ai", "human")}
        s.screenshots = raw.get("screenshots") if isinstance(raw.get("screenshots"), str) else None
        s.chips = str(raw["chips"]) if raw.get("chips") in ("spend", "keep") else ""
        editor = raw.get("editor", {})
        if isinstance(editor, dict):
            s.editor = {str(k): v for k, v in editor.items() if isinstance(v, str | int) and not isinstance(v, bool)}
        recent = raw.get("recent", [])
        if isinstance(recent, list):
            s.recent = [p for p in recent if isinstance(p, str)][:RECENT_MAX]
        folders = raw.get("folders", [])
        if isinstance(folders, list):
            s.folders = [p for p in folders if isinstance(p, str)][:RECENT_MAX]
    except (OSError, ValueError, TypeError) as exc:
        print(f"skirmish: ignoring settings file {path}: {exc}", file=sys.stderr)
        return Settings()
    return s
