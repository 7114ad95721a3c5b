"""Screens and the transitions they return (STYLE 8): the start menu and the results screen.
The battle screen lives in battle_screen.py."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from skirmish.content.errors import ContentError
from skirmish.content.scenario import DEFAULT_SCENARIO, Scenario, builtin_scenarios, load_scenario, scenario_title
from skirmish.core.events import Event
from skirmish.summary import BattleSummary, outcome_title, summarize, unit_sides
from skirmish.ui.charts import draw_standing, draw_wounds, standing_by_round
from skirmish.ui.layout import Page, elide, elide_left
from skirmish.ui.preview import MapPreview, scenario_colours
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Button, ButtonRow, Fonts, edit_line, wrap

if TYPE_CHECKING:
    from skirmish.battle import Outcome


class Screen(Protocol):
    """What the app loop drives."""

    def handle(self, event: pygame.event.Event) -> Transition | None: ...
    def update(self, dt: float) -> Transition | None: ...
    def draw(self, surf: pygame.Surface) -> None: ...


@dataclass
class Push:
    """Show a screen on top."""

    screen: Screen


@dataclass
class Pop:
    """Back to the screen below."""


@dataclass
class Reset:
    """Replace every screen with this one."""

    screen: Screen


@dataclass
class Quit:
    """Leave the app."""


Transition = Push | Pop | Reset | Quit


def _as_transition(result: object) -> Transition | None:
    """A button's action may return a transition; anything else means stay."""
    return result if isinstance(result, Push | Pop | Reset | Quit) else None


OPTION_CHOICES: dict[str, tuple[object, ...]] = {
    "randomizer": ("cards", "dice"),
    "deck": ("A", "B"),
    "scope": ("pulp", "gritty"),
    "initiative_cards": ("one", "per_side", "per_character"),
    "concussion_saves": (True, False),
}
OPTION_KEYS: dict[str, tuple[int, str]] = {
    "randomizer": (pygame.K_c, "C"),
    "deck": (pygame.K_d, "D"),
    "scope": (pygame.K_p, "P"),
    "initiative_cards": (pygame.K_i, "I"),
    "concussion_saves": (pygame.K_v, "V"),
}
OPTION_TIPS: dict[str, str] = {
    "randomizer": "cards: checks read the action deck (R-3.1); dice: dice are rolled instead, no deck",
    "deck": "the action deck the cards come from (not used with dice)",
    "scope": "the TN ladder (R-3.2): pulp or gritty (higher TNs)",
    "initiative_cards": "initiative (R-5.1): one card for everyone, one per side, or one per combatant",
    "concussion_saves": "CT damage forces a Vigor save; a failure stuns (R-8.2)",
}
MENU_KEYS = ("↑↓ scenario · Tab/Space option · C D P I V options · H who plays · 0-9 seed · R new seed · "
             "O open a file · Enter start · Esc quit")
RESULTS_KEYS = "S same seed · N new seed · M menu · G other chart · ↑↓ scroll units · Esc quit"
HOVER_BG = 25  # how much lighter a hovered row is


# ---------------------------------------------------------------------------------------------- scenario list
@dataclass(frozen=True)
class Entry:
    """A scenario the menu lists: its file and its `name:`."""

    path: Path
    name: str
    recent: bool  # opened from a file outside scenarios/

    @property
    def key(self) -> str:
        """What settings.scenario remembers: a shipped scenario's file name, another file's full path."""
        return str(self.path) if self.recent else self.path.name


_NAMES: dict[tuple[str, float], str] = {}


def scenario_name(path: Path) -> str:
    """A scenario file's `name:` (the file name if it has none or cannot be read), cached by modification
    time; reading only the YAML keeps a long list quick."""
    fallback = path.stem.replace("_", " ")
    try:
        key = (str(path), path.stat().st_mtime)
    except OSError:
        return fallback
    if key not in _NAMES:
        _NAMES[key] = scenario_title(path) or fallback  # bounded like the loader: a FIFO or a bomb cannot hurt
    return _NAMES[key]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def menu_entries(settings: Settings) -> list[Entry]:
    """The shipped scenarios by name, then the recently opened files that still exist."""
    shipped = sorted((Entry(p, scenario_name(p), False) for p in builtin_scenarios()), key=lambda e: e.name.lower())
    out = list(shipped)
    for text in settings.recent:
        p = Path(text)
        if p.is_file() and not any(_same_file(p, e.path) for e in out):
            out.append(Entry(p, scenario_name(p), True))
    return out


