"""Factor-weighted fusion (seeds 001, 003, 004): one score, band, action and explanation."""

from __future__ import annotations

import math
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


def percent(score: float) -> int:
    """The fused score as the whole percent shown (``score_100``), rounded down.

    The band is taken from this value too, so a report never reads "90/100 — AMBER", and
    rounding down keeps the thresholds exact: GREEN needs a score >= 0.90, not >= 0.895.
    Rounded to 6 places first so that a float sum such as 0.8999999999 counts as 90.
    """
    return math.floor(round(score * 100, 6))


def band_for(score: float, cfg: ScoringConfig, previous: float | None = None) -> Band:
    """GREEN/AMBER/RED of the whole percent shown, held at the previous band while the
    change is within tolerance (all compared in points, as seed 003 does)."""
    b = cfg.bands
    prev = percent(previous) if previous is not None and b.enable_hysteresis else None
    points = (round(b.GREEN * 100, 6), round(b.AMBER * 100, 6))
    tolerance = round(b.hysteresis_tolerance * 100, 6)
    return held_band(percent(score), prev, *points, tolerance)[0]


def action_for(score: float, cfg: ScoringConfig) -> Action:
    """Seed 004's ``determineAction``: accept / review / iterate at or above each
    threshold, else reject. (``reject`` is the seed's minimum: see :func:`passes_minimum`.)"""
    t = cfg.actions
    if score >= t.accept:
        return "accept"
    if score >= t.review:
        return "review"
    if score >= t.iterate:
        return "iterate"
    return "reject"


def passes_minimum(score: float, cfg: ScoringConfig) -> bool:
    """Seed 004's ``passesMinimum``: the score reaches the ``reject`` threshold."""
    return score >= cfg.actions.reject


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


#: Tracks every request gets: the two model tracks and the heuristics. The reward, evidence
#: and metrics tracks apply only when the request brings constraints, evidence or metrics.
ALWAYS_APPLICABLE: tuple[str, ...] = ("semantic", "precision", "heuristics")


def _applicable(request: ScoreRequest, tracks: dict[str, TrackScore]) -> set[str]:
    names = set(tracks) | set(ALWAYS_APPLICABLE)
    if request.constraints:
        names.add("reward")
    if request.evidence is not None:
        names.add("evidence")
    if request.eval_metrics:
        names.add("metrics")
    return names


def _coverage_note(
    request: ScoreRequest,
    tracks: dict[str, TrackScore],
    weights: dict[str, float],
    profile_name: str,
    cfg: ScoringConfig,
) -> str | None:
    """Why the result may not pass, when too little of the profile's weight was scored.

    Only tracks that apply to the request count: an admin request without constraints is
    not short of its reward weight, but one whose reward or model tracks failed is.
    """
    profile = cfg.fusion.profiles[profile_name]
    applicable = {n: w for n, w in profile.items() if w > 0 and n in _applicable(request, tracks)}
    total = sum(applicable.values())
    share = sum(w for n, w in applicable.items() if n in weights) / total if total > 0 else 0.0
    minimum = cfg.fusion.min_weight_coverage
    if share >= minimum:
        return None
    missing = ", ".join(sorted(n for n in applicable if n not in weights)) or "none"
    return (
        f"only {share:.1%} of the {profile_name} profile's weight was scored (minimum"
        f" {minimum:.0%}; not scored: {missing}): action at most review, band at most AMBER"
    )


def _unchecked_hard(request: ScoreRequest, tracks: dict[str, TrackScore]) -> str | None:
    """Why the request's hard constraints could not be checked, or ``None``."""
    if not any(k.hard for k in request.constraints):
        return None
    reward = tracks.get("reward")
    if reward is None:
        return "hard constraints could not be checked: the reward track did not run"
    if reward.ok:
        return None
    why = f": {reward.error}" if reward.error else ""
    return f"hard constraints could not be checked: the reward track {reward.status}{why}"


def _cap_hard(
    request: ScoreRequest,
    tracks: dict[str, TrackScore],
    score: float,
    cfg: ScoringConfig,
    notes: list[str],
) -> tuple[float, list[str]]:
    """The score capped by failed or unchecked hard constraints, and their reasons."""
    hard = _hard_failures(tracks)
    unchecked = _unchecked_hard(request, tracks)
    cap = cfg.reward.hard_fail_cap
    capped = f"; score capped at {cap:.2f}" if score > cap else ""
    if unchecked is not None:
        hard.append(unchecked)
        notes.insert(0, unchecked + capped)
    elif hard and capped:
        notes.insert(0, "hard constraint failed" + capped)
    return (min(score, cap) if hard else score), hard


def fuse(request: ScoreRequest, tracks: dict[str, TrackScore], cfg: ScoringConfig) -> ScoreResult:
    """Combine the tracks that ran into one :class:`ScoreResult`.

    Fails closed: hard constraints that failed *or could not be checked* cap the score at
    ``reward.hard_fail_cap``, and a result scored on less than
    ``fusion.min_weight_coverage`` of its profile is never accepted nor GREEN.
    """
    profile_name = select_profile(request.metadata, cfg)
    profile = cfg.fusion.profiles[profile_name]
    weights, mass = _weights(profile, tracks)
    notes = _track_notes(tracks, profile)
    score = sum(w * (tracks[n].score or 0.0) for n, w in weights.items())
    if not weights:
        notes.append("no track produced a score; nothing to trust")
    score, hard = _cap_hard(request, tracks, score, cfg, notes)
    # Rounded once: the stored score, score_100, the band and the action all read this value.
    score = round(min(1.0, max(0.0, score)), 4)
    band = band_for(score, cfg, request.previous_score)
    action = action_for(score, cfg)
    coverage = _coverage_note(request, tracks, weights, profile_name, cfg)
    if coverage is not None:
        band = "AMBER" if band == "GREEN" else band
        action = "review" if action == "accept" else action
        notes.append(coverage)
    gate = resolve_tier(request.self_reported_confidence, band, cfg.gating)
    if gate.warning:
        notes.append(gate.warning)
    calibrated, _ = calibrate(score, cfg.heuristics.calibration, request.metadata)
    metrics = tracks.get("metrics")
    score_100 = percent(score)
    return ScoreResult(
        score=score,
        score_100=score_100,
        band=band,
        action=action,
        passes_minimum=passes_minimum(score, cfg),
        minimum_threshold=cfg.actions.reject,
        calibrated=round(calibrated, 4),
        tracks=tracks,
        components=_components(tracks),
        weights={n: round(w, 4) for n, w in weights.items()},
        profile=profile_name,
        reasons=_reasons(tracks, notes, cfg),
        weakest_factors=_weakest(tracks, weights, cfg),
        dashboard=_dashboard(score_100, band, tracks, mass),
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
