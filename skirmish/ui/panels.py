"""Side panels: the initiative tracker, the unit card and the event log (lines open to show the draw,
the TN, every modifier with its reason and the rule ids)."""

from __future__ import annotations

import re
from collections.abc import Container

import pygame

from skirmish.core.events import DecisionEvent, EndTurnEvent, Event, RefusedEvent, ResultEvent, RoundEvent, TurnEvent
from skirmish.ecs.view import BattleView, UnitView
from skirmish.log import EventLog, details, headline
from skirmish.rulesets.fi import DeclareEvent, OutOfActionEvent
from skirmish.ui.art import CT_BLUE, INK, SIDE_COLOURS, WOUND, dead_badge, draw_token, mix
from skirmish.ui.board import short_name
from skirmish.ui.fi_melee import hand_lines
from skirmish.ui.hotseat import declared_label
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Fonts, elide, wrap

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
TRACKER_LINE = 18  # pixels a row in the initiative tracker
TITLE_H = 28  # a panel's title strip


def _title(surf: pygame.Surface, fonts: Fonts, text: str, rect: pygame.Rect) -> int:
    pygame.draw.rect(surf, PANEL_BG, rect)
    pygame.draw.rect(surf, PANEL_EDGE, rect, 1)
    surf.blit(fonts.text(fonts.normal, elide(fonts.normal, text, rect.w - 16), ACCENT), (rect.x + 8, rect.y + 4))
    return rect.y + TITLE_H


def draw_tracker(surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, view: BattleView,
                 reveal: set[str], acting: str | None, done: set[str],
                 colours: dict[str, tuple[int, int, int]] | None = None) -> None:
    """Declared speeds (hidden from the other side until initiative reveals them) and the phase each
    unit acts in; H = hesitating; a check for units that have acted. Each unit's swatch is its side's
    colour (`colours` by side name; the palette by order without it). Columns follow the panel's width."""
    y = _title(surf, fonts, f"Initiative · round {view.round}" +
               (f" · phase {ROMAN[view.phase]}" if view.phase else ""), rect)
    line = TRACKER_LINE
    col_speed, col_phase, col_state = (rect.x + round(rect.w * k) for k in (0.44, 0.68, 0.77))
    for u in view.units:
        if y + line > rect.bottom - 2:
            break
        colour = (colours or {}).get(u.side) or SIDE_COLOURS[u.side_index % len(SIDE_COLOURS)]
        pygame.draw.rect(surf, colour, (rect.x + 8, y + 5, 9, 9), border_radius=2)
        name_c = DIM if u.out_of_action else (ACCENT if u.name == acting else TEXT)
        surf.blit(fonts.text(fonts.small, elide(fonts.small, u.name, col_speed - rect.x - 28), name_c), (rect.x + 22, y))
        if u.out_of_action:
            speed, phase = "out", ""
        else:
            speed = declared_label(u, reveal)
            phase = "H" if u.hesitating else (ROMAN.get(u.phase or 0, "") if u.phase else "")
        surf.blit(fonts.text(fonts.small, speed, DIM), (col_speed, y))
        surf.blit(fonts.text(fonts.small, phase, TEXT), (col_phase, y))
        if u.name == acting:
            surf.blit(fonts.text(fonts.small, "acting", ACCENT), (col_state, y))
        elif u.name in done:
            surf.blit(fonts.text(fonts.small, "done", DIM), (col_state, y))
        y += line


