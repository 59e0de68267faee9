"""What every pipeline step shares once it has decided: publishing its messages.

``control``, ``review``, ``sweeper``, ``agent_errors`` and ``steps`` all end a step the
same way (rows committed, then the messages they imply published); they import this
module, never each other's private helpers, so the pipelines package has no import
circle.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import Message, PublishError
from scoregate.storage import repository as repo

log = logging.getLogger(__name__)

#: The subject the seed-002 research quota counts under: one shared hourly quota.
RESEARCH_SUBJECT = "global"


@dataclass
class Deferred:
    """Messages the broker did not take while watched: the sweeper sends them later."""

    messages: int = 0


_watching: ContextVar[Deferred | None] = ContextVar("scoregate_publish_watch", default=None)


@contextmanager
def watch_deferred() -> Iterator[Deferred]:
    """Count the messages :func:`publish` leaves to the sweeper in this context (and the
    threads it hands work to with a copy of it, as an HTTP request does)."""
    seen = Deferred()
    token = _watching.set(seen)
    try:
        yield seen
    finally:
        _watching.reset(token)


def deferred_so_far() -> int:
    """How many messages :func:`publish` has left to the sweeper in the watched context
    (:func:`watch_deferred`) so far; 0 when nothing watches."""
    seen = _watching.get()
    return seen.messages if seen is not None else 0


def publish(ctx: PipelineContext, messages: list[Message]) -> None:
    """Send ``messages`` after their rows are committed.

    A broker failure is logged, not raised: the rows are committed, so the sweeper
    re-publishes what did not get out. The hook and agent tasks among them are recorded
    as dispatches; the broker having taken them is recorded too, so that a hook it did
    not take is sent again (its job may be final: nothing else would send it).
    """
    try:
        ctx.dispatcher.send_many(messages)
    except PublishError as exc:
        log.error("%s; %d message(s) left to the sweeper", exc, len(messages))
        seen = _watching.get()
        if seen is not None:
            seen.messages += len(messages)
        return
    sent = [m.task_id for m in messages if m.task_id is not None]
    if sent:
        with ctx.session() as s:
            repo.mark_published(s, celery_task_ids=sent)
