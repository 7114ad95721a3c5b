"""The scenario format's zones, objectives, triggers and deployment (issue 15 item 1; docs/FILES.md "Zones,
objectives and triggers"): pydantic models, shared by every ruleset. A trigger's reinforcements are units of
the scenario's ruleset: `trigger_model(unit)` makes the trigger model whose `reinforce.units` are that unit
model (skirmish.content.parts composes it into each ruleset's scenario model).

The references between them (zone, side, unit and objective names) are checked by
skirmish.content.zones.check_zone_refs, which also turns zones into cells; the battle plays them in
skirmish.objectives."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, create_model, model_validator

from skirmish.content.limits import MAX_ROUNDS, MAX_UNITS_PER_SIDE, Name, OrderText

MAX_ZONES = 64
MAX_POLYGON = 64  # vertices of a zone's polygon
MAX_OBJECTIVES = 16  # per side
MAX_TRIGGERS = 100
MAX_EFFECTS = 16  # `then:` entries of one trigger
MAX_MESSAGE = 300
MAX_POINTS = 1000
MAX_COORD = 128 * 64  # a zone's vertex, in cells (MAX_MAP_SIDE; checked against the map on load)

OBJECTIVE_KINDS = ("eliminate", "hold", "reach", "extract", "survive", "protect", "kill")
ZONE_KINDS = ("hold", "reach", "extract")  # the kinds that need a `zone`
UNIT_KINDS = ("protect", "kill")  # the kinds that need a `unit`
CONDITIONS = ("round", "enters", "leaves", "falls", "casualties", "objective")
EFFECTS = ("reinforce", "message", "ai", "door", "end")
PERSONALITIES = ("easy", "normal", "hard", "aggressive", "cautious")
ORDER_VERBS = ("hold", "reach", "protect", "kill", "attack")  # an `ai` effect's orders: `VERB [ZONE|UNIT]`

Coord = Annotated[StrictInt, Field(ge=-MAX_COORD, le=MAX_COORD)]
Message = Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _one_of(keys: tuple[str, ...]) -> dict[str, Any]:
    """JSON Schema for editors: exactly one of `keys` (the models also check it on load)."""
    return {"oneOf": [{"required": [k]} for k in keys]}


def _exactly_one(data: Any, keys: tuple[str, ...], what: str) -> Any:
    if isinstance(data, dict):
        given = [k for k in keys if k in data]
        if len(given) != 1:
            got = f"got {', '.join(given)}" if given else "got none"
            raise ValueError(f"{what} takes exactly one of {', '.join(keys)}; {got}")
    return data


class Zone(_Strict):
    """A named area of cells: `rect: [x0, y0, x1, y1]` (cells, corners included) or `polygon: [[x, y], ...]` (cell
    corners: cell x,y spans x..x+1, y..y+1; a cell belongs when its centre is inside). Exactly one of them."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_one_of(("rect", "polygon")))

    rect: tuple[Coord, Coord, Coord, Coord] | None = Field(
        None, description="x0, y0, x1, y1: the cells from (x0, y0) to (x1, y1), both corners included")
    polygon: list[tuple[Coord, Coord]] | None = Field(
        None, min_length=3, max_length=MAX_POLYGON,
        description="vertices in cell-corner units; the cells whose centres are inside")

    @model_validator(mode="before")
    @classmethod
    def _one(cls, data: Any) -> Any:
        return _exactly_one(data, ("rect", "polygon"), "a zone")

    @model_validator(mode="after")
    def _order(self) -> Zone:
        if self.rect is not None and (self.rect[0] > self.rect[2] or self.rect[1] > self.rect[3]):
            raise ValueError(f"rect: expected x0 <= x1 and y0 <= y1, got {list(self.rect)}")
        return self


UnitsNeeded = Literal["all", "any"] | Annotated[StrictInt, Field(ge=1, le=MAX_UNITS_PER_SIDE)]


class Objective(_Strict):
    """One of a side's objectives (docs/FILES.md lists what each kind means and when it is done or failed)."""

    kind: Literal["eliminate", "hold", "reach", "extract", "survive", "protect", "kill"] = Field(
        description="eliminate: no enemy standing; hold: the side alone in `zone` with `units` (at the end with "
        "at_end, or for `rounds` rounds in a row); reach: `units` (or `unit`) stand in `zone`; extract: `units` "
        "(or `unit`) leave the battle through `zone`; survive: `units` still standing after `rounds` rounds; "
        "protect: `unit` still standing at the end; kill: `unit` falls")
    name: Name | None = Field(None, description="how triggers and the result name it (default SIDE:KIND, "
                              "numbered when a side has two of a kind)")
    zone: Name | None = Field(None, description="the zone of hold, reach and extract")
    unit: Name | None = Field(None, description="the unit of protect and kill (optional for reach and extract)")
    rounds: StrictInt | None = Field(None, ge=1, le=MAX_ROUNDS,
                                     description="hold: rounds in a row; survive: rounds to last")
    at_end: StrictBool = Field(False, description="hold: judged only when the battle ends")
    units: UnitsNeeded = Field("any", description="how many of the side's units: all, any (one) or a number")
    points: StrictInt = Field(1, ge=0, le=MAX_POINTS, description="what it is worth when done")
    wins: StrictBool = Field(False, description="done: the side wins at once")
    loses: StrictBool = Field(False, description="failed: the side loses at once")

    @model_validator(mode="after")
    def _needs(self) -> Objective:
        if self.kind in ZONE_KINDS and self.zone is None:
            raise ValueError(f"a {self.kind} objective needs a `zone`")
        if self.kind in UNIT_KINDS and self.unit is None:
            raise ValueError(f"a {self.kind} objective needs a `unit`")
        if self.kind == "survive" and self.rounds is None:
            raise ValueError("a survive objective needs `rounds`")
        if self.zone is not None and self.kind not in ZONE_KINDS:
            raise ValueError(f"a {self.kind} objective takes no `zone`")
        if self.unit is not None and self.kind not in (*UNIT_KINDS, "reach", "extract"):
            raise ValueError(f"a {self.kind} objective takes no `unit`")
        if self.rounds is not None and self.kind not in ("hold", "survive"):
            raise ValueError(f"a {self.kind} objective takes no `rounds`")
        if self.at_end and (self.kind != "hold" or self.rounds is not None):
            raise ValueError("`at_end` is for a hold objective without `rounds`")
        return self


