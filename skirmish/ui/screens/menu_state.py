"""The start menu's state: the scenarios it lists (shipped, recent, opened by path), the options it offers,
who plays each side, the seed, and the moves that change them (skirmish/ui/screens/menu.py has the keys and
the mouse, menu_draw.py the drawing)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pygame

from skirmish.content.errors import ContentError
from skirmish.content.scenario import (
    DEFAULT_SCENARIO,
    SCENARIOS_DIR,
    Scenario,
    builtin_scenarios,
    load_scenario,
)
from skirmish.ui.layout import Page
from skirmish.ui.preview import MapPreview
from skirmish.ui.screens.base import StartBattle, Transition
from skirmish.ui.screens.folder_list import scan_folder, scenario_name
from skirmish.ui.settings import Settings, config_dir
from skirmish.ui.widgets import Button, ButtonRow, Fonts

OPTION_CHOICES: dict[str, tuple[object, ...]] = {
    "randomizer": ("cards", "dice"),
    "deck": ("A", "B"),
    "scope": ("pulp", "gritty"),
    "initiative_cards": ("one", "per_side", "per_character"),
    "initiative": ("phases", "cards"),
    "concussion_saves": (True, False),
}
OPTION_KEYS: dict[str, tuple[int, str]] = {
    "randomizer": (pygame.K_c, "C"),
    "deck": (pygame.K_d, "D"),
    "scope": (pygame.K_p, "P"),
    "initiative_cards": (pygame.K_i, "I"),
    "initiative": (pygame.K_k, "K"),
    "concussion_saves": (pygame.K_v, "V"),
}
OPTION_TIPS: dict[str, str] = {
    "randomizer": "cards: checks read the action deck (R-3.1); dice: dice are rolled instead, no deck",
    "deck": "the action deck the cards come from (not used with dice)",
    "scope": "the TN ladder (R-3.2): pulp or gritty (higher TNs)",
    "initiative_cards": "initiative (R-5.1): one card for everyone, one per side, or one per combatant",
    "initiative": "phases (R-5.1) or card hands (R-5.8): keep two cards, act as the steps count down 14 to 0",
    "concussion_saves": "CT damage forces a Vigor save; a failure stuns (R-8.2)",
}


# ---------------------------------------------------------------------------------------------- scenario list
SUBFOLDERS = ("fi", "fw", "training")  # scenarios/ subfolders the menu lists (bench/ is the bench's)


def user_scenarios_dir() -> Path:
    """The user's own scenarios (the editor saves there): `scenarios/` in the settings folder."""
    return config_dir() / "scenarios"


@dataclass(frozen=True)
class Entry:
    """A scenario the menu lists: its file, its `name:` and where it comes from: "" (scenarios/), a subfolder
    of it ("fi", "fw", "training"), "mine" (the user's folder) or "file" (opened by path)."""

    path: Path
    name: str
    recent: bool  # opened from a file outside scenarios/ and the user's folder
    group: str = ""
    where: str = ""  # a folder's file: the folder's name and the subfolder it lies in ("mine/hard")

    @property
    def key(self) -> str:
        """What settings.scenario remembers: a shipped scenario's path under scenarios/, another file's full path."""
        if self.recent or self.group in ("mine", "folder"):
            return str(self.path)
        return self.path.name if not self.group else f"{self.group}/{self.path.name}"

    @property
    def tag(self) -> str:
        """The word shown at the right of its row."""
        return "file" if self.recent else self.where or self.group


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name the same file (False if either cannot be resolved)."""
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python 3.11's Path.resolve)
        return False


def resolved(path: Path) -> Path:
    """The path with its links followed, or as it is when it cannot be (a symlink loop, a missing folder)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path


def _yaml_files(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.glob("*.y*ml") if p.suffix in (".yaml", ".yml") and p.is_file())
    except OSError:
        return []


MAX_FOLDER_FILES = 500  # a folder's scenario files the menu lists (a home folder given by mistake stays quick)


def folder_files(folder: Path, limit: int | None = None) -> list[Path]:
    """The YAML files in a folder and its subfolders (hidden ones skipped), at most `limit` (MAX_FOLDER_FILES),
    nearest first, within the bounds of skirmish.ui.screens.folder_list."""
    return scan_folder(folder, MAX_FOLDER_FILES if limit is None else limit).files


def _folder_entries(folder: Path, listed: list[Entry], cuts: dict[str, str] | None = None) -> list[Entry]:
    """A folder's scenarios by name, each tagged with the folder (and subfolder) it lies in; files listed
    already (shipped, the user's) are left out. A file that does not load is listed too: the menu shows why.
    What cut the listing short goes in `cuts` under the folder."""
    out = []
    seen = {resolved(e.path) for e in listed}
    listing = scan_folder(folder, MAX_FOLDER_FILES)
    if cuts is not None and listing.cut(MAX_FOLDER_FILES):
        cuts[str(folder)] = listing.cut(MAX_FOLDER_FILES)
    for p in listing.files:
        if resolved(p) in seen:  # listed already, or reached twice in the folder (a link)
            continue
        seen.add(resolved(p))
        sub = p.parent.relative_to(folder).as_posix()
        where = folder.name if sub == "." else f"{folder.name}/{sub}"
        out.append(Entry(p, scenario_name(p), False, "folder", where))
    return sorted(out, key=lambda e: (e.where, e.name.lower()))


