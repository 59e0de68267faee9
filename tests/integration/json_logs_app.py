"""A worker module for ``test_json_logs``: connects the JSON formatter to Celery's logging
signals (what ``scoregate.workers.app`` is to do) and has one task that logs an error."""

from __future__ import annotations

from celery.utils.log import get_task_logger

from scoregate.logs import install_celery_logging
from scoregate.workers.app import app

install_celery_logging()

log = get_task_logger(__name__)


@app.task(name="logtest.fail_and_log")
def fail_and_log(job_id: str) -> str:
    """Log an exception with its traceback and a job id, then return."""
    try:
        raise ValueError("first line\nsecond line")
    except ValueError:
        log.exception("job %s: could not do it", job_id, extra={"job_id": job_id})
    return "done"