# The rules' abbreviations as the board explains them (tooltips on the card and the log, the H overlay).
GLOSSARY: tuple[tuple[str, str], ...] = (
    ("TN", "target number: a check succeeds when its result (card or dice, plus modifiers) reaches it (R-3.1); "
           "a shot's TN is 5 + distance / range increment + the situation (R-6.1)"),
    ("CT", "concussion track: the shock a figure can take (2 x its Vigor die's sides); damage left over after "
           "wounds comes off it, and at 0 it is knocked out (R-2.3, R-6.8, R-8.1)"),
    ("PN", "penetration: a weapon's punch against armour and cover; PN above the AV gets through, equal may "
           "(R-6.6, R-6.7)"),
    ("AV", "armour value: what armour or cover stops at a hit location; a hit that ablates it takes 1 off "
           "(R-6.6, R-6.7)"),
    ("CF", "critical failure: the card reads CF (or more than half the dice show 1): a result of 0 that fails "
           "whatever the TN (R-3.5)"),
    ("RD", "reduced damage: the weapon's damage when armour ablates the hit (an A on the card) (R-6.7)"),
    ("W", "wounds: damage / size (whole); each is -1 to every result (at most -3); 4 wounds incapacitate, "
          "6 kill (R-6.8, R-8.1)"),
)
GLOSSARY_SHORT: tuple[tuple[str, str], ...] = (
    ("TN", "target number: a check succeeds when its result reaches it"),
    ("CT", "concussion track: the shock a figure can take; at 0 it is knocked out"),
    ("PN", "penetration: gets through armour or cover when above its AV"),
    ("AV", "armour value of the armour or cover at a hit location"),
    ("CF", "critical failure: a result of 0 that fails whatever the TN"),
    ("RD", "reduced damage: the weapon's damage when armour ablates the hit"),
    ("W", "wounds: each is -1 to every result; 4 incapacitate, 6 kill"),
)
_ABBREV = re.compile(r"(?<![A-Za-z])(?:\d+(?:\.\d+)?)?(TN|CT|PN|AV|CF|RD|W)(?![A-Za-z])")
WOUNDS_MAX = 6  # six wounds kill (four incapacitate)
LOCATIONS = ("head", "chest", "vitals", "belly", "right_arm", "left_arm", "right_leg", "left_leg")
CARD_H = 244  # the unit card's height in the side panel (less in a short window)


def glossary_tip(text: str) -> str | None:
    """What the rules' abbreviations in `text` mean, one per line (None if it has none)."""
    found = {m.group(1) for m in _ABBREV.finditer(text)}
    lines = [f"{k}: {v}" for k, v in GLOSSARY if k in found]
    return "\n".join(lines) or None


def unit_lines(u: UnitView) -> list[tuple[str, tuple[int, int, int]]]:
    """The unit card's facts as text (what the card draws, for a reader without the pictures)."""
    out: list[tuple[str, tuple[int, int, int]]] = [(f"{u.name} ({u.side}), size {u.size}", ACCENT)]
    ct = u.ct if u.full else "?"  # an enemy's CT is not shown (fog of war)
    out.append((f"W {u.wounds}/{WOUNDS_MAX}  CT {ct}/{u.ct_max}  {unit_state(u)}", BAD if u.out_of_action else TEXT))
    out += [(line, TEXT) for line in weapon_lines(u)]
    if u.armour:
        out.append(("AV " + ", ".join(f"{loc.replace('_', ' ')} {av}{kind[0]}" for loc, kind, av in u.armour), TEXT))
    out.append((status_line(u), DIM))
    return out


def unit_state(u: UnitView) -> str:
    """One word for how the figure is: ready, stunned, prone, out of action, dead, led by its states of mind
    (surprised, annoyed, distraught, terrified, …); for a ghost (fog of war) the round it was last known."""
    if u.ghost:
        return f"last seen round {u.last_seen}"
    if u.dead:
        return "DEAD"
    if u.out_of_action:
        return "OUT OF ACTION"
    word = "stunned" if u.stunned else ("prone" if u.prone else "ready")
    minded = [m for m in u.mind if m not in CAUSES]  # its states of mind, not what it causes
    return ", ".join([*minded, *([] if minded and word == "ready" else [word])])


CAUSES = ("fearsome", "terrifying")  # UnitView.mind's names for what a unit causes rather than suffers


def weapon_lines(u: UnitView) -> list[str]:
    """The weapon in hand (name, ammunition, damage, PN, range, aim, modes), thrown weapons, tacpack."""
    out: list[str] = []
    if u.weapon is not None:
        w = u.weapon
        out.append(w.name + (" · JAMMED" if u.jammed else ""))
        out.append((f"ammo {u.rounds}/{w.magazine} · {u.magazines} mags" if u.full else "ammo unknown") +
                   (f" · {w.power} pts a shot" if w.energy else ""))
        out.append(f"dmg {w.damage} · RD {w.reduced} · PN {w.pn_against('default')}")
        out.append(f"range {w.range_inc_m:g} m · aim +{w.aim_bonus}/-{w.aim_penalty}")
        out.append("single shot" + (f" · bursts {'/'.join(map(str, w.bursts))}" if w.bursts else ""))
    elif u.melee is None:
        out.append("no weapon in hand")
    if u.melee is not None:
        out += hand_lines(u)
    for w, n in u.throwables:
        out.append(f"{n}x {w.name} ({w.damage}, {w.blast_m:g} m)")
    if u.tacpack_generator:
        out.append(f"tacpack {u.tacpack_generator} pts · {u.screen_type} screen {u.screen_points}")
    return out


