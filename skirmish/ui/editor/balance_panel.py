"""The editor's balance figures (issue 15 item 4, Ctrl+B): `skirmish balance`'s own engine
(skirmish.sim.balance.balance) run on the scenario as it stands for each side in turn, in a background thread
so the board keeps drawing; a progress bar while it runs, Esc cancels it (between two battles); then the table:
each side's score against each opponent AI level, the level nearest the target for each, and the mirror (fair
by side). Figures from before the last edit are marked stale."""

from __future__ import annotations

import threading
from pathlib import Path

import pygame

from skirmish.content.errors import ContentError
from skirmish.sim.backend import BackendError
from skirmish.sim.balance import Balance, balance
from skirmish.ui.layout import Page
from skirmish.ui.screens.base import draw_panel
from skirmish.ui.widgets import ACCENT, BAD, DIM, GOOD, TEXT, Fonts

BATTLES = (5, 10, 20, 50, 100, 200)  # per opponent level: + and - step through them
DEFAULT_BATTLES = 20


class Cancelled(Exception):
    """Esc: the run stops between two battles."""


class BalanceRun:
    """The calibration of a scenario file for each of its sides, played in a daemon thread; its progress, the
    results (one Balance a side, in the sides' order) or the error."""

    def __init__(self, path: Path, sides: list[str], battles: int, version: int, target: float = 0.5) -> None:
        self.path, self.sides, self.battles, self.version, self.target = path, sides, battles, version, target
        self.done, self.total = 0, 0
        self._base = 0  # battles of the sides done before the one playing
        self.results: tuple[Balance, ...] = ()
        self.error: str | None = None
        self.cancelled = False
        self.told = False  # the editor has said it ended
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="skirmish-balance", daemon=True)

    def start(self) -> BalanceRun:
        self.thread.start()
        return self

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def cancel(self) -> None:
        """Stop after the battle being played (the thread ends on its own)."""
        self._stop.set()

    @property
    def result(self) -> Balance | None:
        """The first side's figures (with the mirror, the same in each), once every side's are in."""
        return self.results[0] if self.results else None

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = self._base + done, total * len(self.sides)
        if self._stop.is_set():
            raise Cancelled

    def _run(self) -> None:
        try:
            out = []
            for side in self.sides:
                out.append(balance(self.path, side, battles=self.battles, target=self.target, progress=self._progress))
                self._base = self.done
            self.results = tuple(out)
        except Cancelled:
            self.cancelled = True
        except ContentError as exc:
            self.error = exc.text
        except (ValueError, BackendError, OSError) as exc:
            self.error = str(exc)


def next_battles(current: int, step: int) -> int:
    """The next battle count up (+1) or down (-1) the steps."""
    if step > 0:
        return next((b for b in BATTLES if b > current), BATTLES[-1])
    return next((b for b in reversed(BATTLES) if b < current), BATTLES[0])


def panel_rect(canvas: pygame.Rect, fonts: Fonts) -> pygame.Rect:
    """Where the panel lies: over the canvas's top (the toasts keep its bottom), up to 640 pixels wide."""
    w = min(640, canvas.w - 16)
    h = min(canvas.h - 16, fonts.small.get_linesize() * 16 + 24)
    return pygame.Rect(canvas.right - w - 8, canvas.y + 8, w, h)


def draw_balance(page: Page, fonts: Fonts, run: BalanceRun, rect: pygame.Rect, stale: bool,
                 battles: int) -> pygame.Rect | None:
    """The panel: the progress bar while it runs, else the table (or why there is none); the bar's rect."""
    surf, f = page.surf, fonts
    draw_panel(surf, rect)
    x, y, w = rect.x + 10, rect.y + 6, rect.w - 20
    lh = f.small.get_linesize()
    name = run.result.scenario if run.result is not None else run.path.stem
    title = f"Balance (Ctrl+B): {name}, {run.battles} battles a level"
    y = page.text(f.normal, title, ACCENT, (x, y), width=w).bottom + 4
    bar = None
    if run.running:
        bar = pygame.Rect(x, y, w, lh)
        pygame.draw.rect(surf, (52, 58, 72), bar, border_radius=3)
        share = run.done / run.total if run.total else 0.0
        pygame.draw.rect(surf, GOOD, (bar.x, bar.y, int(bar.w * share), bar.h), border_radius=3)
        what = "cancelling after this battle" if run.stopping else "Esc cancels"
        page.text(f.small, f"{run.done}/{run.total or '?'} battles · {what}", TEXT, bar.center, anchor="center")
        return bar
    notes: list[tuple[str, tuple[int, int, int]]] = []
    if stale:
        notes.append(("stale: the scenario was edited since (Ctrl+B runs it again)", BAD))
    if run.cancelled:
        notes.append((f"cancelled after {run.done} of {run.total} battles (Ctrl+B runs it again)", BAD))
    elif run.error:
        notes.append((f"cannot play it: {run.error}", BAD))
    for text, colour in notes:
        y = page.para(f.small, text, colour, x, y, w, 2) + 2
    if run.results:
        y = _table(page, fonts, run.results, x, y, w)
    if y + lh <= rect.bottom:
        page.text(f.small, f"+ / - battles a level (next run: {battles}) · Esc closes", DIM, (x, rect.bottom - lh - 4),
                  width=w)
    return bar


def _table(page: Page, fonts: Fonts, results: tuple[Balance, ...], x: int, y: int, w: int) -> int:
    f = fonts
    lh = f.small.get_linesize()
    first = results[0]
    y = page.para(f.small, f"each side played by {first.ai} against each level on the other side(s): score "
                  "(a draw 1/sides) and Wilson 95% interval", DIM, x, y, w, 2) + 2
    name_w = int(w * 0.26)
    col = (w - name_w) // len(results)

    def row(cells: list[str], colours: list[tuple[int, int, int]]) -> None:
        page.text(f.small, cells[0], colours[0], (x, y), width=name_w - 4)
        for i, (cell, colour) in enumerate(zip(cells[1:], colours[1:], strict=True)):
            page.text(f.small, cell, colour, (x + name_w + i * col, y), width=col - 6)

    row(["opponents' AI", *(b.side for b in results)], [DIM] * (len(results) + 1))
    y += lh
    for i, r in enumerate(first.rows):
        cells = [f"{b.rows[i].score:.0%} {b.rows[i].interval}" for b in results]
        colours = [ACCENT if b.rows[i] is b.best else TEXT for b in results]
        row([r.opponent, *cells], [TEXT, *colours])
        y += lh
    nearest = " · ".join(f"{b.side}: {b.best.opponent} ({b.best.score:.0%}"
                         f"{'' if b.on_target else ', outside its interval'})" for b in results)
    y = page.para(f.small, f"nearest the target {first.target:.0%}: {nearest}", ACCENT, x, y + 2, w, 2) + 2
    row(["mirror", *(f"{m.score:.0%} {m.interval}" for m in first.mirror)], [DIM] + [TEXT] * len(first.mirror))
    y += lh
    verdict = f"fair by side: {'fair' if first.fair else 'NOT fair'} (each side's share {first.fair_share:.0%})"
    return page.para(f.small, verdict, GOOD if first.fair else BAD, x, y + 2, w, 2) + 2
