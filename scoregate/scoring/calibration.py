"""The one calibration of a fused score: ``ScoreResult.calibrated`` (seeds 002 and 004).

:func:`calibrate` is the step the fusion runs. With a map fitted to reviewers'
verdicts (``scoregate calibrate``; seed 004's "calibrate regularly" with outcome
data), the map; until one is stored, seed 004's prior adjustment of the score
(known model bias, historical accuracy, task difficulty, bounds), configured in the
scoring YAML's ``heuristics.calibration``.

The map is monotone, from the fused score to the observed acceptance rate of reviewed
outputs: isotonic regression (pool-adjacent-violators) or Platt scaling (a logistic
curve). Pure: lists in, numbers out; the stored maps live in the database
(``storage.verdicts``), the one in force in each process in ``pipelines.live_map``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from scoregate.config.tracks import Calibration
from scoregate.schemas.request import ScoringMetadata

Method = Literal["isotonic", "platt"]
METHODS: tuple[Method, ...] = ("isotonic", "platt")
#: Equal-width bins of the expected calibration error.
ECE_BINS = 10
#: Folds of the held-out estimate of the fitted map's error.
FOLDS = 5


@dataclass(frozen=True)
class Calibrator:
    """A fitted map: ``kind`` and the parameters stored with it."""

    kind: Method
    params: dict[str, Any] = field(default_factory=dict)

    def __call__(self, score: float) -> float:
        return apply(self, score)


@dataclass(frozen=True)
class Fit:
    """A fitted calibrator with its error before and after, on the verdicts it was fitted to.

    ``ece_after`` is held out: each verdict is mapped by a calibrator fitted without it
    (``FOLDS``-fold), so it does not flatter the map the way an in-sample error would.
    """

    calibrator: Calibrator
    n: int
    accepted: int
    ece_before: float
    ece_after: float


def calibrate(
    raw: float,
    cal: Calibration,
    metadata: ScoringMetadata | None = None,
    fitted: Calibrator | None = None,
) -> tuple[float, list[dict[str, Any]]]:
    """The calibrated probability of a fused score, with every non-zero adjustment.

    ``fitted`` (the map in force, fitted to reviewers' verdicts) decides when given.
    Without it, seed 004's prior adjustment, in order: shrink by the known model bias;
    scale by historical accuracy when it is below ``accuracy_floor``; scale by
    ``1 - difficulty * difficulty_scale``, where ``metadata.task_difficulty`` overrides
    the configured difficulty; clamp to the bounds.

    Raises:
        ValueError: ``raw`` is not a finite number in [0, 1].
    """
    if not 0.0 <= raw <= 1.0:  # also rejects NaN
        raise ValueError(f"raw confidence must be a finite number in [0, 1] (got {raw!r})")
    steps = list[dict[str, Any]]()
    if fitted is not None:
        why = f"Map fitted to reviewers' verdicts ({fitted.kind})"
        return _adjust(steps, "fitted_map", raw, apply(fitted, raw), why), steps
    value = raw
    for name, factor, reason in _prior_stages(cal, metadata):
        value = _adjust(steps, name, value, value * factor, reason)
    bounded = max(cal.lower_bound, min(cal.upper_bound, value))
    value = _adjust(
        steps,
        "bounds",
        value,
        bounded,
        f"Kept within [{cal.lower_bound:.2f}, {cal.upper_bound:.2f}]",
    )
    return value, steps


def _prior_stages(
    cal: Calibration, metadata: ScoringMetadata | None
) -> list[tuple[str, float, str]]:
    """Seed 004's (adjustment, multiplier, reason), in the seed's order."""
    difficulty, source = cal.task_difficulty, "configured"
    if metadata is not None and metadata.task_difficulty is not None:
        difficulty, source = metadata.task_difficulty, "from the request"
    stages = [
        ("model_bias", 1 - cal.model_bias, f"Known overconfidence bias of {cal.model_bias:.0%}")
    ]
    if cal.historical_accuracy < cal.accuracy_floor:
        stages.append(
            (
                "historical_accuracy",
                cal.historical_accuracy,
                f"Historical accuracy {cal.historical_accuracy:.0%} is below"
                f" {cal.accuracy_floor:.0%}",
            )
        )
    stages.append(
        (
            "task_difficulty",
            1 - difficulty * cal.difficulty_scale,
            f"Task difficulty {difficulty:.2f} ({source})",
        )
    )
    return stages


def _adjust(steps: list[dict[str, Any]], name: str, old: float, new: float, why: str) -> float:
    if new != old:
        steps.append({"factor": name, "value": new - old, "reason": why})
    return new


def expected_calibration_error(
    probs: Sequence[float], outcomes: Sequence[bool], bins: int = ECE_BINS
) -> float:
    """Mean |predicted - observed| over equal-width bins, weighted by each bin's share."""
    p = np.clip(np.asarray(probs, dtype=float), 0.0, 1.0)
    y = np.asarray(outcomes, dtype=float)
    if p.size == 0:
        raise ValueError("no predictions to measure")
    which = np.minimum((p * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        mask = which == b
        if mask.any():
            total += float(mask.sum()) * abs(float(p[mask].mean()) - float(y[mask].mean()))
    return float(total / p.size)


def apply(calibrator: Calibrator, score: float) -> float:
    """Map one fused score to a calibrated probability in [0, 1]."""
    params = calibrator.params
    if calibrator.kind == "isotonic":
        value = float(np.interp(score, params["x"], params["y"]))
    elif calibrator.kind == "platt":
        value = _sigmoid(params["a"] * score + params["b"])
    else:
        raise ValueError(f"unknown calibration kind {calibrator.kind!r}")
    return min(1.0, max(0.0, value))


def fit(scores: Sequence[float], outcomes: Sequence[bool], method: Method = "isotonic") -> Fit:
    """Fit ``method`` to (score, accepted) pairs and measure the error before and after.

    Raises:
        ValueError: fewer than two pairs, lengths differ, a score outside [0, 1], only one
            kind of outcome (a constant map would throw the ranking away), or a bad method.
    """
    _check(scores, outcomes, method)
    calibrator = _fit_one(scores, outcomes, method)
    return Fit(
        calibrator=calibrator,
        n=len(scores),
        accepted=sum(bool(o) for o in outcomes),
        ece_before=expected_calibration_error(scores, outcomes),
        ece_after=expected_calibration_error(_held_out(scores, outcomes, method), outcomes),
    )


def _check(scores: Sequence[float], outcomes: Sequence[bool], method: str) -> None:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if len(scores) != len(outcomes):
        raise ValueError(f"{len(scores)} scores but {len(outcomes)} outcomes")
    if len(scores) < 2:
        raise ValueError("calibration needs at least two verdicts")
    if not all(0.0 <= s <= 1.0 for s in scores):  # also rejects NaN
        raise ValueError("scores must be finite numbers in [0, 1]")
    if len({bool(o) for o in outcomes}) < 2:
        raise ValueError("calibration needs both accepted and rejected verdicts")


def _fit_one(scores: Sequence[float], outcomes: Sequence[bool], method: Method) -> Calibrator:
    if method == "platt":
        return fit_platt(scores, outcomes)
    return fit_isotonic(scores, outcomes)


def _held_out(scores: Sequence[float], outcomes: Sequence[bool], method: Method) -> list[float]:
    """Each pair mapped by a calibrator fitted on the other folds (or in-sample if too few)."""
    n = len(scores)
    folds = min(FOLDS, n)
    out = [0.0] * n
    for k in range(folds):
        train = [i for i in range(n) if i % folds != k]
        ys = [outcomes[i] for i in train]
        if len(set(ys)) < 2:
            cal = _fit_one(scores, outcomes, method)  # a one-class fold cannot be fitted
        else:
            cal = _fit_one([scores[i] for i in train], ys, method)
        for i in range(k, n, folds):
            out[i] = apply(cal, scores[i])
    return out


# --- isotonic: pool adjacent violators --------------------------------------------------------


def fit_isotonic(scores: Sequence[float], outcomes: Sequence[bool]) -> Calibrator:
    """The non-decreasing step map closest (least squares) to the outcomes.

    Equal scores are pooled first; blocks that violate the order are merged until the
    acceptance rates rise with the score. Between blocks the map is linear.
    """
    xs, ys, ws = _pooled_ties(scores, outcomes)
    blocks = _pav(ys, ws)
    knots_x: list[float] = []
    knots_y: list[float] = []
    for start, end, value in blocks:
        for x in (xs[start], xs[end]):
            if not knots_x or x > knots_x[-1]:
                knots_x.append(float(x))
                knots_y.append(round(value, 6))
    return Calibrator(kind="isotonic", params={"x": knots_x, "y": knots_y})


def _pooled_ties(
    scores: Sequence[float], outcomes: Sequence[bool]
) -> tuple[list[float], list[float], list[float]]:
    """Distinct scores ascending, with each one's acceptance rate and count."""
    order = np.argsort(np.asarray(scores, dtype=float), kind="stable")
    xs: list[float] = []
    sums: list[float] = []
    counts: list[float] = []
    for i in order:
        x, y = float(scores[i]), float(bool(outcomes[i]))
        if xs and x == xs[-1]:
            sums[-1] += y
            counts[-1] += 1
        else:
            xs.append(x)
            sums.append(y)
            counts.append(1.0)
    return xs, [s / c for s, c in zip(sums, counts, strict=True)], counts


def _pav(ys: list[float], ws: list[float]) -> list[tuple[int, int, float]]:
    """Blocks ``(first index, last index, value)`` of the weighted isotonic fit."""
    blocks: list[list[float]] = []  # [first, last, weighted mean, weight]
    for i, (y, w) in enumerate(zip(ys, ws, strict=True)):
        blocks.append([i, i, y, w])
        while len(blocks) > 1 and blocks[-2][2] > blocks[-1][2]:
            last = blocks.pop()
            prev = blocks[-1]
            weight = prev[3] + last[3]
            prev[2] = (prev[2] * prev[3] + last[2] * last[3]) / weight
            prev[1], prev[3] = last[1], weight
    return [(int(b[0]), int(b[1]), b[2]) for b in blocks]


# --- Platt scaling ------------------------------------------------------------------------------


def fit_platt(
    scores: Sequence[float], outcomes: Sequence[bool], iterations: int = 100
) -> Calibrator:
    """``p = 1 / (1 + exp(-(a * score + b)))`` by Newton's method on the log loss.

    Targets are Platt's smoothed labels, ``(N+ + 1) / (N+ + 2)`` and ``1 / (N- + 2)``,
    so a perfectly separated set still gives finite parameters.
    """
    x = np.asarray(scores, dtype=float)
    y = np.asarray(outcomes, dtype=bool)
    positives, negatives = int(y.sum()), int((~y).sum())
    t = np.where(y, (positives + 1.0) / (positives + 2.0), 1.0 / (negatives + 2.0))
    a, b = 0.0, math.log((positives + 1.0) / (negatives + 1.0))
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(a * x + b)))
        grad = np.array([np.dot(p - t, x), np.sum(p - t)])
        w = p * (1.0 - p) + 1e-12
        hess = np.array([[np.dot(w, x * x), np.dot(w, x)], [np.dot(w, x), np.sum(w)]])
        step = np.linalg.solve(hess + 1e-9 * np.eye(2), grad)
        a, b = a - float(step[0]), b - float(step[1])
        if float(np.abs(step).max()) < 1e-10:
            break
    return Calibrator(kind="platt", params={"a": round(a, 8), "b": round(b, 8)})


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
