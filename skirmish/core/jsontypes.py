"""JSON values read against type hints: the checked reading behind typed events (C-3, C-6).

A reader is built once per type from its hint (int, float, str, bool, None, Literal, unions, list[X],
tuple[X, ...], dict[str, X] and TypedDicts) and checks a parsed JSON value against it, naming the key path of
the first thing that does not fit (`hits[0].wounds: expected an integer, got 'x'`). It returns the value as
the type says: lists where the hint says tuple become tuples, so what was written reads back equal.
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

Reader = Callable[[Any, str], Any]


class ShapeError(ValueError):
    """A JSON value that does not fit its type: `where` is the key path, `message` what was expected."""

    def __init__(self, where: str, message: str) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


def show(value: Any) -> str:
    """A value as JSON names it, shortened: null, true, 'text', 3, a list, an object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value[:40] + ("…" if len(value) > 40 else ""))
    if isinstance(value, (int, float)):
        return repr(value)
    return "a list" if isinstance(value, (list, tuple)) else "an object" if isinstance(value, dict) else "a value"


def key_path(where: str, key: str) -> str:
    """`where.key`, or `where['key']` for a key that is not a plain word (as the loaders write it)."""
    if key.isidentifier():
        return f"{where}.{key}" if where else key
    return f"{where}[{key!r}]"


def typeddict_keys(td: type) -> tuple[frozenset[str], frozenset[str]]:
    """(required, optional) keys of a TypedDict."""
    return frozenset(getattr(td, "__required_keys__", ())), frozenset(getattr(td, "__optional_keys__", ()))


_CACHE: dict[Any, tuple[Reader, str]] = {}


def reader(hint: Any) -> Reader:
    """The reader of a type hint (built once, then cached)."""
    return _built(hint)[0]


def expected(hint: Any) -> str:
    """What a value of this hint is, in words ("an integer", "text or null")."""
    return _built(hint)[1]


def _built(hint: Any) -> tuple[Reader, str]:
    try:
        return _CACHE[hint]
    except KeyError:
        pass
    except TypeError:  # an unhashable hint: build it every time
        return _build(hint)
    _CACHE[hint] = built = _build(hint)
    return built


def _build(hint: Any) -> tuple[Reader, str]:
    if hint is Any:
        return (lambda v, where: v), "any value"
    if hint is None or hint is type(None):
        return _simple(lambda v: v is None, "null")
    if hint is bool:
        return _simple(lambda v: isinstance(v, bool), "true or false")
    if hint is int:
        return _simple(lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer")
    if hint is float:
        return _simple(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
                       "a number")
    if hint is str:
        return _simple(lambda v: isinstance(v, str), "text")
    if is_typeddict(hint):
        return _typeddict(hint)
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        allowed = args
        want = " or ".join(repr(a) for a in allowed)
        return _simple(lambda v: any(v == a and type(v) is type(a) for a in allowed), want)
    if origin is Union or origin is types.UnionType:
        return _union(args)
    if origin is list:
        return _sequence(args[0], list, "a list")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence(args[0], tuple, "a list")
        return _fixed_tuple(args)
    if origin is dict:
        return _mapping(args[1])
    raise TypeError(f"no JSON reader for the type {hint!r}")


def _simple(ok: Callable[[Any], bool], want: str) -> tuple[Reader, str]:
    def check(value: Any, where: str) -> Any:
        if not ok(value):
            raise ShapeError(where, f"expected {want}, got {show(value)}")
        return value

    return check, want


def _union(args: tuple[Any, ...]) -> tuple[Reader, str]:
    parts = [_built(a) for a in args]
    want = " or ".join(w for _, w in parts)

    def check(value: Any, where: str) -> Any:
        first: ShapeError | None = None
        for read, _ in parts:
            try:
                return read(value, where)
            except ShapeError as exc:
                # A value of the right kind that fails deeper down says where; otherwise name every choice.
                if exc.where != where and first is None:
                    first = exc
        raise first or ShapeError(where, f"expected {want}, got {show(value)}")

    return check, want


def _sequence(item: Any, kind: type, want: str) -> tuple[Reader, str]:
    read_item = _built(item)[0]

    def check(value: Any, where: str) -> Any:
        if not isinstance(value, (list, tuple)):
            raise ShapeError(where, f"expected {want}, got {show(value)}")
        return kind(read_item(x, f"{where}[{i}]") for i, x in enumerate(value))

    return check, want


def _fixed_tuple(args: tuple[Any, ...]) -> tuple[Reader, str]:
    reads = [_built(a)[0] for a in args]
    want = f"a list of {len(args)} values"

    def check(value: Any, where: str) -> Any:
        if not isinstance(value, (list, tuple)) or len(value) != len(reads):
            raise ShapeError(where, f"expected {want}, got {show(value)}")
        return tuple(r(x, f"{where}[{i}]") for i, (r, x) in enumerate(zip(reads, value, strict=True)))

    return check, want


def _mapping(item: Any) -> tuple[Reader, str]:
    read_item = _built(item)[0]

    def check(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise ShapeError(where, f"expected an object, got {show(value)}")
        return {k: read_item(v, key_path(where, k)) for k, v in value.items()}

    return check, "an object"


def _typeddict(td: type) -> tuple[Reader, str]:
    required, optional = typeddict_keys(td)
    hints: dict[str, Any] = {}

    def check(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise ShapeError(where, f"expected an object with {', '.join(sorted(required)) or 'its keys'}, got "
                                    f"{show(value)}")
        if not hints:  # resolved at first use: the TypedDict's own module is complete by then
            hints.update(get_type_hints(td))
        for k in required:
            if k not in value:
                raise ShapeError(key_path(where, k), "required key is missing")
        out = {}
        for k, v in value.items():
            if k not in required and k not in optional:
                raise ShapeError(key_path(where, k), "unknown key")
            out[k] = reader(hints[k])(v, key_path(where, k))
        return out

    return check, "an object"
