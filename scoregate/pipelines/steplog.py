"""One INFO line per pipeline step of a job, for people reading a worker's log.

``scoregate.steps`` logs, for every track scored, every fusion and every decision::

    job 6f1c... iteration 1: semantic score 0.812 (14 ms)
    job 6f1c... iteration 1: fusion score 0.774 band AMBER (2 ms)
    job 6f1c... iteration 1: decide review score 0.774 (3 ms)

Silence it with ``logging.getLogger("scoregate.steps").setLevel(logging.WARNING)``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger("scoregate.steps")


def step(job_id: str, n: int, what: str, score: float | None, ms: float, detail: str = "") -> None:
    """Log one step: ``what`` is the track, ``fusion`` or ``decide <action>``."""
    if not log.isEnabledFor(logging.INFO):
        return
    shown = "-" if score is None else f"{score:.3f}"
    extra = f" {detail}" if detail else ""
    fields = {"job_id": job_id, "iteration": n, "step": what, "score": score, "ms": round(ms)}
    log.info(
        "job %s iteration %d: %s score %s%s (%.0f ms)",
        *(job_id, n, what, shown, extra, ms),
        extra=fields,  # fields of their own in SCOREGATE_LOG_FORMAT=json (scoregate.logs)
    )


@contextmanager
def timed() -> Iterator[list[float]]:
    """Milliseconds spent in the block, in the one-item list it yields (set on exit)."""
    out = [0.0]
    start = time.perf_counter()
    try:
        yield out
    finally:
        out[0] = (time.perf_counter() - start) * 1000
