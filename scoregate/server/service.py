"""What the HTTP API does, over one ``PipelineContext``: the same steps as the Python API.

With a broker the context publishes to Celery; embedded, an in-process dispatcher runs
each job to its next wait before the call returns (one call at a time: the inline
dispatcher is not thread-safe).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from sqlalchemy import select, text

from scoregate.pipelines import control, steps
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import InlineDispatcher
from scoregate.pipelines.review import NoResearchTask, ResearchQuotaExceeded
from scoregate.pipelines.validation import check_text
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.engine import ModelProvider, default_models
from scoregate.scoring.engine import score as run_score
from scoregate.storage import repository as repo
from scoregate.storage.paging import count_waiting, page_jobs, waiting_for_review
from scoregate.storage.tables import Job


class NotFoundError(LookupError):
    """No such job."""


class ConflictError(ValueError):
    """The job is not in a state that allows the action (e.g. nothing waits for review)."""


class ApiService:
    """Submit, read, list, review and score, for the routes and the review pages."""

    def __init__(
        self,
        ctx: PipelineContext,
        inline: InlineDispatcher | None = None,
        models: ModelProvider | None = None,
    ) -> None:
        self.ctx = ctx
        self.inline = inline
        self._models = models
        self._lock: threading.Lock | None = threading.Lock() if inline is not None else None

    @property
    def mode(self) -> str:
        return "embedded" if self.inline is not None else "celery"

    @contextmanager
    def _serial(self) -> Iterator[None]:
        with self._lock if self._lock is not None else nullcontext():
            yield
            if self.inline is not None:
                self.inline.drain()

    def models(self) -> ModelProvider:
        if self._models is None:
            has = self.ctx.models_factory is not None
            self._models = self.ctx.models if has else default_models(self.ctx.config)
        return self._models

    def score(self, request: ScoreRequest) -> ScoreResult:
        """Score one request in this process, synchronously; nothing is stored."""
        return run_score(request, config=self.ctx.config, models=self.models())

    def submit(self, body: dict[str, Any]) -> tuple[str, str, bool]:
        """Record and start one job; returns its id, status and whether it was a replay.

        A replay is what the database says: of concurrent calls with one idempotency key,
        the one whose insert created the job is not a replay, every other one is.
        """
        spec = steps.build_spec(self.ctx, body)
        with self._serial():
            try:
                ((job_id, created),) = steps.submit_specs(self.ctx, [spec])
            except steps.IdempotencyConflict as exc:
                raise ConflictError(str(exc)) from exc
        return job_id, self.status_of(job_id), not created

    def status_of(self, job_id: str) -> str:
        with self.ctx.session() as s:
            status = (
                None if "\x00" in job_id else s.scalar(select(Job.status).where(Job.id == job_id))
            )
        if status is None:
            raise NotFoundError(f"no job {job_id!r}")
        return status

    def resolve(self, ref: str) -> str:
        """The full id of the job ``ref`` names, as the CLI and Python API read it: its id,
        its idempotency key, or the start of its id (six hex digits or more).

        Raises:
            NotFoundError: no job has that id, key or id start.
            ConflictError: the start of an id names more than one job.
        """
        with self.ctx.session() as s:
            try:
                found = repo.resolve_job_id(s, ref)
            except LookupError as exc:
                raise ConflictError(str(exc)) from exc
        if found is None:
            raise NotFoundError(f"no job {ref!r}: check the id (GET /v1/jobs lists them)")
        return found

    def job(self, job_id: str, *, include_content: bool = False) -> dict[str, Any]:
        """The job with every iteration's breakdown, the audit trail and escalations."""
        job_id = self.resolve(job_id)
        with self.ctx.session() as s:
            job = repo.get_job(s, job_id=job_id)
            if job is None:
                raise NotFoundError(f"no job {job_id!r}: check the id (GET /v1/jobs lists them)")
            return repo.job_to_dict(job, include_content=include_content)

    def page(
        self, *, status: str | None, limit: int, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        with self.ctx.session() as s:
            jobs, next_cursor = page_jobs(s, status=status, limit=limit, cursor=cursor)
            scores = repo.shown_scores(s, jobs)
            rows = [repo.job_to_dict(j, detail=False) for j in jobs]
            for row in rows:
                row["score"], row["band"] = scores[row["id"]]
            return rows, next_cursor

    def review(self, job_id: str, verdict: str, actor: str, note: str | None) -> str:
        """Apply a verdict exactly as ``scoregate review`` does; returns the new status."""
        job_id = self.resolve(job_id)  # 404 before 409
        with self.ctx.session() as s:
            if repo.open_escalation_for(s, job_id=job_id) is None:
                job = repo.get_job(s, job_id=job_id)
                status = job.status if job is not None else "gone"
                raise ConflictError(
                    f"job {job_id} is {status}: nothing is waiting for review,"
                    " so there is nothing to approve or reject"
                )
        for where, value in (("reviewer", actor), ("note", note or "")):
            check_text(value, where)  # a bad text is the caller's to fix (422), not a conflict
        with self._serial():
            try:
                control.review(self.ctx, job_id, verdict, actor, note)
            except (NoResearchTask, ResearchQuotaExceeded):
                raise  # ValueErrors the route answers with 422 and 429
            except ValueError as exc:
                # The job exists and had an open review a moment ago: another verdict won.
                raise ConflictError(str(exc)) from exc
        return self.status_of(job_id)

    def queue_count(self, kind: str | None = None) -> int:
        """How many jobs wait for a human (of one kind: ``review`` or ``escalation``), all of
        them (the queue page shows a page)."""
        with self.ctx.session() as s:
            return count_waiting(s, kind=kind)

    def queue(
        self, limit: int = 100, offset: int = 0, kind: str | None = None
    ) -> list[dict[str, Any]]:
        """The jobs waiting for a human, longest waiting first, from ``offset`` on (of one
        kind, when given)."""
        with self.ctx.session() as s:
            return [
                {
                    **repo.job_to_dict(job, detail=False),
                    "waiting_since": esc.created_at.isoformat(),
                    "kind": esc.kind,
                    "reason": esc.reason,
                    "n": esc.n,
                }
                for job, esc in waiting_for_review(s, limit=limit, offset=offset, kind=kind)
            ]

    def database_ok(self) -> bool:
        try:
            with self.ctx.session() as s:
                s.execute(text("SELECT 1"))
        except Exception:  # any failure means: not healthy
            return False
        return True
