"""Future*World's grav-car events (R-9.12, C-3), registered when this module is imported, with their log text:
a car's split as its driver declares it (`fw_car_split`), a car's flight in the movement segment with its riders
(`fw_drive`), and a rider boarding or leaving at its DEX (`fw_board`)."""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.core.events import Event, register

__all__ = ["FwBoardEvent", "FwCarSplitEvent", "FwDriveEvent"]


class _CarEvent(Event):
    __slots__ = ()

    def where(self) -> str:
        return f"R{self.round}" + (f" DEX {self.phase}" if self.phase else "")


@register("fw_car_split")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwCarSplitEvent(_CarEvent):
    """A driver's split of its car's generator for the round (R-9.12): screen (one type), weapons, EW; the rest
    moves it at the table's metres a point, up to its top speed (halved at full load); `move_m` the result."""

    car: str
    car_type: str
    generator: int
    screen: str
    screen_points: int
    weapons: int
    ew: int
    move_m: int

    def describe(self) -> str:
        spent = [f"screen {self.screen} {self.screen_points}"] * bool(self.screen_points)
        spent += [f"weapons {self.weapons}"] * bool(self.weapons) + [f"EW {self.ew}"] * bool(self.ew)
        return (f"R{self.round} {self.actor} drives the {self.car} ({self.car_type}, generator {self.generator}): "
                f"{', '.join(spent) or 'nothing drawn'}; the rest moves it up to {self.move_m} m{self.rules_text()}")


@register("fw_drive")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwDriveEvent(_CarEvent):
    """A car's flight in the movement segment (R-9.2, R-9.12): a straight line 10 m up from cell to cell, its
    metres of the allowance its split gave, and the riders it carries (they moved too, R-9.4)."""

    car: str
    path: list[list[int]]
    metres: float
    allowance: float
    riders: list[str]

    def describe(self) -> str:
        end = self.path[-1]
        return (f"R{self.round} {self.actor} flies the {self.car} to {end[0]},{end[1]}: {self.metres:g} m of "
                f"{self.allowance:g} m, carrying {', '.join(self.riders)}{self.rules_text()}")


@register("fw_board")
@dataclass(frozen=True, slots=True, kw_only=True)
class FwBoardEvent(_CarEvent):
    """A rider boards (`mount`) or leaves (`dismount`) a car at its DEX (R-9.12): the car set down this round;
    the cell the rider stands on after; the driver at the controls after (None: nobody, it cannot move)."""

    act: str
    car: str
    cell: list[int]
    driver: str | None = None

    def describe(self) -> str:
        how = "boards" if self.act == "mount" else "leaves"
        at = "" if self.act == "mount" else f" to {self.cell[0]},{self.cell[1]}"
        who = f"; {self.driver} at the controls" if self.driver else "; nobody at the controls"
        return f"{self.where()} {self.actor} {how} the {self.car}{at}{who}{self.rules_text()}"
