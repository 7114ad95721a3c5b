"""Where batches of battles run (issue 15 item 5): the seam `skirmish sim`, `skirmish balance` and
`skirmish tournament` share. `map_jobs(play, jobs, ...)` calls `play(*job)` for every job and returns the
results in the jobs' order, whatever ran them:

- "local": this process (one worker) or a pool of `workers` processes on this machine;
- "ray": Ray tasks, on a local Ray started for the batch (`workers` CPUs) or on a running cluster (`address`).

The results never depend on the backend or the number of workers: each job is a whole battle (or pair) with
its own seed, and its result goes back to its job's place. `play` must be a module-level function (it is
pickled to the workers) and each job's arguments plain values (paths as text, seeds, AI names).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from skirmish.core.batch_gc import batch_gc, batch_worker_gc

T = TypeVar("T")
Progress = Callable[[int, int], None]
BACKENDS = ("local", "ray")
RAY_MISSING = "Ray is not installed (pip install 'skirmish[scale]', or pip install ray)"


class BackendError(Exception):
    """A backend that cannot be used (Ray missing, a cluster that does not answer): one line, for exit 2."""


def map_jobs(play: Callable[..., T], jobs: Sequence[tuple[Any, ...]], workers: int = 1,
             progress: Progress | None = None, *, backend: str = "local", address: str | None = None) -> list[T]:
    """`play(*job)` for every job, each result at its job's place; `progress(done, total)` after each.

    Ctrl-C (KeyboardInterrupt) or an error in a job stops the workers (or cancels the Ray tasks) and
    propagates. BackendError for an unknown backend, Ray not installed, or a Ray that cannot start."""
    if backend == "local":
        if address:
            raise BackendError("--address: only with --backend ray")
        return local_map(play, jobs, workers, progress)
    if backend == "ray":
        return ray_map(play, jobs, workers, progress, address)
    raise BackendError(f"--backend {backend!r}: expected one of {', '.join(BACKENDS)}")


# ------------------------------------------------------------------------------------------------ local


def _ignore_sigint() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them (no traceback from each worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker_start() -> None:
    """A local worker: Ctrl-C left to the parent, and the collector set for a batch (core/batch_gc.py)."""
    _ignore_sigint()
    batch_worker_gc()


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Ctrl-C noted, not raised, while the pool forks its workers; raised (KeyboardInterrupt) as the block ends.

    A KeyboardInterrupt raised inside `os.fork` lands in the fork's after-fork hooks, where it is ignored: one of
    them (logging's `_releaseLock`) then never releases the logging module's lock, and the process hangs at exit
    (its pool's manager thread waits for that lock). Seen as a `skirmish sim --workers 2` that did not end after
    Ctrl-C, 14 times in 22 when the signal came as the first worker started (tests/test_sim.py). The handler is
    swapped rather than the signal blocked: a process-wide signal goes to any thread that does not block it."""
    if threading.current_thread() is not threading.main_thread():  # (only the main thread sets handlers)
        yield
        return
    noted: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
        if noted:
            if callable(before):
                before(signal.SIGINT, None)  # Python's own handler: KeyboardInterrupt
            elif before == signal.SIG_DFL:
                signal.raise_signal(signal.SIGINT)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool at once: drop the queued jobs and kill the workers (jobs in flight are abandoned)."""
    workers = [p for p in (getattr(pool, "_processes", None) or {}).values() if p is not None]
    manager = getattr(pool, "_executor_manager_thread", None)  # (shutdown forgets it)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        with suppress(Exception):
            proc.kill()
    for proc in workers:
        with suppress(Exception):
            proc.join(timeout=2)
    if manager is not None:
        # It closes its wake-up pipe as it sees the workers gone; the interpreter's exit writes to that pipe unless
        # it is marked closed first (else, now and then, "OSError: Bad file descriptor" from concurrent.futures)
        manager.join(timeout=5)


def local_map(play: Callable[..., T], jobs: Sequence[tuple[Any, ...]], workers: int = 1,
              progress: Progress | None = None) -> list[T]:
    """The jobs in this process (`workers` <= 1) or in a pool of `workers` processes."""
    results: list[Any] = [None] * len(jobs)
    workers = max(1, min(workers, len(jobs)))
    if progress:
        progress(0, len(jobs))
    if workers <= 1:
        with batch_gc():
            for i, job in enumerate(jobs):
                results[i] = play(*job)
                if progress:
                    progress(i + 1, len(jobs))
        return results
    pool: ProcessPoolExecutor | None = None
    try:
        with _sigint_held():  # the workers are forked at the first submit
            pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_start)
            futures = {pool.submit(play, *job): i for i, job in enumerate(jobs)}
        for done, fut in enumerate(as_completed(futures), 1):
            results[futures[fut]] = fut.result()
            if progress:
                progress(done, len(jobs))
    except BaseException:
        if pool is not None:
            _stop(pool)
        raise
    pool.shutdown(wait=True)
    return results


# -------------------------------------------------------------------------------------------------- ray


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError(f"--backend ray: {RAY_MISSING}") from None
    return ray


def start_ray(workers: int = 1, address: str | None = None) -> bool:
    """Start Ray for a batch unless it is running in this process already: a local Ray with `workers` CPUs
    (no dashboard, workers' output kept off this terminal), or a connection to the cluster at `address`
    (which runs this copy of skirmish: the package is shipped to its workers). True if it was started here
    (then `ray.shutdown()` after the batch). BackendError if Ray is missing or cannot start."""
    ray = _ray()
    if ray.is_initialized():
        return False
    here = str(Path(__file__).resolve().parents[1])
    if address:
        _answers(address)
    try:
        if address:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR,
                     runtime_env={"py_modules": [here]})
        else:
            path = os.pathsep.join(p for p in (str(Path(here).parent), os.environ.get("PYTHONPATH", "")) if p)
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR, runtime_env={"env_vars": {"PYTHONPATH": path}})
    except Exception as exc:  # a cluster that does not answer, a local Ray that cannot start
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        where = f"the cluster at {address}" if address else "a local Ray"
        raise BackendError(f"--backend ray: cannot start {where}: {first}") from None
    return True


def _answers(address: str, timeout: float = 10.0) -> None:
    """BackendError unless something answers at a cluster's host:port (`ray://` too; `auto`/`local` are left to
    Ray): Ray itself retries a dead address for many minutes, its C++ warnings on the terminal."""
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise BackendError(f"--backend ray: cannot start the cluster at {address}: nothing answers at "
                           f"{host}:{port} ({why})") from None


def ray_map(play: Callable[..., T], jobs: Sequence[tuple[Any, ...]], workers: int = 1,
            progress: Progress | None = None, address: str | None = None) -> list[T]:
    """The jobs as Ray tasks (one task a job), gathered as they finish, each result at its job's place."""
    ray = _ray()
    results: list[Any] = [None] * len(jobs)
    if progress:
        progress(0, len(jobs))
    if not jobs:
        return results
    started = start_ray(workers, address)
    refs: list[Any] = []
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(play)
        refs = [task.remote(*job) for job in jobs]
        place = {ref: i for i, ref in enumerate(refs)}
        pending, done = list(refs), 0
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            for ref in finished:
                try:
                    results[place[ref]] = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:  # the job's own error, as the local backend raises it
                    raise exc.as_instanceof_cause() from None
                except ray.exceptions.RayError as exc:  # one Ray could not bring back: its last line says what
                    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
                    raise RuntimeError(f"a Ray task failed: {lines[-1] if lines else type(exc).__name__}") from None
                done += 1
                if progress:
                    progress(done, len(jobs))
    except BaseException:
        for ref in refs:
            with suppress(Exception):
                ray.cancel(ref, force=True)
        raise
    finally:
        if started:
            with suppress(Exception):
                ray.shutdown()
    return results
