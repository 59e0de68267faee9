"""Factor-weighted fusion (seeds 001, 003, 004): one score, band, action and explanation."""

from __future__ import annotations

from typing import Any

from scoregate.config import ScoringConfig
from scoregate.schemas.request import ScoreRequest, ScoringMetadata
from scoregate.schemas.result import Action, Band, ScoreResult, TrackScore, WeakFactor
from scoregate.scoring.bands import held_band
from scoregate.scoring.gating import resolve_tier
from scoregate.scoring.heuristics import calibrate, weakest_factors
from scoregate.scoring.text import sanitize_reasons


def select_profile(metadata: ScoringMetadata, cfg: ScoringConfig) -> str:
    """The first fusion rule whose every ``match`` key equals the metadata value wins."""
    fields = metadata.model_dump()
    for rule in cfg.fusion.rules:
        if all(
            str(fields.get(key) or "").strip().lower() == str(value).strip().lower()
            for key, value in rule.match.items()
        ):
            return rule.profile
    return cfg.fusion.default_profile


def band_for(score: float, cfg: ScoringConfig, previous: float | None = None) -> Band:
    """GREEN/AMBER/RED, held at the previous band while the change is within tolerance."""
    b = cfg.bands
    if not b.enable_hysteresis:
        previous = None
    return held_band(score, previous, b.GREEN, b.AMBER, b.hysteresis_tolerance)[0]


def action_for(score: float, cfg: ScoringConfig) -> Action:
    """Seed-004 thresholds: accept / review / iterate, else reject."""
    t = cfg.actions
    if score >= t.accept:
        return "accept"
    if score >= t.review:
        return "review"
    if score >= t.iterate:
        return "iterate"
    return "reject"


def _weights(
    profile: dict[str, float], tracks: dict[str, TrackScore]
) -> tuple[dict[str, float], float]:
    """Profile weights of the tracks that produced a score, renormalised; and the mass covered."""
    usable = {n: w for n, w in profile.items() if n in tracks and tracks[n].ok and w > 0}
    mass = sum(usable.values())
    if mass <= 0:
        return {}, 0.0
    return {n: w / mass for n, w in usable.items()}, mass


def _track_notes(tracks: dict[str, TrackScore], profile: dict[str, float]) -> list[str]:
    notes = []
    for name, track in sorted(tracks.items()):
        if not track.ok:
            why = f": {track.error}" if track.error else ""
            notes.append(f"{name} track {track.status}{why}; fused the remaining tracks")
    skipped = [n for n, w in profile.items() if w > 0 and n not in tracks]
    if skipped and notes:
        notes.append(f"tracks not run: {', '.join(sorted(skipped))}; weights renormalised")
    return notes


def _components(tracks: dict[str, TrackScore]) -> dict[str, float]:
    comps: dict[str, float] = {
        n: round(t.score, 4) for n, t in tracks.items() if t.ok and t.score is not None
    }
    heur = tracks.get("heuristics")
    if heur is not None and heur.ok:
        for factor, data in heur.details.get("factors", {}).items():
            comps[factor] = round(float(data["score"]), 4)
    ev = tracks.get("evidence")
    if ev is not None and ev.ok:
        for comp, value in ev.details.get("components", {}).items():
            comps[f"evidence.{comp}"] = round(float(value) / 100.0, 4)
    return comps


def _weakest(
    tracks: dict[str, TrackScore], weights: dict[str, float], cfg: ScoringConfig
) -> list[WeakFactor]:
    n = cfg.fusion.weakest_count
    scored = [
        (t.score, name) for name, t in tracks.items() if name in weights and t.score is not None
    ]
    out = [
        WeakFactor(factor=name, score=round(s, 4), suggestion=cfg.fusion.suggestions.get(name, ""))
        for s, name in sorted(scored)
        if name != "heuristics" and s < cfg.actions.accept
    ]
    heur = tracks.get("heuristics")
    if heur is not None and heur.ok:
        factors = {f: float(d["score"]) for f, d in heur.details.get("factors", {}).items()}
        out += weakest_factors(factors, cfg.heuristics, n=n, hints=heur.details.get("hints"))
    return sorted(out, key=lambda w: w.score)[:n]


def _reasons(tracks: dict[str, TrackScore], notes: list[str], cfg: ScoringConfig) -> list[str]:
    ordered = ["reward", "precision", "semantic", "evidence", "metrics", "heuristics"]
    reasons = list(notes)
    for name in ordered + sorted(set(tracks) - set(ordered)):
        if name in tracks:
            reasons += tracks[name].reasons[:4]
    return sanitize_reasons(reasons, cfg.fusion.max_reasons, sort=False)


def _dashboard(
    score_100: int, band: Band, tracks: dict[str, TrackScore], mass: float
) -> dict[str, Any]:
    ev = tracks.get("evidence")
    comps = ev.details.get("components", {}) if ev is not None and ev.ok else {}
    coverage = comps.get("citation", round(mass * 100.0, 1))
    return {
        "score": score_100,
        "band": band,
        "coverage": coverage,
        "freshness": comps.get("freshness"),
    }


def fuse(request: ScoreRequest, tracks: dict[str, TrackScore], cfg: ScoringConfig) -> ScoreResult:
    """Combine the tracks that ran into one :class:`ScoreResult`."""
    profile_name = select_profile(request.metadata, cfg)
    profile = cfg.fusion.profiles[profile_name]
    weights, mass = _weights(profile, tracks)
    notes = _track_notes(tracks, profile)
    score = sum(w * (tracks[n].score or 0.0) for n, w in weights.items())
    if not weights:
        notes.append("no track produced a score; nothing to trust")
    hard = _hard_failures(tracks)
    if hard and score > cfg.reward.hard_fail_cap:
        score = cfg.reward.hard_fail_cap
        notes.insert(0, f"hard constraint failed; score capped at {score:.2f}")
    score = min(1.0, max(0.0, score))
    band = band_for(score, cfg, request.previous_score)
    gate = resolve_tier(request.self_reported_confidence, band, cfg.gating)
    if gate.warning:
        notes.append(gate.warning)
    calibrated, _ = calibrate(score, cfg.heuristics.calibration, request.metadata)
    metrics = tracks.get("metrics")
    return ScoreResult(
        score=round(score, 4),
        score_100=round(score * 100),
        band=band,
        action=action_for(score, cfg),
        calibrated=round(calibrated, 4),
        tracks=tracks,
        components=_components(tracks),
        weights={n: round(w, 4) for n, w in weights.items()},
        profile=profile_name,
        reasons=_reasons(tracks, notes, cfg),
        weakest_factors=_weakest(tracks, weights, cfg),
        dashboard=_dashboard(round(score * 100), band, tracks, mass),
        gate=gate,
        raw_metrics=metrics.details.get("raw")
        if metrics is not None and request.raw_metrics
        else None,
        hard_failures=hard,
    )


def _hard_failures(tracks: dict[str, TrackScore]) -> list[str]:
    reward = tracks.get("reward")
    if reward is None:
        return []
    return [str(r) for r in reward.details.get("hard_failures", [])]
