"""The seed-003 Markdown report section for a fused score."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scoregate.schemas.result import ScoreResult

_BADGE = {"GREEN": "✅", "AMBER": "⚠️", "RED": "⛔"}

_INTERPRETATION = {
    "GREEN": (
        "- High confidence: every track agrees the output answers the request.",
        "- Approve for use; standard peer review applies.",
    ),
    "AMBER": (
        "- Medium confidence: Some verification issues detected.",
        "- Review key factors above before making critical decisions.",
    ),
    "RED": (
        "- Low confidence: significant issues present.",
        "- Remediate before use: re-run the agent with the feedback below.",
    ),
}

_LABELS = {
    "semantic": "Semantic Similarity",
    "precision": "Precision (Cross-Encoder)",
    "reward": "Constraint Compliance",
    "heuristics": "Multi-Factor Heuristics",
    "evidence": "Evidence Confidence",
    "metrics": "Agent Eval Metrics",
}


def render_markdown(result: ScoreResult, *, max_reasons: int = 5) -> str:
    """Render ``## Confidence Assessment`` with score, band, tracks, factors, guidance."""
    lines = [
        "## Confidence Assessment",
        "",
        f"**Overall Score**: {result.score_100}/100 — **{result.band}** {_BADGE[result.band]}",
        "",
        f"**Recommended action**: {result.action} (calibrated {result.calibrated:.2f})",
        "",
        "**Component Breakdown:**",
        "",
        "| Component | Score | Weight |",
        "|-----------|-------|--------|",
    ]
    for name, track in result.tracks.items():
        label = _LABELS.get(name, name)
        # Tracks on the same 0-1 scale as the fused score and the weights beside them.
        shown = f"{track.score:.2f}" if track.score is not None else track.status
        weight = result.weights.get(name)
        lines.append(f"| {label} | {shown} | {f'{weight:.2f}' if weight is not None else '—'} |")
    lines += ["", "**Key Factors:**", ""]
    lines += [f"{i}. {reason}" for i, reason in enumerate(result.reasons[:max_reasons], 1)]
    if result.weakest_factors:
        lines += ["", "**Weakest Factors:**", ""]
        lines += [f"- {w.factor} ({w.score:.2f}): {w.suggestion}" for w in result.weakest_factors]
    lines += ["", "**Interpretation:**", *_INTERPRETATION[result.band], ""]
    return "\n".join(lines)
