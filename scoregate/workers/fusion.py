"""The fusion pool: combines iterations' tracks once every expected track has landed.

Micro-batched like the track pools: one flush fuses many iterations in one transaction.
"""

from __future__ import annotations

from typing import Any

from scoregate.pipelines.control import fuse_iterations
from scoregate.workers.app import app
from scoregate.workers.base import batch_options
from scoregate.workers.batch_runner import run_batch
from scoregate.workers.batching import ReliableBatches
from scoregate.workers.runtime import get_context

FIELDS = ("job_id", "n")
#: Accepted and ignored: an older publisher's fuse message may still carry ``forced``
#: (a fusion forced before every track landed, a path nothing takes any more).
OPTIONAL = ("forced",)


def _fuse(items: list[dict[str, Any]]) -> None:
    refs = [(str(i["job_id"]), int(i["n"])) for i in items]
    fuse_iterations(get_context(), refs)


@app.task(name="scoregate.fusion.fuse", base=ReliableBatches, bind=True, **batch_options())
def fuse(self: ReliableBatches, requests: list[Any]) -> dict[str, Any]:
    """Fuse each iteration of the batch (a no-op for one fused already); publish decisions."""
    return run_batch(self, requests, FIELDS, _fuse, optional=OPTIONAL, dedupe=False)
