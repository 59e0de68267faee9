"""What the HTTP API does, over one ``PipelineContext``: the same steps as the Python API.

With a broker the context publishes to Celery; embedded, an in-process dispatcher runs
each job to its next wait before the call returns (one call at a time: the inline
dispatcher is not thread-safe).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select, text

from scoregate.pipelines import agent_errors, control, steps
from scoregate.pipelines.api import job_view
from scoregate.pipelines.cancel import JobFinal
from scoregate.pipelines.cancel import cancel as run_cancel
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import Dispatcher, InlineDispatcher, Message
from scoregate.pipelines.publish import deferred_so_far
from scoregate.pipelines.review import NoResearchTask, ResearchQuotaExceeded
from scoregate.pipelines.validation import check_name, check_text, check_tree
from scoregate.schemas.loop import AgentOutput, unsent_hooks
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult
from scoregate.scoring.engine import ModelProvider, default_models
from scoregate.scoring.engine import score as run_score
from scoregate.server.bodies import rfc3339
from scoregate.storage import repository as repo
from scoregate.storage.paging import count_waiting, page_jobs, waiting_for_review
from scoregate.storage.recovery import position
from scoregate.storage.tables import TERMINAL_JOB_STATUSES, Job
from scoregate.telemetry import prometheus

#: The audit trail's human verdicts (``decided`` of a refused verdict names the last).
_VERDICTS = ("approve", "reject", "research", "cancel")


def _shown(ref: str, limit: int = 80) -> str:
    """A job reference as an answer quotes it: at most ``limit`` characters of it."""
    return repr(ref) if len(ref) <= limit else f"{ref[:limit]!r}... ({len(ref)} characters)"


class NotFoundError(LookupError):
    """No such job."""


class ConflictError(ValueError):
    """The job is not in a state that allows the action (e.g. nothing waits for review);
    ``kind`` names the problem (a key of ``problems.PROBLEM_TYPES``)."""

    def __init__(self, message: str, kind: str = "conflict", **extra: Any) -> None:
        super().__init__(message)
        self.kind = kind
        #: More members of the problem document (``decided``: who decided, when, what).
        self.extra = extra


class AgentAnswerRefused(ValueError):
    """The agent's answer cannot be scored (not text, too long...): recorded on the job as
    an agent failure, as the same answer through Celery is. ``field`` is the part of the
    answer at fault, a dotted path in it (``eval_metrics.0.value``; "": the answer)."""

    def __init__(self, message: str, field: str = "", at: tuple[str, int] = ("", 0)) -> None:
        super().__init__(message)
        self.field = field
        #: The job's status and current iteration once the failure was recorded.
        self.status, self.current_iteration = at


@dataclasses.dataclass
class Sent:
    """The messages a call's steps gave the broker (:func:`counting_sent`), and the
    deferred count when it began (:func:`~scoregate.pipelines.publish.deferred_so_far`)."""

    taken: int = 0
    deferred_before: int = 0

    @property
    def published(self) -> str:
        """``deferred`` when the broker did not take a message of this call (the sweeper
        sends it), else ``queued`` when it took some, else ``none``."""
        if deferred_so_far() > self.deferred_before:
            return "deferred"
        return "queued" if self.taken else "none"


_sent: ContextVar[Sent | None] = ContextVar("scoregate_api_sent", default=None)


@contextmanager
def counting_sent() -> Iterator[Sent]:
    """Count the messages the service's steps publish in this context (and the threads it
    hands work to with a copy of it, as ``run_in_threadpool`` does)."""
    seen = Sent(deferred_before=deferred_so_far())
    token = _sent.set(seen)
    try:
        yield seen
    finally:
        _sent.reset(token)


class CountingDispatcher:
    """A dispatcher that counts what it sends for :func:`counting_sent`; everything else
    (a Celery dispatcher's ``app``, ``backlog``) is the wrapped one's."""

    def __init__(self, inner: Dispatcher) -> None:
        self.inner = inner

    def send(self, message: Message) -> None:
        self.send_many([message])

    def send_many(self, messages: Sequence[Message]) -> None:
        self.inner.send_many(messages)  # a PublishError: not sent, counted as deferred
        seen = _sent.get()
        if seen is not None:
            seen.taken += len(messages)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _hint(job_id: str, at: tuple[str, int]) -> str:
    if at[0] in TERMINAL_JOB_STATUSES:
        return ", which is final"
    return f"; GET /v1/jobs/{job_id} shows what it waits for"


def _fault_in(output: Any) -> str:
    """Where the agent step's checks (``check_tree``, ``AgentOutput``, the next request's
    fields) find fault with ``output``: a dotted path in it, "" for the answer itself."""
    try:
        check_tree(output, "")
    except ValueError as exc:  # "<where>: ..." or "<where> (a key): ..."
        return str(exc).split(": ", 1)[0].removesuffix(" (a key)").lstrip(".")
    if not isinstance(output, dict):
        return ""
    try:
        fields = AgentOutput.model_validate(output).model_dump(exclude_none=True)
        ScoreRequest.model_validate({**fields, "query": "?"})
    except ValidationError as exc:
        for error in exc.errors():
            if error["loc"] and error["loc"][0] in (*AgentOutput.model_fields, *output):
                return ".".join(str(part) for part in error["loc"])
    return ""


class ApiService:
    """Submit, read, list, review and score, for the routes and the review pages."""

    def __init__(
        self,
        ctx: PipelineContext,
        inline: InlineDispatcher | None = None,
        models: ModelProvider | None = None,
    ) -> None:
        # the steps publish through a counting dispatcher, so that a call can say what it
        # published; the models stay those of ``ctx`` (loaded once, shared with its worker)
        shared = None if ctx.models_factory is None else (lambda: ctx.models)
        self.ctx = dataclasses.replace(
            ctx, dispatcher=CountingDispatcher(ctx.dispatcher), models_factory=shared
        )
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

    def score(self, request: ScoreRequest, stop: threading.Event | None = None) -> ScoreResult:
        """Score one request in this process, synchronously; nothing is stored.

        Raises:
            ScoreAbandoned: ``stop`` was set (the caller has gone) before a model track or
                while one ran (the loaded models stop before their next batch or layer).
        """
        from scoregate.scoring.fusion import misspelt_metadata

        typo = misspelt_metadata(request.metadata, self.ctx.config)  # "creatve": refused
        if typo is not None:
            raise ValueError(f"invalid request: {typo}")
        should_stop = None if stop is None else stop.is_set
        result = run_score(
            request, config=self.ctx.config, models=self.models(), should_stop=should_stop
        )
        # counted as a fused score of a job is (scoregate_scores_total by band, the score
        # histogram...): the dashboards and the RED-share alert read this process's too
        prometheus.record_fused(result)
        return result

    def submit(self, body: dict[str, Any]) -> tuple[str, str, bool, list[str]]:
        """Record and start one job; returns its id, status, whether it was a replay, and
        warnings (hooks the job will not send: :func:`~scoregate.schemas.loop.unsent_hooks`).

        A replay is what the database says: of concurrent calls with one idempotency key,
        the one whose insert created the job is not a replay, every other one is.
        """
        spec = steps.build_spec(self.ctx, body)
        with self._serial():
            try:
                ((job_id, created),) = steps.submit_specs(self.ctx, [spec])
            except steps.IdempotencyConflict as exc:
                raise ConflictError(str(exc), "idempotency-conflict") from exc
        warnings = unsent_hooks(spec.policy, spec.hooks)
        return job_id, self.status_of(job_id), not created, warnings

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
        its idempotency key, or the start of its id (six hex digits or more); a UUID in
        upper case names the job as in lower case.

        Raises:
            NotFoundError: no job has that id, key or id start.
            ConflictError: the start of an id names more than one job.
        """
        with self.ctx.session() as s:
            try:
                # an id (or id start) in upper case names the job; a key is not folded
                found = repo.resolve_job_id(s, ref)
            except LookupError as exc:
                raise ConflictError(str(exc), "ambiguous-id") from exc
        if found is None:
            raise NotFoundError(f"no job {_shown(ref)}: check the id (GET /v1/jobs lists them)")
        return found

    def job(self, job_id: str, *, include_content: bool = False) -> dict[str, Any]:
        """The job with every iteration's breakdown, the audit trail and escalations.

        With ``include_content`` each iteration carries its ``content`` once: its
        ``request`` copy leaves the text out.
        """
        job_id = self.resolve(job_id)
        with self.ctx.session() as s:
            job = repo.get_job(s, job_id=job_id)
            if job is None:
                raise NotFoundError(
                    f"no job {_shown(job_id)}: check the id (GET /v1/jobs lists them)"
                )
            return job_view(job, include_content=include_content)

    def state(self, job_id: str) -> dict[str, Any]:
        """The light form of a job, for polling: status, iteration, verdict (no text)."""
        job_id = self.resolve(job_id)
        columns = (Job.status, Job.current_iteration, Job.updated_at)
        with self.ctx.session() as s:
            row = s.execute(
                select(*columns, Job.final_result, Job.failure_reason).where(Job.id == job_id)
            ).one_or_none()
            people = repo.reviewers(s, job_ids=[job_id])
        if row is None:
            raise NotFoundError(f"no job {_shown(job_id)}: check the id (GET /v1/jobs lists them)")
        status, current, updated_at, final, failure_reason = row
        final = repo.shown_final(status, final)
        return {
            "id": job_id,
            "status": status,
            "current_iteration": current,
            "updated_at": updated_at.isoformat(),
            "action": final.get("action") if final else None,
            "approved": repo.is_approved(status, final),
            "reviewed_by": people.get(job_id),
            "final_result": final,
            "failure_reason": failure_reason,
        }

    def position_of(self, job_id: str) -> tuple[str, int] | None:
        """The job's status and current iteration (one small query), or None if gone."""
        with self.ctx.session() as s:
            row = s.execute(
                select(Job.status, Job.current_iteration).where(Job.id == job_id)
            ).one_or_none()
        return None if row is None else (str(row[0]), int(row[1]))

    def page(
        self, *, statuses: Sequence[str] = (), limit: int, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """A page of jobs newest first, with any of ``statuses`` (all jobs when empty)."""
        with self.ctx.session() as s:
            jobs, next_cursor = page_jobs(s, status=statuses, limit=limit, cursor=cursor)
            scores = repo.shown_scores(s, jobs)
            people = repo.reviewers(s, job_ids=[j.id for j in jobs])
            rows = [repo.job_to_dict(j, detail=False) for j in jobs]
            for row in rows:
                row["score"], row["band"] = scores[row["id"]]
                final = repo.shown_final(row["status"], row["final_result"])
                row["action"] = final.get("action") if final else None
                row["approved"] = repo.is_approved(row["status"], final)
                row["reviewed_by"] = people.get(row["id"])
            return rows, next_cursor

    def cancel(self, job_id: str, actor: str, note: str | None) -> tuple[str, str]:
        """Cancel a job not final yet, as ``scoregate jobs cancel`` does; returns the status
        it was cancelled from and its status now."""
        job_id = self.resolve(job_id)
        with self._serial():  # embedded: the on_loop_exit hook runs before the answer
            try:
                was = run_cancel(self.ctx, job_id, actor, note)
            except JobFinal as exc:
                raise ConflictError(str(exc), "job-final") from exc
            except LookupError as exc:
                raise NotFoundError(str(exc)) from exc
        return was, self.status_of(job_id)

    def agent_result(self, job_id: str, iteration: int, output: Any) -> dict[str, Any]:
        """Take the agent's answer for ``iteration`` as ``scoregate.control.agent_result``
        does, through the same step: the same checks, a late or wrong-iteration answer
        noted in the audit trail, an answer that cannot be scored counted as an agent
        failure (retried, then escalated or failed). The answer the iteration holds sent
        again (its content) is a replay: outcome ``duplicate``, nothing done.

        Raises:
            ConflictError: the job does not wait for that iteration, or the iteration holds
                another answer (refused and noted).
            AgentAnswerRefused: the answer cannot be scored (recorded as an agent failure).
        """
        job_id = self.resolve(job_id)
        before = self._position(job_id)
        with self._serial():  # the step decides under the job's row lock, and says what
            outcome = control.agent_result(self.ctx, output, job_id, iteration)
        if outcome == "rejected":
            at = self._position(job_id)
            why = (
                "`output` is missing (or null): send the answer as a string, or as an object"
                " {content, eval_metrics, self_reported_confidence}"
                if output is None
                else self._last_agent_error(job_id, iteration)
            )
            raise AgentAnswerRefused(
                f"{why}; recorded as an agent failure: the job is now {position(*at)}",
                _fault_in(output),
                at,
            )
        if outcome != "refused":
            shown = "scoring" if outcome == "taken" else "duplicate"
            return self._reply(job_id, iteration, self._position(job_id), shown)
        why = f"the job is {position(*before)}"
        if before[1] == iteration:  # the step noted it (agent_result_refused)
            why = f"iteration {iteration} holds another answer already; {why}"
        raise ConflictError(
            f"agent answer for iteration {iteration} refused: {why}{_hint(job_id, before)}",
            "not-waiting-for-agent",
        )

    def agent_error(self, job_id: str, report: dict[str, Any]) -> dict[str, Any]:
        """Record that the agent failed, as ``scoregate.control.agent_error`` does (noted,
        the agent asked again, then the job escalated or failed); the outcome is what the
        job did: ``retried``, ``escalated``, ``failed`` or ``duplicate``.

        Raises:
            ValueError: the report is invalid.
            ConflictError: the job does not wait for that iteration (noted, ignored).
        """
        job_id = self.resolve(job_id)
        parsed = agent_errors.parse_report({**report, "job_id": job_id})
        before = self._position(job_id)
        with self._serial():
            outcome = agent_errors.record_agent_error(self.ctx, parsed)
        if outcome in (None, "ignored"):
            raise ConflictError(
                f"agent error for iteration {parsed.iteration} noted but ignored: the job is"
                f" {position(*before)}{_hint(job_id, before)}",
                "not-waiting-for-agent",
            )
        return self._reply(job_id, parsed.iteration, self._position(job_id), str(outcome))

    def _position(self, job_id: str) -> tuple[str, int]:
        at = self.position_of(job_id)
        if at is None:
            raise NotFoundError(f"no job {_shown(job_id)}: check the id (GET /v1/jobs lists them)")
        return at

    def _last_agent_error(self, job_id: str, iteration: int) -> str:
        with self.ctx.session() as s:
            job = repo.get_job(s, job_id=job_id)
            notes = [
                d.rationale
                for d in (job.decisions if job is not None else [])
                if d.action == agent_errors.ACTION and d.n == iteration
            ]
        return notes[-1] if notes else f"agent answer for iteration {iteration} refused"

    @staticmethod
    def _reply(job_id: str, iteration: int, at: tuple[str, int], outcome: str) -> dict[str, Any]:
        status, current = at
        return {
            "id": job_id,
            "iteration": iteration,
            "status": status,
            "current_iteration": current,
            "outcome": outcome,
        }

    def review(
        self,
        job_id: str,
        verdict: str,
        actor: str,
        note: str | None,
        *,
        may_cancel_any: bool = True,
    ) -> str:
        """Apply a verdict exactly as ``scoregate review`` does; returns the new status.

        ``cancel`` also cancels a job that waits for no human (an agent, its scores), as
        ``scoregate jobs cancel`` does, when ``may_cancel_any`` (the caller may cancel any
        job: the ``submit`` scope, as ``POST /v1/jobs/{id}/cancel`` needs).

        Raises:
            PermissionError: a ``cancel`` of a job waiting for no person, without
                ``may_cancel_any``.
        """
        job_id = self.resolve(job_id)  # 404 before 409
        with self.ctx.session() as s:
            waiting = repo.open_escalation_for(s, job_id=job_id) is not None
            job = None if waiting else repo.get_jobs(s, job_ids=[job_id]).get(job_id)
            status = job.status if job is not None else "gone"
        for where, value in (("reviewer", actor), ("note", note or "")):
            check_text(value, where)  # a bad text is the caller's to fix (422), not a conflict
        check_name(actor, "reviewer")
        if not waiting:
            if verdict == "cancel" and status not in TERMINAL_JOB_STATUSES:
                if not may_cancel_any:
                    raise PermissionError(
                        f"job {job_id} is {status}: it waits for no person, and cancelling it"
                        " needs the 'submit' scope, as POST /v1/jobs/{id}/cancel does (a"
                        " review key cancels only a job waiting for a person)"
                    )
                return self.cancel(job_id, actor, note)[1]
            raise self._not_waiting(job_id, status, verdict)
        with self._serial():
            try:
                control.review(self.ctx, job_id, verdict, actor, note)
            except (NoResearchTask, ResearchQuotaExceeded):
                raise  # ValueErrors the route answers with 422 and 429
            except ValueError as exc:
                # The job had an open review a moment ago: another verdict won. Answered as
                # a verdict that came after it would be (one type for one state).
                raise self._not_waiting(job_id, self.status_of(job_id), verdict) from exc
        return self.status_of(job_id)

    def _not_waiting(self, job_id: str, status: str, verdict: str) -> ConflictError:
        """The refusal of a verdict on a job no longer waiting for a person, the same
        whether another verdict won a race or came long before: ``job-final`` for a final
        job, else ``not-reviewable``; ``decided`` says who decided last, when and how."""
        decided = self._last_verdict(job_id)
        by = ""
        if decided is not None:
            by = f" ({decided['verdict']} by {decided['actor']} at {decided['at']})"
        if status in TERMINAL_JOB_STATUSES:
            return ConflictError(
                f"job {job_id} is {status}, which is final{by}: nothing is waiting for review,"
                f" so there is nothing to {verdict}",
                "job-final",
                decided=decided,
            )
        return ConflictError(
            f"job {job_id} is {status}{by}: nothing is waiting for review, so there is"
            f" nothing to {verdict}; to stop the job, cancel it (POST /v1/jobs/{job_id}/cancel)",
            "not-reviewable",
            decided=decided,
        )

    def _last_verdict(self, job_id: str) -> dict[str, Any] | None:
        """The job's latest human verdict (approve, reject, research, cancel) in its audit
        trail: ``verdict``, ``actor``, ``at`` (RFC 3339) and ``rationale`` (the note)."""
        with self.ctx.session() as s:
            job = repo.get_job(s, job_id=job_id)
            rows = [d for d in (job.decisions if job else []) if d.action in _VERDICTS]
            if not rows:
                return None
            last = rows[-1]
            return {
                "verdict": last.action,
                "actor": last.actor,
                "at": rfc3339(last.created_at),
                "rationale": last.rationale,
            }

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
