"""A Future*World declaration as a person builds it on the board (R-9.2, R-9.3, R-9.8, R-9.9): up to two
different actions with their targets and the tacpack's split. Every change is put to the tacpack's own check
(`rulesets.fw_preview.split_refusal`) first, so the split shown is never above G; a refused change says why
and leaves the draft as it was. No pygame here."""

from __future__ import annotations

from dataclasses import dataclass, replace

from skirmish.rulesets.fw import ACTS, ATTACKS, SCREEN_TYPES, FwIntent, FwUnitView
from skirmish.rulesets.fw_preview import can_burst, first_firearm, shot_energy, split_refusal

NUMBERS = ("points", "cm", "dccm", "sensors", "jump")  # the steppers, in the panel's order
NUMBER_NAMES = {"points": "screen", "cm": "CM", "dccm": "DCCM", "sensors": "sensors", "jump": "jump"}
THEN_ACTS = tuple(a for a in ACTS if a != "program")  # programming all three takes the whole round


def needs_target(act: str | None) -> str | None:
    """Whom an act is aimed at: "enemy" (shoot, burst), "friend" (First Aid) or None."""
    if act in ("shoot", "burst"):
        return "enemy"
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

    @staticmethod
    def start(unit: str, me: FwUnitView) -> Draft:
        """A figure's usual split (its kit's screen, as many points as the generator gives) and no action."""
        screen = me.default_screen if me.default_screen in SCREEN_TYPES else "none"
        points = min(me.default_points, me.generator) if screen != "none" else 0
        return Draft(unit, me, screen=screen, points=points)

    @property
    def weapon(self) -> str | None:
        """The firearm the declaration fires (the figure's first)."""
        return first_firearm(self.me.weapons)

    def acts(self) -> tuple[str, ...]:
        """The declared acts in order, without "none"."""
        return tuple(a for a in (self.act, self.then) if a != "none")

    @property
    def shots(self) -> int:
        """Tacpack points the declared attacks draw (R-9.8: a burst x3)."""
        return shot_energy(self.weapon, self.acts())

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
        """Choose the first (slot 0) or second (slot 1) action; (the draft, why refused or None)."""
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
        if act == "burst" and not can_burst(self.weapon):
            return self, f"R-9.5: {self.weapon or 'no weapon'} fires single shots only"
        if act in ATTACKS and self.weapon is None:
            return self, "R-9.4: no weapon to attack with"
        if act != "none" and self.jump:
            return self, "R-9.2: a jump pack user moves in the movement segment and does nothing else"
        if new.total > self.me.generator:
            return self, (f"R-9.8: {act} draws {new.shots - self.shots} more points: {new.total} of G {self.me.generator}"
                          " (take some off the screen first)")
        return self._try(new)

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

    def intent(self) -> FwIntent:
        """The declaration as the battle takes it."""
        return FwIntent(self.unit, self.act, self.target, then=None if self.then == "none" else self.then,
                        then_target=self.then_target, screen=self.screen, points=self.points, cm=self.cm,
                        dccm=self.dccm, dccm_at=self.dccm_at, sensors=self.sensors, jump=self.jump)

    def summary(self) -> str:
        """The split in words: `tacpack 5 of 6: screen kinetic 3, shots 2`."""
        parts = [f"screen {self.screen} {self.points}" if self.screen != "none" else "no screen"]
        parts += [f"{NUMBER_NAMES[n]} {getattr(self, n)}" for n in ("cm", "dccm", "sensors", "jump") if getattr(self, n)]
        if self.shots:
            parts.insert(1, f"shots {self.shots}")
        return f"tacpack {self.total} of {self.me.generator}: " + ", ".join(parts)
