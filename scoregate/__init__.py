"""scoregate: score AI agents' output against the query and gate their workflow."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scoregate._version import __version__
from scoregate.pipelines import broker

if TYPE_CHECKING:
    from scoregate.pipelines.context import PipelineContext
    from scoregate.schemas import ScoreRequest, ScoreResult

__all__ = ["__version__", "get_job", "score", "submit", "submit_many"]


def score(request: ScoreRequest | dict[str, Any]) -> ScoreResult:
    """Score one agent output in process: every applicable track, fused."""
    from scoregate.config.settings import get_scoring_config, get_settings
    from scoregate.scoring.engine import score as _score

    return _score(request, config=get_scoring_config(), backend=get_settings().cpu_backend)


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


def _worker_context() -> PipelineContext:
    """With a broker, a client publishes through the workers' Celery app and context."""
    from scoregate.workers.runtime import get_context

    return get_context()


# The composition root: pipelines/ reaches the broker through this slot, never by
# importing workers/ (see scoregate.pipelines.broker and docs/architecture.md).
broker.use(_worker_context)