class Casualties(_Strict):
    """`casualties: {side, at_least}`: the side has lost at least that many units."""

    side: Name
    at_least: StrictInt = Field(ge=1, le=MAX_UNITS_PER_SIDE * 4)


class When(_Strict):
    """A trigger's condition: exactly one of round, enters, leaves, falls, casualties, objective. `side`
    goes with enters/leaves (any side's unit when left out)."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_one_of(CONDITIONS))

    round: StrictInt | None = Field(None, ge=1, le=MAX_ROUNDS, description="at the start of this round")
    enters: Name | None = Field(None, description="a unit (of `side`) steps into this zone")
    leaves: Name | None = Field(None, description="a unit (of `side`) steps out of this zone")
    side: Name | None = Field(None, description="whose units enters/leaves watch (default: any side's)")
    falls: Name | None = Field(None, description="this unit is out of action")
    casualties: Casualties | None = None
    objective: Name | None = Field(None, description="this objective is done")

    @model_validator(mode="before")
    @classmethod
    def _one(cls, data: Any) -> Any:
        return _exactly_one(data, CONDITIONS, "`when`")

    @model_validator(mode="after")
    def _side(self) -> When:
        if self.side is not None and self.enters is None and self.leaves is None:
            raise ValueError("`side` goes with enters or leaves")
        return self


class Reinforce(_Strict):
    """Units that arrive on `side`'s free cells of `zone` (their `at` is where they would like to stand)."""

    side: Name
    zone: Name
    units: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_UNITS_PER_SIDE)


class AiSwitch(_Strict):
    """A side's AI changes: its personality, and/or its orders (`hold ZONE`, `reach ZONE`, `protect UNIT`,
    `kill UNIT`, `attack`), which replace the goals its objectives gave it."""

    side: Name
    personality: Literal["easy", "normal", "hard", "aggressive", "cautious"] | None = None
    orders: list[OrderText] | None = Field(None, max_length=MAX_OBJECTIVES)

    @model_validator(mode="after")
    def _orders(self) -> AiSwitch:
        for text in self.orders or ():
            parse_ai_order(text)
        if self.personality is None and self.orders is None:
            raise ValueError("an `ai` effect changes personality, orders or both")
        return self


def parse_ai_order(text: str) -> tuple[str, str | None]:
    """(verb, zone or unit name) of an `ai` effect's order; ValueError saying what is wrong."""
    verb, _, rest = text.strip().partition(" ")
    if verb not in ORDER_VERBS:
        raise ValueError(f"order {text!r}: expected {', '.join(ORDER_VERBS)} (then a zone or unit name)")
    if (verb == "attack") != (not rest.strip()):
        raise ValueError(f"order {text!r}: `attack` takes no name; {', '.join(ORDER_VERBS[:4])} take one")
    return verb, rest.strip() or None


class Door(_Strict):
    """The zone's cells become open ground (`open: true`) or wall (`open: false`): sight, routes and the AIs' maps
    all see the change."""

    zone: Name
    open: StrictBool


class End(_Strict):
    """The battle ends now: `winner` a side or `draw`."""

    winner: Name
    reason: Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE)] = "scenario trigger"


class Effect(_Strict):
    """One thing a trigger does: exactly one of reinforce, message, ai, door, end."""

    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=_one_of(EFFECTS))

    reinforce: Reinforce | None = None
    message: Message | None = Field(None, description="shown on the board and written in the log")
    ai: AiSwitch | None = None
    door: Door | None = None
    end: End | None = None

    @model_validator(mode="before")
    @classmethod
    def _one(cls, data: Any) -> Any:
        return _exactly_one(data, EFFECTS, "an effect")

    def kind(self) -> str:
        """Which effect it is."""
        return next(k for k in EFFECTS if getattr(self, k) is not None)


class Trigger(_Strict):
    """When `when` becomes true, do `then` in order. `once`: only the first time (else every time it becomes
    true again). Triggers are checked in file order (docs/FILES.md says when)."""

    name: Name | None = None
    when: When
    then: list[Effect] = Field(min_length=1, max_length=MAX_EFFECTS)
    once: StrictBool = True


@cache
def trigger_model(unit: type[BaseModel]) -> type[Trigger]:
    """The trigger model whose reinforcements are `unit`s (a ruleset's unit model)."""
    units: Any = list[unit]  # type: ignore[valid-type,unused-ignore]
    reinforce: Any = create_model("Reinforce", __base__=Reinforce, __module__=unit.__module__,
                                  units=(units, Field(min_length=1, max_length=MAX_UNITS_PER_SIDE)))
    effect: Any = create_model("Effect", __base__=Effect, __module__=unit.__module__,
                               reinforce=(reinforce | None, None))
    effects: Any = list[effect]
    model: Any = create_model("Trigger", __base__=Trigger, __module__=unit.__module__,
                              then=(effects, Field(min_length=1, max_length=MAX_EFFECTS)))
    return model
