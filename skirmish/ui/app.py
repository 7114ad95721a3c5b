"""The board's application: one window, a stack of screens, transitions applied in one place (STYLE 8),
screenshots, remembered settings. `App.tick()` runs one frame, so tests can drive it with posted events."""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path

import pygame

from skirmish import record
from skirmish.content.errors import ContentError
from skirmish.content.scenario import Scenario
from skirmish.fileio import atomic_path
from skirmish.log import EventLog
from skirmish.ui.art import draw_icon
from skirmish.ui.battle import BattleScreen, outcome_of
from skirmish.ui.editor import EditorDoc, EditorScreen
from skirmish.ui.editor.dialog import PathDialog
from skirmish.ui.replay import ReplayScreen
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.save_as import SaveAsScreen
from skirmish.ui.screens import (
    MenuFactory,
    MenuScreen,
    Pop,
    Push,
    Quit,
    Reset,
    ResultsScreen,
    Screen,
    StartBattle,
    Transition,
)
from skirmish.ui.session import Session
from skirmish.ui.settings import Settings, config_dir, load_settings
from skirmish.ui.widgets import ACCENT, Fonts

FPS = 60


def saves_dir() -> Path:
    """Where Ctrl+S saves battles and Ctrl+O finds the latest: `saves/` in the settings folder."""
    return config_dir() / "saves"


