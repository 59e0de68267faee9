"""Tasks scoregate sends out of the pipeline: hooks and agent (or research) requests.

Each goes to its own queue (``ref.queue``, else ``SCOREGATE_HOOKS_QUEUE`` for hooks and
``SCOREGATE_AGENT_QUEUE`` for agents), never to a scoregate pool, whose workers would
discard a task name they do not know. Each is recorded in the ``dispatches`` table, with
the Celery task id it is published with, in the transaction that decided to send it.
An agent request carries two callbacks: its result becomes the next iteration
(``agent_result``), its exception reaches the job within seconds (``agent_error``).
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from sqlalchemy.orm import Session

from scoregate.config.settings import Settings
from scoregate.pipelines import context as names
from scoregate.pipelines.context import POOLS
from scoregate.pipelines.dispatch import Message
from scoregate.pipelines.loop import feedback
from scoregate.schemas.loop import EXTERNAL_AGENT, Hooks, TaskRef
from scoregate.schemas.result import ScoreResult
from scoregate.storage import repository as repo

log = logging.getLogger(__name__)

#: Hook roles (kind ``hook``); ``agent`` and ``research`` are of kind ``agent``.
HOOK_ROLES: tuple[str, ...] = ("on_pass", "on_loop_exit")


def check_queue(ref: TaskRef | None, role: str) -> None:
    """Refuse a hook or agent routed to a scoregate pool queue (at submit)."""
    if ref is None or ref.queue is None or ref.queue not in POOLS:
        return
    default = "SCOREGATE_HOOKS_QUEUE" if role in HOOK_ROLES else "SCOREGATE_AGENT_QUEUE"
    raise ValueError(
        f"{role} task {ref.task!r} is routed to queue {ref.queue!r}, a scoregate pool queue"
        f" whose workers would discard it: name a queue your own workers consume, or leave"
        f" the queue out to use {default}"
    )


def queue_for(settings: Settings, ref: TaskRef, role: str) -> str:
    """The queue a hook or agent task is published to."""
    default = settings.hooks_queue if role in HOOK_ROLES else settings.agent_queue
    if ref.queue is None:
        return default
    if ref.queue in POOLS:  # a job stored before submit refused these
        log.warning(
            "%s %s: queue %r is a scoregate pool; using %r",
            role,
            ref.task,
            ref.queue,
            default,
        )
        return default
    return ref.queue


def new_task_id() -> str:
    return str(uuid.uuid4())


def hook(
    s: Session,
    settings: Settings,
    *,
    job_id: str,
    n: int,
    role: str,
    ref: TaskRef | None,
    kwargs: dict[str, Any],
) -> list[Message]:
    """The hook's message (none when the job has no such hook), recorded as a dispatch."""
    if ref is None:
        return []
    queue, task_id = queue_for(settings, ref, role), new_task_id()
    repo.record_dispatch(
        s,
        job_id=job_id,
        n=n,
        kind="hook",
        role=role,
        task=ref.task,
        queue=queue,
        celery_task_id=task_id,
        kwargs=kwargs,
    )
    return [Message(ref.task, kwargs, queue, task_id=task_id)]


def loop_exit(s: Session, settings: Settings, *, job: Any, n: int, reason: str) -> list[Message]:
    """The ``on_loop_exit`` hook's message (none without one): the job, iteration ``n``
    (the last scored one) with its score, band and recommended action, and ``reason``
    (one of :data:`scoregate.pipelines.loop.EXIT_REASONS`)."""
    it = repo.get_iteration(s, job_id=job.id, n=n) if n else None
    kwargs = {
        "job_id": job.id,
        "iteration": n,
        "score": it.score if it is not None else None,
        "band": it.band if it is not None else None,
        "action": it.action if it is not None else None,
        "reason": reason,
    }
    ref = Hooks.model_validate(job.hooks or {}).on_loop_exit
    return hook(s, settings, job_id=job.id, n=n, role="on_loop_exit", ref=ref, kwargs=kwargs)


def agent_request(
    s: Session,
    settings: Settings,
    *,
    job: Any,
    n: int,
    result: ScoreResult,
    ref: TaskRef,
    role: str = "agent",
    content: str | None = None,
) -> list[Message]:
    """Re-run the agent (or the research task) with feedback; its output becomes n + 1.

    ``content`` is iteration ``n``'s output; without it, it is read from ``job.iterations``.
    An external agent (:data:`~scoregate.schemas.loop.EXTERNAL_AGENT`) is sent nothing: the
    request is recorded as published, and the agent reads it from the job.
    """
    kwargs = {
        "job_id": job.id,
        "iteration": n + 1,
        "query": job.request["query"],
        "previous_content": result_content(job, n) if content is None else content,
        "feedback": feedback(result, n),
    }
    ref_kwargs = {"job_id": job.id, "iteration": n + 1}
    external = ref.external and role == "agent"
    queue = EXTERNAL_AGENT if external else queue_for(settings, ref, role)
    task_id = new_task_id()
    repo.record_dispatch(
        s,
        job_id=job.id,
        n=n + 1,
        kind="agent",
        role=role,
        task=ref.task,
        queue=queue,
        celery_task_id=task_id,
    )
    if external:
        repo.mark_published(s, celery_task_ids=[task_id])
        return []
    return [
        Message(
            ref.task,
            kwargs,
            queue,
            link=Message(names.AGENT_RESULT, ref_kwargs, "control"),
            link_error=Message(names.AGENT_ERROR, ref_kwargs, "control"),
            task_id=task_id,
        )
    ]


def result_content(job: Any, n: int) -> str:
    for it in job.iterations:
        if it.n == n:
            return str(it.content)
    return ""
