"""Future Imperfect systems, the base: the shared context, spawning a unit, and the helpers every system uses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.core.events import Event, make_from
from skirmish.ecs.components import (
    Armour,
    ArmourPiece,
    Cover,
    Declared,
    Facing,
    Health,
    Identity,
    Loadout,
    Position,
    Profile,
    Readiness,
    Status,
    Tacpack,
    Turn,
    WeaponState,
)
from skirmish.ecs.fi_melee_components import MeleeState
from skirmish.ecs.fi_mind import Mind
from skirmish.ecs.world import World
from skirmish.nav import Navigator
from skirmish.rules import geometry as geo
from skirmish.rules.checks import Modifier, skill_pool
from skirmish.rules.checks import Pool as CheckPool
from skirmish.rules.deck import SIDES, Deck
from skirmish.rules.equipment import Armoury, Weapon, parse_trait
from skirmish.rules.fi import events as _fi_events  # noqa: F401  (registers FI's event types for `make`)
from skirmish.rules.fi.damage import after_damage, ct_max, wound_penalty
from skirmish.rules.randomizer import Randomizer
from skirmish.rules.reach import ReachCache


@dataclass
class _Hits:
    """Hits to apply, shaped like a shot outcome."""

    hits: list[Any]


@dataclass
class Ctx:
    """What the systems share for one battle."""

    world: World
    grid: Any
    armoury: Armoury
    randomizer: Randomizer
    nav: Navigator
    emit: Callable[[Event], None]
    scope: str
    side_names: tuple[str, ...]
    initiative_cards: str
    concussion_saves: bool
    round: int = 0
    phase: int | None = None
    deck: Deck | None = None  # the action deck, when cards are drawn
    deck_name: str = ""  # which deck: a built-in's name, or "stacked" (C-4)
    reach: ReachCache = field(default_factory=ReachCache)  # reach fields kept between legality's questions
    initiative: str = "phases"  # "cards" draws hands and counts steps (ecs/systems/fi/hand.py)
    chips: Any = None  # the story chips' ChipBank (R-8.5, option `chips`; ecs/systems/fi/chips.py), else None
    unintended_targets: bool = False  # R-6.11 (the scenario option, on by default there)
    open_cells: frozenset[geo.Cell] | None = None  # the map's cells someone could enter, once asked (R-5.7 waits)
    arts: dict[str, Any] = field(default_factory=dict)  # R-7.7 option martial_arts: unit -> its disciplines' pools
    # mounts that come with a trigger's mounted reinforcement, by its name (ecs/systems/fi/mounts.py `arrive`)
    mounts_due: dict[str, Any] = field(default_factory=dict)
    mount_order: tuple[str, ...] = ()  # every mount of the scenario, in its order


_STATUS = frozenset({Status})  # what `FiBase.status_marks` reads


def spawn_unit(ctx: Ctx, spec: Any, side: str, side_index: int, order: int) -> int:
    """Create a combatant's entity from a checked scenario unit."""
    traits = {k: parse_trait(v) for k, v in spec.traits.items()}
    vigor_col = traits["vigor"][0]
    armour = Armour([
        ArmourPiece(a, ctx.armoury.armour[a].name, ctx.armoury.armour[a].kind,
                    {loc: ctx.armoury.armour[a].av for loc in ctx.armoury.armour[a].locations})
        for a in spec.armour
    ])
    weapons = []
    for w in spec.weapons:
        wid = w if isinstance(w, str) else w.weapon
        weapon = ctx.armoury.weapons[wid]
        rounds = weapon.magazine if isinstance(w, str) or w.ammo is None else w.ammo
        mags = 2 if isinstance(w, str) else w.magazines
        weapons.append(WeaponState(wid, rounds, mags))
    if spec.tacpack is not None:
        gen = ctx.armoury.tacpacks[spec.tacpack.type].generator
        tp = Tacpack(spec.tacpack.type, gen, spec.tacpack.screen, spec.tacpack.screen_points,
                     spec.tacpack.screen_points, 0, spec.tacpack.screen, spec.tacpack.screen_points)
    else:
        tp = Tacpack("none", 0)
    cmax = ct_max(SIDES[vigor_col])
    cond = after_damage(0, cmax, spec.wounds, 0, 0)
    health = Health(cond.wounds, cond.ct, cond.dead, cond.incapacitated, cond.unconscious)
    return ctx.world.spawn(
        Identity(spec.name, side, side_index, order), Position(*spec.at), Facing(),
        Profile(traits, dict(spec.skills), spec.size, cmax), health, Cover(), armour,
        Loadout(weapons, _first_fired(ctx.armoury, weapons)), tp, Declared(), Readiness(), Turn(),
        Status(prone=spec.prone or health.incapacitated, known_to=frozenset(ctx.side_names),
               mounted=spec.mounted, two_weapons=spec.two_weapons),
        MeleeState(list(getattr(spec, "melee", ())), next(iter(getattr(spec, "melee", ())), "fists"),
                   start=tuple(getattr(spec, "melee", ()))),
        Mind(),  # set from the scenario by FiMind.init_minds (R-8.3, fear and terror)
    )


