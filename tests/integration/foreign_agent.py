"""An orchestrator's own Celery app, knowing nothing of scoregate: its agent task raises.

Run by ``tests/integration/test_control_edges.py`` as
``celery -A tests.integration.foreign_agent worker -Q orchestrator``. It keeps results
(and so the exception) in the Redis result backend that scoregate is pointed at too.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery

app = Celery(
    "orchestrator",
    broker=os.environ["SCOREGATE_BROKER_URL"],
    backend=os.environ["SCOREGATE_RESULT_BACKEND"],
)
app.conf.update(
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    result_accept_content=["json"],
    worker_hijack_root_logger=False,
)


@app.task(name="orchestrator.write")
def write(job_id: str, iteration: int, **_: Any) -> str:
    raise LookupError(f"the orchestrator lost the context of job {job_id}")
