"""What a person at the board may choose, and what each choice would do before it is made: the declaration
and the action buttons of the bottom bar, the attack menu with the odds of every attack (called shots, bursts),
throw mode with the odds of the burst under the pointer, and the walk and run reach and the route of a drag,
all asked of the Battle (`legal_actions`, `odds`, `preview_move`, STYLE 13). A choice becomes an Action
submitted through the same Battle API the AIs use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import pygame

from skirmish.core.errors import IllegalAction
from skirmish.ecs.view import BattleView
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Action, Aim, Declare, EndTurn, Reload, Shoot, Throw, Wait
from skirmish.rulesets.fi import CALLED_SHOTS, ShotOdds, ThrowOdds
from skirmish.ui import fi_melee, fi_wait
from skirmish.ui.battle.reach import BattleReach
from skirmish.ui.fi_ranged import off_hand_shots, speed_note
from skirmish.ui.frame import TOP_H
from skirmish.ui.widgets import ACCENT, BAD, DIM, TEXT, Button, elide, place_beside, wrap

CALLED = (None, *CALLED_SHOTS)  # what the engine accepts: the eight boxes, torso, hands, feet, eye, heart


@dataclass
class AttackOption:
    """One line of the attack menu."""

    action: Action  # a Shoot, or a melee action or contest (skirmish/ui/fi_melee.py)
    odds: ShotOdds | None
    refusal: str | None
    note: str | None = None  # where the engine has no odds: a contest's dice, active defence


@dataclass
class AttackMenu:
    """The attacks the rules allow against one target, with their odds."""

    unit: str
    target: str
    called: str | None = None
    own: bool = False  # the fight menu of the unit's own maneuvers (F), not an attack on `target`
    page: str = "attacks"  # or "contests" (P)
    options: list[AttackOption] = field(default_factory=list)
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    rows: list[pygame.Rect] = field(default_factory=list)
    routes: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)  # charge routes by cell


class BattleMenus(BattleReach):
    """The choices a person makes on the board, and their odds."""

    # ------------------------------------------------------------------ choices → actions
    def _submit(self, action: Action) -> bool:
        try:
            self.session.submit(action)
        except IllegalAction as exc:
            self.toast(f"refused: {exc}", BAD)
            return False
        self.attack = None
        self.throwing = None
        self._route_key = None
        self._reach_key = None
        return True

    def _declare(self, speed: str) -> None:
        req = self.session.human_request()
        if req is not None and req.kind == "declare":
            self._submit(Declare(req.unit, speed))

    def _act(self, make: Callable[[str], Action | None]) -> None:
        req = self.session.human_request()
        if req is None or req.kind != self.commands.turn_kind:
            return
        action = make(req.unit)
        if action is not None:
            self._submit(action)

    def _aim(self, unit: str) -> Action | None:
        if self.target is None:
            self.toast("click an enemy first, then A to aim at it", DIM)
            return None
        return Aim(unit, self.target)

    def _undo(self) -> None:
        if self.session.undo():
            self.anim.clear()
            self.log_panel.reset()
            self.log_fog.forget_from(len(self.session.battle.log.events))
            self._cells = {u.name: u.cell for u in self.session.view().units}
            self._reach_key = self._route_key = None
            self.toast("move taken back")
        else:
            self.toast("nothing to undo: only a move not yet followed by any draw can be taken back", DIM)

    def _open_attack(self, unit: str, target: str) -> None:
        seen = next((u for u in self.view_now().units if u.name == target), None)
        if seen is None or seen.ghost:  # a last-known position is no target (fog): say only what the side knows
            self.attack = None
            self.toast(f"{target} is not in sight: last seen there in round {seen.last_seen if seen else '?'}", DIM)
            return
        self.target = target
        self.attack = AttackMenu(unit, target)
        self._fill_attack()

    def _open_fight(self) -> None:
        """F: the fight menu of the unit whose turn it is (active defence, break free, rise)."""
        req = self.session.human_request()
        if req is None or req.kind != "act":
            return
        self.attack = AttackMenu(req.unit, req.unit, own=True)
        self._fill_attack()
        if not self.attack.options:
            self.attack = None
            self.toast(f"{req.unit} has no maneuver of its own now: active defence needs an enemy within 1 m", DIM)

    def _open_wait(self) -> None:
        """W: the wait menu of the unit whose turn it is (R-5.7, skirmish/ui/fi_wait.py); a single wait is submitted."""
        self.attack = fi_wait.open_menu(self, AttackMenu)
        self._fill_attack()

    def _toggle_page(self) -> None:
        """P: the attack menu's attacks, or its psychological contests (R-8.4)."""
        if self.attack is not None and not self.attack.own:
            self.attack.page = "contests" if self.attack.page == "attacks" else "attacks"
            self._fill_attack()

    def _fill_melee(self, m: AttackMenu) -> bool:
        """The fight menu's or the contests' lines, or the melee lines before the shots; True when done."""
        battle, view = self.session.battle, self.session.view()
        if m.page == "waits":
            m.options = [AttackOption(ln.action, None, None, ln.note) for ln in fi_wait.lines_for(self, m.unit)]
            return True
        if m.own:
            lines = fi_melee.own_lines(battle, m.unit)
        else:
            lines = fi_melee.enemy_lines(battle, view, m.unit, m.target, m.called)
            contest = [ln for ln in lines if isinstance(ln.action, fi_melee.fi.Contest)]
            lines = contest if m.page == "contests" else [ln for ln in lines if ln not in contest]
        m.options = [AttackOption(ln.action, ln.odds, ln.refusal, ln.note) for ln in lines]
        return m.own or m.page == "contests"

    def _fill_attack(self) -> None:
        m = self.attack
        if m is None:
            return
        if self._fill_melee(m):
            return
        melee = m.options
        u = self.session.view().unit(m.unit)
        candidates: list[Shoot] = []
        for mode in ("snap", "prepared", "aimed"):
            candidates.append(Shoot(m.unit, m.target, mode=mode, called=m.called))
        if u.weapon is not None and m.called is None:
            for b in u.weapon.bursts:
                for mode in ("snap", "prepared"):
                    candidates.append(Shoot(m.unit, m.target, mode=mode, burst=b))
        if u.weapon is not None and u.weapon.double_tap:  # two shots off one card
            for mode in ("snap", "prepared"):
                candidates.append(Shoot(m.unit, m.target, mode=mode, called=m.called, double_tap=True))
        shots: list[AttackOption] = []
        for a in candidates + off_hand_shots(u, m.unit, m.target, m.called):
            try:
                shots.append(AttackOption(a, self.session.battle.odds(a), None))
            except IllegalAction as exc:
                shots.append(AttackOption(a, None, str(exc)))
        near = [o for o in melee if not isinstance(o.action, fi_melee.fi.Charge)]
        if melee and all(o.refusal for o in shots):  # no shot but a close fight (or a charge): that alone
            shots = []
        m.options = near + shots + [o for o in melee if o not in near]  # blows first, charges after the shots

    def _toggle_throw(self) -> None:
        """T: enter throw mode with the first thrown weapon carried, then the next, then leave it."""
        req = self.session.human_request()
        if req is None or req.kind != "act":
            return
        items = [w.id for w, _ in self.session.view().unit(req.unit).throwables]
        if not items:
            self.toast(f"{req.unit} carries nothing to throw", DIM)
            self.throwing = None
            return
        if self.throwing in items and items.index(self.throwing) + 1 < len(items):
            self.throwing = items[items.index(self.throwing) + 1]
        elif self.throwing in items:
            self.throwing = None
        else:
            self.throwing = items[0]
        self.attack = None
        if self.throwing:
            self.toast(f"throw: {self.throwing.replace('_', ' ')} - click a cell (Esc cancels)", DIM)

    def _throw_preview(self, cell: tuple[int, int]) -> ThrowOdds | str:
        """Odds of throwing at `cell` (cached per cell), or the rule that forbids it."""
        req = self.session.human_request()
        if req is None or req.kind != "act" or self.throwing is None:
            return "no throw now"
        key = (self.session.generation, len(self.session.battle.history), cell, self.throwing)
        if self._throw_key != key:
            self._throw_key = key
            try:
                odds = self.session.battle.odds(Throw(req.unit, cell, self.throwing))
                if isinstance(odds, ThrowOdds):  # all-seeing: only the figures the board's view sees now are named
                    odds = odds.among({u.name for u in self.view_now().units if not u.ghost})
                self._throw = odds
            except IllegalAction as exc:
                self._throw = str(exc)
        return self._throw

    def _choose(self, i: int) -> None:
        m = self.attack
        if m is None or not 0 <= i < len(m.options):
            return
        opt = m.options[i]
        if opt.refusal:
            self.toast(f"refused: {opt.refusal}", BAD)
            return
        self._submit(opt.action)

    def _cycle_called(self) -> None:
        """C: the attack menu's next called shot (none, then each location)."""
        assert self.attack is not None
        if self.attack.own:
            return
        i = CALLED.index(self.attack.called) if self.attack.called in CALLED else 0
        self.attack.called = CALLED[(i + 1) % len(CALLED)]
        self._fill_attack()

    def _toggle_pause(self) -> None:
        self.paused = not self.paused

    def _step(self) -> None:
        self.step_request = True
        self.paused = True

    # ------------------------------------------------------------------ the bottom bar and the menus drawn
    def bottom_buttons(self) -> list[Button]:
        """The bottom bar's buttons: the declarations, or the actions of the unit whose turn it is, or (watching)
        play, pause and step; then the speed (their keys work too)."""
        req = self.session.human_request()
        bs: list[Button] = []
        own = self.commands.buttons(req)  # the ruleset's command panel's (fw: declare, stay)
        if own is not None:
            bs = own
        elif req is not None and req.kind == "declare":
            for i, sp in enumerate(("fast", "normal", "slow", "dodge")):
                bs.append(Button(f"{i + 1} {sp}", partial(self._declare, sp), key=pygame.K_1 + i))
        elif req is not None and req.kind == "act":
            throwables = self.session.view().unit(req.unit).throwables
            label = "T throw" if self.throwing is None else f"T {self.throwing.split('_')[0]} (Esc)"
            bs += [Button("A aim", lambda: self._act(self._aim), enabled=self.target is not None),
                   Button(label, self._toggle_throw, enabled=bool(throwables)),
                   *self.commands.act_buttons(req),  # FI: L launch, K covering fire
                   Button("R reload", lambda: self._act(lambda u: Reload(u))),
                   *([Button("F fight", self._open_fight)] if self.session.view().unit(req.unit).melee is not None
                     else []),
                   Button("W wait", self._open_wait),
                   Button("E end turn", lambda: self._act(lambda u: EndTurn(u))),
                   Button("U undo", self._undo, enabled=self.session.can_undo())]
        else:
            bs += [Button("Space " + ("play" if self.paused else "pause"), self._toggle_pause),
                   Button(". step", self._step)]
        return [*bs, Button("- slower", lambda: self._speed(-1)), Button("+ faster", lambda: self._speed(1))]

    def prompt(self) -> str:
        """The bottom bar's line: what the person at the board may do now, or that the board is watching."""
        req = self.session.human_request()
        if req is None:
            if self.session.is_over():
                return "battle over"
            return "watching" + (" (paused: . steps one action)" if self.paused else "")
        own = self.commands.prompt(req)
        if own is not None:
            return own
        if req.kind == "declare":
            return f"{req.unit}: declare"
        if self.session.battle.move_refusal() is None:
            return f"{req.unit}: drag to move, click an enemy"
        return f"{req.unit}: click an enemy, or act"

    def attack_lines(self, view: BattleView) -> tuple[list[tuple[str, tuple[int, int, int]]], bool]:
        """The attack menu's lines (a heading, then one per option) and whether the options are choosable;
        when every option is refused for the same reason (no line of sight, an empty weapon) that reason is
        the one line under the heading."""
        m = self.attack
        assert m is not None
        me, tgt = view.unit(m.unit), view.unit(m.target)
        dist = geo.distance_m(me.cell, tgt.cell, view.grid.cell_m)
        if m.page == "waits":
            head = f"{m.unit}: wait (W) · hover a cell first to wait for an enemy entering it"
        elif m.own:
            head = f"{m.unit}: fight (F)"
        elif m.page == "contests":
            head = f"{m.unit} → {m.target}: contests · {', '.join(tgt.mind) or 'calm'} (P attacks)"
        else:
            head = (f"{m.unit} → {m.target}, {dist:.0f} m{speed_note(tgt)} · called: {m.called or 'none'} (C) · P contests"
                    + (" · S split" if me.weapon is not None and me.weapon.bursts else "")
                    + self.commands.menu_note(m.unit))  # FI: the side's story chips and how they are spent (X)
        lines: list[tuple[str, tuple[int, int, int]]] = [(head, ACCENT)]
        if not m.options:
            lines.append(("nothing the rules allow here now", BAD))
            return lines, False
        refusals = {o.refusal for o in m.options}
        if None not in refusals and len(refusals) == 1:
            lines.append((f"no attack: {m.options[0].refusal}", BAD))
            return lines, False
        for i, o in enumerate(m.options):
            a = o.action
            if isinstance(a, Shoot):
                name = (("off hand " if a.hand == "off" else "") + f"{a.mode}" + (" double tap" if a.double_tap else "")
                        + (f" burst {a.burst}" if a.burst else "") + (f" at {a.called.replace('_', ' ')}" if a.called else ""))
            elif isinstance(a, Wait):
                name = fi_wait.describe(a)
            else:
                name = fi_melee.describe(a, view)
            key = f"{i + 1}" if i < 9 else " "
            if o.odds is not None:
                lines.append((f"{key}  {name}: {o.odds.label()}", TEXT))
            elif o.note is not None and not o.refusal:
                lines.append((f"{key}  {name}: {o.note}", TEXT))
            else:
                lines.append((f"{key}  {name}: {o.refusal}", DIM))
        return lines, True

    def _draw_attack(self, surf: pygame.Surface, view: BattleView) -> None:
        """The menu beside the target (never over it), kept inside the board."""
        m = self.attack
        assert m is not None
        f = self.fonts
        lines, choosable = self.attack_lines(view)
        br = self.board_rect()
        most = min(620, br.w - 8)
        if not choosable:  # one refusal: wrap it rather than cut it
            lines = lines[:1] + [(part, BAD) for part in wrap(f.small, lines[1][0], most - 24)]
        lines = [(elide(f.small, text, most - 24), c) for text, c in lines]
        row_h = 20
        width = min(most, max(f.width(f.small, text) for text, _ in lines) + 24)
        height = 12 + row_h * len(lines)
        cx, cy = self.board.cam.centre(self.anim.positions().get(m.target, view.unit(m.target).cell))
        reach = self.board.token_radius() + max(4, self.board.cam.tile // 4)  # the token with its facing wedge
        target = pygame.Rect(cx - reach, cy + TOP_H - reach, 2 * reach, 2 * reach)
        m.rect = place_beside((width, height), target, br.inflate(-8, -8))
        pygame.draw.rect(surf, (22, 24, 30), m.rect, border_radius=6)
        pygame.draw.rect(surf, ACCENT, m.rect, 1, border_radius=6)
        m.rows = []
        yy = m.rect.y + 6
        for i, (text, colour) in enumerate(lines):
            row = pygame.Rect(m.rect.x + 4, yy, m.rect.w - 8, row_h)
            if i > 0 and choosable:
                m.rows.append(row)
                if row.collidepoint(self.mouse):
                    pygame.draw.rect(surf, (50, 56, 70), row, border_radius=3)
            surf.blit(f.text(f.small, text, colour), (m.rect.x + 10, yy + 1))
            yy += row_h

    def _draw_throw_tip(self, surf: pygame.Surface) -> None:
        """The odds of throwing at the hovered cell, beside the pointer."""
        assert self.hover is not None
        odds = self._throw_preview(self.hover)
        f = self.fonts
        text, colour = (odds, BAD) if isinstance(odds, str) else (odds.label(), TEXT)
        lines = wrap(f.small, f"{self.hover[0]},{self.hover[1]}: {text}", 420)
        imgs = [f.text(f.small, line, colour) for line in lines]
        w = max(i.get_width() for i in imgs) + 12
        h = 18 * len(imgs) + 8
        br = self.board_rect()
        x = max(br.x + 4, min(br.right - w - 4, self.mouse[0] + 18))
        y = max(br.y + 4, min(br.bottom - h - 4, self.mouse[1] + 18))
        pygame.draw.rect(surf, (22, 24, 30), (x, y, w, h), border_radius=5)
        pygame.draw.rect(surf, ACCENT, (x, y, w, h), 1, border_radius=5)
        for i, img in enumerate(imgs):
            surf.blit(img, (x + 6, y + 5 + 18 * i))

