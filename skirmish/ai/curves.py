"""Response curves and score combination for the utility AI (Infinite Axis style).

Every consideration maps a raw input, already normalised to [0, 1], through one curve of a small palette;
the outputs of an option's considerations are multiplied after the compensation factor, so an option with
many considerations is not punished merely for having them. Curves work on floats and on numpy arrays
(the move scorer rates every reachable cell at once).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

try:  # np.clip on a float array is this ufunc, after three Python-level wrappers (numpy 2; numpy 1 keeps it in core)
    from numpy._core.umath import clip as _clip  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # pragma: no cover
    from numpy.core.umath import clip as _clip  # type: ignore[attr-defined,no-redef,unused-ignore]

CLIP = _clip  # np.clip(array, low, high) on a float array, without the wrappers (the same ufunc, the same numbers)
KINDS = ("linear", "polynomial", "logistic", "logit", "normal")
_KEPT = 4096  # single-number outputs kept per curve before it starts again
_EPS = 1e-6

Value = float | npt.NDArray[np.float64]


@dataclass(frozen=True, init=False)
class Curve:
    """y = f(x) on [0, 1], clamped to [0, 1]. Parameters follow the usual IAUS meaning:
    m slope (or height), k exponent (or steepness), b vertical shift, c horizontal shift."""

    kind: str = "linear"
    m: float = 1.0
    k: float = 1.0
    b: float = 0.0
    c: float = 0.0

    def __init__(self, kind: str = "linear", m: float = 1.0, k: float = 1.0, b: float = 0.0, c: float = 0.0) -> None:
        # The frozen dataclass's own __init__, written out: the fields go straight into the instance's dict (a
        # consideration makes its curve on every call, and this is half the cost of a setattr per field).
        if kind not in KINDS:
            raise ValueError(f"curve kind: expected one of {', '.join(KINDS)}, got {kind!r}")
        d = self.__dict__
        d["kind"], d["m"], d["k"], d["b"], d["c"] = kind, m, k, b, c
        d["_kept"] = {}  # outputs at single numbers already asked (not a field)

    def __call__(self, x: Value) -> Value:
        """The curve's output, clamped to [0, 1]."""
        if isinstance(x, float | int):  # numpy's float64 is a float
            return self.at(float(x))
        arr = _clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)  # np.clip(..., 0.0, 1.0)
        if self.kind == "linear":
            y = self.m * (arr - self.c) + self.b
        elif self.kind == "polynomial":
            y = self.m * np.power(np.clip(arr - self.c, 0.0, None), self.k) + self.b
        elif self.kind == "logistic":
            y = self.m / (1.0 + np.exp(-self.k * (arr - self.c))) + self.b
        elif self.kind == "logit":
            z = np.clip(arr - self.c, _EPS, 1 - _EPS)
            y = self.m * np.log(z / (1 - z)) / (5.0 * max(self.k, _EPS)) + 0.5 + self.b
        else:  # normal: a bell centred on c, width from k
            y = self.m * np.exp(-((arr - self.c) ** 2) / (2 * max(self.k, _EPS) ** 2)) + self.b
        out = _clip(y, 0.0, 1.0)
        return float(out) if out.ndim == 0 else out

    def at(self, v: float) -> float:
        """The curve at one number (`_one`): a linear curve worked out at once, the others kept per number."""
        if self.kind == "linear":
            y = self.m * (min(max(v, 0.0), 1.0) - self.c) + self.b
            return min(max(y, 0.0), 1.0)
        kept: dict[float | tuple[float, bool], float] = self._kept  # type: ignore[attr-defined]
        key = v if v else (v, math.copysign(1.0, v) > 0)  # 0.0 and -0.0: equal numbers, outputs of either sign
        out1 = kept.get(key)
        if out1 is None:
            if len(kept) >= _KEPT:
                kept.clear()
            out1 = kept[key] = self._one(v)
        return out1

    def _one(self, x: float) -> float:
        """The curve at one number: the same arithmetic as on an array, bit for bit, without numpy's
        per-call overhead (most considerations score one option at a time). min/max clamp as np.clip does,
        keeping NaN and -0.0; the exponentials and powers are numpy's own."""
        v = min(max(x, 0.0), 1.0)
        if self.kind == "linear":
            y = self.m * (v - self.c) + self.b
        elif self.kind == "polynomial":
            y = self.m * float(np.power(max(v - self.c, 0.0), self.k)) + self.b
        elif self.kind == "logistic":
            y = self.m / (1.0 + float(np.exp(-self.k * (v - self.c)))) + self.b
        elif self.kind == "logit":
            z = min(max(v - self.c, _EPS), 1 - _EPS)
            y = self.m * float(np.log(z / (1 - z))) / (5.0 * max(self.k, _EPS)) + 0.5 + self.b
        else:
            d = v - self.c
            y = self.m * float(np.exp(-(d ** 2) / (2 * max(self.k, _EPS) ** 2))) + self.b
        return min(max(y, 0.0), 1.0)

    def to_json(self) -> dict[str, Any]:
        """Data form (personalities are files)."""
        return {"kind": self.kind, "m": self.m, "k": self.k, "b": self.b, "c": self.c}

    @staticmethod
    def parse(raw: dict[str, Any]) -> Curve:
        """From data; raises ValueError naming the field."""
        unknown = set(raw) - {"kind", "m", "k", "b", "c"}
        if unknown:
            raise ValueError(f"curve: unknown field {sorted(unknown)[0]!r}")
        return Curve(str(raw.get("kind", "linear")), float(raw.get("m", 1.0)), float(raw.get("k", 1.0)),
                     float(raw.get("b", 0.0)), float(raw.get("c", 0.0)))