def menu_entries(settings: Settings) -> list[Entry]:
    """menu_listing's entries."""
    return menu_listing(settings)[0]


def menu_listing(settings: Settings) -> tuple[list[Entry], dict[str, str]]:
    """The shipped scenarios by name (scenarios/, then its fi/, fw/ and training/ folders), the user's own
    (the editor's folder), the scenarios of the folders opened (`skirmish menu FOLDER`, the Open field), then
    the recently opened files that still exist; and for each folder whose listing was cut short, why."""
    out: list[Entry] = []
    cuts: dict[str, str] = {}
    groups = [("", builtin_scenarios())] + [(g, _yaml_files(SCENARIOS_DIR / g)) for g in SUBFOLDERS]
    groups.append(("mine", _yaml_files(user_scenarios_dir())))
    for group, paths in groups:
        out += sorted((Entry(p, scenario_name(p), False, group) for p in paths), key=lambda e: e.name.lower())
    for text in settings.folders:
        if Path(text).is_dir():
            out += _folder_entries(Path(text), out, cuts)
    for text in settings.recent:
        p = Path(text)
        if p.is_file() and not any(same_file(p, e.path) for e in out):
            out.append(Entry(p, scenario_name(p), True, "file"))
    return told_apart(out), cuts


def told_apart(entries: list[Entry]) -> list[Entry]:
    """Entries whose rows would read the same (one name, one tag: two copies of a scenario in a folder) with
    their file's name after the name: "Duel (duel_copy.yaml)"."""
    count: dict[tuple[str, str], int] = {}
    for e in entries:
        count[(e.name, e.tag)] = count.get((e.name, e.tag), 0) + 1
    return [replace(e, name=f"{e.name} ({e.path.name})") if count[(e.name, e.tag)] > 1 else e for e in entries]


@dataclass
class ListRow:
    """A scenario's row in the list, where it was drawn last frame."""

    rect: pygame.Rect
    index: int


@dataclass
class PathField:
    """The "Open a file" text field."""

    text: str = ""
    editing: bool = False
    error: str | None = None
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))


