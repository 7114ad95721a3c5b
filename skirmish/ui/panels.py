"""Side panels: the initiative tracker, the unit card and the event log (lines open to show the draw,
the TN, every modifier with its reason and the rule ids)."""

from __future__ import annotations

import pygame

from skirmish.ecs.view import BattleView, UnitView
from skirmish.log import EventLog, details, headline
from skirmish.rules.events import Event
from skirmish.ui.art import SIDE_COLOURS
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Fonts, wrap

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}


def _title(surf: pygame.Surface, fonts: Fonts, text: str, rect: pygame.Rect) -> int:
    pygame.draw.rect(surf, PANEL_BG, rect)
    pygame.draw.rect(surf, PANEL_EDGE, rect, 1)
    surf.blit(fonts.text(fonts.normal, text, ACCENT), (rect.x + 8, rect.y + 6))
    return rect.y + 26


def draw_tracker(surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, view: BattleView,
                 reveal: set[str], acting: str | None, done: set[str]) -> None:
    """Declared speeds (hidden from the other side until initiative reveals them) and the phase each
    unit acts in; H = hesitating; a check for units that have acted."""
    y = _title(surf, fonts, f"Initiative · round {view.round}" +
               (f" · phase {ROMAN[view.phase]}" if view.phase else ""), rect)
    line = 17
    for u in view.units:
        if y + line > rect.bottom - 2:
            break
        colour = SIDE_COLOURS[u.side_index % len(SIDE_COLOURS)]
        pygame.draw.rect(surf, colour, (rect.x + 8, y + 4, 8, 8))
        name_c = DIM if u.out_of_action else (ACCENT if u.name == acting else TEXT)
        surf.blit(fonts.text(fonts.small, u.name, name_c), (rect.x + 22, y))
        if u.out_of_action:
            speed, phase = "out", ""
        else:
            speed = (u.declared or "—").upper() if (u.side in reveal or u.declared is None) else "declared"
            phase = "H" if u.hesitating else (ROMAN.get(u.phase or 0, "") if u.phase else "")
        surf.blit(fonts.text(fonts.small, speed, DIM), (rect.x + 150, y))
        surf.blit(fonts.text(fonts.small, phase, TEXT), (rect.x + 230, y))
        if u.name == acting:
            surf.blit(fonts.text(fonts.small, "acting", ACCENT), (rect.x + 262, y))
        elif u.name in done:
            surf.blit(fonts.text(fonts.small, "done", DIM), (rect.x + 262, y))
        y += line


def unit_lines(u: UnitView) -> list[tuple[str, tuple[int, int, int]]]:
    """The unit card's text (traits, skills, weapon and ammunition, armour, tacpack, wounds and CT)."""
    out: list[tuple[str, tuple[int, int, int]]] = [(f"{u.name} ({u.side}), size {u.size}", ACCENT)]
    state = "DEAD" if u.dead else ("OUT OF ACTION" if u.out_of_action else ("stunned" if u.stunned else "ready"))
    out.append((f"wounds {u.wounds}/6  CT {u.ct}/{u.ct_max}  {state}", BAD if u.out_of_action else TEXT))
    out.append(("traits " + " ".join(f"{n[:3]} {c}-{t}" for n, c, t in u.traits), TEXT))
    if u.skills:
        out.append(("skills " + ", ".join(f"{s} {lv}" for s, lv in u.skills), TEXT))
    if u.weapon is not None:
        w = u.weapon
        jam = " JAMMED" if u.jammed else ""
        out.append((f"{w.name}: {u.rounds}/{w.magazine} + {u.magazines} mags{jam}", TEXT))
        bursts = f" bursts {'/'.join(map(str, w.bursts))}" if w.bursts else ""
        out.append((f"  dmg {w.damage} PN {w.pn_against('default')} range {w.range_inc_m:g} m "
                    f"aim {w.aim_bonus}/{w.aim_penalty}{bursts}", DIM))
    if u.throwables:
        out.append(("throws " + ", ".join(f"{n}x {w.name} ({w.damage}, {w.blast_m:g} m)" for w, n in u.throwables),
                    TEXT))
    if u.armour:
        out.append(("armour " + ", ".join(f"{loc.replace('_', ' ')} {av}{kind[0]}" for loc, kind, av in u.armour),
                    TEXT))
    if u.tacpack_generator:
        out.append((f"tacpack {u.tacpack_generator} pts: {u.screen_type} screen {u.screen_points}", TEXT))
    bits = []
    if u.declared:
        bits.append(f"declared {u.declared}")
    if u.ready_target:
        bits.append(f"ready on {u.ready_target}" + (f", aim +{u.aim}" if u.aim else ""))
    if u.waiting:
        bits.append(f"waiting: {u.waiting}")
    bits.append(f"cover {u.cover}")
    out.append(("; ".join(bits), DIM))
    return out