_OCTANTS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))  # by angle from east (y down)


def _condition(hp: Health) -> str:
    """A combatant's state for events: standing, unconscious, incapacitated or dead (R-8.1)."""
    if hp.dead:
        return "dead"
    if hp.incapacitated:
        return "incapacitated"
    return "unconscious" if hp.unconscious else "standing"


def _first_fired(armoury: Armoury, weapons: list[WeaponState]) -> int:
    """The weapon in hand at the start: the first one that is fired rather than thrown."""
    for i, ws in enumerate(weapons):
        if not armoury.weapons[ws.weapon_id].thrown:
            return i
    return 0


class FiBase:
    """The shared helpers of the fi systems (over one battle's world and context)."""

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.w = ctx.world
        # refresh_cover's pairs: combatant -> (side, cell, enemy -> the (cover level, AV) it gives if it sees it,
        # the best of them)
        self._cover_kept: dict[int, tuple[int, geo.Cell, dict[int, tuple[int, int]], tuple[int, int]]] = {}
        self._cover_table: object = None
        self.held: list[tuple[int, Any]] = []  # damage held while two actions are simultaneous (R-5.7, triggers.py)
        self.holding = False
        self.tie_turn: int | None = None  # the turn simultaneous with tied waiters: held damage lands as it ends
        # status_marks' last look: (the Status hand-outs and units counted then, the waits, the covering units)
        self._marks: tuple[tuple[int, int], list[tuple[int, str]], list[int]] | None = None

    # ------------------------------------------------------------------ helpers
    def name(self, eid: int) -> str:
        """Unit name."""
        return self.w.get(eid, Identity).name

    def on_trigger(self, eid: int) -> None:
        """A waiting unit acts on its trigger (R-5.7); card hands spend the reserve here (hand.py)."""

    def card_begins(self, eid: int) -> None:
        """Under card hands a unit's card comes up (R-5.8, hand.py): melee ends an active defence here (R-7.5)."""

    def chip_draw(self, eid: int, draw: Any, halve: bool = False, *, target: int | None = None,
                  banned: str | None = None, kind: str = "check") -> Any:
        """The draw of a check `eid` makes, open to a story chip when the option is on (R-8.5; ChipBank.check_draw);
        `chip_flush` after the read writes the chip events before the check's own."""
        if self.ctx.chips is None:
            return draw
        return self.ctx.chips.check_draw(self, eid, draw, halve, target=target, banned=banned, kind=kind)

    def chip_flush(self) -> None:
        """Write the chip events of the check just read (R-8.5)."""
        if self.ctx.chips is not None:
            self.ctx.chips.flush(self)

    def status_marks(self) -> tuple[list[tuple[int, str]], list[int]]:
        """The units with a wait, with its text (R-5.7), and those covering an area (R-6.12), in scenario order
        (read-only): asked round every turn and at every step of a move, when mostly nobody waits or covers, and
        looked for again only after a Status hand-out (World.watch: a wait or a covered area is set or cleared
        only through `get`, and nothing holds a Status it got across a turn's or a step's look)."""
        counts = self.w.watch(_STATUS)
        stamp = (sum(counts.values()), len(counts))
        kept = self._marks
        if kept is None or kept[0] != stamp:
            peek = self.w.peek
            sts = [(eid, peek(eid, Status)) for eid, _ in self.w.units()]
            kept = self._marks = (stamp, [(e, st.waiting) for e, st in sts if st.waiting],
                                  [e for e, st in sts if st.covering is not None])
        return kept[1], kept[2]

    def active(self, eid: int) -> bool:
        """In action (not dead, incapacitated or unconscious)."""
        return not self.w.peek(eid, Health).out_of_action

    def _event(self, etype: str, actor: str | None, rules: tuple[str, ...], **data: Any) -> None:
        # Built by its registered type (skirmish.rules.fi.events); an initiative event's `phase` is the phase
        # the unit got, which C-3 writes in the common key (initiative comes before the phases).
        phase = data.pop("phase", self.ctx.phase)
        self.ctx.emit(make_from(etype, self.ctx.round, phase, actor, rules, data))  # `data`: this call's own dict

    def weapon(self, eid: int) -> tuple[Weapon, WeaponState] | None:
        """The active weapon and its state."""
        load = self.w.get(eid, Loadout)
        if not load.weapons:
            return None
        ws = load.weapons[load.active]
        return self.ctx.armoury.weapons[ws.weapon_id], ws

    def skill_pool(self, eid: int, skill: str, trait: str) -> CheckPool:
        """Pool for a skill: trained, related specialisation (−2), or unskilled (halve) (R-3.6)."""
        prof = self.w.get(eid, Profile)
        return skill_pool(prof.traits[trait], prof.skills, skill)

    def enemy_named(self, eid: int, target: str) -> int:
        """The enemy `target` names, for an action aimed at it (a shot, an aim, a blow, a contest): it exists, is not
        on the actor's side and is in action; else IllegalAction saying which."""
        if not self.w.has(target):
            raise IllegalAction(f"no unit called {target!r}")
        tgt = self.w.entity(target)
        if self.w.peek(tgt, Identity).side_index == self.w.peek(eid, Identity).side_index:
            raise IllegalAction(f"{target} is on your side")
        if self.w.peek(tgt, Health).out_of_action:
            raise IllegalAction(f"{target} is already out of action")
        return tgt

    def wound_mod(self, eid: int) -> tuple[Modifier, ...]:
        """Wound penalty as a modifier list (R-8.1)."""
        pen = wound_penalty(self.w.peek(eid, Health).wounds)
        return (Modifier(pen, f"{-pen} wound(s)"),) if pen else ()

    # Hooks of the mind, answered by skirmish.ecs.systems.fi.mind.FiMind: nothing here.
    def mind_mods(self, eid: int) -> tuple[Modifier, ...]:
        """Modifiers the unit's state of mind puts on its action's checks (annoyed: −4)."""
        return ()

    def mind_tn_mods(self, target: int) -> tuple[Modifier, ...]:
        """TN modifiers of attacks at a unit for its state (focused: −2)."""
        return ()

    def mind_turn(self, eid: int) -> bool:
        """False if the unit's state of mind costs it this turn (distraught)."""
        return True

    def takes_part(self, eid: int) -> bool:
        """False while the unit sits the round out (surprised or catatonic)."""
        return True

    def sight(self, a: int, b: int) -> geo.Sight:
        """Sight from one unit to another, with firing exposure and known positions (R-6.1, R-6.6)."""
        st = self.w.peek(b, Status)
        return geo.unit_sight(self.ctx.grid, self.w.cell(a), self.w.cell(b), st.firing,
                              self.w.get(a, Identity).side in st.known_to)

    def _update_known(self, mover: int, before_last: geo.Cell | None) -> None:
        """After a move, the mover's position is known to its side and to every enemy side with a member
        who saw it at its final cell or at its last step before it (docs/RULES-NOTES.md)."""
        st = self.w.get(mover, Status)
        me = self.w.get(mover, Identity)
        grid = self.ctx.grid
        known = {me.side}
        here = self.w.cell(mover)
        for eid, ident in self.w.units():
            if ident.side in known or not self.active(eid):
                continue
            seer = self.w.cell(eid)
            for cell in (here, before_last):
                if cell is None:
                    continue
                if geo.unit_sight(grid, seer, cell, firing=False, known=False).visible:  # seen openly
                    known.add(ident.side)
                    break
        st.known_to = frozenset(known)

