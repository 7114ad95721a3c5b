"""Future Imperfect's RL action table with the close fight and card hands (issue 14; docs/RL.md "Future Imperfect:
melee and card hands"): the blocks of `ActionTable` unchanged, then, after them (so every earlier index stands):

    blow[target, weapon, lethal] · charge[target, weapon, y, x] · close[target, weapon] · open[target] ·
    entangle[target, weapon] · trip[target, weapon] · defend[skill, cell] · break[how] · rise ·
    hand[speed, keep] · reserve[speed] · off_shot[target, mode, burst] · launch[hand, y, x]
    [· mount[mount] · dismount[y, x]]

`weapon` is one of `weapons`: "" (the weapon in hand) first, then every hand-to-hand weapon the scenario's units
carry at the start, then "fists" (R-7.1). `lethal` is "" (the weapon's own way: lethal where it chooses) or "no"
(non-lethal, R-7.4). A charge's cell is where it strikes from (R-5.4); a defence's cell is its step (index 0:
standing, -4, R-7.5); `skill` one of fighting, dodge, block (R-7.7). A `hand` entry is one of `keeps`: the steps
kept (none: the default keep) and the card rushed to an earlier step (R-5.8); `reserve` holds the reserve as the
only card (`forgo=yes`). An `off_shot` is a shot with the weapon in the other hand of a unit holding two (R-6.12,
`shoot … hand=off`; `burst` one of the base table's `bursts`, 0 a single shot; no called or double-tapped off-hand
shot has an index). A `launch` fires a launcher at a cell (R-6.10), `hand` one of `launch_hands`: "" the
weapon in hand, "off" the launcher in the other hand (R-6.12, `launch … hand=off`); its mask is every cell
`LegalActions.cell_ok` takes for the hand the battle lists (`launches`, `off_launches`). A scenario with `mounts:`
(R-6.1) has two blocks more, last (after `launch`): `mount[m]` climbs onto the scenario's mount m (in the file's
order), `dismount[y, x]` steps off to the cell (R-6.1 mounts); without mounts the table ends with `launch`.

The mask is FI legality's list (`LegalActions.melee`, card hands in `declare`), and the aliases the battle accepts
besides: a blow, Close, entangle, trip or charge that names the weapon already in hand is the same as naming none,
so it is unmasked with it (asked of `Battle.check` once per action and weapon). A reserve holder asked before its
draw may answer any `hand` entry: it draws, and the keep is asked after (R-5.8)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.core.legal import LegalActions
from skirmish.ecs.view import BattleView
from skirmish.env.actions import ActionTable
from skirmish.rules.actions import Action, Launch, Shoot
from skirmish.rulesets.fi import (
    BreakFree,
    Charge,
    Close,
    Defend,
    Dismount,
    Entangle,
    Hand,
    MeleeAttack,
    Mount,
    Open,
    Rise,
    Trip,
)

TOP_STEP = 14  # card steps 14 .. 0
DEFEND_SKILLS = ("fighting", "dodge", "block")  # R-7.5's two, and a martial art's Block (R-7.7)
BREAK_HOWS = ("strength", "wriggle")
LETHAL = ("", "no")  # the weapon's own way, or non-lethal
LAUNCH_HANDS = ("", "off")  # the weapon in hand, the launcher in the other hand
HAND_SPEEDS = ("normal", "dodge")  # with card hands only DODGE means anything
Keep = tuple[tuple[int, ...], str]  # the steps kept (sorted; () the default) and the rush ("s@at" or "")


def hand_keeps() -> tuple[Keep, ...]:
    """Every keep of up to two cards' steps, each with no rush and with each rush of one of its cards to an earlier
    step (`s@at`, at > s): the entries of the `hand` block, in a fixed order."""
    combos: list[tuple[int, ...]] = [()]
    for a in range(TOP_STEP + 1):
        combos.append((a,))
        combos += [(a, b) for b in range(a, TOP_STEP + 1)]
    out: list[Keep] = []
    for combo in combos:
        out.append((combo, ""))
        out += [(combo, f"{s}@{at}") for s in sorted(set(combo)) for at in range(s + 1, TOP_STEP + 1)]
    return tuple(out)


class FiActionTable(ActionTable):
    """`ActionTable` with Future Imperfect's melee and card-hand blocks after its own (see the module)."""

    def __init__(self, width: int, height: int, units: Sequence[str], bursts: Sequence[int],
                 items: Sequence[str], max_generator: int, weapons: Sequence[str] = (),
                 mounts: Sequence[str] = ()) -> None:
        super().__init__(width, height, units, bursts, items, max_generator)
        self.weapons = ("", *sorted(w for w in set(weapons) if w not in ("", "fists")), "fists")
        self.defend_skills, self.break_hows, self.lethal, self.hand_speeds = DEFEND_SKILLS, BREAK_HOWS, LETHAL, HAND_SPEEDS
        self.keeps = hand_keeps()
        u, wp, cells = len(self.units), len(self.weapons), height * width
        self._lay_out([*((b.name, b.shape) for b in self.blocks),
                       ("blow", (u, wp, len(LETHAL))), ("charge", (u, wp, height, width)), ("close", (u, wp)),
                       ("open", (u,)), ("entangle", (u, wp)), ("trip", (u, wp)),
                       ("defend", (len(DEFEND_SKILLS), 1 + cells)), ("break", (len(BREAK_HOWS),)), ("rise", ()),
                       ("hand", (len(HAND_SPEEDS), len(self.keeps))), ("reserve", (len(HAND_SPEEDS),)),
                       ("off_shot", (u, len(self.modes), len(self.bursts))),  # two weapons
                       ("launch", (len(LAUNCH_HANDS), height, width)),  # either hand's launcher
                       *([("mount", (len(mounts),)), ("dismount", (height, width))] if mounts else [])])
        self.launch_hands = LAUNCH_HANDS
        self.mounts = tuple(mounts)
        self._mount_index = {m: i for i, m in enumerate(self.mounts)}
        self._weapon_index = {w: i for i, w in enumerate(self.weapons)}
        self._keep_index = {k: i for i, k in enumerate(self.keeps)}

    @classmethod
    def for_views(cls, views: Sequence[BattleView], bursts: Sequence[int], mounts: Sequence[str] = ()) -> FiActionTable:
        """As `ActionTable.for_views`, with the hand-to-hand weapons each side's own units carry at the start and the
        scenario's mounts by name (its `mounts:`, every one, seen or not)."""
        base = ActionTable.for_views(views, bursts)
        first = views[0]
        mine = [u for v, side in zip(views, first.sides, strict=True) for u in v.units if u.side == side]
        weapons = {w.id for u in mine if u.melee is not None for w in u.melee.carried}
        return cls(base.width, base.height, base.units, base.bursts, base.items, base.points - 1, sorted(weapons),
                   mounts)

    # ------------------------------------------------------------------ index <-> action
    def _cell_index(self, cell: Any) -> int:
        return int(cell[1]) * self.width + int(cell[0])

    def _cell(self, i: int) -> tuple[int, int]:
        return i % self.width, i // self.width

    def encode(self, action: Action) -> int:
        """The index of an action (KeyError: a value the scenario's layout has no place for, e.g. a martial arts
        maneuver, a called blow or a BONUS card's step)."""
        if isinstance(action, Hand):
            speed = self.hand_speeds.index(action.speed)
            if action.forgo == "yes":
                return self._at("reserve", speed)
            steps = tuple(sorted(action.keep_steps() or ()))
            if action.bonus or (action.keep and not steps):
                raise KeyError(f"no index for {action}")
            return self._at("hand", speed, self._keep_index[(steps, action.rush)])
        if isinstance(action, MeleeAttack):
            if action.maneuver or action.called or action.spends is not None or action.lethal not in LETHAL:
                raise KeyError(f"no index for {action}")
            return self._at("blow", self._unit_index[action.target], self._weapon_index[action.weapon],
                            LETHAL.index(action.lethal))
        if isinstance(action, Charge):
            if action.ranged:
                raise KeyError(f"no index for {action}")
            return self._at("charge", self._unit_index[action.target], self._weapon_index[action.weapon],
                            action.at[1], action.at[0])
        if isinstance(action, Close | Entangle | Trip):
            return self._at(action.verb, self._unit_index[action.target], self._weapon_index[action.weapon])
        if isinstance(action, Open):
            return self._at("open", self._unit_index[action.target])
        if isinstance(action, Defend):
            to = 0 if action.to is None else 1 + self._cell_index(action.to)
            return self._at("defend", self.defend_skills.index(action.skill), to)
        if isinstance(action, BreakFree):
            return self._at("break", self.break_hows.index(action.how))
        if isinstance(action, Rise):
            return self._at("rise")
        if isinstance(action, Launch):
            hand = "" if action.hand == "main" else action.hand
            if hand not in LAUNCH_HANDS or not (0 <= action.at[0] < self.width and 0 <= action.at[1] < self.height):
                raise KeyError(f"no index for {action}")
            return self._at("launch", LAUNCH_HANDS.index(hand), int(action.at[1]), int(action.at[0]))
        if isinstance(action, Shoot) and action.hand == "off":
            if action.called or action.double_tap or action.also or action.split or action.spends is not None:
                raise KeyError(f"no index for {action}")
            return self._at("off_shot", self._unit_index[action.target], self.modes.index(action.mode),
                            self._burst_index[action.burst])
        if isinstance(action, Mount) and self.mounts:
            return self._at("mount", self._mount_index[action.mount])
        if isinstance(action, Dismount) and self.mounts and action.to is not None:
            return self._at("dismount", int(action.to[1]), int(action.to[0]))
        if isinstance(action, Mount | Dismount):
            raise KeyError(f"no index for {action}")
        if isinstance(action, Shoot) and action.hand not in ("", "main"):
            raise KeyError(f"no index for {action}")
        return super().encode(action)

    def decode(self, index: int, unit: str) -> Action:
        """The Action at `index`, taken by `unit` (ValueError if the index is outside the table)."""
        block, p = self._locate(index)
        name = block.name
        if name == "blow":
            return MeleeAttack(unit, self.units[p[0]], weapon=self.weapons[p[1]], lethal=LETHAL[p[2]])
        if name == "charge":
            return Charge(unit, self.units[p[0]], at=(p[3], p[2]), weapon=self.weapons[p[1]])
        if name in ("close", "entangle", "trip"):
            make: dict[str, Callable[..., Action]] = {"close": Close, "entangle": Entangle, "trip": Trip}
            return make[name](unit, self.units[p[0]], weapon=self.weapons[p[1]])
        if name == "open":
            return Open(unit, self.units[p[0]])
        if name == "defend":
            return Defend(unit, self.defend_skills[p[0]], to=None if p[1] == 0 else self._cell(p[1] - 1))
        if name == "break":
            return BreakFree(unit, self.break_hows[p[0]])
        if name == "rise":
            return Rise(unit)
        if name == "hand":
            steps, rush = self.keeps[p[1]]
            return Hand(unit, speed=self.hand_speeds[p[0]], keep=",".join(str(s) for s in steps), rush=rush)
        if name == "reserve":
            return Hand(unit, speed=self.hand_speeds[p[0]], forgo="yes")
        if name == "launch":
            return Launch(unit, (p[2], p[1]), hand=LAUNCH_HANDS[p[0]])
        if name == "off_shot":
            return Shoot(unit, self.units[p[0]], mode=self.modes[p[1]], burst=self.bursts[p[2]], hand="off")
        if name == "mount":
            return Mount(unit, self.mounts[p[0]])
        if name == "dismount":
            return Dismount(unit, to=(p[1], p[0]))
        return super().decode(index, unit)

    # ------------------------------------------------------------------ the mask
    def listed(self, legal: LegalActions) -> set[int]:
        """The indices of the melee actions, hands, off-hand shots, mounts and dismounts `legal` lists (those the table
        has a place for)."""
        out: set[int] = set()
        offhand = (a for a in legal.offhand if not a.double_tap)  # (read only for a unit holding two weapons)
        for a in (*map(_plain, legal.melee), *(d for d in legal.declare if isinstance(d, Hand)), *offhand, *legal.mounts):
            try:
                out.add(self.encode(a))
            except (KeyError, ValueError):
                continue  # a maneuver, a BONUS step: not in the table
        ok = legal.cell_ok
        for i, (kind, on) in enumerate((("launch", legal.launches), ("off_launch", legal.off_launches))):
            if on and ok is not None:  # every cell the hand's launcher may be fired at
                out.update(self._at("launch", i, y, x) for y in range(self.height) for x in range(self.width)
                           if ok(kind, (x, y)))
        return out

    def aliases(self, legal: LegalActions, check: Callable[[Action], Any]) -> set[int]:
        """What the battle accepts besides the list, asked of `check`: a listed action with the weapon in hand ("")
        named by its id instead; a blow said non-lethal with a weapon that is non-lethal anyway (fists, R-7.4); a
        standing defence taken with a step another listed defence takes (Block, R-7.7). One `check` per kind,
        target, weapon and lethality (a charge's cell does not change the answer) or per skill and step."""
        out: set[int] = set()
        asked: dict[tuple[Any, ...], bool] = {}
        listed = {*map(_plain, legal.melee)}

        def ask(a: Action, key: tuple[Any, ...]) -> None:
            if a in listed:
                return
            if key not in asked:
                asked[key] = check(a) is None
            if asked[key]:
                out.add(self.encode(a))

        for a in listed:
            if isinstance(a, MeleeAttack) and (a.maneuver or a.lethal not in LETHAL):
                continue
            if isinstance(a, MeleeAttack | Charge | Close | Entangle | Trip):
                names = (a.weapon, *self.weapons[1:]) if a.weapon == "" else (a.weapon,)
                kinds = LETHAL if isinstance(a, MeleeAttack) else (None,)
                for wid in names:
                    for lethal in kinds:
                        b: Action = replace(a, weapon=wid)
                        if isinstance(b, MeleeAttack) and lethal is not None:
                            b = replace(b, lethal=lethal)
                        ask(b, (type(a), a.target, wid, lethal))
        steps = {a.to for a in listed if isinstance(a, Defend) and a.to is not None}
        for a in listed:
            if isinstance(a, Defend) and a.to is None:
                for to in sorted(steps):
                    ask(Defend(a.unit, a.skill, to=to), (Defend, a.skill, to))
        return out

    def mask(self, legal: LegalActions, check: Callable[[Action], Any] | None = None) -> npt.NDArray[np.int8]:
        """The base table's mask, then the melee actions and hands legality lists, and the in-hand aliases."""
        out = super().mask(legal, check)
        if legal.kind == "none":
            return out
        extra = self.listed(legal)
        if check is not None and legal.melee:
            extra |= self.aliases(legal, check)
        if extra:
            out[np.fromiter(extra, dtype=np.intp)] = 1
        if any(isinstance(d, Hand) and d.forgo == "yes" for d in legal.declare):
            hand = self.block["hand"]  # a reserve holder before its draw: every answer but forgo draws, the
            out[hand.start:hand.stop] = 1  # keep is read after it; the battle takes each, so each is unmasked
        return out


def _plain(a: Action) -> Action:
    """A listed blow with `lethal=yes` as the table holds it: lethal "" (a weapon that chooses is lethal when not
    told, R-7.4)."""
    return replace(a, lethal="") if isinstance(a, MeleeAttack) and a.lethal == "yes" else a
