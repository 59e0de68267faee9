"""The storage API in one place: plain keyword-only functions over a caller's ``Session``.

Functions flush and never commit: the caller commits once, at the task
boundary (``db.session_scope``). Writes that must happen once under
redelivery or concurrency are single guarded statements (see ``_sql``).
Usage::

    from scoregate.storage import repository as repo

    with session_scope() as session:
        fuse = repo.record_track(session, job_id=job_id, n=n, track="reward", payload=p)
    if fuse:
        fusion_task.delay(job_id, n)
"""

from __future__ import annotations

from scoregate.storage._sql import NotFound
from scoregate.storage.audit import (
    append_decision,
    open_escalation,
    open_escalation_for,
    resolve_escalation,
)
from scoregate.storage.dispatches import (
    count_decisions,
    dispatches_of,
    find_dispatch,
    mark_published,
    record_dispatch,
    unpublished_hooks,
)
from scoregate.storage.iterations import (
    awaiting_track,
    bump_deliveries,
    claim_fusion,
    complete_iteration,
    expected_tracks_of,
    get_iteration,
    get_iterations,
    mark_decided,
    record_track,
    set_iteration_status,
    start_iteration,
    start_iterations,
    stuck_iterations,
    touch_published,
    track_results,
    track_results_of,
)
from scoregate.storage.jobs import (
    create_job,
    create_jobs,
    get_job,
    get_jobs,
    insert_jobs,
    is_approved,
    job_id_for_key,
    job_to_dict,
    list_jobs,
    lock_job,
    resolve_job_id,
    reviewers,
    set_job_status,
    shown_final,
    shown_scores,
)
from scoregate.storage.verdicts import (
    add_verdict,
    latest_calibration_map,
    list_verdicts,
    save_calibration_map,
)

__all__ = [
    "awaiting_track",
    "NotFound",
    "add_verdict",
    "append_decision",
    "bump_deliveries",
    "claim_fusion",
    "complete_iteration",
    "count_decisions",
    "dispatches_of",
    "find_dispatch",
    "mark_published",
    "unpublished_hooks",
    "record_dispatch",
    "expected_tracks_of",
    "create_job",
    "create_jobs",
    "insert_jobs",
    "is_approved",
    "get_iteration",
    "get_iterations",
    "get_job",
    "lock_job",
    "get_jobs",
    "job_id_for_key",
    "resolve_job_id",
    "reviewers",
    "job_to_dict",
    "latest_calibration_map",
    "list_jobs",
    "list_verdicts",
    "mark_decided",
    "open_escalation",
    "open_escalation_for",
    "record_track",
    "resolve_escalation",
    "save_calibration_map",
    "set_iteration_status",
    "set_job_status",
    "shown_final",
    "shown_scores",
    "start_iteration",
    "start_iterations",
    "stuck_iterations",
    "touch_published",
    "track_results",
    "track_results_of",
]