# ---------------------------------------------------------------------------------------------- the menu
class MenuState:
    """What the menu holds and the moves that change it."""

    def __init__(self, fonts: Fonts, settings: Settings, start: StartBattle, open_path: Path | str | None = None,
                 edit: Callable[[Path | None], Transition] | None = None) -> None:
        self.fonts = fonts
        self.settings = settings
        self.start = start
        self.edit = edit  # the editor on a scenario file, or a new one (the app supplies it)
        self.entries, self.cuts = menu_listing(settings)  # cuts: the folders whose listing was cut short, why
        keys = [e.key for e in self.entries]
        wanted = settings.scenario if settings.scenario in keys else DEFAULT_SCENARIO
        self.index = keys.index(wanted) if wanted in keys else 0
        self.scenario: Scenario | None = None
        self.error: str | None = None
        self.options: dict[str, object] = {}
        self.controls: dict[str, str] = {}
        self.seed_text = str(settings.seed) if settings.seed is not None else ""
        self.buttons = ButtonRow()
        self.rows: list[ListRow] = []
        self.list_top = 0
        self.list_room = 8
        self.focus: int | None = None  # index into the focusable buttons (Tab)
        self.field = PathField()
        self.preview = MapPreview()
        self.preview_rect = pygame.Rect(0, 0, 0, 0)  # where the map was drawn last frame
        self.page: Page | None = None  # the last frame's text, for layout tests
        self.mouse = (-1, -1)
        self._load()
        if open_path is not None:
            self.open_file(str(open_path))

    # ------------------------------------------------------------------ state
    @property
    def entry(self) -> Entry:
        """The selected scenario."""
        return self.entries[self.index]

    def _load(self) -> None:
        try:
            self.scenario = load_scenario(self.entry.path)
            self.error = None
        except ContentError as exc:
            self.scenario, self.error = None, exc.text
            return
        spec = self.scenario.spec
        offered = type(spec.options).model_fields  # the options of the scenario's ruleset (content.parts)
        self.options = {k: getattr(spec.options, k) for k in OPTION_CHOICES if k in offered}
        self.controls = {s.name: self.settings.controls.get(s.name, "ai") for s in spec.sides}
        if not self.seed_text:
            self.seed_text = str(spec.seed)

    def open_file(self, text: str) -> bool:
        """Open a scenario file by path: a good one joins the recent files and is selected; a bad one leaves
        the selection alone and says why in the field's error line."""
        text = text.strip().strip("'\"")
        if not text:
            self.field.error = "type or paste the path of a scenario file (.yaml) or a folder of them"
            return False
        path = Path(text).expanduser()
        if path.is_dir():
            return self.open_folder(path)
        try:
            load_scenario(path)
        except ContentError as exc:
            self.field.text, self.field.error = text, exc.text  # kept in the field to be corrected
            if path.suffix.lower() == ".json":  # most likely a battle record (Ctrl+S, skirmish run --record)
                self.field.error += " (a saved battle? Ctrl+O continues it, Ctrl+R replays it)"
            return False
        found = next((i for i, e in enumerate(self.entries) if same_file(e.path, path)), None)
        if found is None or self.entries[found].recent:
            self.settings.remember(str(path.resolve()))
            self.settings.save()
            self.entries, self.cuts = menu_listing(self.settings)
            found = next(i for i, e in enumerate(self.entries) if same_file(e.path, path))
        self.field = PathField(rect=self.field.rect)
        self._select(found)
        return True

    def open_folder(self, folder: Path) -> bool:
        """Open a folder of scenarios: its files (and its subfolders') join the list, remembered in the settings,
        and the first is selected; a folder with none says so in the field's error line."""
        root = folder.resolve()
        if not folder_files(root, 1):
            self.field.text = str(folder)
            self.field.error = f"{folder}: no scenario files (.yaml, .yml) in it or its subfolders"
            return False
        self.settings.remember_folder(str(root))
        self.settings.save()
        self.entries, self.cuts = menu_listing(self.settings)
        inside = [i for i, e in enumerate(self.entries) if resolved(e.path).is_relative_to(root)]
        self.field = PathField(rect=self.field.rect)
        if str(root) in self.cuts:
            self.field.error = f"{folder}: the listing was cut short: {self.cuts[str(root)]}"
        if inside:
            self.index = -1  # the selection is reloaded even if it keeps its number
            self._select(inside[0])
        return True

    def _cycle_option(self, key: str) -> None:
        if key not in self.options or not self._option_enabled(key):
            return
        choices = OPTION_CHOICES[key]
        cur = self.options.get(key, choices[0])
        self.options[key] = choices[(choices.index(cur) + 1) % len(choices)] if cur in choices else choices[0]

    def _option_enabled(self, key: str) -> bool:
        """The deck matters only when the cards decide (R-3.1); one initiative card only with phases (R-5.1)."""
        if key == "initiative_cards" and self.options.get("initiative") == "cards":
            return False
        return not (key == "deck" and self.options.get("randomizer") == "dice")

    def _cycle_control(self, side: str) -> None:
        self.controls[side] = "human" if self.controls.get(side) == "ai" else "ai"

    def _cycle_players(self) -> None:
        """H: all AI → each side alone against the AI → hot-seat (people play every side) → all AI."""
        sides = list(self.controls)
        presets = [dict.fromkeys(sides, "ai")]
        presets += [{s: ("human" if s == one else "ai") for s in sides} for one in sides]
        presets.append(dict.fromkeys(sides, "human"))
        i = presets.index(self.controls) if self.controls in presets else -1
        self.controls = presets[(i + 1) % len(presets)]

    def _pick(self, delta: int) -> None:
        self._select((self.index + delta) % len(self.entries))

    def _select(self, i: int) -> None:
        if i != self.index or self.scenario is None:
            self.index = i
            self.seed_text = ""
            self.focus = None
            self._load()
        if i < self.list_top:
            self.list_top = i
        elif i >= self.list_top + self.list_room:
            self.list_top = i - self.list_room + 1

    def _new_seed(self) -> None:
        self.seed_text = str(int.from_bytes(os.urandom(3), "big"))  # choosing a seed, not playing with it

    def _go(self) -> Transition | None:
        if self.scenario is None:
            return None
        try:
            sc = self.scenario.with_options(**self.options)
        except ContentError as exc:
            self.field.error = exc.text
            return None
        seed = int(self.seed_text) if self.seed_text.isdigit() else sc.spec.seed
        self.settings.scenario = self.entry.key
        self.settings.seed = seed
        self.settings.controls.update(self.controls)
        self.settings.save()
        return self.start(sc, seed, dict(self.controls))

    def _edit(self) -> None:
        self.field.editing = True
        self.focus = None

    def _open_editor(self, new: bool = False) -> Transition | None:
        """E: the editor on the selected scenario (N: a new one); a file that does not load stays here."""
        if self.edit is None:
            return None
        try:
            return self.edit(None if new else self.entry.path)
        except ContentError as exc:
            self.field.error = exc.text
            return None

    def _focusable(self) -> list[Button]:
        """The buttons Tab moves through (with a tip, enabled; not Start, Quit nor Edit, which have their keys)."""
        return [b for b in self.buttons.buttons if b.enabled and b.tip and not b.label.startswith(("Start", "Quit", "Edit"))]
