"""scoregate: score AI agents' output against the query and gate their workflow."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoregate._version import __version__
from scoregate.pipelines import broker

if TYPE_CHECKING:
    from scoregate.pipelines.context import PipelineContext
    from scoregate.schemas import ScoreRequest, ScoreResult

__all__ = [
    "__version__",
    "agent_error",
    "agent_result",
    "cancel",
    "get_job",
    "list_jobs",
    "review",
    "score",
    "submit",
    "submit_many",
    "wait_job",
]


def score(request: ScoreRequest | dict[str, Any]) -> ScoreResult:
    """Score one agent output in process: every applicable track, fused."""
    from scoregate.config.settings import get_scoring_config, get_settings
    from scoregate.scoring.engine import parse_request
    from scoregate.scoring.engine import score as _score
    from scoregate.scoring.fusion import misspelt_metadata

    cfg = get_scoring_config()
    request = parse_request(request)
    typo = misspelt_metadata(request.metadata, cfg)  # "creatve": refused, with what was meant
    if typo is not None:
        raise ValueError(f"invalid request: {typo}")
    return _score(request, config=cfg, backend=get_settings().cpu_backend)


def submit(request: ScoreRequest | dict[str, Any], **kwargs: Any) -> str:
    """Record a job and enqueue its first iteration; returns the job id."""
    from scoregate.pipelines.api import submit as _submit

    return _submit(request, **kwargs)


def submit_many(requests: list[Any], **kwargs: Any) -> list[str]:
    """Record and enqueue many jobs in one call; returns their ids in order."""
    from scoregate.pipelines.api import submit_many as _submit_many

    return _submit_many(requests, **kwargs)


def get_job(job_id: str, include_content: bool = False) -> dict[str, Any]:
    """The job's record: status, every iteration's breakdown and every decision; with
    ``include_content``, each iteration's text too (``iterations[i]["content"]``)."""
    from scoregate.pipelines.api import get_job as _get_job

    return _get_job(job_id, include_content=include_content)


def wait_job(job_id: str, timeout: float = 30.0, **since: Any) -> dict[str, Any]:
    """Wait (up to ``timeout`` s) until the job is final or changes status or iteration
    (``since_status=``, ``since_iteration=``: what you last saw), then return it."""
    from scoregate.pipelines.api import wait_job as _wait_job

    return _wait_job(job_id, timeout, **since)


def list_jobs(
    status: str | None = None, limit: int = 20, *, waiting: bool = False
) -> list[dict[str, Any]]:
    """The newest jobs as summaries (``approved``, ``action``, ``score``...); with
    ``waiting``, the review queue (jobs waiting for a person), longest waiting first."""
    from scoregate.pipelines.api import list_jobs as _list_jobs

    return _list_jobs(status, limit, waiting=waiting)


def cancel(job_id: str, actor: str, note: str | None = None) -> str:
    """Cancel a job not final yet; returns the status it was cancelled from."""
    from scoregate.pipelines.api import cancel as _cancel

    return _cancel(job_id, actor, note)


def review(job_id: str, verdict: str, actor: str, note: str | None = None) -> str:
    """A person's verdict (approve, reject, research, cancel) on a job waiting for one;
    returns the job's new status."""
    from scoregate.pipelines.api import review as _review

    return _review(job_id, verdict, actor, note)


def agent_result(job_id: str, iteration: int, output: Any) -> str:
    """An external agent's answer for ``iteration``; returns taken, duplicate, refused or
    rejected (recorded as an agent failure)."""
    from scoregate.pipelines.api import agent_result as _agent_result

    return _agent_result(job_id, iteration, output)


def agent_error(job_id: str, iteration: int, **report: Any) -> str:
    """An external agent failed ``iteration`` (``error_type``, ``message``, ``task_id``);
    returns retried, escalated, failed, ignored or duplicate."""
    from scoregate.pipelines.api import agent_error as _agent_error

    return _agent_error(job_id, iteration, **report)


def _worker_context() -> PipelineContext:
    """With a broker, a client publishes through the workers' Celery app and context."""
    from scoregate.workers.runtime import get_context

    return get_context()


# The composition root: pipelines/ reaches the broker through this slot, never by
# importing workers/ (see scoregate.pipelines.broker and docs/architecture.md).
broker.use(_worker_context)
