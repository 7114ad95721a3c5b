"""The collector's batch settings (skirmish/core/batch_gc.py) never leak out of a batch: the editor's balance
panel plays `balance` in a background thread, and Ctrl+B while a run goes on cancels it (it stops after the
battle it plays) and starts the next at once, so two batches overlap in one process (revspeed10)."""

from __future__ import annotations

import gc
import threading

from skirmish.core.batch_gc import batch_gc


def test_overlapping_batches_put_the_collector_back() -> None:
    before = gc.get_threshold()
    first, second = batch_gc(1234), batch_gc(2345)
    first.__enter__()
    second.__enter__()  # the next run starts while the cancelled one plays its last battle
    first.__exit__(None, None, None)
    assert gc.get_threshold()[0] != before[0]  # the second batch still plays: its settings stand
    second.__exit__(None, None, None)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_batches_in_threads_put_the_collector_back() -> None:
    before = gc.get_threshold()
    go, done = threading.Event(), threading.Event()

    def cancelled_run() -> None:
        with batch_gc():
            go.set()
            done.wait(5)

    t = threading.Thread(target=cancelled_run)
    t.start()
    go.wait(5)
    with batch_gc():
        done.set()
        t.join(5)
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_batch_that_fails_puts_the_collector_back() -> None:
    before = gc.get_threshold()
    try:
        with batch_gc(999):
            raise ValueError("a battle failed")
    except ValueError:
        pass
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
