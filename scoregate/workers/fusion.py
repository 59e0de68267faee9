"""The fusion pool: combines an iteration's tracks once every expected track has landed."""

from __future__ import annotations

from scoregate.pipelines.control import fuse_iteration
from scoregate.pipelines.validation import job_ref
from scoregate.workers.app import app
from scoregate.workers.reliability import ScoregateTask
from scoregate.workers.runtime import get_context


@app.task(name="scoregate.fusion.fuse", base=ScoregateTask)
def fuse(job_id: str, n: int, forced: bool = False) -> None:
    """Fuse iteration ``n`` of ``job_id`` (a no-op if it was fused already)."""
    job, number = job_ref({"job_id": job_id, "n": n})
    fuse_iteration(get_context(), job, number, forced=forced is True)
