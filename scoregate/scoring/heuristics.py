"""Seed-004's heuristics track: the task-type preset's weighted average of the five
factors (:mod:`scoregate.scoring.factors`), and the weakest factors with suggestions."""

from __future__ import annotations

from typing import Any

from scoregate.config.tracks import FACTORS, NEUTRAL_PRESET, HeuristicsConfig
from scoregate.schemas.request import ScoringMetadata
from scoregate.schemas.result import TrackScore, WeakFactor
from scoregate.scoring.factors import score_factors

__all__ = ["score_heuristics", "weakest_factors"]


def _preset(metadata: ScoringMetadata, cfg: HeuristicsConfig) -> str:
    wanted = (metadata.task_type or "").strip().lower()
    by_name = {name.lower(): name for name in cfg.presets}
    return by_name.get(wanted, cfg.default_preset)


def score_heuristics(
    content: str, metadata: ScoringMetadata | None, cfg: HeuristicsConfig
) -> TrackScore | None:
    """The ``heuristics`` track: the preset-weighted average of the five factors.

    The preset is ``metadata.task_type`` when it names one (any case), else
    ``cfg.default_preset``; ``None`` (the track does not run) when that is the neutral
    preset. ``details["hints"]`` holds specific suggestions (such as the topics still to
    cover) for :func:`weakest_factors`.
    """
    meta = metadata or ScoringMetadata()
    preset = _preset(meta, cfg)
    if preset == NEUTRAL_PRESET:
        return None
    factors = score_factors(content, meta, cfg)
    weights = cfg.presets[preset]
    total = sum(weights.values())
    table: dict[str, dict[str, Any]] = {}
    for name, f in factors.items():
        w = weights.get(name, 0.0)
        table[name] = {
            "score": f.score,
            "weight": w,
            "contribution": f.score * w,
            "evidence": f.evidence,
        }
    score = sum(row["contribution"] for row in table.values()) / total if total else 0.0
    details = {
        "preset": preset,
        "factors": table,
        "hints": {name: f.hint for name, f in factors.items() if f.hint},
    }
    reasons = [f"{name}: {issue}" for name, f in factors.items() for issue in f.issues]
    score = max(0.0, min(1.0, score))
    return TrackScore(name="heuristics", score=score, details=details, reasons=reasons)


def weakest_factors(
    factors: dict[str, float],
    cfg: HeuristicsConfig,
    n: int = 2,
    *,
    hints: dict[str, str] | None = None,
) -> list[WeakFactor]:
    """The ``n`` lowest-scoring factors (ties by name), each with a suggestion.

    A specific hint (``details["hints"]`` of the heuristics track) wins over the
    configured ``heuristics.suggestions`` text for that factor.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0 (got {n})")
    ranked = sorted(factors.items(), key=lambda item: (item[1], item[0]))[:n]
    return [
        WeakFactor(factor=name, score=score, suggestion=_suggestion(name, cfg, hints))
        for name, score in ranked
    ]


def _suggestion(name: str, cfg: HeuristicsConfig, hints: dict[str, str] | None) -> str:
    hint = (hints or {}).get(name)
    if hint:
        return hint
    return cfg.suggestions.get(name, f"Improve {name}" if name in FACTORS else "")
