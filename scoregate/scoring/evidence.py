"""Seed-003 deterministic confidence (0-100) from verification evidence, banded GREEN/AMBER/RED.

Five components, each 0-100, weighted by ``evidence.weights``:

* ``citation``: ``100 * cited / total`` numbers (100 when there are none), minus
  ``penalties.citation_error`` when any citation error exists.
* ``numbers``: ``100 * matched / total`` claims (100 when there are none), minus
  ``penalties.math_fail`` when any math check failed.
* ``cross``: 100 minus ``penalties.l2_per_item`` per Layer-2 cross-check warning.
* ``privacy``: 100 minus ``penalties.redaction_per_item`` per PII redaction.
* ``freshness``: 100 within the SLA (``evidence.freshness_sla_hours``, else
  ``guards.freshness_sla_hours``); beyond it, minus ``penalties.freshness_per_10h`` per
  started 10 hours (9 hours late costs one step, 11 hours two).

Small-sample guard: a ratio built on ``n`` observations, ``0 < n < m`` (``m`` is
``guards.min_support_numbers`` or ``guards.min_support_claims``), is pulled toward
``guards.neutral_score``: ``neutral + (ratio - neutral) * n / m``. One cited number of one
is not yet proof of perfect citation.

Penalty cap: a component's deduction never exceeds ``caps.penalty_fraction`` of its value
before the deduction, so one penalty cannot take more than half of a component.

The score is ``round_half_up(clamp(sum(weight * component), 0, 100))``. With no numbers
and no claims at all it is ``guards.min_score_on_insufficient`` instead. The band comes
from ``thresholds``; with ``stability.enable_band_hysteresis`` and a ``previous_score``
(0-100), the band stays the previous score's band while
``|score - previous_score| <= stability.hysteresis_tolerance``.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from scoregate.config.tracks import EvidenceConfig
from scoregate.schemas.request import Evidence
from scoregate.schemas.result import Band, TrackScore
from scoregate.scoring.bands import band_of, held_band
from scoregate.scoring.text import plural, sanitize_reasons

__all__ = ["ConfidenceBreakdown", "aggregate_confidence", "band_for", "evidence_track"]

INSUFFICIENT = "Insufficient evidence: no numeric claims or verifications"


class ConfidenceBreakdown(BaseModel):
    """The seed-003 result: score, band, the five components and the reasons."""

    score: int = Field(ge=0, le=100)
    band: Literal["GREEN", "AMBER", "RED"]
    components: dict[str, float]
    reasons: list[str]


Component = tuple[float, list[str]]


def _guarded(ratio: float, n: int, support: int, cfg: EvidenceConfig, what: str) -> Component:
    """``100 * ratio``, blended toward the neutral score when ``0 < n < support``."""
    base = 100.0 * ratio
    if not 0 < n < support:
        return base, []
    neutral = cfg.guards.neutral_score
    blended = neutral + (base - neutral) * n / support
    return blended, [f"Small sample: {plural(n, what)} (< {support}); blended toward {neutral:g}"]


def _deduct(value: float, penalty: float, cfg: EvidenceConfig, name: str) -> Component:
    """``value - penalty``, the deduction capped at ``caps.penalty_fraction`` of ``value``."""
    cap = cfg.caps.penalty_fraction * value
    if penalty <= cap:
        return value - penalty, []
    fraction = cfg.caps.penalty_fraction
    return value - cap, [f"{name} penalty capped at {fraction:.0%} of the component"]


def _citation(ev: Evidence, cfg: EvidenceConfig) -> Component:
    total = ev.total_numbers
    if total == 0:
        value, reasons = 100.0, ["No numbers to cite"]
    else:
        cited = min(ev.cited_numbers, total)
        value, reasons = _guarded(
            cited / total, total, cfg.guards.min_support_numbers, cfg, "number"
        )
        reasons.append(
            f"All {plural(total, 'number')} properly cited"
            if cited == total
            else f"Citation coverage: {cited}/{total} numbers cited"
        )
    if ev.citation_errors:
        reasons.append(f"Citation errors: {ev.citation_errors}")
        value, capped = _deduct(value, cfg.penalties.citation_error, cfg, "Citation")
        reasons += capped
    return value, reasons


def _numbers(ev: Evidence, cfg: EvidenceConfig) -> Component:
    total = ev.claims_total
    if total == 0:
        value, reasons = 100.0, ["No claims to verify"]
    else:
        matched = min(ev.claims_matched, total)
        value, reasons = _guarded(
            matched / total, total, cfg.guards.min_support_claims, cfg, "claim"
        )
        reasons.append(
            f"All {plural(total, 'claim')} verified"
            if matched == total
            else f"Claims verified: {matched}/{total}"
        )
    failed = sorted(name for name, ok in ev.math_checks.items() if not ok)
    if failed:
        reasons.append(f"Math checks failed: {', '.join(failed)}")
        value, capped = _deduct(value, cfg.penalties.math_fail, cfg, "Math check")
        reasons += capped
    return value, reasons


def _per_item(
    count: int, per_item: float, cfg: EvidenceConfig, name: str, said: str, clean: str
) -> Component:
    if count == 0:
        return 100.0, [clean]
    value, capped = _deduct(100.0, count * per_item, cfg, name)
    return value, [f"{said}: {count}", *capped]


def _freshness(ev: Evidence, cfg: EvidenceConfig) -> Component:
    age = ev.max_age_hours
    sla = ev.freshness_sla_hours or cfg.guards.freshness_sla_hours
    if age is None:
        return 100.0, ["Data age not reported"]
    if age <= sla:
        return 100.0, [f"Data age within SLA: {age:.1f}h"]
    late = age - sla
    penalty = cfg.penalties.freshness_per_10h * math.ceil(late / 10.0)
    value, capped = _deduct(100.0, penalty, cfg, "Freshness")
    return value, [f"Data age {age:.1f}h exceeds SLA {sla:g}h by {late:.1f}h", *capped]


def components(evidence: Evidence, cfg: EvidenceConfig) -> dict[str, Component]:
    """Each component's value (0-100) and the reasons behind it."""
    p = cfg.penalties
    return {
        "citation": _citation(evidence, cfg),
        "numbers": _numbers(evidence, cfg),
        "cross": _per_item(
            evidence.l2_warnings,
            p.l2_per_item,
            cfg,
            "Cross-source",
            "Cross-source warnings",
            "No cross-source discrepancies",
        ),
        "privacy": _per_item(
            evidence.l3_redactions,
            p.redaction_per_item,
            cfg,
            "Privacy",
            "PII redactions applied",
            "No PII redactions",
        ),
        "freshness": _freshness(evidence, cfg),
    }


