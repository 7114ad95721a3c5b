"""Future Imperfect's board commands (issue 14): the card hands of skirmish/ui/hand.py, plus the close fight and
story chips. Registered as FI's commands (replacing HandCommands, which it extends).

- F opens the fight menu of the unit whose turn it is (active defence, breaking free, rising: skirmish/ui/fi_melee.py);
  the attack menu's melee lines, contests (P) and a charge by dragging onto an enemy are the battle screen's menus.
- J mount mode (R-6.1 mounts, skirmish/ui/fi_mount.py): the legal mount and dismount cells outlined, a click takes
  one; the mounts the view holds are drawn on the board.
- Engaged figures get a red tick between them (R-7.1).
- Story chips (R-8.5, option `chips`): the chips of the side at the board are shown (white, red, blue) over the
  board's top left with how they are spent; X switches a person's side between "spend" (as the AI spends them: a
  white or red chip on the entry above when that turns a miss into a hit; chips on wounds that keep a combatant in
  action) and "keep". The choice stands until changed and is remembered in the settings (`chips`). A prompt in the
  middle of a draw has no place in the engine (an attack resolves whole inside `submit`), so a person's choice is
  this standing policy, set before the attack: a `chips UNIT spend|keep` action at the person's turn (it costs
nothing), so records and undo replay it (ChipBank.choose). The attack menu's head says, attack by attack, how many
chips the side holds and whether this attack's draws get them (X there switches it and keeps the menu open), and
each chip the side spends is told over the board as its draw is read (docs/RULES-NOTES.md: the choice).
- The rest of ranged combat (skirmish/ui/fi_ranged.py): L launch mode, K covering fire (and every covered area
  the view holds), S in the attack menu a split burst; the off hand's shots are attack menu lines."""

from __future__ import annotations

from typing import Any

import pygame

from skirmish.core.events import Event
from skirmish.ecs.view import BattleView
from skirmish.rulesets import fi
from skirmish.ui.commands import register
from skirmish.ui.fi_melee import MELEE_MARKS, draw_engaged
from skirmish.ui.fi_mount import HELP as MOUNT_HELP
from skirmish.ui.fi_mount import MountMode, draw_mounts
from skirmish.ui.fi_ranged import RangedModes, draw_covered
from skirmish.ui.hand import HandCommands
from skirmish.ui.widgets import ACCENT, DIM, PANEL_BG, PANEL_EDGE, TEXT, Button

CHIP_C = {"white": (236, 236, 236), "red": (210, 60, 60), "blue": (70, 120, 230)}
CHIP_R = 8


