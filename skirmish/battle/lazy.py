"""`Battle.observe`'s view made when it is first read (issue 12 item 6): a side's view of the battle costs a
snapshot and the side's knowledge applied to every unit (`Knowledge.observe`), and many decisions read little of
it (the `hold` AI's declaration reads only its own unit). A `LazyView` is a `BattleView` whose fields are made on
the first read of one: by then it is the same `BattleView` `Battle.observe` would have made (its class becomes
`BattleView`), since the battle makes every lazy view it handed out and that is still held before it changes
anything (`Battle._make_views`, at every answer and at `close`). `unit(name)` for one of the viewer's own units
(which a side sees in full, as the snapshot has it) is answered without making the rest.

Making a view reads and updates what the world and the side views keep (World.snapshot, Knowledge.observe), so
a view handed to another thread is made first (`Battle.observe_now`, as the board's AI worker gets it)."""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

from skirmish.ecs.view import BattleView, UnitView

if TYPE_CHECKING:
    from skirmish.battle import Battle


def _made(name: str) -> property:
    """A field of a lazy view: read, it makes the view (a field with a default is a class attribute of
    `BattleView`, which a read would find before any `__getattr__`)."""

    def read(self: BattleView) -> Any:
        make(self)
        return getattr(self, name)

    return property(read)


class LazyView(BattleView):
    """A side's view, made when first read (see the module's docstring). Until then its `__dict__` holds only
    the battle (`_battle`) and the side (`_side`), and every field is a property that makes it (`_made`)."""

    def unit(self, name: str) -> UnitView:
        """A unit by name: one of the viewer's own as the snapshot has it, without making the rest."""
        d = self.__dict__
        battle = d.get("_battle")
        if battle is not None:
            u = battle.world.kept_view(name, d["_side"], battle.ctx.armoury)
            if u is not None:
                return u
            make(self)
        return BattleView.unit(self, name)

    def __eq__(self, other: object) -> bool:
        make(self)
        if isinstance(other, LazyView):
            make(other)
        return self == other

    def __hash__(self) -> int:
        make(self)
        return hash(self)

    def __reduce_ex__(self, protocol: Any) -> Any:  # pickle and copy: the view made
        make(self)
        return self.__reduce_ex__(protocol)


for _f in fields(BattleView):
    setattr(LazyView, _f.name, _made(_f.name))


def lazy_view(battle: Battle, side: str) -> LazyView:
    """A view of `side` to be made from `battle` when first read."""
    v = object.__new__(LazyView)
    v.__dict__.update(_battle=battle, _side=side)
    return v


def make(v: BattleView) -> None:
    """Make a lazy view now (nothing if it is made): the battle's `observe` as it is now, in place; it is then a
    plain `BattleView`."""
    d = v.__dict__
    battle = d.get("_battle")
    if battle is None or type(v) is not LazyView:
        return
    made = battle.observe_now(d["_side"])
    d.clear()
    d.update(made.__dict__)
    object.__setattr__(v, "__class__", BattleView)  # (the same layout: a plain BattleView from now on)