def over_rows(curves: list[Curve], rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`np.array([c(row) for c, row in zip(curves, rows)])`, rows of floats: the rows of linear and of logistic curves
    each worked out at once with their parameters as columns (the same operations on each element, so the same
    numbers bit for bit); any other kind row by row (`Curve.__call__`'s arithmetic written out). The groups and
    their columns are kept per list of curves (`_rows_plan`). One column (a decision that weighs only the unit's own
    cell) is each curve at one number (`Curve.at`: the curve on a one-element array, bit for bit)."""
    if rows.shape[1:] == (1,):
        return np.array([[c.at(v)] for c, v in zip(curves, rows[:, 0].tolist(), strict=True)], dtype=np.float64)
    out = np.empty(rows.shape, dtype=np.float64)
    for kind, idx, got in _rows_plan(curves):
        if kind == "linear rows":
            m, _, b, shift = got
            out[idx] = _clip(m * (_clip(rows[idx], 0.0, 1.0) - shift) + b, 0.0, 1.0)
        elif kind == "logistic rows":
            m, k, b, shift = got
            out[idx] = _clip(m / (1.0 + np.exp(k * (_clip(rows[idx], 0.0, 1.0) - shift))) + b, 0.0, 1.0)
        else:  # one curve's row: `Curve.__call__` on it
            c = got
            arr = _clip(rows[idx], 0.0, 1.0)
            if kind == "linear":
                y = c.m * (arr - c.c) + c.b
            elif kind == "polynomial":
                y = c.m * np.power(np.maximum(arr - c.c, 0.0), c.k) + c.b  # (np.clip(..., 0.0, None) is np.maximum)
            elif kind == "logistic":
                y = c.m / (1.0 + np.exp(-c.k * (arr - c.c))) + c.b
            elif kind == "logit":
                z = _clip(arr - c.c, _EPS, 1 - _EPS)
                y = c.m * np.log(z / (1 - z)) / (5.0 * max(c.k, _EPS)) + 0.5 + c.b
            else:
                y = c.m * np.exp(-((arr - c.c) ** 2) / (2 * max(c.k, _EPS) ** 2)) + c.b
            out[idx] = _clip(y, 0.0, 1.0)
    return out


PLANS_KEPT = 256  # lists of curves whose `over_rows` groups are kept before they start again
_PLANS: dict[tuple[int, ...], tuple[tuple[Curve, ...], list[tuple[str, Any, Any]]]] = {}


def _rows_plan(curves: list[Curve]) -> list[tuple[str, Any, Any]]:
    """`over_rows`' steps for these curves, kept by the curves themselves (held, so an id is not reused while kept):
    ("linear rows" or "logistic rows", the rows' indices, their parameters as columns (m, -k, b, c)) for two or more
    curves of that kind, else (the curve's kind, its row's index, the curve)."""
    key = tuple(map(id, curves))
    kept = _PLANS.get(key)
    if kept is not None:
        return kept[1]
    by_kind: dict[str, list[int]] = {}
    for i, c in enumerate(curves):
        by_kind.setdefault(c.kind if c.kind in ("linear", "logistic") else "", []).append(i)
    steps: list[tuple[str, Any, Any]] = []
    for kind, idx in by_kind.items():
        if not kind or len(idx) == 1:
            steps += [(curves[i].kind, i, curves[i]) for i in idx]
            continue
        columns = np.array([(curves[i].m, -curves[i].k, curves[i].b, curves[i].c) for i in idx], dtype=np.float64)
        steps.append((f"{kind} rows", np.array(idx, dtype=np.intp), tuple(columns.T[:, :, None])))
    if len(_PLANS) >= PLANS_KEPT:
        _PLANS.clear()
    _PLANS[key] = (tuple(curves), steps)
    return steps


LINEAR = Curve("linear")
INVERSE = Curve("linear", m=-1.0, b=1.0)


def compensate(score: Value, count: int) -> Value:
    """The compensation factor for an option with `count` considerations: each output is lifted toward 1
    by (1 − output) × (1 − 1/count) × output, so products over many considerations stay comparable."""
    if count <= 1:
        return score
    mod = 1.0 - 1.0 / count
    return score + (1.0 - score) * mod * score


def combine_rows(outputs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """`combine(list(outputs))` for a 2-d array of outputs (one row per consideration, one column per item): the
    compensation on every element, then the product down each column, row after row (a product reduced along
    the first axis multiplies in that order), so the same numbers bit for bit."""
    n = len(outputs)
    if n <= 1:
        return np.multiply.reduce(outputs, axis=0)
    mod = 1.0 - 1.0 / n
    return np.multiply.reduce(outputs + (1.0 - outputs) * mod * outputs, axis=0)


def combine(outputs: list[Value]) -> Value:
    """Product of compensated consideration outputs (0 if any output is 0)."""
    total: Value = 1.0
    n = len(outputs)
    if n <= 1:
        for o in outputs:
            total = total * o
        return total
    mod = 1.0 - 1.0 / n  # `compensate(o, n)` written out: the same operations, in the same order
    for o in outputs:
        total = total * (o + (1.0 - o) * mod * o)
    return total
