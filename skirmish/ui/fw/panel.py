"""Future*World's command panel on the board (issue 13, items 5 and 6; R-9.2 - R-9.10): while a person declares,
a box over the board's foot with the two action rows (shoot, burst, melee, throw, launch, aid, react, program,
none; targets are clicked on the map), the weapon to attack with, the screen type and the steppers of the tacpack
split (screen points, CM, DCCM, sensors, jump; the total never above G: a refused step says why), the exact odds of
each declared attack as the battle gives them (`Battle.odds`, ui/fw/odds.py) with its marks on the board (target
lines, a grenade's blast and who it may catch, sensor reach, the DCCM beam: ui/fw/marks.py) and Declare. In the
movement segment a figure is dragged as in Future Imperfect (reach and route shown from the same `legal_actions`
and `preview_move`); E stays put."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame

from skirmish.core.events import Event, RoundEvent
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.actions import EndTurn
from skirmish.rulesets import fw as fwr
from skirmish.rulesets.fw import ACTS, CAR_ACTS, INTENT, MOVE, SCREEN_TYPES, FwDeclareEvent, FwMoveEvent
from skirmish.rulesets.fw_preview import half_dex
from skirmish.ui.anim import BANNER_S, STEP_S, Banner, MoveAnim
from skirmish.ui.commands import Commands, register
from skirmish.ui.fw.car import CAR_KEYS, MOUNT_KEY, car_at, car_line, car_line_move, car_rows, mount_line, mount_row
from skirmish.ui.fw.draft import NUMBER_NAMES, NUMBERS, THEN_ACTS, Draft, needs_target
from skirmish.ui.fw.draw import draw_dex_tracker, draw_fw_card, draw_token_marks, fw, parts_of, weapon_label
from skirmish.ui.fw.marks import draw_damage, draw_declaration, event_anims
from skirmish.ui.fw.odds import FwPreview, preview
from skirmish.ui.fw.words import GLOSSARY, HELP, LEGEND
from skirmish.ui.widgets import ACCENT, BAD, DIM, TEXT, Button, elide

if TYPE_CHECKING:
    from skirmish.battle import Request
    from skirmish.ui.battle.menus import BattleMenus

ROW_H = 26
CHART_H = 38  # the damage distribution's bars, for each previewed attack
# 1-9: the first action (Shift: the second); the grav car's acts on C, B and L (ui/fw/car.py)
KEYS_FIRST = {pygame.K_1 + i: act for i, act in enumerate(a for a in ACTS if a not in CAR_ACTS)} | CAR_KEYS


class FwCommands(Commands):
    """The board's commands for Future*World."""

    declare_kind = INTENT
    turn_kind = MOVE

    def __init__(self, screen: BattleMenus) -> None:
        super().__init__(screen)
        self.draft: Draft | None = None
        self.controls: list[Button] = []
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.refused: str | None = None  # the last refusal, shown in the panel until the next change
        self.chart: list[tuple[int, pygame.Rect]] = []  # the damage chart's bars last drawn: (points, bar)
        self._preview: tuple[Any, FwPreview] | None = None  # (what it was worked out for, the preview)
        self.folded = False  # P: only the panel's words (its keys still work), for a small window
        self.dccm_next = False  # D: the next enemy clicked is where DCCM is beamed, not a target

    @property
    def reason_kinds(self) -> tuple[str, ...]:  # type: ignore[override]
        """A declaration's reason would give it away to a person at the board: shown only while watching."""
        return (MOVE,) if self.screen._humans() else (INTENT, MOVE)

    # ------------------------------------------------------------------ the draft
    def _request(self) -> Request | None:
        req = self.screen.session.human_request()
        return req if req is not None and req.kind == INTENT else None

    def current(self) -> Draft | None:
        """The declaration being built for the figure that must declare now (a fresh one for a new request)."""
        req = self._request()
        if req is None:
            self.draft = None
            return None
        if self.draft is None or self.draft.unit != req.unit:
            u = self.screen.session.view().unit(req.unit)
            me = fw(u)
            if me is None:
                return None
            self.draft = Draft.start(req.unit, me, side=u.side, cell=u.cell)
            self.refused = None
            self.dccm_next = False  # a D pressed for the last figure does not carry to this one
        return self.draft

    def change(self, result: tuple[Draft, str | None]) -> None:
        """Take a changed draft, or show why the change was refused (the panel's line and a toast)."""
        self.draft, self.refused = result
        if self.refused:
            self.screen.toast(f"refused: {self.refused}", BAD)

    def pick_act(self, slot: int, act: str) -> None:
        """An action button: the first (slot 0) or the second action."""
        d = self.current()
        if d is not None:
            self.change(d.set_act(slot, act))

    def pick_screen(self, screen: str) -> None:
        """A screen-type button."""
        d = self.current()
        if d is not None:
            self.change(d.set_screen(screen))

    def pick_weapon(self, wid: str) -> None:
        """A weapon button: attack with it (refused with the rule if the declared attack cannot take it)."""
        d = self.current()
        if d is not None:
            self.change(d.pick_weapon(wid))

    def car_change(self, how: str, *args: Any) -> None:
        """A button of the car's split (R-9.12): `set_car_screen` or `step_car` (refused above its generator)."""
        d = self.current()
        if d is not None:
            self.change(getattr(d, how)(*args))

    def step(self, name: str, delta: int) -> None:
        """A stepper of the split (R-9.8: refused above G, with the reason)."""
        d = self.current()
        if d is not None:
            self.change(d.step(name, delta))

    def declare(self) -> bool:
        """Submit the declaration; a refusal by the battle is shown, the draft kept."""
        d = self.current()
        if d is None:
            return False
        refusal = self.screen.session.battle.check(d.intent())
        if refusal is not None:
            self.refused = str(refusal)
            self.screen.toast(f"refused: {self.refused}", BAD)
            return False
        if self.screen._submit(d.intent()):
            self.draft = None
            return True
        return False

    def preview(self, d: Draft) -> FwPreview:
        """The battle's odds of the draft's attacks and what its programs do (worked out once per draft, hover and
        log); an attack with no target yet is previewed at the enemy under the mouse, marked "hover"."""
        battle = self.screen.session.battle
        shown = self._hovered(d)
        key = (shown, len(battle.log.events), self.screen.viewer)
        if self._preview is None or self._preview[0] != key:
            pv = preview(battle, self.screen.view_now(), shown, self.screen.board.grid)
            if shown is not d:
                hover = f"{d.attack} {shown.target if d.act == d.attack else shown.then_target}"
                pv = replace(pv, lines=tuple(f"hover: {line}" if line.startswith(hover) else line for line in pv.lines))
            self._preview = (key, pv)
        return self._preview[1]

    def _hovered(self, d: Draft) -> Draft:
        """`d` with the enemy under the mouse as the target of its attack that has none yet (else `d`)."""
        att, hover = d.attack, self.screen.hover
        if att is None or att == "react" or hover is None or (d.target if d.act == att else d.then_target):
            return d
        view = self.screen.view_now()
        side = view.unit(d.unit).side
        # A last-seen token is not previewed on hover: whether it is still there shows only on declaring (review7a).
        u = next((u for u in view.units if u.cell == hover and u.side != side and not u.out_of_action
                  and not u.ghost), None)
        if u is None:  # (a grenade is aimed at a free cell by a click only: hovering empty ground asks for a target)
            return d
        return replace(d, target=u.name) if d.act == att else replace(d, then_target=u.name)

    def odds_lines(self, d: Draft) -> list[str]:
        """The exact odds of each declared attack at its target (R-9.4 to R-9.10), and the EW programs' effect."""
        return list(self.preview(d).lines)

    # ------------------------------------------------------------------ input
    def key(self, event: pygame.event.Event) -> bool:
        d = self.current()
        if d is None:
            return False
        k = event.key
        if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.declare()
            return True
        if k in KEYS_FIRST:
            act = KEYS_FIRST[k]
            slot = 1 if event.mod & pygame.KMOD_SHIFT else 0
            if slot == 1 and act not in THEN_ACTS and act != "program":
                return True  # "program" goes through so that Draft.set_act says why not
            self.change(d.set_act(slot, act))
            return True
        if k == pygame.K_w:
            self.change(d.next_weapon())
            return True
        if k == MOUNT_KEY:  # fire from the next mount of the car it may work
            self.change(d.next_mount())
            return True
        if k == pygame.K_p:
            self.folded = not self.folded
            return True
        if k == pygame.K_d:
            self.dccm_next = not self.dccm_next
            if self.dccm_next:
                self.screen.toast("click the enemy to beam DCCM at (R-9.9)")
            return True
        if k == pygame.K_k:
            kinds = ("none", *SCREEN_TYPES)
            self.change(d.set_screen(kinds[(kinds.index(d.screen) + 1) % len(kinds)]))
            return True
        return False

    def mouse_down(self, pos: tuple[int, int], unit: UnitView | None) -> bool:
        d = self.current()
        if d is None:
            if unit is not None and self.screen.session.human_request() is not None:
                req = self.screen.session.human_request()
                assert req is not None
                me = self.screen.session.view().unit(req.unit)
                if req.kind == MOVE and unit.cell == me.cell and unit.name != req.unit:
                    # riders share the car's cell: a press there drags the one who moves (the driver, R-9.12)
                    self.screen.selected = req.unit
                    self.screen.drag = (req.unit, self.screen._board_pos(pos))
                    return True
                if unit.name != req.unit:  # no attack menu in the movement segment: the click selects only
                    self.screen.selected = unit.name
                    return unit.side != me.side
            return False
        if self.rect.collidepoint(pos):
            for b in self.controls:
                if b.enabled and b.rect.collidepoint(pos):
                    b.on()
            return True
        car = car_at(self.screen.view_now(), self.screen.board.cam.cell_at(self.screen._board_pos(pos)))
        if car is not None and "car" not in (needs_target(d.act), needs_target(d.then)):
            car = None
        if car is not None:
            self.change(d.aim_car(car))
            return True
        cell = self.screen.board.cam.cell_at(self.screen._board_pos(pos))
        if unit is None and cell is not None and "throw" in d.acts():  # a grenade at a free cell
            self.change(d.aim_cell(cell))
            return True
        if unit is not None:
            self.screen.selected = unit.name
            if unit.name != d.unit:
                enemy = unit.side != self.screen.session.view().unit(d.unit).side
                if self.dccm_next and enemy:
                    self.dccm_next = False
                    self.change(d.beam_at(unit.name))
                else:
                    self.change(d.aim(unit.name, enemy=enemy))
            return True
        return False

    def buttons(self, req: Request | None) -> list[Button] | None:
        if req is None:
            return None
        if req.kind == INTENT:
            return [Button("Enter declare", self.declare)]
        if req.kind == MOVE:
            return [Button("E stay", lambda: self.screen._submit(EndTurn(req.unit)))]
        return None

    def prompt(self, req: Request) -> str | None:
        if req.kind == INTENT:
            return (f"{req.unit}: declare (1-9 action, C drive, B mount, L dismount, F fire a car's mount, Shift "
                    "second, click targets, W weapon, K screen, Enter)")
        if req.kind == MOVE:
            why = self.screen.session.battle.move_refusal()
            car = car_line_move(self.screen.session.view(), req.unit) or "drag to move"
            return f"{req.unit}: {car}, E to stay" if why is None else f"{req.unit}: {why}; E to go on"
        return None

    # ------------------------------------------------------------------ events
    def stage(self, view: BattleView) -> str:
        req = self.screen.session.pending
        if req is None or not view.round:
            return ""
        return {INTENT: " · declaring", MOVE: " · movement segment"}.get(req.kind, " · resolving")

    def waits_for(self, req: Request | None) -> str:
        if req is None:
            return "is next"
        return f"{req.unit} declares" if req.kind == INTENT else f"{req.unit} moves"

    def help(self, lines: list[str]) -> list[str]:
        fi_only = ("Declaring:", "Your turn:", "   A aim", "   T throw", "Attack menu:")
        return [line for line in lines if not line.startswith(fi_only)] + HELP

    def sections(self, keys: list[str]) -> list[tuple[str, Sequence[str]]]:
        return [("Keys", keys), ("On the board (Future*World)", LEGEND), ("Words", GLOSSARY)]

    def secret(self, e: Event) -> bool:
        return isinstance(e, (FwDeclareEvent, fwr.FwCarSplitEvent))  # a car's split is declared too

    def banner(self, e: Event) -> Banner | None:
        if isinstance(e, RoundEvent):
            return Banner(BANNER_S, text=f"Round {e.round}: declare actions")
        return None

    def on_event(self, e: Event, cells: dict[str, tuple[int, int]]) -> list[list[Any]]:
        if isinstance(e, FwMoveEvent) and e.actor:
            path = [(int(c[0]), int(c[1])) for c in e.path]
            cells[e.actor] = path[-1]
            return [[MoveAnim(STEP_S * max(1, len(path) - 1), unit=e.actor, path=path)]]
        if isinstance(e, fwr.FwDriveEvent):  # a flight carries every rider
            path = [(int(c[0]), int(c[1])) for c in e.path]
            for r in e.riders:
                cells[r] = path[-1]
            return [[MoveAnim(STEP_S * max(1, len(path) - 1), unit=r, path=path) for r in e.riders]]
        if isinstance(e, fwr.FwBoardEvent) and e.actor:  # boarding or leaving puts the rider on its cell
            cells[e.actor] = (int(e.cell[0]), int(e.cell[1]))
        return event_anims(e, cells, self.screen.board.grid.cell_m)

    # ------------------------------------------------------------------ drawing
    def draw_tracker(self, surf: pygame.Surface, rect: pygame.Rect, view: BattleView) -> bool:
        draw_dex_tracker(surf, self.screen.fonts, rect, view, self.screen.board.colours)
        return True

    def draw_card(self, surf: pygame.Surface, rect: pygame.Rect, unit: UnitView | None) -> list[Any] | None:
        colour = self.screen.board.colours.get(unit.side) if unit is not None else None
        return draw_fw_card(surf, self.screen.fonts, rect, unit, colour)

    def draw_board(self, surf: pygame.Surface, view: BattleView, at: dict[str, tuple[float, float]]) -> None:
        draw_token_marks(surf, self.screen.fonts, self.screen.board, view, at)
        d = self.current() if hasattr(self.screen, "session") else None  # a replay declares nothing
        if d is not None:
            draw_declaration(surf, self.screen.fonts, self.screen.board.cam, view, d.unit, self.preview(d),
                             self.screen.board.grid.cell_m)

    def _layout(self, d: Draft) -> list[tuple[str, list[Button]]]:
        def act_buttons(slot: int, acts: tuple[str, ...], chosen: str) -> list[Button]:
            return [Button(a, partial(self.pick_act, slot, a), active=a == chosen, small=True) for a in acts]

        def stepper(name: str) -> list[Button]:
            return [Button("-", partial(self.step, name, -1), small=True),
                    Button(f"{NUMBER_NAMES[name]} {getattr(d, name)}", lambda: None, small=True, enabled=False),
                    Button("+", partial(self.step, name, 1), small=True)]

        first = act_buttons(0, ACTS, d.act)
        then = act_buttons(1, THEN_ACTS, d.then)
        armed = d.weapon
        weapons = [Button(weapon_label(d.me, w), partial(self.pick_weapon, w), active=w == armed, small=True)
                   for w in dict.fromkeys(d.me.weapons)]
        screens = [Button(s, partial(self.pick_screen, s), active=s == d.screen, small=True)
                   for s in ("none", *SCREEN_TYPES)]
        steppers = [b for n in NUMBERS for b in stepper(n)]
        return [(f"1st{' ' + d.target if d.target else ''}", first),
                (f"2nd{' ' + d.then_target if d.then_target else ''}", then), ("weapon", weapons), ("screen", screens),
                ("tacpack", steppers), *car_rows(d, partial(self.car_change, "set_car_screen"),
                                                      partial(self.car_change, "step_car")),
                *mount_row(d, partial(self.car_change, "set_mount"))]

    def _place(self, view: BattleView, d: Draft, rect: pygame.Rect) -> pygame.Rect:
        """The panel over the board's foot, or its top if that hides fewer figures (never the one declaring if
        it can help it)."""
        br = self.screen.board_rect()
        r = self.screen.board.token_radius() + 4
        tokens = []
        for u in view.units:
            x, y = self.screen.board.cam.centre(u.cell)
            tokens.append((pygame.Rect(br.x + x - r, br.y + y - r, 2 * r, 2 * r), 10 if u.name == d.unit else 1))
        top = rect.copy()
        top.y = br.y + 4
        return min((rect, top), key=lambda at: sum(w for t, w in tokens if at.colliderect(t)))

    def draw_panel(self, surf: pygame.Surface, view: BattleView) -> None:
        d = self.current()
        if d is None:
            self.rect = pygame.Rect(0, 0, 0, 0)
            return
        f = self.screen.fonts
        br = self.screen.board_rect()
        rows = [] if self.folded else self._layout(d)
        info = [(d.summary() + f" · {d.me.generator - d.total} spare", ACCENT if d.total <= d.me.generator else BAD)]
        pv = self.preview(d)
        car = car_line(d)
        if car:
            info.append((car, BAD if d.car_refusal() else TEXT))
        gun = mount_line(d)
        if gun:
            info.append((gun, TEXT))
        info += [(line, BAD if any(r in line for r in pv.refusals) else TEXT) for line in pv.lines]
        if self.refused:
            info.append((f"refused: {self.refused}", BAD))
        width = min(br.w - 16, 760)
        x0, label_w = 10, 64
        placed: list[tuple[str, int, list[Button]]] = []  # row label, its y in the panel, its buttons
        y = 34
        for label, buttons in rows:  # buttons wrap onto another line in a narrow board
            placed.append((label, y, buttons))
            x = x0 + label_w
            for b in buttons:
                w = f.width(f.small, b.label) + 14
                if x + w > width - 6 and x > x0 + label_w:
                    x, y = x0 + label_w, y + ROW_H
                b.rect = pygame.Rect(x, y, w, ROW_H - 4)
                x += w + 4
            y += ROW_H
        height = y + 6 + 18 * sum(len(parts_of(f, text, width - 20)) for text, _ in info) + CHART_H * len(pv.damage)
        self.rect = self._place(view, d, pygame.Rect(br.x + 8, max(br.y + 4, br.bottom - height - 8), width, height))
        pygame.draw.rect(surf, (22, 24, 30), self.rect, border_radius=6)
        pygame.draw.rect(surf, ACCENT, self.rect, 1, border_radius=6)
        head = (f"{d.unit} declares (R-9.2) · DEX {d.me.DEX}, a second action at {half_dex(d.me.DEX)} · G "
                f"{d.me.generator}" + (" · P: the buttons" if self.folded else ""))
        surf.blit(f.text(f.normal, elide(f.normal, head, width - 20), ACCENT),
                  (self.rect.x + x0, self.rect.y + 6))
        self.controls = []
        for label, row_y, buttons in placed:
            surf.blit(f.text(f.small, label, DIM), (self.rect.x + x0, self.rect.y + row_y + 4))
            for b in buttons:
                b.rect.move_ip(self.rect.x, self.rect.y)
                b.draw(surf, f, b.rect.collidepoint(self.screen.mouse))
                self.controls.append(b)
        x0, y = self.rect.x + x0, self.rect.y + y + 6
        for text, colour in info:
            for part in parts_of(f, text, width - 20):
                surf.blit(f.text(f.small, part, colour), (x0, y))
                y += 18
        for label, pmf, hp in pv.damage:
            self.chart = draw_damage(surf, f, pygame.Rect(x0, y + 2, width - 20, CHART_H - 4), label, pmf, hp)
            y += CHART_H


register("fw", FwCommands)
