"""Small drawing helpers: fonts with cached text, buttons with hotkeys, wrapped and elided text, tooltips,
toasts.

Text is set in Source Sans Pro (SIL OFL 1.1, from the `font-source-sans-pro` package), which stays clean
at the small sizes the board needs; pygame's bundled font (freesansbold) is only the fallback if that
package is missing.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

PANEL_BG = (28, 31, 38)
PANEL_EDGE = (70, 76, 90)
TEXT = (226, 228, 232)
DIM = (140, 146, 158)
ACCENT = (255, 210, 90)
BAD = (240, 110, 100)
GOOD = (120, 210, 130)
TIP_BG = (12, 13, 18)

FONT_PACKAGE = "font_source_sans_pro"
FONT_FILES = {False: "SourceSansPro-Regular.ttf", True: "SourceSansPro-Semibold.ttf"}
FALLBACK_SCALE = 1.25  # pygame's default font draws smaller than its nominal size
ELLIPSIS = "…"

# Signs a font may lack, with ASCII look-alikes (Source Sans Pro has most; freesansbold only Latin-1).
_LOOKALIKE = {"→": "->", "−": "-", "≈": "~", "—": "-", "–": "-", "▶": ">", "✓": "v", "▾": "-", "▸": "+",
              "↓": "v", "↑": "^", "…": "...", "≥": ">=", "≤": "<=", "’": "'"}
_PLAIN = str.maketrans(_LOOKALIKE)


def plain(text: str) -> str:
    """Text with every sign a font might lack replaced by an ASCII look-alike."""
    return text.translate(_PLAIN)


def font_path(bold: bool = False) -> str | None:
    """The board's font file (Source Sans Pro, regular or semibold), or None if the package is missing."""
    try:
        path = importlib.resources.files(FONT_PACKAGE) / "files" / FONT_FILES[bold]
    except (ModuleNotFoundError, TypeError):
        return None
    return str(path) if path.is_file() else None


def _missing_signs(path: str | None) -> dict[str, str]:
    """The look-alikes needed for the signs the font file has no glyph for (all of them without a file)."""
    if path is None:
        return dict(_LOOKALIKE)
    import pygame.freetype

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    face = pygame.freetype.Font(path, 16)
    return {c: alt for c, alt in _LOOKALIKE.items() if face.get_metrics(c)[0] is None}


