"""How pipeline steps hand work on: to Celery queues, or to an in-process runner."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from scoregate.schemas.loop import MAX_ERROR_MESSAGE_CHARS

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Message:
    """One task to enqueue: a stable task name, JSON kwargs, and an optional link.

    ``link`` names a task that receives this task's return value as its first
    argument (Celery's ``link``): an agent's output flows back into the pipeline so.
    ``link_error`` names a task told when this one raises (Celery's ``link_error``);
    ``task_id`` is the Celery task id to publish with (recorded before it is sent).
    """

    task: str
    kwargs: dict[str, Any]
    queue: str | None = None
    link: Message | None = None
    link_error: Message | None = None
    task_id: str | None = None


class PublishError(ConnectionError):
    """The broker did not take a message (it is down, or the publish retries ran out)."""


class JobsNotPublished(PublishError):
    """Jobs were recorded but the broker did not take their messages: the sweeper will."""

    def __init__(self, message: str, job_ids: list[str]) -> None:
        super().__init__(message)
        self.job_ids = job_ids


#: Broker commands buffered per round trip by :meth:`CeleryDispatcher.send_many`.
PUBLISH_BATCH = 256


class Dispatcher(Protocol):
    def send(self, message: Message) -> None: ...

    def send_many(self, messages: Sequence[Message]) -> None:
        """Send ``messages`` in order; raises :class:`PublishError` if any did not go."""
        ...


class CeleryDispatcher:
    """Publishes messages by task name through a Celery app (JSON only)."""

    def __init__(self, app: Any) -> None:
        self._app = app

    @property
    def app(self) -> Any:
        """The Celery app it publishes through (its connection settings, its pool)."""
        return self._app

    def _signature(self, msg: Message) -> Any:
        options = {"queue": msg.queue} if msg.queue else {}
        return self._app.signature(msg.task, kwargs=msg.kwargs, **options)

    def _options(self, message: Message) -> dict[str, Any]:
        options: dict[str, Any] = {}
        if message.link_error is None:
            # scoregate reads no task's result: with a result backend set, a send that keeps
            # one subscribes to it first, and a backend that is down fails the publish (~20
            # s). A task with an errback keeps it: a foreign app's agent that raises is told
            # to its job through the stored error (its type and message).
            options["ignore_result"] = True
        if message.queue:
            options["queue"] = message.queue
        if message.link is not None:
            options["link"] = self._signature(message.link)
        if message.link_error is not None:
            options["link_error"] = self._signature(message.link_error)
        if message.task_id:
            options["task_id"] = message.task_id
        return options

    def send(self, message: Message) -> None:
        from kombu.exceptions import OperationalError

        try:
            self._app.send_task(message.task, kwargs=message.kwargs, **self._options(message))
        except (OperationalError, ConnectionError) as exc:
            raise PublishError(f"cannot publish {message.task}: {exc}") from exc

    def send_many(self, messages: Sequence[Message]) -> None:
        """Publish through one producer; on Redis, kombu's publish batch pipelines the
        commands (one round trip per :data:`PUBLISH_BATCH` commands, not one or two per
        message). A failure may leave any of them unsent: callers re-send from the
        database (the sweeper), and consumers drop duplicates."""
        if not messages:
            return
        from kombu.exceptions import BatchPublishError, OperationalError

        try:
            with (
                self._app.producer_or_acquire() as producer,
                producer.batch(max_size=PUBLISH_BATCH),
            ):
                for m in messages:
                    self._app.send_task(
                        m.task, kwargs=m.kwargs, producer=producer, **self._options(m)
                    )
        except (OperationalError, BatchPublishError, ConnectionError) as exc:
            # BatchPublishError: the broker dropped the connection mid-batch, so some
            # messages may have gone and some not; the sweeper re-sends what is missing.
            raise PublishError(f"cannot publish {len(messages)} message(s): {exc}") from exc

    def backlog(self, queue: str) -> int | None:
        """Messages waiting in ``queue`` (not those a worker holds), or None if unknown."""
        try:
            with self._app.connection_for_read() as conn:
                declared = conn.default_channel.queue_declare(queue=queue, passive=True)
                return int(declared.message_count)
        except Exception:  # a probe: any broker trouble means "unknown"
            return None


@dataclass
class InlineDispatcher:
    """The embedded default's worker: runs messages in this process, in FIFO order.

    ``tasks`` maps task names to callables taking the message kwargs. Nothing runs
    until :meth:`drain`, so steps never nest and the order matches a real broker's.
    """

    tasks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    queue: deque[Message] = field(default_factory=deque)
    #: The most recent messages sent, for inspection (bounded: the embedded client lives long).
    sent: deque[Message] = field(default_factory=lambda: deque(maxlen=10_000))
    on_step: Callable[[Message], None] | None = None

    def send(self, message: Message) -> None:
        self.sent.append(message)
        self.queue.append(message)

    def send_many(self, messages: Sequence[Message]) -> None:
        for message in messages:
            self.send(message)

    def drain(self, limit: int = 100_000) -> int:
        """Run queued messages (and what they enqueue) until none is left."""
        done = 0
        while self.queue and done < limit:
            msg = self.queue.popleft()
            fn = self.tasks.get(msg.task)
            if fn is None:
                raise LookupError(f"no in-process task named {msg.task!r}")
            if self.on_step is not None:
                self.on_step(msg)
            try:
                out = fn(**msg.kwargs)
            except Exception as exc:
                if msg.link_error is None:
                    raise
                # As a Celery worker would: the error callback hears of it, nothing else.
                self.send(error_report(msg, exc))
                done += 1
                continue
            if msg.link is not None:
                link = msg.link
                self.send(Message(link.task, {"output": out, **link.kwargs}, link.queue))
            done += 1
        return done


def error_report(msg: Message, exc: BaseException) -> Message:
    """The ``link_error`` message of ``msg``, told what ``exc`` was (type and message)."""
    assert msg.link_error is not None
    err = msg.link_error
    kwargs = {
        **err.kwargs,
        "error_type": type(exc).__name__,
        "message": str(exc)[:MAX_ERROR_MESSAGE_CHARS],
        "task_id": msg.task_id,
    }
    return Message(err.task, kwargs, err.queue)
