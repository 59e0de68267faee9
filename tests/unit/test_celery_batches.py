"""celery-batches' private members that ``scoregate.workers.batching`` relies on.

``ReliableBatches`` subclasses ``celery_batches.Batches`` and reaches into it:

- ``_buffer`` and ``_pending``: the two ``queue.Queue`` of buffered and parked requests
  (read for their size when a consumer restarts and on each flush tick);
- ``_tref``: the flush timer handle, which ``Strategy`` starts only when it is None
  (scoregate resets it after a consumer restart);
- ``_pool``: the worker pool, set by ``Strategy`` (batches are sent to it);
- ``_do_flush()``: the timer's flush callback, overridden to flush adaptively, and
  bound in ``Strategy`` as ``self._do_flush`` (so the override is what runs);
- ``Strategy(task, app, consumer)`` and ``flush(requests)``;
- ``SimpleRequest.from_request(request)`` and
  ``celery_batches.trace.apply_batches_task(task, args, loglevel, logfile)``.

If an upgrade changes any of them this test fails: check ``workers/batching.py``
against the new release, then widen the pin in pyproject.toml.
"""

from __future__ import annotations

import inspect
import queue
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

from celery_batches import Batches, SimpleRequest
from celery_batches.trace import apply_batches_task

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def _params(fn: object) -> list[str]:
    return list(inspect.signature(fn).parameters)  # type: ignore[arg-type]


def _pinned_range() -> tuple[tuple[int, ...], tuple[int, ...]]:
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    (spec,) = [d for d in deps if d.startswith("celery-batches")]
    found = re.fullmatch(r"celery-batches>=([\d.]+),<([\d.]+)", spec)
    assert found, f"celery-batches must be pinned to a range (>=A,<B), not {spec!r}"
    low, high = (tuple(int(p) for p in v.split(".")) for v in found.groups())
    return low, high


def test_the_installed_release_is_inside_the_pinned_range():
    low, high = _pinned_range()
    installed = tuple(int(p) for p in version("celery-batches").split(".")[:2])
    assert low <= installed < high


def test_the_buffers_timer_and_pool_are_where_scoregate_reads_them():
    task = Batches()
    assert isinstance(task._buffer, queue.Queue)
    assert isinstance(task._pending, queue.Queue)
    assert task._tref is None
    assert task._pool is None


def test_the_flush_hooks_have_the_shapes_scoregate_overrides():
    assert _params(Batches._do_flush) == ["self"]
    assert _params(Batches.flush) == ["self", "requests"]
    assert _params(Batches.Strategy) == ["self", "task", "app", "consumer"]
    assert _params(apply_batches_task) == ["task", "args", "loglevel", "logfile"]
    assert _params(SimpleRequest.from_request) == ["request"]


def test_strategy_binds_the_overridable_flush_and_starts_the_timer_only_when_unset():
    source = inspect.getsource(Batches.Strategy)
    assert "self._pool = consumer.pool" in source
    assert "= self._do_flush" in source  # bound method: our override runs
    assert "if self._tref is None" in source  # why a consumer restart must reset it
    flush_source = inspect.getsource(Batches._do_flush)
    assert "self._buffer" in flush_source and "self._pending" in flush_source
