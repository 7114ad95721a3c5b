"""Future Imperfect scenario keys for the mind (R-8.3, fear and terror of `000_…`): a side or a unit
`surprised: {expecting: true|false}` (a unit's own overrides its side's), and a unit `fearsome: fear|terror`
or `fearsome: {kind: fear|terror, tn: N}` (default TN: Challenging for the scope, the klackons' 7 in pulp).
Used by skirmish.content.fi's unit and side models; docs/FILES.md."""

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


def surprise_key(v: object) -> object:
    """`surprised:` is a mapping ({expecting: true|false}); a bare true or false is refused with the form."""
    if isinstance(v, bool):
        raise ValueError(f"expected {{expecting: true|false}}, got {str(v).lower()}")
    return v


def fearsome_key(v: object) -> object:
    """`fearsome: fear` is `fearsome: {kind: fear}` (the default TN)."""
    return {"kind": v} if isinstance(v, str) else v


class FiSide(SideSpec):
    """A Future Imperfect side: the shared keys and `surprised`, every unit of it (R-8.3)."""

    surprised: Surprise | None = None

    @field_validator("surprised", mode="before")
    @classmethod
    def _surprised(cls, v: object) -> object:
        return surprise_key(v)