def latest_save(folder: Path | None = None) -> Path | None:
    """The most recently written `*.json` in the saves folder, or None."""
    folder = folder or saves_dir()
    try:
        found = [(p.stat().st_mtime_ns, p.name, p) for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return None
    return max(found)[2] if found else None


class App:
    """The window and its screens."""

    def __init__(self, *, scenario: Scenario | None = None, seed: int | None = None,
                 controls: dict[str, str] | None = None, settings: Settings | None = None,
                 size: tuple[int, int] | None = None, ai: dict[str, str] | None = None,
                 session: Session | None = None, replay: ReplaySession | None = None) -> None:
        self.settings = settings or load_settings()
        # `--ai SIDE=AI`: {side: AI spec} for this scenario's battles (a replay too, not other scenarios)
        self.ai_overrides = (scenario.source, dict(ai)) if scenario is not None and ai else None
        pygame.display.init()
        pygame.font.init()
        self.size = size or self.settings.window
        pygame.display.set_caption("skirmish")
        pygame.display.set_icon(draw_icon(64))
        self.window = pygame.display.set_mode(self.size, pygame.RESIZABLE)
        self.fonts = Fonts()
        self.clock = pygame.time.Clock()
        self.running = True
        self.stack: list[Screen] = []
        self.toast: tuple[str, float] | None = None
        self.last_screenshot: Path | None = None
        self.last_log: Path | None = None
        self.frame_ms: list[float] = []
        if session is not None:  # a battle loaded from a record (`skirmish play --load FILE`)
            self.stack = [self._board(session)]
        elif replay is not None:  # a record on the replay viewer (`skirmish replay FILE --board`)
            self.stack = [self._replay_screen(replay)]
        elif scenario is not None:
            first = self.start_battle(scenario, seed if seed is not None else scenario.spec.seed,
                                      controls or {})
            assert isinstance(first, Reset)
            self.stack = [first.screen]
        else:
            self.stack = [self.make_menu()]

    # ------------------------------------------------------------------ screens
    def make_menu(self) -> Screen:
        """A fresh start menu."""
        return MenuScreen(self.fonts, self.settings, self.start_battle, edit=self.edit_transition)

    # ------------------------------------------------------------------ the scenario editor (ui/editor)
    def make_editor(self, doc: EditorDoc | None = None) -> EditorScreen:
        """The editor on a scenario (a new one by default); test play comes back to it, Esc goes to the menu."""
        return EditorScreen(self.fonts, self.settings, doc or EditorDoc.new(), play=self.test_play,
                            back=self.make_menu)

    def open_editor(self, path: Path | str | None = None) -> EditorScreen:
        """Show the editor on a scenario file (`skirmish edit PATH`), checked first: ContentError if bad."""
        editor = self.make_editor(EditorDoc.open(Path(path)) if path is not None else None)
        self.apply(Reset(editor))
        return editor

    def edit_doc_transition(self, doc: EditorDoc) -> Transition:
        """The editor on a scenario already read (`skirmish edit`)."""
        return Reset(self.make_editor(doc))

    def edit_transition(self, path: Path | None) -> Transition:
        """The menu's Edit: the editor on this scenario (None: a new one); ContentError if it does not load."""
        return Reset(self.make_editor(EditorDoc.open(path) if path is not None else None))

    def test_play(self, scenario: Scenario, editor: Screen, person: bool = False) -> Transition:
        """The editor's test play: the battle (AI against AI, or a person on the first side), and back to the
        editor from the board (Esc) or the results (M)."""
        sides = [s.name for s in scenario.spec.sides]
        controls = {s: ("human" if person and i == 0 else "ai") for i, s in enumerate(sides)}
        return self.start_battle(scenario, scenario.spec.seed, controls, back=lambda: editor)

    def open_menu(self, scenario_path: Path | str) -> MenuScreen:
        """Show the start menu with this scenario file opened (`skirmish menu PATH`); a bad file is reported in
        the menu's Open line."""
        menu = MenuScreen(self.fonts, self.settings, self.start_battle, scenario_path, edit=self.edit_transition)
        self.apply(Reset(menu))
        return menu

    def start_battle(self, scenario: Scenario, seed: int, controls: dict[str, str],
                     back: MenuFactory | None = None) -> Transition:
        """The transition into a new battle; `back`: the screen Esc and the results' M go to (the menu)."""
        self._close_sessions()
        ai = self.ai_overrides[1] if self.ai_overrides and self.ai_overrides[0] == scenario.source else None
        session = Session(scenario, seed, controls, ai=ai)
        return Reset(self._board(session, back))

    def _board(self, session: Session, back: MenuFactory | None = None) -> BattleScreen:
        if back is None:
            return BattleScreen(self.fonts, self.settings, session, self._battle_over, self.make_menu,
                                self.window.get_size())
        return BattleScreen(self.fonts, self.settings, session, partial(self._battle_over, back=back), back,
                            self.window.get_size())

    def _replay_screen(self, replay: ReplaySession) -> ReplayScreen:
        return ReplayScreen(self.fonts, self.settings, replay, self.make_menu, self.window.get_size())

    # ------------------------------------------------------------------ save and load (Ctrl+S, Ctrl+O)
    def save_battle(self) -> Path | None:
        """Ctrl+S: write the battle on the board as a record into the saves folder; a toast says where."""
        session = self._session_to_save()
        if session is None:
            return None
        folder = saves_dir()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path, n = folder / f"{session.name}-{stamp}.json", 1
        while path.exists():
            path, n = folder / f"{session.name}-{stamp}-{n}.json", n + 1
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.toast = (f"not saved: {folder}: {exc.strerror or exc}", 5.0)
            return None
        return path if self._save_to(session, path) is None else None

    def _session_to_save(self) -> Session | None:
        """The battle on the board, or None (and a toast) when no battle is showing."""
        if isinstance(self.screen, BattleScreen):
            return self.screen.session
        self.toast = ("no battle to save here", 3.0)
        return None

    def _save_to(self, session: Session, path: Path) -> str | None:
        """Write the battle's record to `path`; a toast says where. None, or the one-line reason it failed."""
        try:
            session.save(path)
        except ContentError as exc:
            why = exc.text
        except OSError as exc:  # OutputError too: one line naming the path
            why = str(exc)
        else:
            self.toast = (f"saved: {path}", 4.0)
            return None
        self.toast = (f"not saved: {why}", 5.0)
        return why

    def save_battle_as(self) -> SaveAsScreen | None:
        """Ctrl+Shift+S: ask for a path over the paused board, then save there."""
        session = self._session_to_save()
        if session is None:
            return None
        dialog = SaveAsScreen(self.fonts, self.window, str(Path.cwd() / f"{session.name}.json"),
                              lambda path: self._save_to(session, path))
        self.apply(Push(dialog))
        return dialog

    def load_battle(self, path: Path | None = None) -> bool:
        """Ctrl+O: continue the battle of a record (default: the latest save); the current battle's controls
        are kept for the sides it shares, the record's used otherwise. A bad or drifted file: one line in a
        toast."""
        path = self._record_path(path)
        if path is None:
            return False
        controls = None
        if isinstance(self.screen, BattleScreen):
            controls = dict(self.screen.session.controls)
        try:
            rec = record.load(path)
            scenario = record.scenario_of(rec)
            if controls is not None and set(controls) != {s.name for s in scenario.spec.sides}:
                controls = None
            session = Session.from_record(rec, controls, scenario=scenario)
        except ContentError as exc:
            self.toast = (exc.text, 6.0)
            return False
        except OSError as exc:
            self.toast = (f"{path}: {exc.strerror or exc}", 6.0)
            return False
        self._close_sessions()
        self.apply(Reset(self._board(session)))
        self.toast = (f"loaded: {path} (round {session.battle.ctx.round})", 4.0)
        return True

    def _record_path(self, path: Path | None) -> Path | None:
        """The record to open: `path`, else one typed into the menu's Open field, else the latest save (a toast
        and None if there is none)."""
        typed = self.screen.field.text.strip() if isinstance(self.screen, MenuScreen) else ""
        if path is None and typed.endswith(".json"):  # a record's path typed into the menu's Open field
            path = Path(typed).expanduser()
        path = path or latest_save()
        if path is None:
            self.toast = (f"no saved battle in {saves_dir()}", 4.0)
        return path

    def replay_battle(self, path: Path | None = None) -> bool:
        """Ctrl+R: watch a record on the replay viewer (default: the latest save, or the record path typed in
        the menu's Open field), checked first; a bad or drifted file: one line in a toast."""
        path = self._record_path(path)
        if path is None:
            return False
        try:
            replay = ReplaySession(record.load(path))
        except ContentError as exc:
            self.toast = (exc.text, 6.0)
            return False
        except OSError as exc:
            self.toast = (f"{path}: {exc.strerror or exc}", 6.0)
            return False
        self.apply(Reset(self._replay_screen(replay)))
        self.toast = (f"replaying: {path} ({replay.rounds} rounds; H for the keys)", 4.0)
        return True

    def _battle_over(self, session: Session, back: MenuFactory | None = None) -> Transition:
        outcome = outcome_of(session)
        self.last_log = self._save_log(session)
        start: StartBattle = self.start_battle if back is None else partial(self.start_battle, back=back)
        return Reset(ResultsScreen(self.fonts, outcome, session.scenario, dict(session.controls),
                                   start, back or self.make_menu, self.last_log, session.battle.log.events))

    def _save_log(self, session: Session) -> Path | None:
        """Keep the battle's event log (JSON lines) to read later."""
        folder = config_dir() / "logs"
        name = f"{Path(session.scenario.source).stem}-seed{session.seed}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            EventLog(session.battle.log.events).write(folder / name)
        except OSError:
            return None
        return folder / name

    def _close_sessions(self) -> None:
        for s in self.stack:
            if isinstance(s, BattleScreen):
                s.session.close()
            elif isinstance(s, ReplayScreen):
                s.close()

    @property
    def screen(self) -> Screen:
        """The screen on top."""
        return self.stack[-1]

    def apply(self, t: Transition | None) -> None:
        """Carry out a screen's transition."""
        if t is None:
            return
        if isinstance(t, Push):
            self.stack.append(t.screen)
        elif isinstance(t, Pop):
            if len(self.stack) > 1:
                self.stack.pop()
        elif isinstance(t, Reset):
            if not isinstance(t.screen, BattleScreen):
                self._close_sessions()
            self.stack = [t.screen]
        elif isinstance(t, Quit):
            self.running = False

    # ------------------------------------------------------------------ frame
    def tick(self, dt: float | None = None) -> bool:
        """One frame: events, update, draw. `dt` fixes the frame time (tests); False once quit."""
        if dt is None:
            dt = self.clock.tick(FPS) / 1000.0
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.running = False
            elif event.type == pygame.VIDEORESIZE:
                self.size = (max(640, event.w), max(480, event.h))
                self.window = pygame.display.set_mode(self.size, pygame.RESIZABLE)
                self.settings.window = self.size
                if isinstance(self.screen, BattleScreen):
                    self.screen.resize(self.size)
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_F12:
                self.screenshot()
            elif event.type == pygame.KEYDOWN and isinstance(self.screen, EditorScreen | PathDialog):
                self.apply(self.screen.handle(event))  # the editor's own Ctrl+S, Ctrl+Z …
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_s and event.mod & pygame.KMOD_CTRL:
                if event.mod & pygame.KMOD_SHIFT:
                    self.save_battle_as()
                else:
                    self.save_battle()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_o and event.mod & pygame.KMOD_CTRL:
                self.load_battle()
            elif event.type == pygame.KEYDOWN and event.key == pygame.K_r and event.mod & pygame.KMOD_CTRL:
                self.replay_battle()
            else:
                self.apply(self.screen.handle(event))
            if not self.running:
                break
        if self.running:
            self.apply(self.screen.update(min(dt, 0.1)))
        if self.running:
            t0 = time.perf_counter()
            self.screen.draw(self.window)
            self._draw_toast(dt)
            self.frame_ms.append((time.perf_counter() - t0) * 1000)
            if len(self.frame_ms) > 10000:
                del self.frame_ms[:5000]
            pygame.display.flip()
        return self.running

    def _draw_toast(self, dt: float) -> None:
        if self.toast is None:
            return
        text, left = self.toast
        img = self.fonts.text(self.fonts.normal, text, ACCENT)
        r = img.get_rect(midtop=(self.window.get_width() // 2, 40))
        pygame.draw.rect(self.window, (10, 10, 14), r.inflate(12, 8))
        self.window.blit(img, r)
        self.toast = (text, left - dt) if left - dt > 0 else None

    def screenshot(self, path: Path | None = None) -> Path:
        """Save the window as PNG (F12); default folder: settings.screenshots or the config folder."""
        if path is None:
            folder = Path(self.settings.screenshots) if self.settings.screenshots else config_dir() / "screenshots"
            folder.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            n = 0
            while (folder / f"skirmish-{stamp}-{n}.png").exists():
                n += 1
            path = folder / f"skirmish-{stamp}-{n}.png"
        try:
            with atomic_path(path) as tmp:  # whole or not at all (C-6)
                pygame.image.save(self.window, str(tmp))
        except (OSError, pygame.error) as exc:
            self.toast = (f"screenshot not saved: {exc}", 4.0)
            return path
        self.last_screenshot = path
        self.toast = (f"screenshot saved: {path}", 3.0)
        return path

    def run(self, max_frames: int | None = None) -> int:
        """The main loop; returns 0. Settings are saved on the way out."""
        frames = 0
        try:
            while self.tick():
                frames += 1
                if max_frames is not None and frames >= max_frames:
                    break
        finally:
            self.close()
        return 0

    def close(self) -> None:
        """Save settings and close the window."""
        self.settings.window = self.window.get_size() if pygame.display.get_init() else self.settings.window
        self.settings.save()
        self._close_sessions()
        pygame.display.quit()
