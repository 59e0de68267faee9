"""Cancelling a job: any job not final yet, whatever it waits for (an agent that never
answers included). Recorded in the audit trail; nothing acts on the job afterwards, and
its ``on_loop_exit`` hook is told (``reason="cancelled"``)."""

from __future__ import annotations

from scoregate.pipelines import outbound
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.loop import CANCELLED
from scoregate.pipelines.publish import publish
from scoregate.pipelines.validation import check_name, check_text
from scoregate.storage import repository as repo
from scoregate.storage.tables import JOB_STATUSES, TERMINAL_JOB_STATUSES

#: Statuses a job can be cancelled from.
CANCELLABLE: tuple[str, ...] = tuple(s for s in JOB_STATUSES if s not in TERMINAL_JOB_STATUSES)


class JobFinal(ValueError):
    """The job is final already: nothing is left to cancel."""

    def __init__(self, job_id: str, status: str) -> None:
        self.job_id = job_id
        self.status = status
        super().__init__(
            f"job {job_id} is {status}: only a job not final yet can be cancelled, and"
            f" {status} is final"
        )


def cancel(ctx: PipelineContext, job_id: str, actor: str, note: str | None = None) -> str:
    """Cancel the job; returns the status it was cancelled from.

    Raises:
        LookupError: no such job.
        JobFinal: the job is final already (accepted, completed, rejected, failed,
            cancelled).
        ValueError: ``actor`` or ``note`` is a text that cannot be stored.
    """
    check_name(actor, "actor")
    check_text(note or "", "note")
    with ctx.session() as s:
        job = repo.get_jobs(s, job_ids=[job_id]).get(job_id)
        if job is None:
            raise LookupError(f"no job {job_id!r}")
        n = job.current_iteration
        # The iteration first, then the job: the order a decision locks them in (no
        # deadlock). Retired, no fusion or decision acts on it, nor does the sweeper.
        repo.set_iteration_status(
            s, job_id=job_id, n=n, status="failed", expect=("scoring", "fused", "stuck")
        )
        repo.lock_job(s, job_id=job_id)
        job = repo.get_jobs(s, job_ids=[job_id])[job_id]
        was = job.status
        if not repo.set_job_status(s, job_id=job_id, status="cancelled", expect=CANCELLABLE):
            raise JobFinal(job_id, was)
        repo.resolve_escalation(s, job_id=job_id, status="cancelled", actor=actor, note=note)
        repo.append_decision(
            s,
            job_id=job_id,
            n=n,
            action="cancel",
            rationale=note or f"cancelled by {actor} (was {was})",
            actor=actor,
            details={"previous_status": was},
        )
        # The orchestrator waiting on this job hears that it ended, as for any loop exit.
        out = outbound.loop_exit(s, ctx.settings, job=job, n=n, reason=CANCELLED)
    publish(ctx, out)
    return was
