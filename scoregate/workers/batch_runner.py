"""Run a micro-batch's messages in the pool process, one bad message costing only itself.

:func:`run_batch` is what every micro-batched task
(:class:`scoregate.workers.batching.ReliableBatches`) calls:

- malformed messages are logged and dropped, the rest of the batch is scored;
- a second message for the same job and iteration in one batch (the original and the
  sweeper's copy) is dropped; messages whose result is stored already (a redelivery, a
  sweeper's re-publication of a message that was only slow) are dropped before any model
  runs;
- messages that were under a dead worker before are scored one at a time, so a
  poison message kills only its own attempts and is refused after
  ``Settings.max_deliveries`` of them (its job marked failed);
- a transient fault (Postgres or Redis away) re-publishes the batch's messages with
  exponential backoff and jitter; a schema older than the code drops them with one line
  (``reliability.log_schema_fault``); any other error scores the messages one by one.

It returns the per-message outcome (:class:`scoregate.workers.batching.BatchReport`)
from which the worker's main process sends each message's final task event.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from celery.utils.time import get_exponential_backoff_interval

from scoregate.logs import URL_FAULTS, one_line
from scoregate.pipelines.context import queue_of
from scoregate.pipelines.failure import fail_job
from scoregate.pipelines.validation import BadMessage, track_item
from scoregate.storage.db import is_schema_fault
from scoregate.storage.recovery import recorded_tracks
from scoregate.workers import runtime
from scoregate.workers.batching import BatchReport
from scoregate.workers.reliability import (
    MAX_RETRIES,
    RETRY_BACKOFF_MAX_S,
    SCHEMA_ERRORS,
    TRANSIENT_ERRORS,
    DeliveryGuard,
    delivery_guard,
    log_schema_fault,
)

log = logging.getLogger(__name__)

Handler = Callable[[list[dict[str, Any]]], None]


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
    items = one_per_iteration(task.name, valid_items(task.name, requests, fields, optional, report))
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


def one_per_iteration(name: str, items: list[Item]) -> list[Item]:
    """The first message of each (job, iteration) in the batch: a second one (the sweeper's
    copy of a message that was only slow) would do nothing but log its step again."""
    seen: set[tuple[str, int]] = set()
    kept = []
    for item in items:
        ref = (str(item.kwargs["job_id"]), int(item.kwargs["n"]))
        if ref not in seen:
            seen.add(ref)
            kept.append(item)
    if len(kept) < len(items):
        log.debug(
            "%s: %d copy(ies) of a message in this batch: dropped", name, len(items) - len(kept)
        )
    return kept


def skip_recorded(name: str, items: list[Item]) -> list[Item]:
    """Drop messages whose track result is stored already (duplicates, re-publications)."""
    if not items:
        return items
    key = {i.task_id: (str(i.kwargs["job_id"]), int(i.kwargs["n"])) for i in items}
    try:
        with runtime.get_context().session() as s:
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
    except SCHEMA_ERRORS as exc:
        if not is_schema_fault(exc):  # a privilege, a bug: the per-item path below
            _attempt_apart(task, items, handler, report, exc)
            return
        # The job cannot be marked failed on that schema either: the sweeper brings the
        # iteration back after `scoregate db upgrade`.
        log_schema_fault(task.name, exc)
        for item in items:
            report.failed[item.task_id] = f"{type(exc).__name__}: {exc}"[:1000]
    except Exception as exc:
        _attempt_apart(task, items, handler, report, exc)


def _attempt_apart(
    task: Any, items: list[Item], handler: Handler, report: BatchReport, exc: BaseException
) -> None:
    """A batch that failed with ``exc`` (called while it is handled, so the log has its
    traceback): one item fails; more are tried one by one."""
    if len(items) == 1:
        log.exception("%s[%s]: failed", task.name, items[0].task_id)
        _fail_item(task.name, items[0], exc)
        report.failed[items[0].task_id] = f"{type(exc).__name__}: {exc}"[:1000]
        return
    log.exception("%s: a batch of %d failed; scoring them one by one", task.name, len(items))
    for item in items:
        _attempt(task, [item], handler, report)


def fault_kind(exc: BaseException) -> str:
    """What the retry line calls ``exc``: a ``transient fault`` (a database or broker away,
    which a retry outlasts), or, when the database's own words say its URL is wrong (a
    database that does not exist, a login refused, a host that does not resolve:
    ``logs.URL_FAULTS``), a fault no retry mends until the URL is: it is still retried, in
    case the database is being made."""
    from sqlalchemy.exc import SQLAlchemyError

    if isinstance(exc, SQLAlchemyError) and any(m in str(exc).lower() for m in URL_FAULTS):
        return "database fault (check SCOREGATE_DATABASE_URL; retried in case it is being made)"
    return "transient fault"


def retry_later(task: Any, items: list[Item], exc: BaseException) -> None:
    """Re-publish each message (same task id) after an exponential, jittered countdown."""
    log.warning(
        "%s: %s on %d message(s): %s; retrying",
        task.name,
        fault_kind(exc),
        len(items),
        one_line(exc),
    )
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


def _fail_item(name: str, item: Item, exc: BaseException) -> None:
    """Fail the job of a message that raised an error no retry fixes, with that error:
    nobody then waits for the sweeper to give up on it (several rounds, ~30 min)."""
    try:
        _fail_job_of(item, f"{name} failed: {type(exc).__name__}: {exc}"[:1000])
    except Exception:  # the database may be what failed: the sweeper is the fallback
        log.exception("%s[%s]: could not mark its job failed", name, item.task_id)


def _fail_job_of(item: Item, reason: str) -> None:
    fail_job(runtime.get_context(), item.kwargs["job_id"], item.kwargs["n"], reason)


def _refuse_poison(name: str, guard: DeliveryGuard, item: Item, deaths: int) -> str:
    reason = guard.poison_reason(name, deaths)
    log.error("%s[%s]: %s", name, item.task_id, reason)
    guard.end([item.task_id])
    _fail_job_of(item, reason)
    return reason