def status_line(u: UnitView) -> str:
    """Traits, skills and what the figure is doing this round."""
    traits = " ".join(f"{n[:3].upper()} {c}-{t}" for n, c, t in u.traits)
    skills = ", ".join(f"{s.split(':')[-1]} {lv}" for s, lv in u.skills)
    bits = []
    if u.declared:
        bits.append(f"declared {u.declared}")
    if u.ready_target:
        bits.append(f"ready on {u.ready_target}" + (f", aim +{u.aim}" if u.aim else ""))
    if u.waiting:
        bits.append(f"waiting: {u.waiting.replace('_', ' ')}")
    bits.append(f"cover {u.cover}")
    return " · ".join(x for x in (traits, skills, "; ".join(bits)) if x)


def _av_colour(av: int | None) -> tuple[int, int, int]:
    if av is None:
        return (52, 56, 66)
    return mix((70, 96, 120), (96, 190, 230), min(1.0, av / 8))


def body_diagram(surf: pygame.Surface, fonts: Fonts, at: tuple[int, int], u: UnitView
                 ) -> list[tuple[pygame.Rect, str]]:
    """Armour by hit location on a small figure seen from the front (its right arm on the left), each part
    coloured by its AV and labelled with it; returns the parts' rects with their tooltips."""
    bx, by = at
    parts = {
        "head": pygame.Rect(bx + 24, by, 22, 20),
        "chest": pygame.Rect(bx + 19, by + 22, 32, 22),
        "vitals": pygame.Rect(bx + 19, by + 45, 32, 14),
        "belly": pygame.Rect(bx + 19, by + 60, 32, 15),
        "right_arm": pygame.Rect(bx + 2, by + 22, 15, 44),
        "left_arm": pygame.Rect(bx + 53, by + 22, 15, 44),
        "right_leg": pygame.Rect(bx + 19, by + 77, 15, 38),
        "left_leg": pygame.Rect(bx + 36, by + 77, 15, 38),
    }
    worn = {loc: (kind, av) for loc, kind, av in u.armour}
    font = fonts.font(12, bold=True)
    tips = []
    for loc, r in parts.items():
        kind, av = worn.get(loc, ("", None))
        colour = _av_colour(av)
        if loc == "head":
            pygame.draw.ellipse(surf, colour, r)
            pygame.draw.ellipse(surf, INK, r, 1)
        else:
            pygame.draw.rect(surf, colour, r, border_radius=3)
            pygame.draw.rect(surf, INK, r, 1, border_radius=3)
        if av is not None:
            img = fonts.outlined(font, str(av), (255, 255, 255))
            surf.blit(img, img.get_rect(center=r.center))
        name = loc.replace("_", " ")
        av_word = dict(GLOSSARY)["AV"]
        tips.append((r, f"{name}: AV {av}, {kind} armour\nAV: {av_word}" if av is not None
                     else f"{name}: no armour (AV 0)\nAV: {av_word}"))
    return tips


def _pips(surf: pygame.Surface, x: int, y: int, taken: int) -> int:
    """Six wound boxes, the taken ones red; a gap after the fourth (incapacitated) and a darker sixth (dead)."""
    for i in range(WOUNDS_MAX):
        r = pygame.Rect(x + i * 13 + (4 if i >= 4 else 0), y, 11, 11)
        fill = WOUND if i < taken else (44, 48, 58)
        pygame.draw.rect(surf, fill, r, border_radius=2)
        pygame.draw.rect(surf, (200, 200, 210) if i < 4 else (120, 60, 60), r, 1, border_radius=2)
    return x + WOUNDS_MAX * 13 + 4


