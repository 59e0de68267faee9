"""The precision pool: micro-batched model scoring of (query, content) pairs."""

from __future__ import annotations

from typing import Any

from scoregate.workers.app import app
from scoregate.workers.base import batch_options
from scoregate.workers.batch_runner import run_batch
from scoregate.workers.batching import ReliableBatches
from scoregate.workers.models import score_pool
from scoregate.workers.runtime import get_context

FIELDS = ("job_id", "n", "query", "content")


def _score(items: list[dict[str, Any]]) -> None:
    score_pool(get_context(), "precision", items)


@app.task(name="scoregate.precision.score", base=ReliableBatches, bind=True, **batch_options())
def score(self: ReliableBatches, requests: list[Any]) -> dict[str, Any]:
    """Score every pair of the batch in one forward pass; store; publish completed joins."""
    return run_batch(self, requests, FIELDS, _score)