def _round_half_up(value: float) -> int:
    # Rounded to 6 places first so 86.4999999 from float sums does not round down.
    return math.floor(round(value, 6) + 0.5)


def band_for(score: float, cfg: EvidenceConfig) -> Band:
    """GREEN at or above ``thresholds.GREEN``, AMBER at or above ``AMBER``, else RED."""
    return band_of(score, cfg.thresholds.GREEN, cfg.thresholds.AMBER)


def _band(score: int, previous: float | None, cfg: EvidenceConfig) -> tuple[Band, list[str]]:
    if not cfg.stability.enable_band_hysteresis:
        previous = None
    tolerance = cfg.stability.hysteresis_tolerance
    band, held = held_band(score, previous, cfg.thresholds.GREEN, cfg.thresholds.AMBER, tolerance)
    if not held:
        return band, []
    return band, [
        f"Band held at {band}: {score} is within {tolerance:g} points of the previous"
        f" score {previous:g}"
    ]


def aggregate_confidence(
    evidence: Evidence, cfg: EvidenceConfig, previous_score: float | None = None
) -> ConfidenceBreakdown:
    """The seed-003 confidence breakdown; deterministic for the same inputs.

    Args:
        evidence: The verification inputs.
        cfg: Weights, penalties, thresholds, guards, caps and stability settings.
        previous_score: The previous score on the same 0-100 scale, for band hysteresis.

    Raises:
        ValueError: ``previous_score`` is not a finite number in [0, 100].
    """
    if previous_score is not None and not 0 <= previous_score <= 100:
        raise ValueError(f"previous_score must be in [0, 100] (got {previous_score!r})")
    parts = components(evidence, cfg)
    weights = cfg.weights.model_dump()
    raw = sum(weights[name] * value for name, (value, _) in parts.items())
    reasons = [r for _, rs in parts.values() for r in rs]
    if evidence.total_numbers == 0 and evidence.claims_total == 0:
        score = _round_half_up(cfg.guards.min_score_on_insufficient)
        reasons.append(INSUFFICIENT)
    else:
        score = _round_half_up(min(100.0, max(0.0, raw)))
    band, held = _band(score, previous_score, cfg)
    return ConfidenceBreakdown(
        score=score,
        band=band,
        components={name: round(value, 2) for name, (value, _) in parts.items()},
        reasons=sanitize_reasons(reasons + held, cfg.guards.max_reason_count),
    )


def evidence_track(
    evidence: Evidence, cfg: EvidenceConfig, previous_score: float | None = None
) -> TrackScore:
    """The ``evidence`` track: the breakdown's score over 100, the breakdown as details."""
    breakdown = aggregate_confidence(evidence, cfg, previous_score)
    return TrackScore(
        name="evidence",
        score=breakdown.score / 100,
        details=breakdown.model_dump(),
        reasons=list(breakdown.reasons),
    )
