"""A Future*World declaration as a person builds it on the board (R-9.2, R-9.3, R-9.8, R-9.9): up to two
different actions with their targets and the tacpack's split. Every change is put to the tacpack's own check
(`rulesets.fw_preview.split_refusal`) first, so the split shown is never above G; a refused change says why
and leaves the draft as it was. No pygame here."""

from __future__ import annotations

from dataclasses import dataclass, replace

from skirmish.rulesets.fw import ACTS, ATTACKS, SCREEN_TYPES, CarView, FwIntent, FwUnitView, MountView, crew_refusal, tables
from skirmish.rulesets.fw_preview import (
    act_refusal,
    car_move_m,
    car_split_refusal,
    default_weapon,
    order_refusal,
    shot_energy,
    split_refusal,
    weapon,
    weapon_choices,
    weapon_fits,
)

NUMBERS = ("points", "cm", "dccm", "sensors", "jump")  # the steppers, in the panel's order
NUMBER_NAMES = {"points": "screen", "cm": "CM", "dccm": "DCCM", "sensors": "sensors", "jump": "jump"}
THEN_ACTS = tuple(a for a in ACTS if a != "program")  # programming all three takes the whole round
CAR_NUMBERS = ("car_points", "car_weapons", "car_ew")  # a driver's steppers of its car's split
CAR_NAMES = {"car_points": "screen", "car_weapons": "weapons", "car_ew": "EW"}


def needs_target(act: str | None) -> str | None:
    """Whom an act is aimed at: "enemy" (shoot, burst, melee, throw, launch), "friend" (First Aid) or None (a
    reaction fires at the first enemy seen moving, R-9.2); "car" for boarding one (R-9.12)."""
    if act in ATTACKS and act != "react":
        return "enemy"
    if act == "mount":
        return "car"
    return "friend" if act == "aid" else None


