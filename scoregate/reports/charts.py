"""PNG charts for ``scoregate report``: a job's iterations, a window's score histogram.

Uses matplotlib's object API on the Agg canvas, so no display and no global
pyplot state are involved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scoregate.config.scoring_yaml import ScoringConfig
from scoregate.config.tracks import TRACKS
from scoregate.scoring.figures import score_text

TRACK_COLORS = {
    "semantic": "#1f77b4",
    "precision": "#9467bd",
    "reward": "#ff7f0e",
    "heuristics": "#8c564b",
    "evidence": "#17becf",
    "metrics": "#7f7f7f",
}
BAND_COLORS = {"GREEN": "#2ca02c", "AMBER": "#e6a700", "RED": "#d62728"}
LABEL_BOX = {"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none", "alpha": 0.85}


def _figure(width: float, height: float, rows: int = 1) -> tuple[Any, list[Any]]:
    from scoregate.extras import require

    require("charts", "`scoregate report --plot`")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    ratios = [3, 2][:rows] if rows > 1 else None
    axes = fig.subplots(rows, 1, sharex=True, gridspec_kw={"height_ratios": ratios})
    return fig, list(axes) if rows > 1 else [axes]


def _shade_bands(ax: Any, cfg: ScoringConfig) -> None:
    ax.axhspan(0, cfg.actions.review, color=BAND_COLORS["RED"], alpha=0.07, lw=0)
    ax.axhspan(cfg.actions.review, cfg.actions.accept, color=BAND_COLORS["AMBER"], alpha=0.10, lw=0)
    ax.axhspan(cfg.actions.accept, 1.0, color=BAND_COLORS["GREEN"], alpha=0.08, lw=0)


def _series(iterations: list[dict[str, Any]], track: str) -> tuple[list[int], list[float]]:
    ns, ys = [], []
    for it in iterations:
        score = ((it.get("result") or {}).get("tracks", {}).get(track) or {}).get("score")
        if score is not None:
            ns.append(int(it["n"]))
            ys.append(float(score))
    return ns, ys


def plot_job(job: dict[str, Any], path: Path, cfg: ScoringConfig) -> Path:
    """The job's fused score across iterations over its tracks; below, each track's share.

    Args:
        job: ``repository.job_to_dict`` of the job (with iterations).
    """
    its = [it for it in job.get("iterations", []) if it.get("score") is not None]
    if not its:
        raise ValueError(f"job {job['id']} has no fused iteration to plot")
    fig, (top, bottom) = _figure(9, 7, rows=2)
    _shade_bands(top, cfg)
    for track in TRACKS:
        ns, ys = _series(its, track)
        if ns:
            top.plot(ns, ys, marker="o", lw=1.2, alpha=0.85, color=TRACK_COLORS[track], label=track)
    fused_n = [int(it["n"]) for it in its]
    fused = [float(it["score"]) for it in its]
    top.plot(fused_n, fused, marker="s", lw=2.8, color="black", label="fused", zorder=5)
    for n, score, it in zip(fused_n, fused, its, strict=True):
        below = score > 0.85  # keep the label inside the axes, clear of tracks at 1.0
        top.annotate(
            f"{score_text(score)} {it.get('band', '')}",
            (n, score),
            textcoords="offset points",
            xytext=(14, -16 if below else 9),
            ha="left",
            fontsize=9,
            weight="bold",
            bbox=LABEL_BOX,
            zorder=6,
        )
    policy = job.get("policy") or {}
    if policy.get("enabled"):
        # No threshold of its own: the loop passes at the accept cut (one threshold model).
        threshold = policy.get("threshold")
        threshold = cfg.actions.accept if threshold is None else threshold
        top.axhline(
            threshold, ls="--", color="black", lw=1, label=f"loop threshold {threshold:.2f}"
        )
    top.set(
        ylim=(0, 1.08),
        ylabel="score",
        title=f"job {job['id'][:8]}: {job.get('status')}, {len(its)} iteration(s)",
    )
    top.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=9)
    _contributions(bottom, its)
    bottom.set_xticks(fused_n)
    fig.savefig(path)
    return path


def _contributions(ax: Any, its: list[dict[str, Any]]) -> None:
    """Stacked bars: weight x score of each fused track, per iteration."""
    base = [0.0] * len(its)
    ns = [int(it["n"]) for it in its]
    for track in TRACKS:
        heights = []
        for it in its:
            result = it.get("result") or {}
            weight = (result.get("weights") or {}).get(track, 0.0)
            score = (result.get("tracks", {}).get(track) or {}).get("score") or 0.0
            heights.append(weight * score)
        if any(heights):
            ax.bar(ns, heights, bottom=base, width=0.6, color=TRACK_COLORS[track], label=track)
            base = [b + h for b, h in zip(base, heights, strict=True)]
    ax.set(ylim=(0, 1.0), xlabel="iteration", ylabel="weight × score")
    ax.set_title("per-track contribution to the fused score", fontsize=10)


def plot_histogram(
    scores: list[float], path: Path, cfg: ScoringConfig, title: str = "fused scores"
) -> Path:
    """Histogram of fused scores in 0.05 bins, coloured by band, with the band limits."""
    fig, (ax,) = _figure(8, 4.5)
    edges = [round(i * 0.05, 2) for i in range(21)]
    counts = [0] * 20
    for s in scores:
        counts[min(int(s * 20), 19)] += 1
    colors = [_band_color(e + 0.025, cfg) for e in edges[:-1]]
    ax.bar(edges[:-1], counts, width=0.05, align="edge", color=colors, edgecolor="white")
    for name, cut in (("AMBER", "review"), ("GREEN", "accept")):
        limit = getattr(cfg.actions, cut)
        ax.axvline(limit, ls="--", color=BAND_COLORS[name], lw=1.2)
        ax.annotate(
            f"{name} ≥ {limit:.2f}",
            (limit, 1),
            xycoords=("data", "axes fraction"),
            xytext=(3, -12),
            textcoords="offset points",
            fontsize=9,
        )
    ax.set(xlim=(0, 1), xlabel="fused score", ylabel="scores", title=title)
    fig.savefig(path)
    return path


def _band_color(score: float, cfg: ScoringConfig) -> str:
    if score >= cfg.actions.accept:
        return BAND_COLORS["GREEN"]
    if score >= cfg.actions.review:
        return BAND_COLORS["AMBER"]
    return BAND_COLORS["RED"]
