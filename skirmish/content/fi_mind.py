"""Future Imperfect scenario keys for the mind (R-8.3, fear and terror of `000_…`): a side or a unit
`surprised: {expecting: true|false}` (a unit's `surprised: false` leaves it out of its side's surprise), a
unit `fearsome: fear|terror` or `fearsome: {kind: fear|terror, tn: N}` (default TN: Challenging for the
scope, the klackons' 7 in pulp). Used by skirmish.content.fi's unit and side models; docs/FILES.md."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictBool, StrictInt, field_validator

from skirmish.content.schema import SideSpec, _Strict


class Surprise(_Strict):
    """R-8.3: the Bravery check when the battle begins, Standard when `expecting` danger, else Incredible."""

    expecting: StrictBool = False


class Fearsome(_Strict):
    """A unit whose sight makes enemies test their Bravery: `fear` or `terror`, at `tn` (None: Challenging)."""

    kind: Literal["fear", "terror"]
    tn: StrictInt | None = Field(None, ge=1, le=30)


SurpriseKey = Surprise | StrictBool | None
FearsomeKey = Fearsome | Literal["fear", "terror"] | None


def check_unit_surprise(v: Surprise | bool | None) -> Surprise | bool | None:
    """A unit's `surprised:` is a mapping, or `false` to leave it out of its side's surprise."""
    if v is True:
        raise ValueError("expected {expecting: true|false} (or false: not surprised), got true")
    return v


def fearsome_of(v: Fearsome | str | None) -> Fearsome | None:
    """The `fearsome:` key as a Fearsome (a bare kind takes the default TN)."""
    if v is None or isinstance(v, Fearsome):
        return v
    return Fearsome(kind=v)


class FiSide(SideSpec):
    """A Future Imperfect side: the shared keys and `surprised`, every unit of it (R-8.3)."""

    surprised: Surprise | None = None

    @field_validator("surprised", mode="before")
    @classmethod
    def _surprised(cls, v: object) -> object:
        if isinstance(v, bool):
            raise ValueError(f"expected {{expecting: true|false}}, got {str(v).lower()}")
        return v
