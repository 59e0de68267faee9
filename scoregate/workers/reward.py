"""The reward pool (CPU only, never imports torch): constraints, heuristics, evidence."""

from __future__ import annotations

from typing import Any

from scoregate.pipelines.steps import score_reward_track
from scoregate.workers.app import app
from scoregate.workers.base import batch_options
from scoregate.workers.batch_runner import run_batch
from scoregate.workers.batching import ReliableBatches
from scoregate.workers.runtime import get_context

FIELDS = ("job_id", "n", "request")


@app.task(name="scoregate.reward.score", base=ReliableBatches, bind=True, **batch_options())
def score(self: ReliableBatches, requests: list[Any]) -> dict[str, Any]:
    """Run the pure tracks of every request in the batch; store them in one transaction."""
    return run_batch(self, requests, FIELDS, lambda items: score_reward_track(get_context(), items))