class Fonts:
    """The board's font at a few sizes (small, normal, big, huge, plus any size by `font`), with a cache of
    rendered lines."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.paths = {b: font_path(b) for b in (False, True)}
        self.bundled = self.paths[False] is not None  # True: Source Sans Pro; False: pygame's fallback font
        self._table = str.maketrans(_missing_signs(self.paths[False]))
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self.small = self.font(15)
        self.normal = self.font(17, bold=True)
        self.big = self.font(26, bold=True)
        self.huge = self.font(48, bold=True)
        self._cache: dict[tuple[int, str, tuple[int, int, int]], pygame.Surface] = {}
        self._outlined: dict[tuple[int, str, tuple[int, int, int]], pygame.Surface] = {}

    def font(self, px: int, bold: bool = False) -> pygame.font.Font:
        """The font at `px` pixels (cached)."""
        key = (px, bold)
        f = self._fonts.get(key)
        if f is None:
            path = self.paths[bold]
            f = pygame.font.Font(path, px) if path else pygame.font.Font(None, round(px * FALLBACK_SCALE))
            self._fonts[key] = f
        return f

    def fix(self, text: str) -> str:
        """Text with the signs this font lacks replaced by look-alikes."""
        return text.translate(self._table)

    def text(self, font: pygame.font.Font, text: str, colour: tuple[int, int, int] = TEXT) -> pygame.Surface:
        """A rendered line (cached; the cache is bounded)."""
        key = (id(font), text, colour)
        img = self._cache.get(key)
        if img is None:
            if len(self._cache) > 4000:
                self._cache.clear()
            img = font.render(self.fix(text), True, colour)
            self._cache[key] = img
        return img

    def outlined(self, font: pygame.font.Font, text: str, colour: tuple[int, int, int] = TEXT,
                 edge: tuple[int, int, int] = (8, 9, 12)) -> pygame.Surface:
        """A line with a one-pixel dark outline, readable on any terrain or token colour (cached)."""
        key = (id(font), text, colour)
        img = self._outlined.get(key)
        if img is None:
            if len(self._outlined) > 2000:
                self._outlined.clear()
            fg = font.render(self.fix(text), True, colour)
            bg = font.render(self.fix(text), True, edge)
            img = pygame.Surface((fg.get_width() + 2, fg.get_height() + 2), pygame.SRCALPHA)
            for dx, dy in ((0, 1), (1, 0), (2, 1), (1, 2), (0, 0), (2, 0), (0, 2), (2, 2)):
                img.blit(bg, (dx, dy))
            img.blit(fg, (1, 1))
            self._outlined[key] = img
        return img

    def width(self, font: pygame.font.Font, text: str) -> int:
        """Width in pixels of a line."""
        return font.size(self.fix(text))[0]


def wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    """Break text into lines that fit `width` pixels (at spaces; a single word wider than that is elided)."""
    words = text.split(" ")
    lines: list[str] = []
    cur = ""
    for w in words:
        trial = f"{cur} {w}" if cur else w
        if font.size(plain(trial))[0] <= width or not cur:
            cur = trial
        else:
            lines.append(cur)
            cur = w
    if cur:
        lines.append(cur)
    return [line if font.size(plain(line))[0] <= width else elide(font, line, width) for line in lines]


def elide(font: pygame.font.Font, text: str, width: int) -> str:
    """`text` if it fits `width` pixels, else as many whole words as fit followed by "…" (never cut mid-word,
    unless the first word alone is too wide: then its letters)."""
    if font.size(plain(text))[0] <= width:
        return text
    words = text.split(" ")
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n]).rstrip(" ·,;:-")
        if head and font.size(plain(head + ELLIPSIS))[0] <= width:
            return head + ELLIPSIS
    word = words[0]
    for n in range(len(word) - 1, 0, -1):
        if font.size(plain(word[:n] + ELLIPSIS))[0] <= width:
            return word[:n] + ELLIPSIS
    return ""


def fit_parts(font: pygame.font.Font, parts: list[str], width: int, sep: str = " · ",
              drop: tuple[int, ...] = ()) -> str:
    """Join `parts` with `sep` to fit `width`: first leave out the parts listed in `drop` (in that order),
    then elide at a word boundary."""
    keep = list(range(len(parts)))
    text = sep.join(parts)
    for i in drop:
        if font.size(plain(text))[0] <= width:
            break
        keep.remove(i)
        text = sep.join(parts[k] for k in keep)
    return elide(font, text, width)


def place_beside(size: tuple[int, int], target: pygame.Rect, bounds: pygame.Rect, gap: int = 8) -> pygame.Rect:
    """A rect of `size` beside `target` (right, left, below or above, the first that fits) inside `bounds`,
    never covering the target if any side has room; else the placement that covers the least of it."""
    w, h = min(size[0], bounds.w), min(size[1], bounds.h)
    cands = [pygame.Rect(target.right + gap, target.centery - h // 2, w, h),
             pygame.Rect(target.left - gap - w, target.centery - h // 2, w, h),
             pygame.Rect(target.centerx - w // 2, target.bottom + gap, w, h),
             pygame.Rect(target.centerx - w // 2, target.top - gap - h, w, h)]
    placed = [c.clamp(bounds) for c in cands]
    for c in placed:
        if not c.colliderect(target):
            return c

    def covered(c: pygame.Rect) -> int:
        o = c.clip(target)
        return o.w * o.h

    return min(placed, key=covered)


def draw_tip(surf: pygame.Surface, fonts: Fonts, text: str, at: tuple[int, int], width: int = 340) -> pygame.Rect:
    """A tooltip (wrapped lines on a dark plate) beside `at`, kept inside `surf`; returns its rect."""
    f = fonts.small
    lines: list[str] = []
    for para in text.split("\n"):
        lines += wrap(f, para, width)
    imgs = [fonts.text(f, line, TEXT) for line in lines]
    line_h = f.get_linesize()
    w = max(i.get_width() for i in imgs) + 14
    h = line_h * len(imgs) + 8
    bounds = surf.get_rect()
    rect = pygame.Rect(at[0] + 16, at[1] + 18, w, h)
    if rect.right > bounds.right - 2:
        rect.right = at[0] - 8
    if rect.bottom > bounds.bottom - 2:
        rect.bottom = at[1] - 8
    rect.clamp_ip(bounds)
    pygame.draw.rect(surf, TIP_BG, rect, border_radius=5)
    pygame.draw.rect(surf, ACCENT, rect, 1, border_radius=5)
    for i, img in enumerate(imgs):
        surf.blit(img, (rect.x + 7, rect.y + 4 + line_h * i))
    return rect


@dataclass
class Button:
    """A clickable label with an optional hotkey; `on` runs when pressed."""

    label: str
    on: Callable[[], object]
    key: int | None = None
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    enabled: bool = True
    active: bool = False  # drawn highlighted (a chosen option)
    tip: str = ""
    small: bool = False  # set in the small font (a narrow window)

    def draw(self, surf: pygame.Surface, fonts: Fonts, hover: bool) -> None:
        """Draw in place."""
        if self.rect.w <= 0:
            return
        bg = (62, 70, 86) if self.enabled else (40, 43, 50)
        if self.active:
            bg = (120, 96, 40)
        if hover and self.enabled:
            bg = tuple(min(255, c + 25) for c in bg)  # type: ignore[assignment]
        pygame.draw.rect(surf, bg, self.rect, border_radius=5)
        pygame.draw.rect(surf, PANEL_EDGE, self.rect, 1, border_radius=5)
        img = fonts.text(fonts.small if self.small else fonts.normal, self.label, TEXT if self.enabled else DIM)
        surf.blit(img, img.get_rect(center=self.rect.center))


class ButtonRow:
    """Buttons laid out left to right in a strip."""

    def __init__(self) -> None:
        self.buttons: list[Button] = []

    def layout(self, x: int, y: int, height: int, fonts: Fonts, gap: int = 6, right: int | None = None) -> int:
        """Place the buttons; returns the x after the last. With `right`, buttons that would pass it are set in
        the small font with less padding, and any still too wide are left out (their keys still work)."""
        small = False
        if right is not None:
            wide = sum(fonts.width(fonts.normal, b.label) + 20 + gap for b in self.buttons) - gap
            small = x + wide > right
        for b in self.buttons:
            b.small = small
            font, pad = (fonts.small, 12) if small else (fonts.normal, 20)
            w = fonts.width(font, b.label) + pad
            if right is not None and x + w > right:
                b.rect = pygame.Rect(x, y, 0, 0)
                continue
            b.rect = pygame.Rect(x, y, w, height)
            x += w + gap
        return x

    def press(self, pos: tuple[int, int]) -> tuple[bool, object]:
        """Press the button under pos: (whether one was hit, what its action returned)."""
        for b in self.buttons:
            if b.enabled and b.rect.collidepoint(pos):
                return True, b.on()
        return False, None

    def click(self, pos: tuple[int, int]) -> bool:
        """Press the button under pos, if any."""
        return self.press(pos)[0]

    def key(self, key: int) -> bool:
        """Press the button bound to a key, if any."""
        for b in self.buttons:
            if b.enabled and b.key == key:
                b.on()
                return True
        return False

    def tip_at(self, pos: tuple[int, int]) -> str | None:
        """The tooltip of the button under pos, if it has one."""
        for b in self.buttons:
            if b.tip and b.rect.collidepoint(pos):
                return b.tip
        return None

    def draw(self, surf: pygame.Surface, fonts: Fonts) -> None:
        """Draw all."""
        mouse = pygame.mouse.get_pos()
        for b in self.buttons:
            b.draw(surf, fonts, b.rect.collidepoint(mouse))


@dataclass
class Toast:
    """A message that fades after a few seconds (refusals, saved screenshots)."""

    text: str
    colour: tuple[int, int, int] = TEXT
    left: float = 4.0


def clipboard_text() -> str:
    """Text on the clipboard, or "" where there is none (no window system, e.g. under the dummy driver)."""
    try:
        if not pygame.scrap.get_init():
            pygame.scrap.init()
        text = pygame.scrap.get_text()
    except (pygame.error, AttributeError, NotImplementedError):
        return ""
    return (text or "").replace("\r", "").replace("\n", " ").replace("\0", "").strip()


def edit_line(text: str, event: pygame.event.Event) -> tuple[str, str | None]:
    """One key pressed in a one-line text field: the new text, and "enter" or "cancel" (Esc) when the key
    ends the editing. Backspace deletes, Ctrl+V pastes, Ctrl+U clears, printable keys type."""
    k = event.key
    ctrl = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
    if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
        return text, "enter"
    if k == pygame.K_ESCAPE:
        return text, "cancel"
    if k == pygame.K_BACKSPACE:
        return text[:-1], None
    if ctrl and k == pygame.K_v:
        return text + clipboard_text(), None
    if ctrl and k == pygame.K_u:
        return "", None
    if event.unicode and event.unicode.isprintable() and not ctrl:
        return text + event.unicode, None
    return text, None

