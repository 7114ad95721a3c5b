"""The replay viewer's timeline: a bar over the record's answers, one stretch per round (numbered where there is
room), the part already played filled, a handle at the moment shown; a click or a drag picks a moment (the
nearest round start or action), and hovering says what happens there."""

from __future__ import annotations

import pygame

from skirmish.ui.panels import ROMAN
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.widgets import ACCENT, DIM, PANEL_BG, PANEL_EDGE, TEXT, Fonts

TIMELINE_H = 30  # the strip's height
PAD_X = 10  # room left and right of the bar, so the first and last moments can be clicked
ROUND_SHADES = ((58, 64, 78), (46, 51, 63))  # alternate rounds
PLAYED = (120, 100, 48)  # the part already played, under the round numbers
PLAYED_ALT = (104, 88, 44)


class Timeline:
    """The bar, where it was drawn, and a drag in progress."""

    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)  # the strip (set by `draw`)
        self.dragging = False

    def bar(self) -> pygame.Rect:
        """The bar inside the strip."""
        return pygame.Rect(self.rect.x + PAD_X, self.rect.y + 5, max(1, self.rect.w - 2 * PAD_X), self.rect.h - 10)

    def x_of(self, pos: int, total: int) -> int:
        """The x of position `pos` on the bar."""
        bar = self.bar()
        return bar.x + (round(bar.w * pos / total) if total else 0)

    def position_at(self, x: int, total: int) -> int:
        """The position under x (before snapping to a stop)."""
        bar = self.bar()
        if not total or bar.w <= 0:
            return 0
        return max(0, min(total, round((x - bar.x) * total / bar.w)))

    def hit(self, pos: tuple[int, int]) -> bool:
        """True if `pos` is on the strip."""
        return self.rect.collidepoint(pos)

    # ------------------------------------------------------------------ drawing
    def draw(self, surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, replay: ReplaySession,
             hover: tuple[int, int] | None = None) -> None:
        """Draw the strip into `rect` of `surf` for the moment `replay` shows."""
        self.rect = rect
        pygame.draw.rect(surf, PANEL_BG, rect)
        pygame.draw.line(surf, PANEL_EDGE, rect.topleft, rect.topright)
        bar = self.bar()
        total = replay.total
        now = self.x_of(replay.position, total)
        starts = replay.round_starts or [0]
        ends = [*starts[1:], total]
        label_font = fonts.small
        last_label = -10_000
        for i, (a, b) in enumerate(zip(starts, ends, strict=True)):
            x0, x1 = self.x_of(a, total), self.x_of(b, total)
            seg = pygame.Rect(x0, bar.y, max(1, x1 - x0), bar.h)
            shade = (PLAYED if i % 2 == 0 else PLAYED_ALT) if b <= replay.position else ROUND_SHADES[i % 2]
            pygame.draw.rect(surf, shade, seg)
            if a < replay.position < b:  # the round shown: played up to the handle
                pygame.draw.rect(surf, PLAYED if i % 2 == 0 else PLAYED_ALT, (x0, bar.y, now - x0, bar.h))
            text = str(replay.first_round + i)
            w = fonts.width(label_font, text)
            if seg.w >= w + 4 and x0 >= last_label + 4:  # numbered where there is room
                img = fonts.text(label_font, text, TEXT if a <= replay.position else DIM)
                surf.blit(img, img.get_rect(center=seg.center))
                last_label = seg.centerx + w // 2
        pygame.draw.rect(surf, PANEL_EDGE, bar, 1)
        if hover is not None and self.hit(hover):
            hx = self.x_of(replay.snap(self.position_at(hover[0], total)), total)
            pygame.draw.line(surf, (235, 235, 240), (hx, bar.y - 2), (hx, bar.bottom + 1), 1)
        pygame.draw.rect(surf, ACCENT, (now - 2, rect.y + 2, 4, rect.h - 4), border_radius=2)
        pygame.draw.polygon(surf, ACCENT, [(now - 5, rect.y + 1), (now + 5, rect.y + 1), (now, rect.y + 6)])

    def tip(self, replay: ReplaySession, x: int) -> str:
        """What happens at the moment under x (the nearest stop)."""
        return moment_text(replay, replay.snap(self.position_at(x, replay.total)))


def moment_text(replay: ReplaySession, pos: int) -> str:
    """A stop in a few words: "round 7, phase II: Raider-2 acts (move Raider-2 15,2)", a round's declarations,
    or the end."""
    rec = replay.rec
    if pos >= replay.total:
        return f"the end: {rec.result}" if rec.result else f"where the record was saved (round {replay.rounds})"
    a = rec.answers[pos]
    where = f"round {a.round}" + (f", phase {ROMAN.get(a.phase, a.phase)}" if a.phase else "")
    if a.request.kind == "declare":
        return f"{where}: declarations"
    return f"{where}: {a.request.unit} acts ({a.action}) · action {pos + 1} of {replay.total}"
