"""The garbage collector while a process plays battle after battle (`skirmish bench`, sim and tournament batches).

A battle makes and drops many small objects (views, events, requests) and holds few cycles: it is freed as it
closes (Battle.close). With the default gen-0 threshold (700) the collector runs ~7 young collections a 4 v 4
hold battle and ~30 a 24 v 24 one, each scanning whatever the battle holds at that moment. `batch_gc` moves
everything alive before the batch (modules, scenarios, maps and what they keep) to the permanent generation
(`gc.freeze`), so no collection scans it again, and raises the gen-0 threshold to BATCH_GEN0 for the batch;
both are put back as they were when it ends. Measured in docs/results/bench.txt ("session 10, speedhold10"):
about 2% of a hold battle's CPU at both sizes. It changes no battle: nothing a battle does reads the collector.
At 5000 a young collection still came every ~2 hold battles and cost ~1.4 ms (what the battle holds then is
scanned); at 50,000 (session 13, speede13) one comes every ~30: ~1-2% of a hold battle less, and the cycles a
battle leaves (few) wait a little longer.

The collector is the process's: batches may overlap (the editor's balance panel plays in a background thread, and
Ctrl+B during a run cancels it and starts the next at once, while the cancelled one ends its battle). The first
batch to begin sets the collector and keeps how it was; the last to end puts it back (revspeed10).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_GEN0 = 50_000  # gen-0 threshold inside a batch (the default is 700)

_lock = threading.Lock()
_open: list[tuple[int, int, int]] = []  # the collector's thresholds before the batches going on (one per batch)


@contextmanager
def batch_gc(gen0: int = BATCH_GEN0) -> Iterator[None]:
    """Freeze what the process holds now and raise the gen-0 threshold until the block ends (until the last of
    overlapping blocks ends: the first one's thresholds are put back then, and everything frozen is let go)."""
    with _lock:
        _open.append(_open[0] if _open else gc.get_threshold())
        if len(_open) == 1:
            gc.collect()
        gc.freeze()
        gc.set_threshold(gen0, _open[0][1], _open[0][2])
    try:
        yield
    finally:
        with _lock:
            old = _open.pop()
            if not _open:
                gc.set_threshold(*old)
                gc.unfreeze()


def batch_worker_gc(gen0: int = BATCH_GEN0) -> None:
    """For a worker process that plays batch jobs until it exits: `batch_gc` without an end."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(gen0, *gc.get_threshold()[1:])
