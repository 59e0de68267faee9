"""Micro-batched track tasks that survive a dead worker, a poison message and faults.

celery_batches acks a batch's messages when the batch returns; when the worker
process dies under it, it neither acks nor re-queues them, so they would wait for
the worker to restart. :class:`ReliableBatches` re-queues them at once (what
``task_reject_on_worker_lost`` does for plain tasks). :func:`run_batch` then scores a
batch so that one bad message costs only itself:

- malformed messages are logged and dropped, the rest of the batch is scored;
- messages whose result is stored already (a redelivery, a sweeper's re-publication
  of a message that was only slow) are dropped before any model runs;
- messages that were under a dead worker before are scored one at a time, so a
  poison message kills only its own attempts and is refused after
  ``Settings.max_deliveries`` of them (its job marked failed);
- a transient fault (Postgres or Redis away) re-publishes the batch's messages with
  exponential backoff and jitter; any other error scores the messages one by one.

Every message of a batch is a task of its own to Flower, ``celery events`` and
``inspect stats``: the worker sends its ``task-received`` when it is buffered,
``task-started`` when its batch reaches a pool process, and ``task-succeeded`` (with the
batch's runtime), ``task-failed`` (with the reason) or ``task-retried`` when the batch
returns, from the per-message outcome :func:`run_batch` reports (:class:`BatchReport`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from billiard.exceptions import TimeLimitExceeded, WorkerLostError
from celery import signals
from celery.utils.time import get_exponential_backoff_interval
from celery.worker import state as worker_state
from celery_batches import Batches, SimpleRequest
from celery_batches.trace import apply_batches_task

from scoregate.pipelines.context import queue_of
from scoregate.pipelines.validation import BadMessage, track_item
from scoregate.storage.recovery import recorded_tracks
from scoregate.workers.reliability import (
    MAX_RETRIES,
    RETRY_BACKOFF_MAX_S,
    TRANSIENT_ERRORS,
    DeliveryGuard,
    delivery_guard,
)

log = logging.getLogger(__name__)

Handler = Callable[[list[dict[str, Any]]], None]


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

    Returned by :func:`run_batch` from the pool process to the worker's main process,
    which turns it into one task event per message.
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


@dataclass(frozen=True)
class Item:
    """One message of a batch: its task id, validated kwargs and retry count."""

    task_id: str
    kwargs: dict[str, Any]
    retries: int = 0


def run_batch(
    task: Any,
    requests: Sequence[Any],
    fields: Sequence[str],
    handler: Handler,
    *,
    optional: Sequence[str] | None = None,
    dedupe: bool = True,
) -> dict[str, dict[str, str]]:
    """Run ``handler`` over a batch of messages, one bad message costing only itself.

    Args:
        fields: the keyword arguments every message must carry.
        optional: when given, the only other keywords a message may carry (a message
            with any other is refused); when None, other keywords pass through.
        dedupe: drop track messages whose result is stored already (track pools);
            fusion and the controller are idempotent themselves and pass False.

    Returns:
        The :class:`BatchReport` of the messages that failed or were retried (as a dict:
        it crosses from the pool process to the worker's main process).
    """
    guard = delivery_guard()
    report = BatchReport()
    items = valid_items(task.name, requests, fields, optional, report)
    if dedupe:
        items = skip_recorded(task.name, items)
    fresh: list[Item] = []
    suspects: list[tuple[int, Item]] = []
    for item, deaths in zip(items, guard.deaths([i.task_id for i in items]), strict=True):
        if deaths >= guard.limit:
            report.failed[item.task_id] = _refuse_poison(task.name, guard, item, deaths)
        elif deaths:
            suspects.append((deaths, item))
        else:
            fresh.append(item)
    if fresh:
        _guarded(task, guard, fresh, handler, report)
    # One at a time, the least suspect first: a poison message kills only its own attempt.
    for _, item in sorted(suspects, key=lambda pair: pair[0]):
        _guarded(task, guard, [item], handler, report)
    return report.as_result()


def valid_items(
    name: str,
    requests: Sequence[Any],
    fields: Sequence[str],
    optional: Sequence[str] | None = None,
    report: BatchReport | None = None,
) -> list[Item]:
    """The batch's well-formed messages; each malformed one is logged and dropped."""
    allowed = None if optional is None else {*fields, *optional}
    items = []
    for req in requests:
        kwargs = dict(req.kwargs or {})
        positional = (*fields, *(optional or ()))
        try:
            if len(req.args or ()) > len(positional):
                raise BadMessage(f"too many positional arguments: {len(req.args)}")
            kwargs.update(zip(positional, req.args or (), strict=False))
            unexpected = sorted(set(kwargs) - allowed) if allowed is not None else []
            if unexpected:
                raise BadMessage(f"unexpected argument(s): {', '.join(map(str, unexpected))}")
            checked = track_item(kwargs, fields)
        except BadMessage as exc:
            log.error("%s[%s]: refused message: %s", name, req.id, exc)
            if report is not None:
                report.failed[str(req.id)] = f"refused message: {exc}"
            continue
        retries = (req.request_dict or {}).get("retries")
        items.append(Item(str(req.id), checked, retries if isinstance(retries, int) else 0))
    return items


def skip_recorded(name: str, items: list[Item]) -> list[Item]:
    """Drop messages whose track result is stored already (duplicates, re-publications)."""
    if not items:
        return items
    from scoregate.workers.runtime import get_context

    key = {i.task_id: (str(i.kwargs["job_id"]), int(i.kwargs["n"])) for i in items}
    try:
        with get_context().session() as s:
            done = recorded_tracks(s, track=queue_of(name), refs=set(key.values()))
    except TRANSIENT_ERRORS:
        return items  # scoring meets the same fault and retries
    if done:
        log.info("%s: %d message(s) already recorded: skipped", name, len(done))
    return [i for i in items if key[i.task_id] not in done]


def _guarded(
    task: Any, guard: DeliveryGuard, items: list[Item], handler: Handler, report: BatchReport
) -> None:
    ids = [i.task_id for i in items]
    guard.begin(ids)
    try:
        _attempt(task, items, handler, report)
    finally:
        guard.end(ids)


def _attempt(task: Any, items: list[Item], handler: Handler, report: BatchReport) -> None:
    try:
        handler([i.kwargs for i in items])
    except TRANSIENT_ERRORS as exc:
        retry_later(task, items, exc)
        for item in items:
            report.retried[item.task_id] = f"{type(exc).__name__}: {exc}"[:1000]
    except Exception as exc:
        if len(items) == 1:
            log.exception("%s[%s]: failed", task.name, items[0].task_id)
            _fail_item(task.name, items[0], exc)
            report.failed[items[0].task_id] = f"{type(exc).__name__}: {exc}"[:1000]
            return
        log.exception("%s: a batch of %d failed; scoring them one by one", task.name, len(items))
        for item in items:
            _attempt(task, [item], handler, report)


def retry_later(task: Any, items: list[Item], exc: BaseException) -> None:
    """Re-publish each message (same task id) after an exponential, jittered countdown."""
    log.warning("%s: transient fault on %d message(s): %s; retrying", task.name, len(items), exc)
    for item in items:
        if item.retries >= MAX_RETRIES:
            log.error(
                "%s[%s]: still failing after %d retries; the sweeper re-publishes its iteration",
                task.name,
                item.task_id,
                item.retries,
            )
            continue
        countdown = get_exponential_backoff_interval(
            factor=1, retries=item.retries, maximum=RETRY_BACKOFF_MAX_S, full_jitter=True
        )
        try:
            task.app.send_task(
                task.name,
                kwargs=item.kwargs,
                task_id=item.task_id,
                retries=item.retries + 1,
                countdown=countdown,
            )
        except TRANSIENT_ERRORS as err:
            log.error("%s: cannot re-publish (%s); the sweeper will", task.name, err)
            return


def _fail_item(name: str, item: Item, exc: Exception) -> None:
    """Fail the job of a message that raised an error no retry fixes, with that error:
    nobody then waits for the sweeper to give up on it (several rounds, ~30 min)."""
    try:
        _fail_job_of(item, f"{name} failed: {type(exc).__name__}: {exc}"[:1000])
    except Exception:  # the database may be what failed: the sweeper is the fallback
        log.exception("%s[%s]: could not mark its job failed", name, item.task_id)


def _fail_job_of(item: Item, reason: str) -> None:
    from scoregate.workers.base import fail_job
    from scoregate.workers.runtime import get_context

    fail_job(get_context(), item.kwargs["job_id"], item.kwargs["n"], reason)


def _refuse_poison(name: str, guard: DeliveryGuard, item: Item, deaths: int) -> str:
    reason = guard.poison_reason(name, deaths)
    log.error("%s[%s]: %s", name, item.task_id, reason)
    guard.end([item.task_id])
    _fail_job_of(item, reason)
    return reason