# ---------------------------------------------------------------------------------------------- start menu
@dataclass
class _Row:
    rect: pygame.Rect
    index: int


@dataclass
class _Field:
    """The "Open a file" text field."""

    text: str = ""
    editing: bool = False
    error: str | None = None
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))


class MenuScreen:
    """Pick a scenario (shipped, recent, or a file opened by path), its options, who controls each side and
    the seed, with the map and the forces previewed; Enter starts."""

    def __init__(self, fonts: Fonts, settings: Settings, start: StartBattle, open_path: Path | str | None = None) -> None:
        self.fonts = fonts
        self.settings = settings
        self.start = start
        self.entries = menu_entries(settings)
        keys = [e.key for e in self.entries]
        wanted = settings.scenario if settings.scenario in keys else DEFAULT_SCENARIO
        self.index = keys.index(wanted) if wanted in keys else 0
        self.scenario: Scenario | None = None
        self.error: str | None = None
        self.options: dict[str, object] = {}
        self.controls: dict[str, str] = {}
        self.seed_text = str(settings.seed) if settings.seed is not None else ""
        self.buttons = ButtonRow()
        self.rows: list[_Row] = []
        self.list_top = 0
        self.list_room = 8
        self.focus: int | None = None  # index into the focusable buttons (Tab)
        self.field = _Field()
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
        self.options = {k: getattr(spec.options, k) for k in OPTION_CHOICES}
        self.controls = {s.name: self.settings.controls.get(s.name, "ai") for s in spec.sides}
        if not self.seed_text:
            self.seed_text = str(spec.seed)

    def open_file(self, text: str) -> bool:
        """Open a scenario file by path: a good one joins the recent files and is selected; a bad one leaves
        the selection alone and says why in the field's error line."""
        text = text.strip().strip("'\"")
        if not text:
            self.field.error = "type or paste the path of a scenario file (.yaml)"
            return False
        path = Path(text).expanduser()
        try:
            load_scenario(path)
        except ContentError as exc:
            self.field.text, self.field.error = text, exc.text  # kept in the field to be corrected
            if path.suffix.lower() == ".json":  # most likely a battle record (Ctrl+S, skirmish run --record)
                self.field.error += " (a saved battle? Ctrl+O continues it, Ctrl+R replays it)"
            return False
        found = next((i for i, e in enumerate(self.entries) if _same_file(e.path, path)), None)
        if found is None or self.entries[found].recent:
            self.settings.remember(str(path.resolve()))
            self.settings.save()
            self.entries = menu_entries(self.settings)
            found = next(i for i, e in enumerate(self.entries) if _same_file(e.path, path))
        self.field = _Field(rect=self.field.rect)
        self._select(found)
        return True

    def _cycle_option(self, key: str) -> None:
        if not self._option_enabled(key):
            return
        choices = OPTION_CHOICES[key]
        cur = self.options.get(key, choices[0])
        self.options[key] = choices[(choices.index(cur) + 1) % len(choices)] if cur in choices else choices[0]

    def _option_enabled(self, key: str) -> bool:
        """The deck matters only when the cards decide (R-3.1)."""
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
            self.error = exc.text
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

    # ------------------------------------------------------------------ input
    def _focusable(self) -> list[Button]:
        return [b for b in self.buttons.buttons if b.enabled and b.tip and not b.label.startswith(("Start", "Quit"))]

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """Keys (shown at the bottom of the screen), clicks, the wheel over the list, files dropped on the window."""
        if event.type == pygame.KEYDOWN:
            if self.field.editing:
                return self._field_key(event)
            return self._key(event)
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = event.pos
            if self.field.rect.collidepoint(event.pos):
                self._edit()
                return None
            self.field.editing = False
            for row in self.rows:
                if row.rect.collidepoint(event.pos):
                    self._select(row.index)
                    return None
            return _as_transition(self.buttons.press(event.pos)[1])
        elif event.type == pygame.MOUSEWHEEL:
            self.list_top = max(0, min(len(self.entries) - self.list_room, self.list_top - event.y))
        elif event.type == pygame.DROPFILE:
            self.open_file(str(event.file))
        return None

    def _key(self, event: pygame.event.Event) -> Transition | None:
        k = event.key
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            return self._go()
        if k == pygame.K_ESCAPE:
            if self.focus is not None:
                self.focus = None
                return None
            return Quit()
        if k in (pygame.K_UP, pygame.K_LEFT):
            self._pick(-1)
        elif k in (pygame.K_DOWN, pygame.K_RIGHT):
            self._pick(1)
        elif k == pygame.K_TAB:
            items = self._focusable()
            if items:
                step = -1 if event.mod & pygame.KMOD_SHIFT else 1
                start = -1 if step == 1 else 0
                self.focus = ((self.focus if self.focus is not None else start) + step) % len(items)
        elif k == pygame.K_SPACE:
            items = self._focusable()
            if self.focus is not None and self.focus < len(items):
                items[self.focus].on()
        elif k == pygame.K_BACKSPACE:
            self.seed_text = self.seed_text[:-1]
        elif k == pygame.K_r:
            self._new_seed()
        elif k == pygame.K_o:
            self._edit()
        elif k == pygame.K_h:
            self._cycle_players()
        elif any(k == key for key, _ in OPTION_KEYS.values()):
            self._cycle_option(next(name for name, (key, _) in OPTION_KEYS.items() if key == k))
        elif event.unicode and event.unicode.isdigit() and len(self.seed_text) < 9:
            self.seed_text += event.unicode
        return None

    def _field_key(self, event: pygame.event.Event) -> Transition | None:
        """Typing a path: Enter opens it, Esc leaves the field, Ctrl+V pastes, Ctrl+U clears."""
        f = self.field
        f.text, done = edit_line(f.text, event)
        if done == "enter":
            self.open_file(f.text)
        elif done is not None or event.key == pygame.K_TAB:
            f.editing = False
        return None

    def update(self, dt: float) -> Transition | None:
        """Nothing moves here."""
        return None

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface) -> None:
        """Lay out and draw the menu for the window's size (rebuilt each frame, so it follows resizing)."""
        f = self.fonts
        page = Page(surf, f)
        self.page = page
        w, h = surf.get_size()
        surf.fill((20, 22, 28))
        m = 16 if w >= 1000 else 12
        title_font = f.huge if h >= 700 else f.big
        title = page.text(title_font, "skirmish", ACCENT, (m + 4, 6))
        page.text(f.normal, "Future Imperfect squad battles: pick a scenario, set who plays, press Enter", DIM,
                  (title.right + 18, title.bottom - f.normal.get_linesize() - 4), width=w - title.right - 18 - m)
        self.buttons.buttons = []
        foot = self._draw_footer(page, m)
        top, bottom = title.bottom + 6, foot - 6
        left_w = max(180, min(300, int(w * 0.25)))
        left = pygame.Rect(m, top, left_w, bottom - top)
        right = pygame.Rect(left.right + 12, top, w - m - left.right - 12, bottom - top)
        self._draw_list(page, left)
        self._draw_details(page, right)
        self._fit_labels()
        focus = self._focusable()
        self.buttons.draw(surf, f)
        if self.focus is not None and self.focus < len(focus):
            pygame.draw.rect(surf, ACCENT, focus[self.focus].rect.inflate(4, 4), 2, border_radius=6)
        page.buttons(self.buttons.buttons)
        self._draw_tip(page, m, foot)

    def _fit_labels(self) -> None:
        for b in self.buttons.buttons:
            b.label = elide(self.fonts.normal, b.label, b.rect.w - 12)

    def _draw_footer(self, page: Page, m: int) -> int:
        """Key hints at the bottom (wrapped); returns the y where they start, leaving a line for the tip."""
        f = page.fonts
        w, h = page.surf.get_size()
        lh = f.small.get_linesize()
        lines = wrap(f.small, MENU_KEYS, w - 2 * m)[:2]
        y = h - 6 - lh * len(lines)
        for i, line in enumerate(lines):
            page.text(f.small, line, DIM, (m, y + i * lh), width=w - 2 * m)
        return y - lh - 2

    def _draw_tip(self, page: Page, m: int, y: int) -> None:
        """What the hovered (or focused) control does, with its key."""
        f = page.fonts
        tip = None
        for b in self.buttons.buttons:
            if b.tip and b.rect.collidepoint(self.mouse):
                tip = b.tip
        if tip is None:
            focus = self._focusable()
            if self.focus is not None and self.focus < len(focus):
                tip = focus[self.focus].tip
        if tip is None and any(r.rect.collidepoint(self.mouse) for r in self.rows):
            tip = "click to choose this scenario (↑/↓ move through the list)"
        if tip is None and self.field.rect.collidepoint(self.mouse):
            tip = ("click or press O, type or paste (Ctrl+V) a path: Enter opens a scenario (dropped files open too); "
                   "a save (.json): Ctrl+O continues it, Ctrl+R replays it")
        if tip:
            page.text(f.small, tip, ACCENT, (m, y), width=page.surf.get_width() - 2 * m)

    def _panel(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surf, PANEL_BG, rect)
        pygame.draw.rect(surf, PANEL_EDGE, rect, 1)

    def _draw_list(self, page: Page, rect: pygame.Rect) -> None:
        """Scenarios by name (recent files marked), and the Open field with its error line."""
        f, surf = page.fonts, page.surf
        self._panel(surf, rect)
        inner = rect.inflate(-16, -16)
        lh_s, lh_n = f.small.get_linesize(), f.normal.get_linesize()
        y = page.text(f.normal, "Scenarios (↑/↓)", ACCENT, (inner.x, inner.y), width=inner.w).bottom + 6
        # the Open field, from the bottom up: error lines, field, heading
        err_lines = 0
        if self.field.error:
            err_lines = min(4, len(wrap(f.small, self.field.error, inner.w)))
        field_h = lh_n + 10
        block = lh_n + 4 + field_h + (4 + err_lines * lh_s if err_lines else 0)
        fy = inner.bottom - block
        page.text(f.normal, "Open a file (O)", ACCENT, (inner.x, fy), width=inner.w)
        self.field.rect = pygame.Rect(inner.x, fy + lh_n + 4, inner.w, field_h)
        fr = self.field.rect
        hover = fr.collidepoint(self.mouse)
        pygame.draw.rect(surf, (16, 17, 22) if not hover else (26, 28, 34), fr, border_radius=4)
        pygame.draw.rect(surf, ACCENT if self.field.editing else PANEL_EDGE, fr, 1, border_radius=4)
        if self.field.text or self.field.editing:
            shown = elide_left(f.small, self.field.text + ("|" if self.field.editing else ""), fr.w - 12)
            page.text(f.small, shown, TEXT, (fr.x + 6, fr.centery), anchor="midleft")
        else:
            page.text(f.small, "a .yaml scenario or a .json save", DIM, (fr.x + 6, fr.centery), anchor="midleft", width=fr.w - 12)
        if err_lines and self.field.error:
            page.para(f.small, self.field.error, BAD, inner.x, fr.bottom + 4, inner.w, err_lines)
        # the list
        row_h = lh_n + 8
        self.list_room = max(1, (fy - 8 - y) // (row_h + 4))
        self.list_top = max(0, min(self.list_top, len(self.entries) - self.list_room))
        self.rows = []
        for i in range(self.list_top, min(len(self.entries), self.list_top + self.list_room)):
            e = self.entries[i]
            r = pygame.Rect(inner.x, y, inner.w, row_h)
            bg = (120, 96, 40) if i == self.index else (52, 58, 72)
            if r.collidepoint(self.mouse):
                bg = tuple(min(255, c + HOVER_BG) for c in bg)  # type: ignore[assignment]
            pygame.draw.rect(surf, bg, r, border_radius=5)
            tag_w = 0
            if e.recent:
                tag = page.text(f.small, "file", DIM, (r.right - 8, r.centery), anchor="midright")
                tag_w = tag.w + 8
            page.text(f.normal, e.name, TEXT, (r.x + 10, r.centery), anchor="midleft", width=r.w - 20 - tag_w)
            self.rows.append(_Row(r, i))
            y += row_h + 4
        hidden = len(self.entries) - len(self.rows)
        if hidden > 0 and y + lh_s <= fy - 4:
            page.text(f.small, f"{hidden} more: wheel or ↑/↓", DIM, (inner.x, y), width=inner.w)

    def _draw_details(self, page: Page, rect: pygame.Rect) -> None:
        """Name, description, options, who plays, the map with the forces, seed and the start buttons."""
        f, surf = page.fonts, page.surf
        self._panel(surf, rect)
        inner = rect.inflate(-24, -20)
        x0, y = inner.x, inner.y
        lh_n = f.normal.get_linesize()
        btn_h = lh_n + 8
        bottom_row = inner.bottom - btn_h
        self.preview_rect = pygame.Rect(0, 0, 0, 0)
        if self.scenario is None:
            page.text(f.big, self.entry.name, TEXT, (x0, y), width=inner.w)
            y += f.big.get_linesize() + 4
            page.para(f.normal, self.error or "", BAD, x0, y, inner.w, max(1, (bottom_row - y - 8) // lh_n))
            self._bottom_row(page, inner.x, bottom_row, inner.w, btn_h)
            return
        spec = self.scenario.spec
        grid = self.scenario.grid
        y = page.text(f.big, spec.name, TEXT, (x0, y), width=inner.w).bottom + 2
        y = page.para(f.small, (spec.description or "").strip(), DIM, x0, y, inner.w, 2 if surf.get_height() < 700 else 4)
        units = sum(len(s.units) for s in spec.sides)
        info = (f"ruleset {spec.ruleset} · map {grid.name} {grid.width}×{grid.height} ({grid.cell_m:g} m cells) · "
                f"{units} combatants · round limit {spec.victory.max_rounds}")
        y = page.text(f.small, info, DIM, (x0, y + 2), width=inner.w).bottom + 8
        col_w = min(330, max(200, int(inner.w * 0.42)))
        left = pygame.Rect(x0, y, col_w, bottom_row - 8 - y)
        right = pygame.Rect(x0 + col_w + 16, y, inner.right - x0 - col_w - 16, bottom_row - 8 - y)
        head = lh_n + 4
        options_h = head + len(OPTION_CHOICES) * (btn_h + 4)
        sides_h = head + len(spec.sides) * (btn_h + 4)
        self._options(page, left, btn_h)
        if options_h + 8 + sides_h <= left.h:  # the sides fit under the options: the map takes the whole column
            self._sides(page, pygame.Rect(left.x, left.y + options_h + 8, left.w, sides_h), btn_h)
            self.preview_rect = self.preview.draw(surf, right, self.scenario)
        else:
            map_box = pygame.Rect(right.x, right.y, right.w, max(40, right.h - sides_h - 8))
            self.preview_rect = self.preview.draw(surf, map_box, self.scenario)
            self._sides(page, pygame.Rect(right.x, map_box.bottom + 8, right.w, sides_h), btn_h)
        self._bottom_row(page, inner.x, bottom_row, inner.w, btn_h)  # after the rest: Tab goes options, sides, seed

    def _options(self, page: Page, rect: pygame.Rect, btn_h: int) -> None:
        f = page.fonts
        y = page.text(f.normal, "Options (click or key)", ACCENT, (rect.x, rect.y), width=rect.w).bottom + 4
        for key in OPTION_CHOICES:
            if y + btn_h > rect.bottom:
                break
            val = self.options.get(key)
            shown = ("yes" if val else "no") if isinstance(val, bool) else str(val).replace("_", " ")
            letter = OPTION_KEYS[key][1]
            enabled = self._option_enabled(key)
            label = f"{letter}  {key.replace('_', ' ')}: {shown}" if enabled else f"{key}: not used with dice"
            tip = f"{letter}: {OPTION_TIPS[key]}" if enabled else "the deck is not used when dice decide"
            self.buttons.buttons.append(Button(label, partial(self._cycle_option, key), rect=pygame.Rect(
                rect.x, y, rect.w, btn_h), enabled=enabled, tip=tip))
            y += btn_h + 4

    def _sides(self, page: Page, rect: pygame.Rect, btn_h: int) -> None:
        """Who plays each side, beside a swatch in the side's colour (the colour of its dots on the map)."""
        assert self.scenario is not None
        f, surf = page.fonts, page.surf
        spec = self.scenario.spec
        colours = scenario_colours(self.scenario)
        y = page.text(f.normal, "Sides (click or H: AI / human)", ACCENT, (rect.x, rect.y), width=rect.w).bottom + 4
        for s in spec.sides:
            if y + btn_h > rect.bottom:
                break
            who = self.controls.get(s.name, "ai")
            pygame.draw.rect(surf, colours[s.name], (rect.x, y + 4, 10, btn_h - 8), border_radius=3)
            r = pygame.Rect(rect.x + 16, y, rect.w - 16, btn_h)
            self.buttons.buttons.append(Button(f"{s.name} ({len(s.units)}): {'HUMAN' if who == 'human' else 'AI'}",
                                               partial(self._cycle_control, s.name), rect=r, active=who == "human",
                                               tip=f"{s.name}: played by a person or by its AI (H cycles all sides)"))
            y += btn_h + 4

    def _bottom_row(self, page: Page, x: int, y: int, width: int, h: int) -> None:
        f = page.fonts
        start_w = f.normal.size("Start (Enter)")[0] + 28
        seed_label = f"Seed {self.seed_text or '—'}_"
        seed_w = max(f.normal.size("Seed 000000000_")[0], f.normal.size(seed_label)[0]) + 8
        new_w = f.normal.size("New seed (R)")[0] + 24
        quit_w = f.normal.size("Quit (Esc)")[0] + 24
        if start_w + seed_w + new_w + quit_w + 18 > width:  # a narrow window: Esc still quits
            quit_w = 0
        gap = max(6, min(14, (width - start_w - seed_w - new_w - quit_w) // 3))
        self.buttons.buttons.append(Button("Start (Enter)", self._go, rect=pygame.Rect(x, y, start_w, h),
                                           enabled=self.scenario is not None, tip="Enter: start the battle"))
        sx = x + start_w + gap
        page.text(f.normal, seed_label, TEXT, (sx + 4, y + h // 2), anchor="midleft")
        nx = sx + seed_w + gap
        self.buttons.buttons.append(Button("New seed (R)", self._new_seed, rect=pygame.Rect(nx, y, new_w, h),
                                           tip="R: a random seed; or type digits (Backspace deletes)"))
        if quit_w:
            self.buttons.buttons.append(Button("Quit (Esc)", Quit, rect=pygame.Rect(nx + new_w + gap, y, quit_w, h),
                                               tip="Esc: leave skirmish"))


class StartBattle(Protocol):
    """Makes the transition into a battle (the app supplies it)."""

    def __call__(self, scenario: Scenario, seed: int, controls: dict[str, str]) -> Transition: ...


# ---------------------------------------------------------------------------------------------- results
class ResultsScreen:
    """Who won, casualties per side, who did what, the telling moments and a chart; restart with the same
    seed or a new one, or back to the menu."""

    def __init__(self, fonts: Fonts, outcome: Outcome, scenario: Scenario, controls: dict[str, str],
                 start: StartBattle, menu: MenuFactory, log_path: Path | None, events: Sequence[Event] = ()) -> None:
        self.fonts = fonts
        self.outcome = outcome
        self.scenario = scenario
        self.controls = controls
        self.start = start
        self.menu = menu
        self.log_path = log_path
        self.buttons = ButtonRow()
        sides = [(s.name, [u.name for u in s.units]) for s in scenario.spec.sides]
        self.unit_sides = unit_sides(sides)
        self.summary: BattleSummary = summarize(events, self.unit_sides)
        self.side_names = [s for s, _ in sides]
        self.colours = scenario_colours(scenario)
        rounds = self.summary.rounds or outcome.rounds
        self.standing = standing_by_round(events, self.unit_sides, self.side_names, rounds)
        self.chart = "standing"  # or "wounds"
        self.scroll = 0  # first unit row shown
        self.page: Page | None = None
        self.mouse = (-1, -1)

    @property
    def title(self) -> str:
        """"Victory: Blue" or "Draw" (one form for every side name: not "Blue win" nor "Raiders wins")."""
        return outcome_title(self.outcome.winner)

    def _same(self) -> Transition:
        return self.start(self.scenario, self.outcome.seed, self.controls)

    def _new(self) -> Transition:
        return self.start(self.scenario, int.from_bytes(os.urandom(3), "big"), self.controls)

    def _toggle_chart(self) -> None:
        self.chart = "wounds" if self.chart == "standing" else "standing"

    def handle(self, event: pygame.event.Event) -> Transition | None:
        """S same seed, N new seed, M menu, G other chart, ↑/↓ scroll the units, Esc/Q quit."""
        if event.type == pygame.KEYDOWN:
            k = event.key
            if k == pygame.K_s:
                return self._same()
            if k == pygame.K_n:
                return self._new()
            if k == pygame.K_m:
                return Reset(self.menu())
            if k in (pygame.K_ESCAPE, pygame.K_q):
                return Quit()
            if k == pygame.K_g:
                self._toggle_chart()
            elif k in (pygame.K_UP, pygame.K_PAGEUP):
                self.scroll = max(0, self.scroll - (1 if k == pygame.K_UP else 5))
            elif k in (pygame.K_DOWN, pygame.K_PAGEDOWN):
                self.scroll = min(max(0, len(self.unit_sides) - 1), self.scroll + (1 if k == pygame.K_DOWN else 5))
        elif event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(max(0, len(self.unit_sides) - 1), self.scroll - event.y))
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            return _as_transition(self.buttons.press(event.pos)[1])
        return None

    def update(self, dt: float) -> Transition | None:
        """Nothing moves here."""
        return None

    def draw(self, surf: pygame.Surface) -> None:
        """Title, then casualties and the unit table on the left, the chart and the moments on the right,
        buttons and keys at the bottom; sized to the window."""
        f = self.fonts
        page = Page(surf, f)
        self.page = page
        surf.fill((18, 20, 26))
        w, h = surf.get_size()
        m = 16 if w >= 1000 else 12
        o = self.outcome
        title_font = f.huge if h >= 700 else f.big
        t = page.text(title_font, self.title, ACCENT, (w // 2, 8), anchor="midtop", width=w - 2 * m)
        if o.winner in self.colours:
            pygame.draw.rect(surf, self.colours[o.winner], (w // 2 - 80, t.bottom + 2, 160, 5), border_radius=2)
        reason = f" · {self.summary.reason}" if self.summary.reason else ""
        sub = (f"{self.scenario.spec.name} · seed {o.seed} · {o.rounds} round{'s' if o.rounds != 1 else ''}"
               f"{reason}")
        y = page.text(f.normal, sub, TEXT, (w // 2, t.bottom + 10), anchor="midtop", width=w - 2 * m).bottom + 10
        # bottom: keys, log line, buttons
        lh_s = f.small.get_linesize()
        keys_y = h - 6 - lh_s
        page.text(f.small, RESULTS_KEYS, DIM, (m, keys_y), width=w - 2 * m)
        tip_y = keys_y - lh_s - 2
        log_y = tip_y - lh_s - 2
        if self.log_path is not None:
            page.text(f.small, elide_left(f.small, f"log saved: {self.log_path}", w - 2 * m), DIM, (m, log_y))
        btn_h = f.normal.get_linesize() + 10
        btn_y = log_y - 8 - btn_h
        self._buttons(page, w // 2, btn_y, btn_h, w - 2 * m)
        body = pygame.Rect(m, y, w - 2 * m, btn_y - 10 - y)
        left_w = int(body.w * 0.56)
        self._draw_left(page, pygame.Rect(body.x, body.y, left_w, body.h))
        self._draw_right(page, pygame.Rect(body.x + left_w + 12, body.y, body.w - left_w - 12, body.h))
        self.buttons.draw(surf, f)
        page.buttons(self.buttons.buttons)
        tip = next((b.tip for b in self.buttons.buttons if b.tip and b.rect.collidepoint(self.mouse)), None)
        if tip:
            page.text(f.small, tip, ACCENT, (m, tip_y), width=w - 2 * m)

    def _buttons(self, page: Page, cx: int, y: int, h: int, room: int) -> None:
        f = page.fonts
        specs: list[tuple[str, Callable[[], object], str]] = [
            ("Same seed (S)", self._same, "S: the same battle again (same seed, same sides)"),
            ("New seed (N)", self._new, "N: the same scenario with a new seed"),
            ("Menu (M)", lambda: Reset(self.menu()), "M: back to the start menu"),
            ("Quit (Esc)", Quit, "Esc or Q: leave skirmish")]
        widths = [f.normal.size(label)[0] + 28 for label, _, _ in specs]
        gap = max(6, min(16, (room - sum(widths)) // 3))
        x = cx - (sum(widths) + gap * 3) // 2
        self.buttons.buttons = []
        for (label, fn, tip), bw in zip(specs, widths, strict=True):
            self.buttons.buttons.append(Button(label, fn, rect=pygame.Rect(x, y, bw, h), tip=tip))
            x += bw + gap

    def _panel(self, surf: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surf, PANEL_BG, rect)
        pygame.draw.rect(surf, PANEL_EDGE, rect, 1)

    def _draw_left(self, page: Page, rect: pygame.Rect) -> None:
        """Casualties per side, then the unit table (shots, hits, wounds dealt, enemies put down, fate)."""
        f, surf, s = page.fonts, page.surf, self.summary
        self._panel(surf, rect)
        inner = rect.inflate(-20, -16)
        font = f.normal if surf.get_height() >= 700 else f.small  # the table in larger type when there is room
        lh_s = font.get_linesize()
        y = page.text(f.normal, "Casualties", ACCENT, (inner.x, inner.y), width=inner.w).bottom + 4
        for side in self.side_names:
            members = [u for u in s.units.values() if u.side == side]
            down = [u for u in members if u.fate != "standing"]
            lost = ", ".join(f"{u.name} ({u.fate})" for u in down) or "none"
            pygame.draw.rect(surf, self.colours[side], (inner.x, y + 4, 8, lh_s - 8), border_radius=2)
            y = page.para(font, f"{side}: {len(members) - len(down)} of {len(members)} standing · lost: {lost}",
                          TEXT, inner.x + 14, y, inner.w - 14, 2)
        y += 8
        y = page.text(f.normal, "Who did what", ACCENT, (inner.x, y), width=inner.w).bottom + 4
        cols = [("shots", "shots"), ("hits", "hits"), ("wounds", "wounds_dealt"), ("down", "put_down")]
        num_w = max(font.size(c)[0] for c, _ in cols) + 14
        fate_w = font.size("incapacitated")[0] + 8
        name_w = min(inner.w - 14 - num_w * len(cols) - fate_w, max(font.size(n)[0] for n in self.unit_sides) + 16)
        if name_w < 60:  # a narrow window: leave the fate column out
            fate_w, name_w = 0, inner.w - 14 - num_w * len(cols)
        xs = [inner.x + 14 + name_w + num_w * (i + 1) for i in range(len(cols))]
        page.text(font, "unit", DIM, (inner.x + 14, y))
        for (label, _), x in zip(cols, xs, strict=True):
            page.text(font, label, DIM, (x - 6, y), anchor="topright")
        if fate_w:
            page.text(font, "fate", DIM, (xs[-1] + 8, y))
        y += lh_s + 2
        order = [s.units[n] for n in self.unit_sides if n in s.units]
        room = max(1, (inner.bottom - y) // lh_s)
        if len(order) > room:
            room -= 1  # a line saying how many more
        self.scroll = max(0, min(self.scroll, max(0, len(order) - room)))
        for u in order[self.scroll:self.scroll + room]:
            pygame.draw.rect(surf, self.colours.get(u.side, TEXT), (inner.x, y + 4, 8, lh_s - 8), border_radius=2)
            page.text(font, u.name, TEXT if u.fate == "standing" else DIM, (inner.x + 14, y), width=name_w - 6)
            for (_, attr), x in zip(cols, xs, strict=True):
                page.text(font, str(getattr(u, attr)), TEXT, (x - 6, y), anchor="topright")
            if fate_w:
                page.text(font, u.fate, DIM if u.fate == "standing" else BAD, (xs[-1] + 8, y), width=fate_w - 8)
            y += lh_s
        more = len(order) - self.scroll - room
        if more > 0 or self.scroll:
            page.text(font, f"{self.scroll} above, {max(0, more)} below: ↑/↓ or wheel", DIM, (inner.x + 14, y),
                      width=inner.w - 14)

    def _draw_right(self, page: Page, rect: pygame.Rect) -> None:
        """The chart (G switches it) and the three most telling moments."""
        f, surf, s = page.fonts, page.surf, self.summary
        self._panel(surf, rect)
        inner = rect.inflate(-20, -16)
        font = f.normal if surf.get_height() >= 700 else f.small  # larger type when there is room
        lh_s, lh_n = f.small.get_linesize(), f.normal.get_linesize()
        moments = s.top_moments(3)
        moments_h = lh_n + 14 + max(1, len(moments)) * (2 * font.get_linesize() + 2)
        title = "Standing after each round (G)" if self.chart == "standing" else "Wounds dealt per unit (G)"
        y = page.text(f.normal, title, ACCENT, (inner.x, inner.y), width=inner.w).bottom + 2
        if self.chart == "standing":
            x = inner.x
            for side in self.side_names:  # the legend
                pygame.draw.rect(surf, self.colours[side], (x, y + lh_s // 2 - 2, 14, 4))
                r = page.text(f.small, side, DIM, (x + 18, y), width=max(0, inner.right - x - 18))
                x = r.right + 14
            y += lh_s + 2
        chart = pygame.Rect(inner.x, y, inner.w, max(30, min(inner.w * 2 // 3, inner.bottom - moments_h - 8 - y)))
        if self.chart == "standing":
            draw_standing(page, chart, self.standing, self.colours)
        else:
            draw_wounds(page, chart, list(s.units.values()), self.colours)
        y = page.text(f.normal, "Telling moments", ACCENT, (inner.x, chart.bottom + 10), width=inner.w).bottom + 4
        lines = 2 if inner.bottom - y >= 3 * (2 * font.get_linesize() + 2) else 1
        if not moments:
            page.text(font, "none: nobody was badly hurt", DIM, (inner.x, y), width=inner.w)
        for mo in moments:
            y = page.para(font, f"Round {mo.round}: {mo.text}", TEXT, inner.x, y, inner.w, lines) + 2


class MenuFactory(Protocol):
    """Builds a fresh menu screen."""

    def __call__(self) -> Screen: ...
