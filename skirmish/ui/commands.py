"""The board's per-ruleset command panels (issue 13, item 6): what a ruleset's people declare and do on the
board, its tracker, its unit card and what it draws on the tokens. The battle screen asks `commands_for` for the
ruleset it plays; a ruleset without an entry gets `Commands`, which leaves everything to the battle screen's
own parts (Future Imperfect's declaration keys, attack menu and initiative tracker), so FI's board is unchanged.

A panel reads the battle through the screen's session and submits Actions through `screen._submit`, the same
Battle API the AIs use (ARCHITECTURE §2)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import pygame

from skirmish.core.events import Event
from skirmish.ecs.view import BattleView, UnitView
from skirmish.ui.anim import Banner, banner_for
from skirmish.ui.overlay_text import help_sections
from skirmish.ui.panels import ROMAN
from skirmish.ui.widgets import Button

if TYPE_CHECKING:
    from skirmish.battle import Request


class Commands:
    """A ruleset's board commands; this base handles nothing (the battle screen's FI parts do)."""

    declare_kind = "declare"  # the request kind of a declaration (AI ones run at once, without animation)
    turn_kind = "act"  # the request kind of a unit's turn on the map (drag to move)
    reason_kinds: tuple[str, ...] = ("act",)  # requests whose AI reason is shown over the miniature

    def __init__(self, screen: Any) -> None:
        self.screen = screen  # the battle screen (BattleMenus), or the replay viewer (drawing and events only)

    def key(self, event: pygame.event.Event) -> bool:
        """A key for the panel; True if it was used."""
        return False

    def mouse_down(self, pos: tuple[int, int], unit: UnitView | None) -> bool:
        """A left click (on `unit` if one is under it); True if the panel took it."""
        return False

    def buttons(self, req: Request | None) -> list[Button] | None:
        """The bottom bar's buttons for a person's request (None: the screen's own)."""
        return None

    def act_buttons(self, req: Request) -> list[Button]:
        """Buttons the ruleset adds to the screen's own at a unit's turn (FI: launch, covering fire)."""
        return []

    def menu_note(self, unit: str) -> str:
        """Words the ruleset adds to the attack menu's heading (FI: the story chips and how they are spent)."""
        return ""

    def prompt(self, req: Request) -> str | None:
        """The bottom bar's line for a person's request (None: the screen's own)."""
        return None

    def stage(self, view: BattleView) -> str:
        """The header's part of the round: FI's phase, or that sides are declaring."""
        return f" · phase {ROMAN[view.phase]}" if view.phase else (" · declaring" if view.round else "")

    def waits_for(self, req: Request | None) -> str:
        """The hot-seat cover's words for what the side at the board is to do."""
        return ("declares its speeds" if req is not None and req.kind == "declare"
                else f"{req.unit} acts" if req is not None else "is next")

    def help(self, lines: list[str]) -> list[str]:
        """The H overlay's key lines for this ruleset (FI's as they are)."""
        return lines

    def sections(self, keys: list[str]) -> list[tuple[str, Sequence[str]]]:
        """The H overlay's sections: these keys, what the board's marks mean, the abbreviations (FI's)."""
        return help_sections(keys)

    def secret(self, e: Event) -> bool:
        """True for an event the other sides never read in the log (none of FI's: its speeds are public)."""
        return False

    def banner(self, e: Event) -> Banner | None:
        """The banner an event puts over the board (FI's: a new round's "declare speeds")."""
        return banner_for(e)

    def on_event(self, e: Event, cells: dict[str, tuple[int, int]]) -> list[list[Any]]:
        """Animation groups for one of the ruleset's own events (`cells` before it); may update `cells`."""
        return []

    def draw_tracker(self, surf: pygame.Surface, rect: pygame.Rect, view: BattleView) -> bool:
        """Draw the turn-order tracker; False: the screen draws FI's initiative tracker."""
        return False

    def draw_card(self, surf: pygame.Surface, rect: pygame.Rect, unit: UnitView | None) -> list[Any] | None:
        """Draw the unit card (its tooltips returned); None: the screen draws FI's."""
        return None

    def draw_board(self, surf: pygame.Surface, view: BattleView, at: dict[str, tuple[float, float]]) -> None:
        """Marks drawn on the board over the tokens (`at`: where each is drawn now)."""

    def draw_panel(self, surf: pygame.Surface, view: BattleView) -> None:
        """The command panel over the board, while a person decides."""


REGISTRY: dict[str, Callable[[Any], Commands]] = {}


def register(ruleset: str, make: Callable[[Any], Commands]) -> None:
    """The board's commands for `ruleset` (by its registered name)."""
    REGISTRY[ruleset] = make


def commands_for(ruleset: str, screen: Any) -> Commands:
    """The commands of the ruleset a battle plays (the base `Commands` when it registered none)."""
    if ruleset not in REGISTRY:  # (not `if not REGISTRY`: one ruleset's board imported first left out the other's)
        import skirmish.ui.fi_board  # registers Future Imperfect's: card hands, melee, chips
        import skirmish.ui.fw  # noqa: F401
    return REGISTRY.get(ruleset, Commands)(screen)
