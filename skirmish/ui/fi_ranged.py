"""Future Imperfect's rest of ranged combat on the board (issue 14): the modes a person uses at a unit's turn, each
asking the Battle (`check`, `odds`: STYLE 13) before anything is submitted, and the covered areas drawn on the board.

- **Launch mode (L, R-6.10)**, like throw mode: with a launcher in hand, the burst under the pointer (the full
  radius shaded, the outer ring outlined) and the odds (`Battle.odds(Launch)`: on the cell, and for each figure the
  burst may catch) beside it; a click launches.
- **Covering fire (K, R-6.12)**: K enters the mode with single shots, K again takes the weapon's next burst (the
  volume), then leaves. The area under the pointer is drawn (every cell within 2 m, 4 m for a `suppression` weapon)
  with the volume's dice and the rule that refuses it, if one does; a click declares it.
- **Split burst (S in the attack menu, R-6.3)**: the menu's target first; click further enemies (two or three in
  all; a click on one taken drops it); B the burst, N snap or prepared; each target's odds from
  `Battle.odds(Shoot(also=…))` (its share of the dice and rounds, the TN +2 per extra target); Enter fires.
- **Covered areas**: every covering unit the board's view holds (`UnitView.covering`: a side's own, never an
  enemy's intention; all of them all-seeing) has its area outlined in its side's colour with the volume.

State lives here (`RangedModes`), held by FiCommands (skirmish/ui/fi_board.py); clicks and keys reach it through
the screen's command panel hooks; Actions go through `screen._submit`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pygame

from skirmish.core.errors import IllegalAction
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.actions import CoverFire, Launch, Shoot
from skirmish.rules.equipment import Weapon
from skirmish.rulesets.fi import blast_reach_m, fast_target, ranged_cover
from skirmish.ui.widgets import ACCENT, BAD, DIM, TEXT, wrap

SPLIT_MAX = 3  # targets of a split burst (R-6.3's examples split between two or three)
COVER_C = (250, 200, 60)


@dataclass
class Split:
    """A split burst being put together: the firer, its targets (the first is the menu's), burst and mode."""

    unit: str
    targets: list[str]
    burst: int
    mode: str = "prepared"

    def action(self) -> Shoot:
        return Shoot(self.unit, self.targets[0], mode=self.mode, burst=self.burst, also=tuple(self.targets[1:]))


@dataclass
class RangedModes:
    """The mode a person is in (None, "launch", "cover", "split") and what it has chosen; cached previews."""

    screen: Any
    mode: str | None = None
    owner: str = ""  # the unit the mode was started for: the mode ends with its turn
    cover_burst: int = 0
    hand: str = ""  # launch mode: "off" for the launcher in the other hand (R-6.12 two weapons)
    split: Split | None = None
    _cache: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ what the screen knows
    def _req(self) -> Any:
        req = self.screen.session.human_request()
        return req if req is not None and req.kind == "act" else None

    def _me(self) -> UnitView | None:
        """The unit acting now; a mode started for another unit (its turn ended without the mode's click) ends."""
        req = self._req()
        if self.mode is not None and (req is None or req.unit != self.owner):
            self.leave()
        return None if req is None else self.screen.session.view().unit(req.unit)

    def _ask(self, kind: str, action: Any) -> Any:
        """`Battle.odds` (kind "odds") or `Battle.check` (kind "check") of `action`, once per battle state."""
        battle = self.screen.session.battle
        key = (kind, action, self.screen.session.generation, len(battle.history))
        if key not in self._cache:
            if len(self._cache) > 256:
                self._cache.clear()
            if kind == "check":
                refusal = battle.check(action)
                self._cache[key] = None if refusal is None else str(refusal)
            else:
                try:
                    self._cache[key] = battle.odds(action)
                except IllegalAction as exc:
                    self._cache[key] = str(exc)
        return self._cache[key]

    def leave(self) -> None:
        self.mode, self.split, self.hand = None, None, ""

    # ------------------------------------------------------------------ keys
    def toggle_launch(self) -> None:
        """L: launch mode with the launcher in hand, then (L again) with the one in the other hand of a unit holding
        two weapons (R-6.12, `hand=off`), then off."""
        me = self._me()
        if me is None:
            return
        hands = [h for h, w in (("", me.weapon), ("off", me.off_hand)) if w is not None and w.launched]
        nxt = hands.index(self.hand) + 1 if self.mode == "launch" and self.hand in hands else 0
        if self.mode == "launch" and nxt >= len(hands):
            self.leave()
            return
        if not hands:
            self.screen.toast(f"{me.name} holds no launcher (R-6.10)", DIM)
            return
        self.leave()
        self.mode, self.owner, self.hand = "launch", me.name, hands[nxt]
        self.screen.attack, self.screen.throwing = None, None
        w = launcher(me, self.hand)
        self.screen.toast(f"launch: {'off hand ' if self.hand else ''}{w.name if w else ''} - click a cell (Esc "
                          f"cancels)", DIM)

    def cycle_cover(self) -> None:
        """K: covering fire with single shots, then each burst of the weapon in hand, then off."""
        me = self._me()
        if me is None:
            return
        if me.weapon is None or me.weapon.thrown or me.weapon.launched:
            self.screen.toast(f"{me.name} has no firearm in hand to cover with (R-6.12)", DIM)
            return
        volumes = [0, *(b for b in me.weapon.bursts if b in ranged_cover.VOLUME)]
        after = volumes.index(self.cover_burst) + 1 if self.cover_burst in volumes else len(volumes)
        if self.mode != "cover":
            self.leave()
            self.mode, self.cover_burst, self.owner = "cover", 0, me.name
        elif after < len(volumes):
            self.cover_burst = volumes[after]
        else:
            self.leave()
            return
        self.screen.attack, self.screen.throwing = None, None
        self.screen.toast(f"covering fire, {_volume(self.cover_burst)} - click the area's cell (K: volume, Esc)", DIM)

    def start_split(self) -> None:
        """S in the attack menu: a split burst at the menu's target and the enemies clicked next."""
        menu = self.screen.attack
        me = self._me()
        if menu is None or menu.own or me is None or me.name != menu.unit:
            return
        bursts = me.weapon.bursts if me.weapon is not None else ()
        if not bursts:
            self.screen.toast(f"{me.name}'s weapon fires no bursts to split (R-6.3)", DIM)
            return
        self.leave()
        self.mode, self.split, self.owner = "split", Split(me.name, [menu.target], max(bursts)), me.name
        self.screen.attack = None
        self.screen.toast("split burst: click one or two more enemies · B burst · N snap/prepared · Enter fires", DIM)

    def key(self, k: int) -> bool:
        """A key while a mode is on; True if used."""
        self._me()  # a mode left over from another unit's turn ends
        if self.mode is None:
            return False
        if k == pygame.K_ESCAPE:
            self.leave()
            return True
        if self.mode == "split" and self.split is not None:
            me = self._me()
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.fire_split()
            elif k == pygame.K_b and me is not None and me.weapon is not None and me.weapon.bursts:
                bs = sorted(me.weapon.bursts)
                self.split.burst = bs[(bs.index(self.split.burst) + 1) % len(bs)] if self.split.burst in bs else bs[0]
            elif k == pygame.K_n:
                self.split.mode = "snap" if self.split.mode == "prepared" else "prepared"
            else:
                return False
            return True
        return False

    # ------------------------------------------------------------------ clicks
    def click(self, pos: tuple[int, int], unit: UnitView | None) -> bool:
        """A left click while a mode is on; True if the mode took it."""
        if self._me() is None or self.mode is None:
            return False
        if self.mode == "split":
            return self._split_click(unit)
        scr = self.screen
        if not scr.board_rect().collidepoint(pos):
            return False
        cell = scr.board.cam.cell_at(scr._board_pos(pos))
        if cell is None:
            return True
        action = self.cell_action(cell)
        why = self._ask("check", action)
        if why is not None:
            scr.toast(f"refused: {why}", BAD)
        elif scr._submit(action):
            self.leave()
        return True

    def cell_action(self, cell: tuple[int, int]) -> Launch | CoverFire:
        req = self._req()
        unit = req.unit if req is not None else ""
        return Launch(unit, cell, hand=self.hand) if self.mode == "launch" else CoverFire(unit, cell, burst=self.cover_burst)

    def _split_click(self, unit: UnitView | None) -> bool:
        s = self.split
        me = self._me()
        if s is None or me is None or unit is None or unit.side == me.side or unit.out_of_action:
            return False
        if unit.name in s.targets[1:]:
            s.targets.remove(unit.name)
        elif unit.name != s.targets[0]:
            if len(s.targets) >= SPLIT_MAX:
                self.screen.toast(f"a split burst here takes at most {SPLIT_MAX} targets", DIM)
            else:
                s.targets.append(unit.name)
        return True

    def fire_split(self) -> None:
        s = self.split
        if s is None:
            return
        if len(s.targets) < 2:
            self.screen.toast("click a second enemy to split the burst with (R-6.3)", DIM)
            return
        odds = self._ask("odds", s.action())
        if isinstance(odds, str):
            self.screen.toast(f"refused: {odds}", BAD)
        elif self.screen._submit(s.action()):
            self.leave()

    # ------------------------------------------------------------------ drawing
    def draw_board(self, surf: pygame.Surface, view: BattleView, colours: dict[str, tuple[int, int, int]]) -> None:
        """The covered areas the view holds, then the mode's preview under the pointer (board coordinates)."""
        cam = self.screen.board.cam
        cell_m = view.grid.cell_m
        fonts = self.screen.fonts
        draw_covered(surf, cam, fonts, view, colours)
        hover, me = self.screen.hover, self._me()  # first: a mode left from another unit's turn ends
        if self.mode == "split" and self.split is not None:
            for i, name in enumerate(self.split.targets):
                t = view.find(name)
                if t is not None:
                    cx, cy = cam.centre(t.cell)
                    r = max(6, cam.tile // 2)
                    pygame.draw.circle(surf, ACCENT, (cx, cy), r, 3)
                    n = fonts.text(fonts.normal, str(i + 1), ACCENT)
                    surf.blit(n, (cx + r - 2, cy - r - n.get_height() // 2))
        if hover is None or me is None or me.weapon is None:
            return
        if self.mode == "cover":
            ok = self._ask("check", self.cell_action(hover)) is None
            _area(surf, cam, hover, ranged_cover.area_m(me.weapon), cell_m, COVER_C if ok else (230, 70, 60), 70)
        elif self.mode == "launch" and (w := launcher(me, self.hand)) is not None:
            ok = not isinstance(self._ask("odds", self.cell_action(hover)), str)
            self.screen.board._draw_blast(surf, hover, w.blast_m / cell_m, blast_reach_m(w) / cell_m, ok)

    def lines(self) -> list[tuple[str, tuple[int, int, int]]]:
        """The mode's box: what is chosen and its odds (or the rule refusing it)."""
        me = self._me()
        if self.mode is None or me is None:
            return []
        hover = self.screen.hover
        if self.mode == "split" and self.split is not None:
            s = self.split
            out = [(f"{s.unit}: split burst {s.burst}, {s.mode} (B burst · N snap/prepared · Enter fire · Esc)",
                    ACCENT)]
            if len(s.targets) < 2:
                return [*out, (f"1 {s.targets[0]} · click one or two more enemies", TEXT)]
            odds = self._ask("odds", s.action())
            if isinstance(odds, str):
                return [*out, (odds, BAD)]
            return out + [(f"{i + 1} {name}: {o.label()}", TEXT) for i, (name, o) in enumerate(odds.per)]
        if hover is None:
            return [(self._title(me), ACCENT), ("point at a cell", DIM)]
        action = self.cell_action(hover)
        if self.mode == "cover":
            why = self._ask("check", action)
            col, row = ranged_cover.pool(self.cover_burst)
            text = why if why is not None else (f"{_volume(self.cover_burst)}: each enemy entering draws a shot at "
                                                f"{col}-{row}, until {me.name}'s next turn")
            return [(self._title(me), ACCENT), (f"{hover[0]},{hover[1]}: {text}", BAD if why else TEXT)]
        odds = self._ask("odds", action)
        if not isinstance(odds, str):  # only the figures the board's view sees now are named (fog of war)
            odds = odds.among({u.name for u in self.screen.view_now().units if not u.ghost})
        return [(self._title(me), ACCENT), (f"{hover[0]},{hover[1]}: " + (odds if isinstance(odds, str) else odds.label()),
                                            BAD if isinstance(odds, str) else TEXT)]

    def _title(self, me: UnitView) -> str:
        weapon = me.weapon.name if me.weapon is not None else ""
        if self.mode == "launch":
            w = launcher(me, self.hand)
            off = "off hand " if self.hand == "off" else ""
            return f"{me.name}: launch ({off}{w.name if w else weapon}) · click a cell · L/Esc leaves"
        return f"{me.name}: covering fire ({weapon}), {_volume(self.cover_burst)} · K volume · Esc leaves"

    def draw_panel(self, surf: pygame.Surface) -> None:
        """The mode's box by the pointer (split: at the board's top)."""
        lines = self.lines()
        if not lines:
            return
        f = self.screen.fonts
        br = self.screen.board_rect()
        wrapped = [(part, c) for text, c in lines for part in wrap(f.small, text, min(560, br.w - 40))]
        imgs = [(f.text(f.small, t, c)) for t, c in wrapped]
        w = max(i.get_width() for i in imgs) + 14
        h = 18 * len(imgs) + 10
        mx, my = self.screen.mouse
        if self.mode == "split":
            x, y = br.x + (br.w - w) // 2, br.y + 40
        else:
            x = max(br.x + 4, min(br.right - w - 4, mx + 18))
            y = max(br.y + 4, min(br.bottom - h - 4, my + 18))
        pygame.draw.rect(surf, (22, 24, 30), (x, y, w, h), border_radius=5)
        pygame.draw.rect(surf, ACCENT, (x, y, w, h), 1, border_radius=5)
        for i, img in enumerate(imgs):
            surf.blit(img, (x + 7, y + 5 + 18 * i))


def draw_covered(surf: pygame.Surface, cam: Any, fonts: Any, view: BattleView,
                 colours: dict[str, tuple[int, int, int]]) -> None:
    """Every covered area `view` holds (R-6.12), shaded in its side's colour with the firer and the volume."""
    for u in view.units:
        if u.covering is None or u.out_of_action or u.weapon is None:
            continue
        x, y, burst = u.covering
        colour = colours.get(u.side, COVER_C)
        _area(surf, cam, (x, y), ranged_cover.area_m(u.weapon), view.grid.cell_m, colour, 40)
        label = fonts.text(fonts.small, f"{u.name}: {_volume(burst)}", colour)
        cx, cy = cam.centre((x, y))
        surf.blit(label, (cx - label.get_width() // 2, cy - label.get_height() // 2))


def _volume(burst: int) -> str:
    return f"burst {burst}" if burst else "single shots"


def area_cells(cell: tuple[int, int], radius_m: float, cell_m: float) -> list[tuple[int, int]]:
    """The cells of a covered area round `cell` (the rules' own test, R-6.12), on the map or not."""
    r = int(radius_m / cell_m) + 1
    return [(cell[0] + dx, cell[1] + dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
            if ranged_cover.inside(cell, (cell[0] + dx, cell[1] + dy), radius_m, cell_m)]


def _area(surf: pygame.Surface, cam: Any, cell: tuple[int, int], radius_m: float, cell_m: float,
          colour: tuple[int, int, int], alpha: int) -> None:
    """A covered area: its cells shaded, its reach outlined."""
    tile = cam.tile
    shade = pygame.Surface((tile, tile), pygame.SRCALPHA)
    shade.fill((*colour, alpha))
    for c in area_cells(cell, radius_m, cell_m):
        cx, cy = cam.centre(c)
        surf.blit(shade, (cx - tile // 2, cy - tile // 2))
    cx, cy = cam.centre(cell)
    pygame.draw.circle(surf, colour, (cx, cy), int((radius_m / cell_m + 0.5) * tile), 2)

def off_hand_shots(u: UnitView, unit: str, target: str, called: str | None) -> list[Shoot]:
    """Two weapons (R-6.12): the off hand's shots at `target` for the attack menu (ui/battle/menus.py), from the
    weapon the view shows in the other hand (`UnitView.off_hand`): each mode, its bursts and double taps; none for a
    unit with one weapon in hand. The menu asks `Battle.odds` of each (a refusal is shown as its line)."""
    w = u.off_hand
    if w is None:
        return []
    out = [Shoot(unit, target, mode=mode, called=called, hand="off") for mode in ("snap", "prepared", "aimed")]
    if called is None:
        out += [Shoot(unit, target, mode=mode, burst=b, hand="off") for b in w.bursts for mode in ("snap", "prepared")]
    if w.double_tap:
        out += [Shoot(unit, target, mode=mode, called=called, double_tap=True, hand="off") for mode in ("snap", "prepared")]
    return out


def speed_note(target: UnitView) -> str:
    """The attack menu's word on a target moving fast (the seed's target speed: faster than Rate 20, −4; its odds
    count it), "" for any other."""
    fast = fast_target(target.rate_m)
    return f" · {target.name} moving fast: {fast.value:+d} ({target.rate_m:.0f} m in an action)" if fast else ""


def launcher(me: UnitView, hand: str) -> Weapon | None:
    """The launcher launch mode fires: the weapon in hand, or with `hand` "off" the other hand's (R-6.12)."""
    return me.off_hand if hand == "off" else me.weapon
