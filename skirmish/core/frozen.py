"""A quicker `__init__` for small frozen dataclasses made many times a decision (actions, turn parts).

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__` (its own `__setattr__`
refuses): one call per field. `quick_init` gives the class an `__init__` with the same parameters and defaults
that writes every field into the instance's dict at once, in the fields' order: the same instance (equal, the
same hash, repr and dict), made in about two thirds of the time. tests/test_engine_speed13.py holds the
two equal for every class it is given to.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen dataclass (with an instance dict: no slots; no `__post_init__`, keyword-only fields or default
    factories) the quicker `__init__`. TypeError for any other class."""
    if not dataclasses.is_dataclass(cls) or "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init takes a dataclass with an instance dict and no __post_init__")
    fields = [f for f in dataclasses.fields(cls) if f.init]
    if any(f.kw_only or f.default_factory is not dataclasses.MISSING for f in fields):
        raise TypeError(f"{cls.__name__}: quick_init takes no keyword-only fields or default factories")
    defaults: dict[str, Any] = {}
    params = []
    for i, f in enumerate(fields):
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{i}"] = f.default
            params.append(f"{f.name}=_default_{i}")
    sets = ", ".join(f"{f.name}={f.name}" for f in fields)
    src = f"def __init__(self, {', '.join(params)}):\n    self.__dict__.update({sets})\n"
    namespace = dict(defaults)
    exec(src, namespace)  # as dataclasses makes its own __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    setattr(cls, "__init__", init)  # noqa: B010 (a class attribute mypy would refuse to assign)
    return cls
