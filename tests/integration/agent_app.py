"""Tasks of a pretend orchestrator, run by the integration tests' worker on queue ``agents``.

The agent answers from drafts keyed by query; hooks record what they receive in Redis.
"""

from __future__ import annotations

import json
import os
from typing import Any

import redis

from scoregate.workers.app import app

DRAFTS: dict[str, list[str]] = {}


def _redis() -> redis.Redis:
    return redis.Redis.from_url(os.environ["SCOREGATE_BROKER_URL"])


def _record(kind: str, job_id: str, payload: dict[str, Any]) -> None:
    _redis().rpush(f"testhooks:{job_id}", json.dumps({"kind": kind, **payload}, default=str))


@app.task(name="testagent.write")
def write(
    job_id: str, iteration: int, query: str, previous_content: str, feedback: dict[str, Any]
) -> str:
    """Return the draft for this iteration, stored by the test under ``testagent:{query}``."""
    _record("agent", job_id, {"iteration": iteration, "feedback": feedback})
    drafts = json.loads(_redis().get(f"testagent:{query}") or "[]")
    return str(drafts[min(iteration - 1, len(drafts) - 1)]) if drafts else previous_content


@app.task(name="testagent.on_pass")
def on_pass(**kwargs: Any) -> None:
    _record("on_pass", kwargs["job_id"], {"score": kwargs.get("score")})


@app.task(name="testagent.on_loop_exit")
def on_loop_exit(**kwargs: Any) -> None:
    _record("on_loop_exit", kwargs["job_id"], {"reason": kwargs.get("reason")})


@app.task(name="testagent.fail")
def fail(job_id: str, iteration: int, **_: Any) -> str:
    """An agent that always raises, as a buggy one does."""
    _record("agent", job_id, {"iteration": iteration})
    raise ValueError(f"no draft for iteration {iteration}")