def draw_unit_card(surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, unit: UnitView | None,
                   colour: tuple[int, int, int] | None = None) -> list[tuple[pygame.Rect, str]]:
    """The selected miniature's card: portrait token, name, side and state; wounds as six boxes and CT as a
    bar; the weapon (name, ammunition, damage, PN, range, modes); armour as a body diagram with each
    location's AV; tacpack, traits and skills. Returns rects with their tooltips (the rules' words)."""
    pygame.draw.rect(surf, PANEL_BG, rect)
    pygame.draw.rect(surf, PANEL_EDGE, rect, 1)
    tips: list[tuple[pygame.Rect, str]] = []
    if unit is None:
        surf.blit(fonts.text(fonts.normal, "Unit", ACCENT), (rect.x + 8, rect.y + 4))
        surf.blit(fonts.text(fonts.small, "click a miniature for its card", DIM), (rect.x + 8, rect.y + TITLE_H))
        return tips
    u = unit
    side_c = colour or SIDE_COLOURS[u.side_index % len(SIDE_COLOURS)]
    clip = surf.get_clip()
    surf.set_clip(rect)
    # portrait and name
    pr = 16
    draw_token(surf, (rect.x + 8 + pr, rect.y + 8 + pr), pr, side_c, (0, 1), fallen=u.out_of_action, dead=u.dead)
    label = fonts.outlined(fonts.font(13, bold=True), short_name(u.name), (255, 255, 255))
    surf.blit(label, label.get_rect(center=(rect.x + 8 + pr, rect.y + 8 + pr + (pr // 4 if u.out_of_action else 0))))
    if u.dead:
        dead_badge(surf, (rect.x + 8 + pr, rect.y + 8 + pr), pr)
    tx = rect.x + 16 + 2 * pr
    state = unit_state(u)
    state_img = fonts.text(fonts.small, state, BAD if u.out_of_action else (ACCENT if u.stunned else DIM))
    name_w = rect.right - 8 - tx - state_img.get_width() - 8
    surf.blit(fonts.text(fonts.normal, elide(fonts.normal, u.name, name_w), TEXT), (tx, rect.y + 4))
    surf.blit(state_img, (rect.right - 8 - state_img.get_width(), rect.y + 6))
    side_line = f"{u.side} · size {u.size}"
    surf.blit(fonts.text(fonts.small, elide(fonts.small, side_line, rect.right - 8 - tx), side_c), (tx, rect.y + 24))
    # wounds and CT
    y = rect.y + 54
    w_img = fonts.text(fonts.small, f"W {u.wounds}/{WOUNDS_MAX}", TEXT)
    surf.blit(w_img, (rect.x + 8, y - 3))
    tips.append((pygame.Rect(rect.x + 8, y - 3, w_img.get_width(), 16), glossary_tip("W") or ""))
    px = _pips(surf, rect.x + 14 + w_img.get_width(), y, u.wounds)
    tips.append((pygame.Rect(rect.x + 14 + w_img.get_width(), y, px - rect.x - 14 - w_img.get_width(), 11),
                 f"{u.wounds} of {WOUNDS_MAX} wounds: 4 incapacitate, 6 kill (R-8.1)"))
    ct_img = fonts.text(fonts.small, f"CT {u.ct}/{u.ct_max}" if u.full else f"CT ?/{u.ct_max}", TEXT)
    cx = px + 8
    surf.blit(ct_img, (cx, y - 3))
    bar = pygame.Rect(cx + ct_img.get_width() + 6, y + 1, max(20, rect.right - 10 - cx - ct_img.get_width() - 6), 9)
    pygame.draw.rect(surf, (44, 48, 58), bar, border_radius=2)
    if u.ct_max:
        pygame.draw.rect(surf, CT_BLUE, (bar.x, bar.y, round(bar.w * max(0, u.ct) / u.ct_max), bar.h), border_radius=2)
    pygame.draw.rect(surf, (200, 200, 210), bar, 1, border_radius=2)
    tips.append((pygame.Rect(cx, y - 3, bar.right - cx, 16), glossary_tip("CT") or ""))
    # the body diagram on the right, the weapon and the rest on the left (full width below the figure)
    body_x = rect.right - 78
    body_top = y + 20
    tips += body_diagram(surf, fonts, (body_x, body_top), u)
    yy = y + 20
    line_h = 17
    rows = [(text, fonts.small, (BAD if u.jammed else TEXT) if i == 0 else TEXT)
            for i, text in enumerate(weapon_lines(u))]
    rows.append((status_line(u), fonts.small, DIM))
    for text, font, colour_ in rows:
        width = (body_x - 8 if yy < body_top + 118 else rect.right - 8) - rect.x - 8
        for part in wrap(font, text, width):
            if yy + line_h > rect.bottom:
                break
            img = fonts.text(font, part, colour_)
            surf.blit(img, (rect.x + 8, yy))
            tip = glossary_tip(part)
            if tip:
                tips.append((pygame.Rect(rect.x + 8, yy, img.get_width(), line_h), tip))
            yy += line_h
    surf.set_clip(clip)
    return [(r, t) for r, t in tips if t]


class LogPanel:
    """The event log: newest at the bottom, scrollable, each line opens to its details."""

    LINE = 17

    def __init__(self) -> None:
        self.scroll = 0  # lines up from the bottom
        self.open: set[int] = set()  # event indexes shown expanded
        self.rect = pygame.Rect(0, 0, 0, 0)
        self._rows: list[tuple[pygame.Rect, int, str]] = []
        self._wrapped: dict[tuple[int, bool, int], tuple[Event, list[tuple[int, str, tuple[int, int, int]]]]] = {}

    def reset(self) -> None:
        """Forget scroll and opened lines (a new or rebuilt battle)."""
        self.scroll = 0
        self.open.clear()
        self._wrapped.clear()

    def _visible(self, e: Event) -> bool:
        if isinstance(e, DecisionEvent):  # the AI's reasons for actions (declarations stay in the file log)
            return e.request == "act"
        return not isinstance(e, (DeclareEvent, TurnEvent, EndTurnEvent))

    def _lines(self, fonts: Fonts, e: Event, i: int, width: int) -> list[tuple[int, str, tuple[int, int, int]]]:
        key = (i, i in self.open, width)
        cached = self._wrapped.get(key)
        if cached is not None and cached[0] is e:
            return cached[1]
        colour = (BAD if isinstance(e, (RefusedEvent, OutOfActionEvent)) else ACCENT
                  if isinstance(e, (RoundEvent, ResultEvent)) else DIM if isinstance(e, DecisionEvent) else TEXT)
        items = [(("- " if i in self.open else "+ ") + headline(e), colour)]
        if i in self.open:
            items += [("    " + d, DIM) for d in details(e)]
        out: list[tuple[int, str, tuple[int, int, int]]] = []
        for text, c in items:
            for k, part in enumerate(wrap(fonts.small, text, width)):
                out.append((i, part if k == 0 else "   " + part, c))
        self._wrapped[key] = (e, out)
        return out

    def draw(self, surf: pygame.Surface, fonts: Fonts, rect: pygame.Rect, log: EventLog,
             hidden: Container[int] = ()) -> None:
        """Draw the last lines that fit (wrapped lines are cached per event, so long logs stay cheap); the events
        at `hidden` indexes are left out (fog of war)."""
        self.rect = rect
        top = _title(surf, fonts, "Log (click a line to open it)", rect)
        width = rect.w - 16
        room = max(1, (rect.bottom - top - 4) // self.LINE)
        want = room + self.scroll
        lines: list[tuple[int, str, tuple[int, int, int]]] = []
        i = len(log.events) - 1
        while i >= 0 and len(lines) < want:
            e = log.events[i]
            if self._visible(e) and i not in hidden:
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
            self._rows.append((pygame.Rect(rect.x, y, rect.w, self.LINE), idx, text))
            y += self.LINE
        if self.scroll:
            more = fonts.text(fonts.small, f"↓ {self.scroll} more", ACCENT)
            at = more.get_rect(topright=(rect.right - 8, rect.y + 6))
            surf.fill(PANEL_BG, at.inflate(12, 2))
            surf.blit(more, at)

    def click(self, pos: tuple[int, int]) -> bool:
        """Open or close the line under pos."""
        for r, i, _ in self._rows:
            if r.collidepoint(pos):
                self.open.symmetric_difference_update({i})
                return True
        return False

    def tip_at(self, pos: tuple[int, int]) -> str | None:
        """What the rules' abbreviations in the log line under pos mean (None if it has none)."""
        for r, _, text in self._rows:
            if r.collidepoint(pos):
                return glossary_tip(text)
        return None

    def wheel(self, dy: int) -> None:
        """Scroll (positive = older lines)."""
        self.scroll = max(0, self.scroll + dy * 3)
