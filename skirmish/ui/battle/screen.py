"""The battle on the board: watching AI sides play (pause, step, speed) and playing human sides (declare,
drag to move, attack menu with odds, aim, reload, wait, end turn, undo). BattleScreen composes its parts:
state.py (what it holds, the layout, whose eyes), menus.py (the choices and their odds), input.py (keys and
mouse) and drawing.py; here are the battle's events reaching the board and the AI sides' pace. Input becomes
Actions submitted through the same Battle API the AIs use; the board never writes components (ARCHITECTURE §2)."""

from __future__ import annotations

from collections.abc import Callable

from skirmish.battle import Outcome
from skirmish.core.events import DecisionEvent, Event, RoundEvent, TurnEvent
from skirmish.core.scenario_events import ScenarioTriggerEvent
from skirmish.rulesets.fi import InitiativeEvent, MoveEvent
from skirmish.ui.anim import BANNER_S, Banner, anims_for
from skirmish.ui.battle.drawing import BattleDrawing
from skirmish.ui.battle.input import BattleInput
from skirmish.ui.fog import cut_to_eyes, shown
from skirmish.ui.frame import ACTION_PAUSE_S
from skirmish.ui.panels import ROMAN
from skirmish.ui.screens import MenuFactory, Transition
from skirmish.ui.session import Session
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import Fonts
from skirmish.ui.zones import toast_for

AI_WAIT_S = 0.008  # per frame, the board waits this long for a thinking AI (the worker runs meanwhile)


class BattleScreen(BattleInput, BattleDrawing):
    """One battle on the board."""

    def __init__(self, fonts: Fonts, settings: Settings, session: Session, on_end: Callable[[Session], Transition],
                 menu: MenuFactory, size: tuple[int, int]) -> None:
        super().__init__(fonts, settings, session, on_end, menu, size)
        session.listen(self._on_event)

    # ------------------------------------------------------------------ events from the battle
    def _on_event(self, e: Event) -> None:
        if isinstance(e, DecisionEvent) and e.actor and e.request in self.commands.reason_kinds:  # FI: "act" only
            self.reasons[e.actor] = e.label()
        said = toast_for(e)  # a scenario's trigger messages and objectives (issue 15)
        theirs = isinstance(e, ScenarioTriggerEvent) and e.side not in (None, self.eyes)  # reinforcements, AI
        if said is not None and not (self.eyes is not None and theirs):  # under fog: not another side's
            self.toast(*said)
        banner = self.commands.banner(e)
        if banner is not None:
            self.anim.overlay.append(banner)
        if isinstance(e, RoundEvent):
            self.done.clear()
            self._flipped = False
            self.reveal = {self.viewer} if self.viewer else set()
            self.acting = None
        elif isinstance(e, InitiativeEvent):
            self._flipped = True
            self.reveal = set(self.session.controls)  # declarations are shown once initiative is flipped
        elif isinstance(e, TurnEvent):
            if self.acting:
                self.done.add(self.acting)
            self.acting = e.actor
            if e.actor and self.drag is None and self.pan_from is None and \
                    (self.eyes is None or shown(self.session.battle.observe(self.eyes), e.actor)):
                # keep the acting miniature in view (one the fog hides is not followed)
                self.board.cam.bring_into_view(self._cells.get(e.actor, self.session.view().unit(e.actor).cell))
            if e.phase and (e.round, e.phase) != self._phase_shown:
                self._phase_shown = (e.round, e.phase)
                self.anim.overlay.append(Banner(BANNER_S * 0.8, text=f"Round {e.round} - phase {ROMAN[e.phase]}"))
        battle = self.session.battle
        truth = battle.view()
        self.log_fog.note(len(battle.log.events) - 1, e, truth, battle.knowledge.seen, self.fog)
        if self.commands.secret(e):  # fw: a declaration stays with its own side
            self.log_fog.keep_to_own_side(len(battle.log.events) - 1, e, truth)
        groups = anims_for(e, self._cells, self.session.scenario.grid.cell_m)
        groups += self.commands.on_event(e, self._cells)  # the ruleset's own events (fw moves and attacks)
        if self.eyes is not None and groups:  # only what the side's eyes saw of it
            groups = cut_to_eyes(groups, e, self.eyes, truth, battle.knowledge.seen[self.eyes], self.fog)
        for group in groups:
            self.anim.add(*group)
        if isinstance(e, MoveEvent) and e.actor:
            end = e.path[-1]
            self._cells[e.actor] = (int(end[0]), int(end[1]))

    # ------------------------------------------------------------------ time
    def update(self, dt: float) -> Transition | None:
        """Advance animations; let AI sides act when it is their turn and nothing is playing."""
        self.frames += 1
        self._age_toasts(dt)
        self._check_handover()
        speed = self.settings.speed
        self.anim.update(dt * speed)
        s = self.session
        if s.is_over():
            if not self.anim.busy:
                self.end_wait -= dt
                if self.end_wait <= 0:
                    return self.on_end(s)
            return None
        if self.step_request:
            self.step_request = False
            self.anim.finish()
            self._ai_declarations()
            if s.ai_turn():
                s.ai_step()
            return None
        if self.paused or self.anim.busy:
            return None
        self._ai_declarations()
        if s.ai_turn():
            s.ai_think()  # the AI decides on a worker thread while the board keeps drawing
            self.delay -= dt * speed
            if self.delay <= 0 and s.ai_poll(wait=AI_WAIT_S):
                self.delay = ACTION_PAUSE_S
        self._follow_prompt()
        return None

    def _ai_declarations(self) -> None:
        """AI declarations and initiative need no animation: run them at once."""
        s = self.session
        for _ in range(200):
            req = s.pending
            if req is None or req.kind != self.commands.declare_kind or not s.ai_turn():
                return
            s.ai_step()

    def _follow_prompt(self) -> None:
        """When a person must decide for a new unit, select it and bring it into view."""
        req = self.session.human_request()
        key = (req.kind, req.unit) if req else None
        if key != self._last_prompt:
            self._last_prompt = key
            if req is not None:
                self.selected = req.unit
                cam = self.board.cam
                x, y = cam.centre(self.session.view().unit(req.unit).cell)
                if not (0 <= x < cam.view_w and 0 <= y < cam.view_h):
                    cam.look_at(self.session.view().unit(req.unit).cell)


def outcome_of(session: Session) -> Outcome:
    """The finished battle's outcome."""
    assert session.battle.outcome is not None
    return session.battle.outcome
