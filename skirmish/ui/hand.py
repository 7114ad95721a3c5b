"""Card-hand initiative on the board (R-5.8, option `initiative: cards`): a person's hand as cards over the board
(step and fragment, BONUS and DISCARD marks, the reserve), keys to keep two, rush one and forgo the draw, and the
tracker's step count-down. Registered as Future Imperfect's commands; under the default phases every method
hands back to the battle screen's own FI parts, so that board is unchanged.

Keys while a person's unit holds its hand: 1-9 pick the cards to keep (two at most; none picked keeps the two
earliest), R cycles a rush (a kept card at an earlier step), Enter keeps; a unit holding a reserve first gets
D (draw) or F (forgo the draw and hold the reserve). In a card's turn W reserves the card (the wait, R-5.7)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from skirmish.core.events import Event
from skirmish.ecs.view import BattleView
from skirmish.rulesets import fi
from skirmish.ui.commands import Commands, register
from skirmish.ui.panels import _title
from skirmish.ui.widgets import ACCENT, BAD, DIM, PANEL_BG, PANEL_EDGE, TEXT, Button

if TYPE_CHECKING:
    from skirmish.battle import Request

CARD_W, CARD_H, CARD_GAP = 58, 80, 10
BONUS_C = (212, 175, 55)  # a BONUS card's face
DISCARD_C = (150, 40, 40)  # a DISCARD card's face
CARD_C = (236, 232, 220)  # a plain card's face
PICKED_EDGE = ACCENT
STEP_BOX = 15  # pixels of one step in the tracker's count-down strip


class HandCommands(Commands):
    """Future Imperfect's board commands: the card hand under `initiative: cards`; nothing otherwise."""

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.picked: list[int] = []  # indices into the drawn cards one may keep
        self.rush: tuple[int, int] | None = None  # (card step, step rushed at)
        self._for: tuple[int, str] | None = None  # (round, unit) the choice is for
        self.card_rects: list[pygame.Rect] = []  # where the panel drew the cards one may keep last frame
        self.step_boxes: dict[int, pygame.Rect] = {}  # where the tracker drew each step last frame

    # ------------------------------------------------------------------ what the battle holds
    def _battle(self) -> Any:
        return getattr(getattr(self.screen, "session", None), "battle", None)

    def _cards(self) -> bool:
        battle = self._battle()
        return battle is not None and fi.cards_mode(battle)

    def _request(self) -> Request | None:
        """A person's hand request (cards mode only), with the choice reset for a new round or unit."""
        if not self._cards():
            return None
        req = self.screen.session.human_request()
        if req is None or req.kind != "declare":
            return None
        key = (self.screen.session.view().round, req.unit)
        if self._for != key:
            self._for, self.picked, self.rush = key, [], None
        return req

    def hand(self, unit: str) -> dict[str, Any] | None:
        battle = self._battle()
        return None if battle is None else fi.hand_of(battle, unit)

    def keepable(self, unit: str) -> list[Any]:
        """The drawn cards one may keep (a DISCARD and what it takes are gone; BONUS is kept anyway)."""
        h = self.hand(unit)
        if h is None:
            return []
        return [c for c in h["drawn"] if c.special is None]

    # ------------------------------------------------------------------ choosing
    def toggle(self, i: int) -> None:
        req = self._request()
        if req is None or i >= len(self.keepable(req.unit)):
            return
        if i in self.picked:
            self.picked.remove(i)
        else:
            self.picked = [*self.picked, i][-2:]  # two at most: the oldest pick goes
        self.rush = None

    def cycle_rush(self) -> None:
        """None → each kept card rushed one step earlier, then two, … as far as its Dexterity allows → None."""
        req = self._request()
        if req is None:
            return
        cards = self.keepable(req.unit)
        kept = [cards[i] for i in self.picked] or sorted(cards, key=lambda c: (c.step, c.fragment), reverse=True)[:2]
        col, row = self.screen.session.view().unit(req.unit).trait("dexterity")
        plans = [(c.step, at) for c in sorted(kept, key=lambda c: -c.step)
                 for at in range(c.step + 1, min(fi.hand_rules.TOP_STEP, c.step + fi.hand_rules.max_rush(col, row)) + 1)]
        if not plans:
            self.rush = None
            return
        i = plans.index(self.rush) + 1 if self.rush in plans else 0
        self.rush = plans[i] if i < len(plans) else None

    def answer(self, forgo: bool = False) -> fi.Hand | None:
        req = self._request()
        if req is None:
            return None
        h = self.hand(req.unit)
        if h is not None and not h["drawn"] and h["reserve"] is not None and not forgo and not self._drew(req.unit):
            return fi.Hand(req.unit, forgo="no")  # draw first, keep after
        if forgo:
            return fi.Hand(req.unit, forgo="yes")
        cards = self.keepable(req.unit)
        keep = ",".join(str(cards[i].step) for i in self.picked if i < len(cards))
        rush = f"{self.rush[0]}@{self.rush[1]}" if self.rush else ""
        return fi.Hand(req.unit, keep=keep, rush=rush)

    def _drew(self, unit: str) -> bool:
        view = self.screen.session.view()
        return any(e.type == "hand_draw" and e.round == view.round and e.actor == unit
                   for e in self.screen.session.battle.log.events[-40:])

    def submit(self, forgo: bool = False) -> None:
        action = self.answer(forgo)
        if action is not None and self.screen._submit(action):
            self.picked, self.rush = [], None

    # ------------------------------------------------------------------ the screen's questions
    def key(self, event: pygame.event.Event) -> bool:
        if self._request() is None:
            return False
        k = event.key
        if pygame.K_1 <= k <= pygame.K_9:
            self.toggle(k - pygame.K_1)
        elif k == pygame.K_r:
            self.cycle_rush()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_d):
            self.submit()
        elif k == pygame.K_f:
            self.submit(forgo=True)
        else:
            return False
        return True

    def mouse_down(self, pos: tuple[int, int], unit: Any) -> bool:
        if self._request() is None:
            return False
        for i, r in enumerate(self.card_rects):
            if r.collidepoint(pos):
                self.toggle(i)
                return True
        return False

    def buttons(self, req: Request | None) -> list[Button] | None:
        if req is None or req.kind != "declare" or self._request() is None:
            return None
        h = self.hand(req.unit) or {}
        if not h.get("drawn") and h.get("reserve") is not None and not self._drew(req.unit):
            return [Button("D draw", self.submit, key=pygame.K_d),
                    Button("F forgo (hold reserve)", lambda: self.submit(forgo=True), key=pygame.K_f)]
        rush = f"R rush {self.rush[0]}@{self.rush[1]}" if self.rush else "R rush"
        return [Button(f"{i + 1} {c.step}.{c.fragment}", partial(self.toggle, i), key=pygame.K_1 + i,
                       active=i in self.picked) for i, c in enumerate(self.keepable(req.unit)[:9])] + \
            [Button(rush, self.cycle_rush, key=pygame.K_r, active=self.rush is not None),
             Button("Enter keep", self.submit, key=pygame.K_RETURN)]

    def prompt(self, req: Request) -> str | None:
        if req.kind != "declare" or self._request() is None:
            return None
        return f"{req.unit}: keep two cards (1-9; none picked: the two earliest), R rush, Enter keep"

    def stage(self, view: BattleView) -> str:
        battle = self._battle()
        if battle is None or not fi.cards_mode(battle):
            return super().stage(view)
        step = fi.hands_step(battle)
        return f" · step {step}" if step is not None else (" · hands" if view.round else "")

    def waits_for(self, req: Request | None) -> str:
        if req is not None and req.kind == "declare" and self._cards():
            return "keeps its hands"
        return super().waits_for(req)

    def secret(self, e: Event) -> bool:
        """A hand's draw and keep stay with its own side's log: cards are shown only when played (R-5.8)."""
        return e.type in ("hand_draw", "hand_keep")

    def help(self, lines: list[str]) -> list[str]:
        if not self._cards():
            return lines
        return [*lines, "card hands: 1-9 pick cards to keep, R rush, Enter keep",
                "a unit holding a reserve: D draw, F forgo; in a card's turn W reserves it"]

    # ------------------------------------------------------------------ drawing
    def draw_panel(self, surf: pygame.Surface, view: BattleView) -> None:
        """The hand of the person's unit as cards over the board's foot: drawn cards to keep (picked ones
        edged), BONUS and DISCARD marked, the reserve apart."""
        self.card_rects = []
        req = self._request()
        if req is None:
            return
        h = self.hand(req.unit)
        if h is None:
            return
        fonts = self.screen.fonts
        shown = [(c, "") for c in h["drawn"]] + ([(h["reserve"], "reserve")] if h["reserve"] is not None else [])
        br = self.screen.board_rect()
        width = len(shown) * (CARD_W + CARD_GAP) + CARD_GAP
        panel = pygame.Rect(0, 0, max(width, 220), CARD_H + 46)
        panel.midbottom = (br.centerx, br.bottom - 8)
        pygame.draw.rect(surf, PANEL_BG, panel, border_radius=6)
        pygame.draw.rect(surf, PANEL_EDGE, panel, 1, border_radius=6)
        title = f"{req.unit}'s hand" + (" · nothing drawn" if not shown else "")
        surf.blit(fonts.text(fonts.small, title, ACCENT), (panel.x + 8, panel.y + 4))
        x = panel.x + CARD_GAP
        keep_i = 0
        for card, tag in shown:
            r = pygame.Rect(x, panel.y + 24, CARD_W, CARD_H)
            face = BONUS_C if card.special == "bonus" else DISCARD_C if card.special == "discard" else CARD_C
            pygame.draw.rect(surf, face, r, border_radius=5)
            picked = False
            if card.special is None and not tag:
                picked = keep_i in self.picked
                self.card_rects.append(r)
                keep_i += 1
            pygame.draw.rect(surf, PICKED_EDGE if picked else PANEL_EDGE, r, 3 if picked else 1, border_radius=5)
            ink = (20, 20, 24) if card.special != "discard" else TEXT
            surf.blit(fonts.text(fonts.big, str(card.step), ink), (r.x + 6, r.y + 4))
            surf.blit(fonts.text(fonts.small, f"frag {card.fragment}", ink), (r.x + 6, r.bottom - 36))
            mark = (card.special or tag).upper()
            if mark:
                surf.blit(fonts.text(fonts.small, mark, ink if card.special else BAD), (r.x + 4, r.bottom - 20))
            x += CARD_W + CARD_GAP
        if self.rush:
            surf.blit(fonts.text(fonts.small, f"rush {self.rush[0]} at {self.rush[1]}", ACCENT),
                      (panel.right - 110, panel.y + 4))

    def draw_tracker(self, surf: pygame.Surface, rect: pygame.Rect, view: BattleView) -> bool:
        """Under cards: the count-down 14 → 0 with the called step lit, then each unit's cards (its own side's,
        or every side's for a watcher; others' once played), its reserve (R) and preparation (P)."""
        battle = self._battle()
        if battle is None or not fi.cards_mode(battle):
            return False
        fonts = self.screen.fonts
        step = fi.hands_step(battle)
        title = f"R{view.round} · " + (f"step {step}" if step is not None else "hands")
        y = _title(surf, fonts, title, rect)
        x0 = rect.x + 16 + fonts.width(fonts.normal, title)
        self.step_boxes = {}
        for i, s in enumerate(range(fi.hand_rules.TOP_STEP, -1, -1)):
            box = pygame.Rect(x0 + i * STEP_BOX, rect.y + 6, STEP_BOX - 2, STEP_BOX - 2)
            if box.right > rect.right - 4:
                break  # a narrow panel: the later steps are left out
            self.step_boxes[s] = box
            lit = step is not None and s == step
            passed = step is not None and s > step
            pygame.draw.rect(surf, ACCENT if lit else (48, 52, 62) if passed else (80, 86, 100), box, border_radius=2)
            if s % 2 == 0 or lit:
                surf.blit(fonts.text(fonts.small, str(s), (20, 20, 24) if lit else TEXT),
                          fonts.text(fonts.small, str(s)).get_rect(center=box.center))
        played: dict[str, list[int]] = {}
        for e in battle.log.events[-400:]:
            if e.type == "step" and e.round == view.round:
                played.setdefault(e.actor, []).append(e.step)
        for u in view.units:
            if y + 18 > rect.bottom - 2:
                break
            name_c = DIM if u.out_of_action else TEXT
            surf.blit(fonts.text(fonts.small, u.name, name_c), (rect.x + 8, y))
            h = fi.hand_of(battle, u.name)
            parts: list[str] = [f"({s})" for s in played.get(u.name, [])]
            if h is not None and (view.viewer is None or u.side == view.viewer):
                parts += [str(at) + ("*" if rushed else "") for _, at, rushed in h["slots"]]
                if h["reserve"] is not None:
                    parts.append(f"R{h['reserve'].step}")
                if h["prep"]:
                    parts.append(f"P{h['prep']}")
            surf.blit(fonts.text(fonts.small, " ".join(parts), ACCENT if parts else DIM),
                      (rect.x + round(rect.w * 0.45), y))
            y += 18
        return True


register("fi", HandCommands)
