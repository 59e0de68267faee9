"""Prometheus metrics of the pipeline: what was scored, how fast, and what was decided.

The pipeline steps call the ``record_*`` functions; they never raise, because a
metrics problem must not fail a score. The metrics are made on first use, not at
import, and ``prometheus_client`` is imported then too: its multiprocess mode is
chosen from ``PROMETHEUS_MULTIPROC_DIR`` when it is first imported, which a
Celery worker sets before it forks its children (``scoregate.workers.telemetry``).

Every name, with what it means, is listed in ``docs/operations.md``.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

    from scoregate.schemas.result import ScoreResult, TrackScore

log = logging.getLogger(__name__)

#: Fused scores, in steps of 0.05.
SCORE_BUCKETS = tuple(round(0.05 * i, 2) for i in range(1, 21))
#: Seconds, from a cached embedding lookup to a slow model batch.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
#: Seconds a message waited on its queue before a worker started it.
WAIT_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0)
ITERATION_BUCKETS = (1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 50)
#: The longest reason label of a failed track (an exception's class name).
REASON_CHARS = 60
#: Decisions after which the controller is done with a job.
TERMINAL_DECISIONS = frozenset({"accept", "complete", "exit"})


@dataclass(frozen=True)
class Metrics:
    """The pipeline's metrics, registered on one registry."""

    scores: Counter
    score: Histogram
    components: Gauge
    track_latency: Histogram
    queue_wait: Histogram
    iterations: Histogram
    loop_exits: Counter
    decisions: Counter
    track_failures: Counter
    stuck_iterations: Gauge
    cache_hits: Counter


def build_metrics(registry: CollectorRegistry | None = None) -> Metrics:
    """Create the metrics on ``registry`` (default: prometheus_client's global registry)."""
    from prometheus_client import REGISTRY, Counter, Gauge, Histogram

    reg = REGISTRY if registry is None else registry
    return Metrics(
        scores=Counter("scoregate_scores", "Fused scores, by band.", ["band"], registry=reg),
        score=Histogram(
            "scoregate_score", "Fused score in [0, 1].", buckets=SCORE_BUCKETS, registry=reg
        ),
        components=Gauge(
            "scoregate_component_score",
            "Latest score of each component (track, heuristic factor, evidence component).",
            ["component"],
            multiprocess_mode="mostrecent",
            registry=reg,
        ),
        track_latency=Histogram(
            "scoregate_track_latency_seconds",
            "Time a track took to score one output.",
            ["track"],
            buckets=LATENCY_BUCKETS,
            registry=reg,
        ),
        queue_wait=Histogram(
            "scoregate_queue_wait_seconds",
            "Time between publishing a task and a worker starting it.",
            ["queue"],
            buckets=WAIT_BUCKETS,
            registry=reg,
        ),
        iterations=Histogram(
            "scoregate_iterations_per_job",
            "Iterations a job took when the loop controller finished with it.",
            buckets=ITERATION_BUCKETS,
            registry=reg,
        ),
        loop_exits=Counter(
            "scoregate_loop_exits",
            "Loops that ended without approval, by reason.",
            ["reason"],
            registry=reg,
        ),
        decisions=Counter(
            "scoregate_decisions",
            "Loop controller decisions, by action.",
            ["action"],
            registry=reg,
        ),
        track_failures=Counter(
            "scoregate_track_failures",
            "Tracks a fused score went without, by track and reason (the error's type).",
            ["track", "reason"],
            registry=reg,
        ),
        stuck_iterations=Gauge(
            "scoregate_stuck_iterations",
            "Iterations waiting on a track or on fusion for longer than SCOREGATE_STUCK_AFTER_S"
            " (set by the sweeper).",
            multiprocess_mode="mostrecent",
            registry=reg,
        ),
        cache_hits=Counter(
            "scoregate_track_cache_hits",
            "Track scores read from the pair cache instead of scored, by track.",
            ["track"],
            registry=reg,
        ),
    )


_default: Metrics | None = None
_lock = threading.Lock()


def metrics() -> Metrics:
    """This process's metrics on the global registry, made on first use."""
    global _default
    with _lock:
        if _default is None:
            _default = build_metrics()
        return _default


def record_fused(result: ScoreResult, into: Metrics | None = None) -> None:
    """Count a fused score by band; observe the score, its components and track latencies;
    count each track it went without."""
    try:
        m = into or metrics()
        m.scores.labels(band=result.band).inc()
        m.score.observe(result.score)
        for component, value in result.components.items():
            m.components.labels(component=component).set(value)
        for name, track in result.tracks.items():
            # a track that ran, 0 ms too (skipping those left the reward track mostly
            # unobserved); a failed one only when it took time
            if track.status == "ok" or track.elapsed_ms > 0:
                m.track_latency.labels(track=name).observe(max(0.0, track.elapsed_ms) / 1000.0)
            if track.status != "ok":
                m.track_failures.labels(track=name, reason=failure_reason(track)).inc()
    except Exception:  # see the module docstring: never fail a score over metrics
        log.warning("could not record the metrics of a fused score", exc_info=True)


def failure_reason(track: TrackScore) -> str:
    """A failed track's reason label: the error's type (``ValueError``,
    ``SoftTimeLimitExceeded``), else its status (``timeout``, ``failed``)."""
    head, colon, _ = (track.error or "").partition(":")
    named = colon and head.isidentifier() and head[0].isupper()
    return head[:REASON_CHARS] if named else track.status


def record_decision(
    action: str, exit_reason: str | None, iteration: int, into: Metrics | None = None
) -> None:
    """Count a controller decision; on a terminal one, observe the job's iteration count."""
    try:
        m = into or metrics()
        m.decisions.labels(action=action).inc()
        if exit_reason:
            m.loop_exits.labels(reason=exit_reason).inc()
        if action in TERMINAL_DECISIONS:
            m.iterations.observe(iteration)
    except Exception:  # see the module docstring
        log.warning("could not record the metrics of a decision", exc_info=True)


def record_stuck_iterations(count: int, into: Metrics | None = None) -> None:
    """Set how many iterations the sweeper found waiting on a track or on fusion."""
    try:
        m = into or metrics()
        m.stuck_iterations.set(count)
    except Exception:  # see the module docstring
        log.warning("could not record the stuck iterations", exc_info=True)


def record_cache_hit(track: str, into: Metrics | None = None) -> None:
    """Count a track score read from the pair cache."""
    try:
        m = into or metrics()
        m.cache_hits.labels(track=track).inc()
    except Exception:  # see the module docstring
        log.warning("could not record a cache hit", exc_info=True)


def record_queue_wait(queue: str, seconds: float, into: Metrics | None = None) -> None:
    """Observe how long a message waited on ``queue`` (negative clock skew counts as 0)."""
    try:
        m = into or metrics()
        m.queue_wait.labels(queue=queue).observe(max(0.0, seconds))
    except Exception:  # see the module docstring
        log.warning("could not record a queue wait", exc_info=True)
