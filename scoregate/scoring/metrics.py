"""Seed-000 confidence from evaluation metrics: a weighted average, or the raw scores.

A metric with no value yet counts as 0.0, never as an error. Weights come from the
metric itself, or from the workflow YAML (``overlays.confidence_loop.eval_metrics``),
which overrides them by name. A metric the workflow configures but the agent did not
report is missing too: it counts as 0.0 with its configured weight, so leaving out a
metric can never raise the confidence.
"""

from __future__ import annotations

import math
from collections import Counter

from scoregate.schemas.metrics import EvalMetric
from scoregate.schemas.result import TrackScore

__all__ = ["EvalMetric", "compute_confidence", "metrics_track", "raw_scores"]


def _check_unique(metrics: list[EvalMetric]) -> None:
    counts = Counter(m.name for m in metrics)
    dupes = sorted(name for name, n in counts.items() if n > 1)
    if dupes:
        raise ValueError(f"duplicate metric name(s): {', '.join(dupes)}; each name may appear once")


def _check_weights(weights: dict[str, float]) -> None:
    for name, w in weights.items():
        if not math.isfinite(w) or w < 0:
            raise ValueError(
                f"eval_metrics weight for {name!r} must be a finite number >= 0 (got {w!r})"
            )


def _weighted(
    metrics: list[EvalMetric], weights: dict[str, float] | None
) -> list[tuple[str, float, float]]:
    """(name, value or 0.0, effective weight) for every metric, configured ones included."""
    _check_unique(metrics)
    overrides = dict(weights or {})
    _check_weights(overrides)
    rows = [(m.name, m.value or 0.0, overrides.pop(m.name, m.weight)) for m in metrics]
    rows += [(name, 0.0, w) for name, w in sorted(overrides.items())]
    return rows


def compute_confidence(metrics: list[EvalMetric], weights: dict[str, float] | None = None) -> float:
    """Weighted average of the metric values, in [0, 1].

    Args:
        metrics: The agent's metrics; a ``None`` value counts as 0.0.
        weights: Optional per-name weights (workflow YAML) overriding each metric's own.

    Returns:
        ``sum(value * weight) / sum(weight)``, or 0.0 when the total weight is 0.

    Raises:
        ValueError: a metric name repeats, or an override weight is NaN, infinite or < 0.
    """
    rows = _weighted(metrics, weights)
    largest = max((w for _, _, w in rows), default=0.0)
    if largest == 0:
        return 0.0
    # Weights are relative: scaled by the largest, each is in [0, 1] and the sums stay
    # finite (two weights of 1e308 would otherwise overflow the total to inf).
    scaled = [(v, w / largest) for _, v, w in rows]
    total = sum(w for _, w in scaled)
    return min(1.0, max(0.0, sum(v * w for v, w in scaled) / total))


def raw_scores(metrics: list[EvalMetric]) -> dict[str, float]:
    """Raw mode: each metric's value by name (missing -> 0.0), no composite.

    Raises:
        ValueError: a metric name repeats.
    """
    _check_unique(metrics)
    return {m.name: m.value or 0.0 for m in metrics}


def _missing_reasons(metrics: list[EvalMetric], weights: dict[str, float] | None) -> list[str]:
    names = {m.name for m in metrics}
    reasons = [
        f"metric {m.name} has no value yet; counted as 0.0" for m in metrics if m.value is None
    ]
    reasons += [
        f"metric {name} is configured but was not reported; counted as 0.0"
        for name in sorted(set(weights or {}) - names)
    ]
    return reasons


def metrics_track(
    metrics: list[EvalMetric], *, raw: bool, weights: dict[str, float] | None = None
) -> TrackScore:
    """The ``metrics`` track.

    In weighted mode the score is :func:`compute_confidence`. In raw mode there is no
    weighted composite: ``details["raw"]`` carries the raw scores, and the score the
    fusion needs is their unweighted mean (0.0 with no metrics), with a reason saying so.
    """
    reasons = _missing_reasons(metrics, None if raw else weights)
    if raw:
        scores = raw_scores(metrics)
        mean = sum(scores.values()) / len(scores) if scores else 0.0
        reasons.insert(0, f"raw metrics mode: unweighted mean of {len(scores)} metric(s)")
        return TrackScore(
            name="metrics", score=mean, details={"mode": "raw", "raw": scores}, reasons=reasons
        )
    rows = _weighted(metrics, weights)
    details = {
        "mode": "weighted",
        "values": {name: v for name, v, _ in rows},
        "weights": {name: w for name, _, w in rows},
    }
    score = compute_confidence(metrics, weights)
    if not any(w for _, _, w in rows):
        reasons.append("metrics carry no weight; confidence is 0.0")
    return TrackScore(name="metrics", score=score, details=details, reasons=reasons)
