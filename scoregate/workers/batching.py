"""Micro-batched tasks that survive a dead worker and a lost broker connection.

celery_batches acks a batch's messages when the batch returns; when the worker
process dies under it, it neither acks nor re-queues them, so they would wait for
the worker to restart. :class:`ReliableBatches` re-queues them at once (what
``task_reject_on_worker_lost`` does for plain tasks), flushes adaptively, and starts
its flush timer afresh when the consumer restarts.

Every message of a batch is a task of its own to Flower, ``celery events`` and
``inspect stats``: the worker sends its ``task-received`` when it is buffered,
``task-started`` when its batch reaches a pool process, and ``task-succeeded`` (with the
batch's runtime), ``task-failed`` (with the reason) or ``task-retried`` when the batch
returns, from the per-message outcome the batch reports (:class:`BatchReport`). What runs
inside the pool process, one bad message costing only itself, is
:func:`scoregate.workers.batch_runner.run_batch`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from billiard.exceptions import TimeLimitExceeded, WorkerLostError
from celery import signals
from celery.worker import state as worker_state
from celery_batches import Batches, SimpleRequest
from celery_batches.trace import apply_batches_task

log = logging.getLogger(__name__)


#: How often a worker with buffered messages looks whether it can flush them.
FLUSH_TICK_S = 0.002


class ReliableBatches(Batches):  # type: ignore[misc]
    """``Batches`` that flush adaptively, survive a lost broker connection, and re-queue
    their messages when the worker process dies under them.

    Flushing: a full batch (``flush_every`` messages) goes at once. Otherwise, every
    ``flush_interval`` (a short tick) the buffer goes to the pool when the pool has a
    free process for this task and no message arrived since the last tick, and in any
    case once the oldest buffered message has waited ``max_wait_s``. An idle worker
    thus scores a lone message within two ticks; a busy one, or one that a backlog
    streams into, gathers messages (one forward pass, one transaction serves them all)
    instead of sending many small batches.
    """

    #: The longest a buffered message waits for its batch to fill (``batch_interval_s``).
    max_wait_s: float = 0.05
    #: Processes of the worker's pool (set when the worker starts consuming).
    _slots: int = 1
    #: When the oldest buffered message arrived, and the buffer size at the last tick.
    _waiting_since: float | None = None
    _seen: int = 0
    #: Batches running or queued per worker pool, over every batched task it serves
    #: (one worker may serve reward, fusion and control with the same processes).
    _pool_in_flight: ClassVar[dict[int, int]] = {}

    @property
    def _in_flight(self) -> int:
        return self._pool_in_flight.get(id(self._pool), 0)

    @_in_flight.setter
    def _in_flight(self, value: int) -> None:
        self._pool_in_flight[id(self._pool)] = value

    def Strategy(self, task: Any, app: Any, consumer: Any) -> Any:
        handler = super().Strategy(task, app, consumer)
        self._slots = max(1, int(getattr(consumer.pool, "limit", None) or 1))
        self._waiting_since, self._seen = None, 0
        # A consumer restart (the broker connection was lost) clears the event loop's
        # timers. celery-batches keeps its handle to the dead flush timer and only
        # starts one when it has none, so it would never flush on time again: buffered
        # messages would wait for a full batch, holding the prefetch window and
        # starving every other task of the worker. Start afresh (cancelling the old one
        # in case it is still alive, as after a pool restart).
        old: Any = getattr(self, "_tref", None)
        if old is not None:
            old.cancel()
        self._tref = None
        if self._buffer.qsize() or self._pending.qsize():
            self._tref = consumer.timer.call_repeatedly(self.flush_interval, self._do_flush)
        return handler

    def _do_flush(self) -> None:
        # Only ready messages count: retries parked with a countdown (``_pending``) are
        # released by the flush itself once their time has come.
        waiting = self._buffer.qsize()
        if waiting:
            now = time.monotonic()
            if self._waiting_since is None:
                self._waiting_since = now
            # Still arriving (a backlog streams in): let the batch fill up, as when the
            # pool is busy with the last one. A lone message stops growing at once.
            growing, self._seen = waiting > self._seen, waiting
            busy = self._in_flight >= self._slots
            waited = now - self._waiting_since
            if (busy or growing) and waiting < self.flush_every and waited < self.max_wait_s:
                return
        self._waiting_since, self._seen = None, 0
        super()._do_flush()

    def _done(self) -> None:
        self._in_flight = max(0, self._in_flight - 1)

    def flush(self, requests: Sequence[Any]) -> Any:
        late = [r for r in requests if r.task.acks_late]
        payload = ([SimpleRequest.from_request(r) for r in requests],)

        def on_accepted(pid: int, time_accepted: float) -> None:
            # Celery's own bookkeeping per message: counted in `inspect stats` and
            # `inspect active`, `task-started` sent, acked here unless acks_late.
            for req in requests:
                req.on_accepted(pid, time_accepted)

        def on_return(result: Any) -> None:
            self._done()
            report = BatchReport.from_result(result)
            for req in requests:
                finish_request(req, report)

        def on_error(info: Any) -> None:
            kind = getattr(info, "type", None)  # billiard's ExceptionInfo
            # A process that died, or that the hard time limit killed: the messages go
            # back to the queue, their deaths counted (see DeliveryGuard), so a batch-mate
            # is scored again on its own and a message that always kills is refused.
            lost = isinstance(kind, type) and issubclass(kind, (WorkerLostError, TimeLimitExceeded))
            self._done()
            name = getattr(kind, "__name__", kind)
            if lost:
                log.warning(
                    "%s: worker lost (%s) under %d message(s): re-queued",
                    self.name,
                    name,
                    len(late),
                )
            for req in requests:
                worker_state.task_ready(req)
                req.send_event("task-failed", exception=f"{name}: {info}"[:1000], traceback="")
            for req in late:
                if lost:
                    req.reject(requeue=True)
                else:
                    req.acknowledge()

        self._in_flight += 1
        try:
            return self._pool.apply_async(
                apply_batches_task,
                (self, payload, 0, None),
                accept_callback=on_accepted,
                callback=on_return,
                error_callback=on_error,
            )
        except Exception:
            # Never handed to a process: give the slot back and the messages to the broker.
            self._done()
            for req in requests:
                worker_state.task_ready(req)
                req.reject(requeue=True)
            raise


@dataclass
class BatchReport:
    """What became of each message of a batch that did not simply succeed, by task id.

    Returned by :func:`scoregate.workers.batch_runner.run_batch` from the pool process to
    the worker's main process, which turns it into one task event per message.
    """

    failed: dict[str, str] = field(default_factory=dict)
    retried: dict[str, str] = field(default_factory=dict)

    def as_result(self) -> dict[str, dict[str, str]]:
        return {"failed": self.failed, "retried": self.retried}

    @classmethod
    def from_result(cls, result: Any) -> BatchReport | None:
        """The report a batch task returned; None when it returned none (it raised)."""
        if not isinstance(result, dict):
            return None
        return cls(dict(result.get("failed") or {}), dict(result.get("retried") or {}))


def finish_request(req: Any, report: BatchReport | None) -> None:
    """Ack one message of a returned batch and send its final task event."""
    started = getattr(req, "time_start", None)
    runtime = max(0.0, time.time() - started) if started else 0.0
    if req.task.acks_late:
        req.acknowledge()
    if report is None:
        worker_state.task_ready(req)
        reason = "the batch raised an error; see the worker log"
        req.send_event("task-failed", exception=reason, traceback="")
    elif req.id in report.failed:
        worker_state.task_ready(req)
        req.send_event("task-failed", exception=report.failed[req.id], traceback="")
    elif req.id in report.retried:
        worker_state.task_ready(req)
        req.send_event("task-retried", exception=report.retried[req.id], traceback="")
    else:
        worker_state.task_ready(req, successful=True)
        req.send_event("task-succeeded", result="None", runtime=runtime)


@signals.task_received.connect
def _buffered(request: Any = None, **_: Any) -> None:
    """Send ``task-received`` for a message a micro-batched task buffered (celery-batches
    sends none), and reserve it as Celery's strategy does for a plain task."""
    if request is None or not isinstance(getattr(request, "task", None), ReliableBatches):
        return
    worker_state.task_reserved(request)
    eta, expires = request.eta, request.expires
    request.send_event(
        "task-received",
        name=request.name,
        args=request.argsrepr,
        kwargs=request.kwargsrepr,
        root_id=request.root_id,
        parent_id=request.parent_id,
        retries=(request.request_dict or {}).get("retries", 0),
        eta=eta.isoformat() if eta else None,
        expires=expires.isoformat() if expires else None,
    )