class FiCommands(HandCommands):
    """FI's board commands: card hands (HandCommands), the fight menu key, engaged marks and story chips."""

    def __init__(self, screen: Any) -> None:
        super().__init__(screen)
        self.chip_box = pygame.Rect(0, 0, 0, 0)  # where the chips were drawn last frame (screen coordinates)
        self.chip_rects: dict[str, pygame.Rect] = {}  # each colour's chip
        self.ranged = RangedModes(screen)  # launch (L), covering fire (K), split burst (S): skirmish/ui/fi_ranged.py
        self.mounting = MountMode(screen)  # J: mount and dismount (R-6.1 mounts): skirmish/ui/fi_mount.py

    # ------------------------------------------------------------------ chips
    def chip_side(self) -> str | None:
        """The side whose chips are shown: the person's side at the board, else the side whose eyes the board
        looks through (None watching all-seeing)."""
        return getattr(self.screen, "eyes", None)

    def _people(self) -> list[str]:
        controls = getattr(getattr(self.screen, "session", None), "controls", {})
        return [s for s, c in controls.items() if c == "human"]

    def apply_chip_policy(self) -> None:
        """At a person's turn, the settings' chip policy (X) for its side if the battle holds another: as a
        `chips` action, so that the battle's history (a record, an undo) holds it."""
        battle = self._battle()
        choice = getattr(getattr(self.screen, "settings", None), "chips", "")
        session = getattr(self.screen, "session", None)
        if battle is None or session is None or choice not in fi.CHIP_POLICIES:
            return
        req = session.human_request()
        if req is None or req.kind != "act" or getattr(self.screen.anim, "busy", False):
            return
        held = fi.chips_of(battle, req.side)
        if held is not None and held["policy"] not in (choice, "orders"):
            self.screen._submit(fi.ChipPolicy(req.unit, choice))

    def toggle_chips(self) -> None:
        """X: a person's side spends its chips as the AI does, or keeps them (from its next turn on if it is not
        its turn now)."""
        battle = self._battle()
        side = self.chip_side()
        held = fi.chips_of(battle, side) if battle is not None and side is not None else None
        if held is None or side not in self._people() or held["policy"] == "orders":
            self.screen.toast("no story chips of yours to spend (option chips)", DIM)
            return
        settings = self.screen.settings
        now = settings.chips if settings.chips in fi.CHIP_POLICIES else held["policy"]
        settings.chips = "keep" if now == "spend" else "spend"
        settings.save()
        menu = getattr(self.screen, "attack", None)
        self.apply_chip_policy()
        if menu is not None and not menu.own and self.screen.attack is None:  # X in the attack menu: it stays open,
            self.screen._open_attack(menu.unit, menu.target)  # its head saying how this attack's chips go
        when = "" if fi.chips_of(battle, side)["policy"] == settings.chips else " from your next turn"  # type: ignore[index]
        self.screen.toast(f"{side}'s story chips: " + ("spent on a miss the entry above turns, and on wounds that "
                                                       "would put one out of action" if settings.chips == "spend"
                                                       else "kept") + when)

    # ------------------------------------------------------------------ the screen's questions
    def key(self, event: pygame.event.Event) -> bool:
        if hasattr(self.screen, "_open_fight") and (self.ranged.key(event.key) or self.mounting.key(event.key)):
            return True
        if super().key(event):
            return True
        if not hasattr(self.screen, "_open_fight"):
            return False
        if event.key == pygame.K_l:
            self.ranged.toggle_launch()
            return True
        if event.key == pygame.K_k:
            self.ranged.cycle_cover()
            return True
        if event.key == pygame.K_s and getattr(self.screen, "attack", None) is not None:
            self.ranged.start_split()
            return True
        if event.key == pygame.K_f:
            self.screen._open_fight()
            return True
        if event.key == pygame.K_x:
            self.toggle_chips()
            return True
        if event.key == pygame.K_j:
            self.mounting.toggle()
            return True
        return False

    def on_event(self, e: Event, cells: dict[str, tuple[int, int]]) -> list[list[Any]]:
        """A story chip a person's side spends (or that is refused) is told over the board as it is drawn."""
        out = super().on_event(e, cells)
        if e.type == "chip" and getattr(e, "side", None) in self._people() and hasattr(self.screen, "toast"):
            self.screen.toast(e.describe(), DIM if getattr(e, "refused", None) else CHIP_C.get(e.colour, TEXT))  # type: ignore[attr-defined]
        return out

    def act_buttons(self, req: Any) -> list[Button]:
        """L launch and K covering fire beside the screen's own buttons, for a unit with a firearm in hand."""
        me = self.screen.session.view().unit(req.unit)
        w = me.weapon
        r = self.ranged
        out: list[Button] = []
        if me.off_hand is not None and me.off_hand.launched and (w is None or not w.launched):  # the off hand's
            out.append(Button("L launch (off hand)" + (" (Esc)" if r.mode == "launch" else ""),
                              self.ranged.toggle_launch, active=r.mode == "launch",
                              tip="launch mode with the launcher in the other hand"))
        if w is None or w.thrown:
            return out
        if w.launched:
            return [Button("L launch" + (" (Esc)" if r.mode == "launch" else ""), self.ranged.toggle_launch,
                           active=r.mode == "launch", tip="launch mode: the burst and its odds under the pointer")]
        cover = "K cover" + (f" {r.cover_burst or 'single'} (Esc)" if r.mode == "cover" else "")
        return [*out, Button(cover, self.ranged.cycle_cover, active=r.mode == "cover",  # the firearm in hand covers
                             tip="covering fire: point at the area, K again for the next volume")]

    def menu_note(self, unit: str) -> str:
        """The attack menu's word on story chips: how many the side holds and whether they go on this attack."""
        battle = self._battle()
        req = self.screen.session.human_request()
        held = fi.chips_of(battle, req.side) if battle is not None and req is not None else None
        if held is None or held["policy"] == "orders":
            return ""
        n = sum(held["hand"].values())
        return f" · chips {n}: {held['policy']} (X)"

    def mouse_down(self, pos: tuple[int, int], unit: Any) -> bool:
        if hasattr(self.screen, "_open_fight") and (self.mounting.click(pos) or self.ranged.click(pos, unit)):
            return True
        return super().mouse_down(pos, unit)

    def draw_panel(self, surf: pygame.Surface, view: BattleView) -> None:
        super().draw_panel(surf, view)
        if hasattr(self.screen, "_open_fight"):
            self.ranged.draw_panel(surf)

    def help(self, lines: list[str]) -> list[str]:
        return [*super().help(lines),
                "   L launch mode (a launcher in hand; L again: the off hand's): the burst and its odds under the "
                "pointer, click launches",
                "   K covering fire: the area under the pointer, K again the next volume (single, bursts), click "
                "declares it · covered areas are outlined in the side's colour",
                "   S in the attack menu: split the burst; click 1-2 more enemies, B burst, N snap/prepared, Enter "
                "fires (each target's odds shown)",
                "Close fight: click an enemy within 1 m for blows (lethal or not), Close, Open, entangle, trip with "
                "their odds; further off, charges (-2) · drag your miniature onto an enemy: charge it",
                "   F fight menu: active defence, break free, rise · P in the attack menu: contests "
                "(bluff, intimidate, taunt × focused, cautious)",
                "Story chips (option chips): X your side spends them (a miss the entry above turns; wounds that would "
                "put one out of action) or keeps them",
                "Melee marks: " + " · ".join(f"{k} {v}" for k, v in MELEE_MARKS),
                "Mounts: " + MOUNT_HELP]

    # ------------------------------------------------------------------ drawing
    def draw_board(self, surf: pygame.Surface, view: BattleView, at: dict[str, tuple[float, float]]) -> None:
        draw_engaged(surf, self.screen.board.cam, view, at)
        draw_mounts(surf, self.screen.board.cam, view, at)  # the mounts the view holds (R-6.1 mounts)
        if hasattr(self.screen, "_open_fight"):
            self.mounting.draw(surf)
            if self.ranged.mode is not None and (self.ranged._req() is None or self.screen.throwing is not None):
                self.ranged.leave()  # the turn is over, or throw mode took over
            self.ranged.draw_board(surf, view, self.screen.board.colours)
        else:  # the replay viewer: the covered areas of the view it shows
            draw_covered(surf, self.screen.board.cam, self.screen.fonts, view, self.screen.board.colours)
        self.apply_chip_policy()
        self.chip_box = pygame.Rect(0, 0, 0, 0)
        self.chip_rects = {}
        battle = self._battle()
        side = self.chip_side()
        held = fi.chips_of(battle, side) if battle is not None and side is not None else None
        if held is None:
            return
        fonts = self.screen.fonts
        title = fonts.text(fonts.small, f"{side}'s chips", ACCENT)
        how = fonts.text(fonts.small, held["policy"] +
                         (" (X)" if side in self._people() else ""), DIM)
        w = title.get_width() + 3 * (2 * CHIP_R + 26) + how.get_width() + 30
        box = pygame.Rect(8, 8, w, 2 * CHIP_R + 12)
        pygame.draw.rect(surf, PANEL_BG, box, border_radius=5)
        pygame.draw.rect(surf, PANEL_EDGE, box, 1, border_radius=5)
        surf.blit(title, (box.x + 8, box.centery - title.get_height() // 2))
        x = box.x + 16 + title.get_width()
        for colour in ("white", "red", "blue"):
            c = (x + CHIP_R, box.centery)
            pygame.draw.circle(surf, CHIP_C[colour], c, CHIP_R)
            pygame.draw.circle(surf, (20, 20, 24), c, CHIP_R, 1)
            n = fonts.text(fonts.small, str(held["hand"][colour]), TEXT)
            surf.blit(n, (x + 2 * CHIP_R + 4, box.centery - n.get_height() // 2))
            self.chip_rects[colour] = pygame.Rect(x, box.centery - CHIP_R, 2 * CHIP_R, 2 * CHIP_R)
            x += 2 * CHIP_R + 26
        surf.blit(how, (x + 4, box.centery - how.get_height() // 2))
        self.chip_box = box


register("fi", FiCommands)