@dataclass(frozen=True)
class Draft:
    """One figure's declaration in the making."""

    unit: str
    me: FwUnitView
    act: str = "none"
    target: str | None = None
    then: str = "none"
    then_target: str | None = None
    screen: str = "none"
    points: int = 0
    cm: int = 0
    dccm: int = 0
    sensors: int = 0
    jump: int = 0
    dccm_at: str | None = None
    chosen: str | None = None  # the weapon picked on the panel (None: the one the rules pick, `weapon`)
    car_screen: str = "none"  # a driver's split of its car's generator, sent with `drive`
    car_points: int = 0
    car_weapons: int = 0
    car_ew: int = 0
    side: str = ""  # the figure's side and cell (which car is its own, the nearest to board)
    cell: tuple[int, int] = (0, 0)
    mount: str | None = None  # the car's mount its attack fires from (R-9.12; F on the panel)

    @staticmethod
    def start(unit: str, me: FwUnitView, side: str = "", cell: tuple[int, int] = (0, 0)) -> Draft:
        """A figure's usual split (its kit's screen, as many points as the generator gives) and no action."""
        screen = me.default_screen if me.default_screen in SCREEN_TYPES else "none"
        points = min(me.default_points, me.generator) if screen != "none" else 0
        d = Draft(unit, me, screen=screen, points=points, side=side, cell=cell)
        car = d.car
        if car is not None and car.driver == unit and car.screen != "none":  # the car's usual screen
            d = replace(d, car_screen=car.screen, car_points=car.screen_points)
        return d

    @property
    def car(self) -> CarView | None:
        """The grav car the figure rides (R-9.12), or None."""
        return next((c for c in self.me.cars if c.name == self.me.aboard), None)

    @property
    def driver(self) -> bool:
        """Whether the figure is at its car's controls (the first rider on its feet, R-9.12)."""
        return self.car is not None and self.car.driver == self.unit

    @property
    def drives(self) -> bool:
        """Whether the declaration flies the car this round."""
        return "drive" in self.acts()

    def car_refusal(self) -> str | None:
        """Why the car's generator refuses the split (R-9.12: never above G), or None."""
        car = self.car
        if car is None:
            return None
        return car_split_refusal(car.car_type, self.car_screen, self.car_points, self.car_weapons, self.car_ew)

    def car_metres(self) -> int:
        """Metres the rest of the car's generator buys (R-9.12)."""
        car = self.car
        if car is None:
            return 0
        return car_move_m(car.car_type, self.car_screen, self.car_points, self.car_weapons, self.car_ew,
                          len(car.riders))

    def act_car_refusal(self, act: str) -> str | None:
        """What a grav car says to `act` before the battle's own check (R-9.12): only the driver drives; one boards
        when on foot and leaves when aboard."""
        car = self.car
        if act == "drive" and not self.driver:
            return f"R-9.12: {self.unit} is at no car's controls (the first rider drives)"
        if act == "mount" and car is not None:
            return f"R-9.12: {self.unit} is already aboard the {car.name}"
        if act == "dismount" and car is None:
            return f"R-9.12: {self.unit} rides no car"
        if act == "mount" and not any(c.side == self.side for c in self.me.cars):
            return f"R-9.12: {self.side or self.unit} has no grav car to board"
        return None

    def step_car(self, name: str, delta: int) -> tuple[Draft, str | None]:
        """A stepper of the car's split (R-9.12): refused below 0 or above the car's generator, with the reason."""
        if not self.driver:
            return self, f"R-9.12: {self.unit} is at no car's controls (the first rider drives)"
        value = getattr(self, name) + delta
        if value < 0:
            if getattr(self, name) == 0:
                return self, f"the car's {CAR_NAMES[name]} is already 0"
            value = 0
        new = replace(self, **{name: value})
        why = new.car_refusal()
        return (self, why) if why else (new, None)

    def set_car_screen(self, screen: str) -> tuple[Draft, str | None]:
        """The car's screen type for the round (none gives its points back, R-9.12)."""
        if not self.driver:
            return self, f"R-9.12: {self.unit} is at no car's controls (the first rider drives)"
        new = replace(self, car_screen=screen, car_points=0 if screen == "none" else self.car_points)
        why = new.car_refusal()
        return (self, why) if why else (new, None)

    def aim_car(self, name: str) -> tuple[Draft, str | None]:
        """A grav car clicked: the car a declared `mount` boards (R-9.12)."""
        if needs_target(self.act) == "car":
            return replace(self, target=name), None
        if needs_target(self.then) == "car":
            return replace(self, then_target=name), None
        return self, f"the {name}: declare mount (B) first to board it (R-9.12)"

    @property
    def attack(self) -> str | None:
        """The declared attack (R-9.3: at most one a round), or None."""
        return next((a for a in self.acts() if a in ATTACKS), None)

    @property
    def weapon(self) -> str | None:
        """The weapon the declaration attacks with: a mount's own, else the one picked, else the rules' pick for its
        attack (on an empty mount: the figure's first gun of the category it takes)."""
        m = self.mounted
        if m is not None and m.weapon is not None:
            return m.weapon
        if self.chosen is not None:
            return self.chosen
        if m is not None:
            return next((w for w in weapon_choices(self.me) if (wt := weapon(w)) and wt.category == m.takes
                         and wt.weapon_class != "missile"), None)  # (a gun: rules.fw.mounts.load_refusal)
        return default_weapon(self.me, self.attack)

    @property
    def mounted(self) -> MountView | None:
        """The mount the attack fires from (R-9.12), or None."""
        car = self.car
        return next((m for m in car.mounts if m.id == self.mount), None) if car is not None else None

    def mounts(self) -> tuple[MountView, ...]:
        """The mounts of its car the figure may work this round (the data's crew; nobody else declared on it)."""
        car = self.car
        if car is None:
            return ()
        gc = tables().grav_cars[car.car_type]
        out = []
        for m in car.mounts:
            spec = gc.mount(m.id)
            if spec is not None and crew_refusal(gc, spec, self.unit, self.driver) is None \
                    and m.gunner in (None, self.unit) and m.left != 0:
                out.append(m)
        return tuple(out)

    def set_mount(self, mid: str | None) -> tuple[Draft, str | None]:
        """Fire the declared attack from mount `mid` of the car (None: its own weapon): the mount's weapon, at the
        mounted chance, paid from the car's weapon points (R-9.12, R-9.5, R-9.8)."""
        if mid is None:
            return self._try(replace(self, mount=None, chosen=None))
        m = next((x for x in self.mounts() if x.id == mid), None)
        if m is None:
            return self, f"R-9.12: {self.unit} may not work the mount {mid!r} this round"
        if self.attack in ("melee", "throw"):
            return self, f"R-9.12: the {m.name} fires; nobody strikes or throws from a mount"
        chosen = self.chosen if m.weapon is None and self.chosen and (w := weapon(self.chosen)) and \
            w.category == m.takes else None
        return self._try(replace(self, mount=mid, chosen=chosen))

    def next_mount(self) -> tuple[Draft, str | None]:
        """F: the next mount it may work, then its own weapon again."""
        ids: list[str | None] = [None, *(m.id for m in self.mounts())]
        if len(ids) == 1:
            return self, f"R-9.12: {self.unit} has no mount to fire from" + ("" if self.car else " (it rides no car)")
        i = ids.index(self.mount) + 1 if self.mount in ids else 0
        return self.set_mount(ids[i % len(ids)])

    def weapons(self) -> tuple[str, ...]:
        """The weapons the panel offers: those the declared attack takes, or all the figure still has."""
        return weapon_choices(self.me, self.attack)

    def acts(self) -> tuple[str, ...]:
        """The declared acts in order, without "none"."""
        return tuple(a for a in (self.act, self.then) if a != "none")

    @property
    def shots(self) -> int:
        """Tacpack points the declared attacks draw (R-9.8: a burst x3); a mount's are the car's (R-9.12)."""
        return 0 if self.mounted is not None else shot_energy(self.weapon, self.acts())

    @property
    def total(self) -> int:
        """Every point the split draws."""
        return self.points + self.shots + self.cm + self.dccm + self.sensors + self.jump

    def refusal(self) -> str | None:
        """Why the tacpack refuses this split (R-9.8, R-9.9), or None."""
        return split_refusal(self.me.generator, self.me.effectors, self.me.sensors, screen=self.screen,
                             points=self.points, shots=self.shots, cm=self.cm, dccm=self.dccm,
                             sensor_points=self.sensors, jump=self.jump, program=self.act == "program",
                             dccm_at=self.dccm_at or ("?" if self.dccm else None))

    def _try(self, new: Draft) -> tuple[Draft, str | None]:
        why = new.refusal()
        return (self, why) if why else (new, None)

    def set_act(self, slot: int, act: str) -> tuple[Draft, str | None]:
        """Choose the first (slot 0) or second (slot 1) action; (the draft, why refused or None). An attack keeps
        the weapon picked if it takes it, else the rules' pick for it."""
        if slot == 0:
            if act == "program" and self.then != "none":
                return self, "R-9.9: programming all three EW functions takes the whole round"
            new = replace(self, act=act, target=self.target if needs_target(act) == needs_target(self.act) else None)
        else:
            if act != "none" and self.act == "none":
                return self, "R-9.3: a second action follows a first"
            if act == "program" or (act != "none" and self.act == "program"):
                return self, "R-9.9: programming all three EW functions takes the whole round"
            new = replace(self, then=act,
                          then_target=self.then_target if needs_target(act) == needs_target(self.then) else None)
        why = order_refusal(new.acts())
        if why:
            return self, why
        if act in ATTACKS and not weapon_fits(new.chosen, act):
            new = replace(new, chosen=None)
        if new.mount is not None and (new.attack is None or new.attack in ("melee", "throw")):
            new = replace(new, mount=None)  # a mount fires: it goes with a shot, a burst or a launch
        fixed = new.mounted is not None and new.mounted.weapon is not None
        why = (None if fixed else act_refusal(self.me, self.unit, act, new.chosen)) or self.act_car_refusal(act)
        if why:
            return self, why
        if act == "mount" and needs_target(act) and (new.target if slot == 0 else new.then_target) is None:
            new = new._nearest_car(slot)
        if act != "none" and self.jump:
            return self, "R-9.2: a jump pack user moves in the movement segment and does nothing else"
        if new.total > self.me.generator:
            return self, (f"R-9.8: {act} draws {new.shots - self.shots} more points: {new.total} of G {self.me.generator}"
                          " (take some off the screen first)")
        return self._try(new)

    def _nearest_car(self, slot: int) -> Draft:
        """`mount` aimed at the nearest own car with a seat free (a click on another car changes it)."""
        mine = [c for c in self.me.cars if c.side == self.side and len(c.riders) < c.seats]
        if not mine:
            return self
        x, y = self.cell
        car = min(mine, key=lambda c: max(abs(c.cell[0] - x), abs(c.cell[1] - y)))
        return replace(self, target=car.name) if slot == 0 else replace(self, then_target=car.name)

    def pick_weapon(self, wid: str) -> tuple[Draft, str | None]:
        """Attack with `wid` (R-9.4, R-9.10); refused, with the rule, if the declared attack cannot take it or the
        energy it draws would go above G (R-9.8)."""
        if wid not in self.me.weapons or weapon(wid) is None:
            return self, f"R-9.4: {self.unit} carries no {wid}"
        m = self.mounted
        new = replace(self, chosen=wid, mount=None if m is not None and (m.weapon or weapon(wid).category != m.takes)  # type: ignore[union-attr]
                      else self.mount)
        if self.attack is not None:
            why = act_refusal(self.me, self.unit, self.attack, wid)
            if why:
                return self, why
        if new.total > self.me.generator:
            return self, (f"R-9.8: the {weapon(wid).name} draws {new.shots} points: {new.total} of G "  # type: ignore[union-attr]
                          f"{self.me.generator} (take some off the screen first)")
        return self._try(new)

    def next_weapon(self) -> tuple[Draft, str | None]:
        """The next weapon the declared attack takes (W): the figure's weapons in turn."""
        choices = self.weapons()
        if not choices:
            return self, f"R-9.4: {self.unit} has no weapon for {self.attack or 'an attack'}"
        current = self.weapon
        i = choices.index(current) + 1 if current in choices else 0
        return self.pick_weapon(choices[i % len(choices)])

    def set_screen(self, screen: str) -> tuple[Draft, str | None]:
        """The screen's type for the round (switchable each round, R-9.8); none gives its points back."""
        return self._try(replace(self, screen=screen, points=0 if screen == "none" else self.points))

    def step(self, name: str, delta: int) -> tuple[Draft, str | None]:
        """One stepper up or down; refused with the rule when it would go below 0 or above G (R-9.8, R-9.9)."""
        value = getattr(self, name) + delta
        if value < 0:
            return self, f"{NUMBER_NAMES[name]} is already 0"
        if name == "points" and self.screen == "none":
            return self, "R-9.8: screen points need a screen type (kinetic, diffusion, magnetic)"
        if name == "jump" and not self.me.jump_pack:
            return self, "R-9.11: no jump pack"
        if name == "jump" and value and self.acts():
            return self, "R-9.2: a jump pack user moves in the movement segment and does nothing else"
        new = replace(self, **{name: value})
        if new.total > self.me.generator:
            return self, f"R-9.8: {new.total} points allocated, the generator gives {self.me.generator}"
        return self._try(new)

    def aim(self, name: str, enemy: bool) -> tuple[Draft, str | None]:
        """A miniature clicked: the target of the first act that wants one of its kind (an enemy for an attack,
        a friend for First Aid); an enemy is also where DCCM is beamed."""
        want = "enemy" if enemy else "friend"
        new = self
        if needs_target(self.act) == want:
            new = replace(new, target=name)
        elif needs_target(self.then) == want:
            new = replace(new, then_target=name)
        if enemy and self.dccm:
            new = replace(new, dccm_at=name)
        if new == self:
            return self, (f"{name}: no declared action is aimed at an {want}" if not (enemy and self.dccm) else None)
        return new, None

    def aim_cell(self, cell: tuple[int, int]) -> tuple[Draft, str | None]:
        """A free cell clicked: where a declared throw's grenade is aimed (R-9.10)."""
        at = f"{cell[0]},{cell[1]}"
        if self.act == "throw":
            return replace(self, target=at), None
        if self.then == "throw":
            return replace(self, then_target=at), None
        return self, None

    def beam_at(self, name: str) -> tuple[Draft, str | None]:
        """Beam the declared DCCM at enemy `name` (R-9.9), whatever the attack's target."""
        if not self.dccm:
            return self, "R-9.9: no DCCM points to beam (+ on the DCCM stepper first)"
        return replace(self, dccm_at=name), None

    def intent(self) -> FwIntent:
        """The declaration as the battle takes it."""
        return FwIntent(self.unit, self.act, self.target, then=None if self.then == "none" else self.then,
                        then_target=self.then_target, weapon=self._named() if self.attack else None,
                        screen=self.screen, points=self.points, cm=self.cm, dccm=self.dccm, dccm_at=self.dccm_at,
                        sensors=self.sensors, jump=self.jump,  # the car's split comes with a drive only
                        mount=self.mount if self.attack else None,
                        car_screen=self.car_screen if self.drives else "none",
                        car_points=self.car_points if self.drives else 0,
                        car_weapons=self.car_weapons if self.drives else 0, car_ew=self.car_ew if self.drives else 0)

    def _named(self) -> str | None:
        """The weapon the declaration names: the one picked, or the one set on an empty mount."""
        m = self.mounted
        return self.weapon if m is not None and m.weapon is None else self.chosen

    def summary(self) -> str:
        """The split in words: `tacpack 5 of 6: screen kinetic 3, shots 2`."""
        parts = [f"screen {self.screen} {self.points}" if self.screen != "none" else "no screen"]
        parts += [f"{NUMBER_NAMES[n]} {getattr(self, n)}" for n in ("cm", "dccm", "sensors", "jump") if getattr(self, n)]
        if self.shots:
            parts.insert(1, f"shots {self.shots}")
        return f"tacpack {self.total} of {self.me.generator}: " + ", ".join(parts)