def draw_unit_card(surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, unit: UnitView | None) -> None:
    """The selected miniature's card."""
    y = _title(surf, fonts, "Unit", rect)
    if unit is None:
        surf.blit(fonts.text(fonts.small, "click a miniature", DIM), (rect.x + 8, y))
        return
    for text, colour in unit_lines(unit):
        for part in wrap(fonts.small, text, rect.w - 16):
            if y + 16 > rect.bottom:
                return
            surf.blit(fonts.text(fonts.small, part, colour), (rect.x + 8, y))
            y += 16


class LogPanel:
    """The event log: newest at the bottom, scrollable, each line opens to its details."""

    LINE = 16

    def __init__(self) -> None:
        self.scroll = 0  # lines up from the bottom
        self.open: set[int] = set()  # event indexes shown expanded
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._rows: list[tuple[pygame.Rect, int]] = []
        self._wrapped: dict[tuple[int, bool, int], tuple[Event, list[tuple[int, str, tuple[int, int, int]]]]] = {}

    def reset(self) -> None:
        """Forget scroll and opened lines (a new or rebuilt battle)."""
        self.scroll = 0
        self.open.clear()
        self._wrapped.clear()

    def _visible(self, e: Event) -> bool:
        if e.type == "decision":  # the AI's reasons for actions (declarations stay in the file log)
            return bool(e.data.get("request") == "act")
        return e.type not in ("declare", "turn", "end_turn")

    def _lines(self, fonts: Fonts, e: Event, i: int, width: int) -> list[tuple[int, str, tuple[int, int, int]]]:
        key = (i, i in self.open, width)
        cached = self._wrapped.get(key)
        if cached is not None and cached[0] is e:
            return cached[1]
        colour = BAD if e.type in ("refused", "out_of_action") else (ACCENT if e.type in ("round", "result")
                                                                      else DIM if e.type == "decision" else TEXT)
        items = [(("- " if i in self.open else "+ ") + headline(e), colour)]
        if i in self.open:
            items += [("    " + d, DIM) for d in details(e)]
        out: list[tuple[int, str, tuple[int, int, int]]] = []
        for text, c in items:
            for k, part in enumerate(wrap(fonts.small, text, width)):
                out.append((i, part if k == 0 else "   " + part, c))
        self._wrapped[key] = (e, out)
        return out

    def draw(self, surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, log: EventLog) -> None:
        """Draw the last lines that fit (wrapped lines are cached per event, so long logs stay cheap)."""
        self.rect = rect
        top = _title(surf, fonts, "Log (click a line to open it)", rect)
        width = rect.w - 16
        room = max(1, (rect.bottom - top - 4) // self.LINE)
        want = room + self.scroll
        lines: list[tuple[int, str, tuple[int, int, int]]] = []
        i = len(log.events) - 1
        while i >= 0 and len(lines) < want:
            e = log.events[i]
            if self._visible(e):
                lines[:0] = self._lines(fonts, e, i, width)
            i -= 1
        older = i >= 0
        if not older:
            self.scroll = max(0, min(self.scroll, max(0, len(lines) - room)))
        end = len(lines) - self.scroll
        shown = lines[max(0, end - room):end]
        self._rows = []
        y = top
        for idx, text, colour in shown:
            surf.blit(fonts.text(fonts.small, text, colour), (rect.x + 8, y))
            self._rows.append((pygame.Rect(rect.x, y, rect.w, self.LINE), idx))
            y += self.LINE
        if self.scroll:
            surf.blit(fonts.text(fonts.small, f"v {self.scroll} more", ACCENT), (rect.right - 90, rect.y + 6))

    def click(self, pos: tuple[int, int]) -> bool:
        """Open or close the line under pos."""
        for r, i in self._rows:
            if r.collidepoint(pos):
                self.open.symmetric_difference_update({i})
                return True
        return False

    def wheel(self, dy: int) -> None:
        """Scroll (positive = older lines)."""
        self.scroll = max(0, self.scroll + dy * 3)
