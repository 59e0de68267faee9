"""Seed 001 fusion matrix, seed 003 bands and hysteresis, seed 004 actions, the report."""

from __future__ import annotations

import pytest

from scoregate.config.scoring_yaml import ActionThresholds, load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.engine import pure_tracks, score
from scoregate.scoring.fusion import (
    action_for,
    action_of_band,
    band_for,
    fuse,
    passes_minimum,
    select_profile,
)
from tests.fakes import FakeModels

CFG = load_scoring_config()


def req(**kw) -> ScoreRequest:
    return ScoreRequest.model_validate({"query": "q", "content": "an answer", **kw})


def ok(name: str, score: float) -> TrackScore:
    return TrackScore(name=name, score=score)


def overlay(tmp_path, text: str):
    path = tmp_path / "scoring.yaml"
    path.write_text(text)
    return path


HARD = [{"kind": "not_contains", "value": "nut", "hard": True}]

#: An answer in a language the models do not read, with what its tracks gave.
GERMAN = ScoreRequest(
    query="Was soll ich für eine Wanderung einpacken?",
    content=(
        "- Feste Wanderschuhe mit gutem Profil und eine Regenjacke, denn das Wetter in den "
        "Bergen kann sich schnell ändern.\n- Mindestens zwei Liter Wasser und ein paar Snacks "
        "wie Nüsse oder ein belegtes Brot."
    ),
)
GERMAN_TRACKS = {
    "semantic": TrackScore(name="semantic", score=0.05),
    "precision": TrackScore(name="precision", score=0.02),
    "reward": TrackScore(name="reward", score=1.0),
}


def tracks(**scores: float | None) -> dict[str, TrackScore]:
    return {
        n: TrackScore(name=n, score=s)
        if s is not None
        else TrackScore(name=n, status="failed", error="boom")
        for n, s in scores.items()
    }


def test_weights_come_from_the_profile_and_are_renormalised():
    r = fuse(req(), tracks(semantic=1.0, precision=0.0), CFG)
    prof = CFG.fusion.profiles["default"]
    expected = prof["semantic"] / (prof["semantic"] + prof["precision"])
    assert r.score == pytest.approx(expected, abs=1e-4)
    assert sum(r.weights.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("metadata", "profile"),
    [
        ({"role": "admin"}, "admin"),
        ({"task_type": "creative"}, "creative"),
        ({"role": "ADMIN", "task_type": "creative"}, "admin"),
        ({}, "default"),
    ],
)
def test_profile_chosen_from_metadata(metadata, profile):
    assert select_profile(req(metadata=metadata).metadata, CFG) == profile


def test_admin_raises_reward_weight_and_creative_raises_semantic():
    t = tracks(semantic=0.5, precision=0.5, reward=0.5)
    base = fuse(req(), t, CFG).weights
    admin = fuse(req(metadata={"role": "admin"}), t, CFG).weights
    creative = fuse(req(metadata={"task_type": "creative"}), t, CFG).weights
    assert admin["reward"] > base["reward"]
    # The default profile gives semantic no vote (a zero weight is left out of the weights).
    assert creative["semantic"] > base.get("semantic", 0.0)


def test_failed_track_is_left_out_and_the_result_says_so():
    r = fuse(req(), tracks(semantic=0.9, precision=None, reward=1.0), CFG)
    assert "precision" not in r.weights and r.tracks["precision"].status == "failed"
    assert any("precision track failed: boom" in x for x in r.reasons)


def test_hard_failure_caps_the_score():
    t = tracks(semantic=1.0, precision=1.0)
    t["reward"] = TrackScore(
        name="reward", score=0.5, details={"hard_failures": ["not_contains: 'nut' found"]}
    )
    r = fuse(req(), t, CFG)
    assert r.score == CFG.reward.hard_fail_cap and r.hard_failures
    assert "hard constraint failed" in r.reasons[0]


@pytest.mark.parametrize(
    ("cut", "offset", "band"),
    [
        ("accept", 0.0, "GREEN"),
        ("accept", -0.0001, "AMBER"),
        ("review", 0.0, "AMBER"),
        ("review", -0.0001, "RED"),
    ],
)
def test_bands_are_the_action_zones(cut, offset, band):
    s = round(getattr(CFG.actions, cut) + offset, 4)
    assert band_for(s, CFG) == band
    assert action_of_band(band, s, CFG.actions) == action_for(s, CFG)


def test_hysteresis_holds_the_band_within_tolerance_and_moves_beyond():
    a = CFG.actions.accept
    assert band_for(a + 0.01, CFG, previous=a - 0.02) == "AMBER"  # +0.03: held
    assert band_for(a + 0.03, CFG, previous=a - 0.02) == "GREEN"  # +0.05: moves
    assert band_for(a - 0.03, CFG, previous=a) == "GREEN"  # -0.03: held
    assert band_for(a - 0.05, CFG, previous=a) == "AMBER"


def test_a_held_band_and_the_action_agree():
    a = CFG.actions.accept
    # The precision track alone (no relevance gate): the fused score is a - 0.02, below the cut.
    r = fuse(req(previous_score=a), tracks(precision=a - 0.02), CFG)
    assert r.score < a and r.band == "GREEN" and r.action == "accept"


@pytest.mark.parametrize(
    ("cut", "offset", "action"),
    [
        ("accept", 0.0, "accept"),
        ("review", 0.0, "review"),
        ("iterate", 0.0, "iterate"),
        ("iterate", -0.01, "reject"),
    ],
)
def test_actions_follow_seed_004_thresholds(cut, offset, action):
    assert action_for(getattr(CFG.actions, cut) + offset, CFG) == action


def test_a_jobs_loop_threshold_moves_the_accept_cut_and_the_band_with_it():
    s = round(CFG.actions.accept - 0.03, 4)  # below the config's own accept cut
    assert fuse(req(), tracks(precision=s), CFG).action != "accept"
    lower = round(s - 0.02, 4)
    r = fuse(req(), tracks(precision=s), CFG, accept_cut=lower)
    assert (r.action, r.band, r.cuts["accept"]) == ("accept", "GREEN", lower)
    r = fuse(req(), tracks(precision=s), CFG, accept_cut=round(s + 0.02, 4))
    assert r.action != "accept" and r.band != "GREEN"
    low = CFG.actions.with_accept(0.4)
    assert low.accept >= low.review >= low.iterate >= low.reject and low.review == 0.4


def test_score_end_to_end_with_fake_models_and_dashboard_and_markdown():
    r = score(
        {
            "query": "q",
            "content": "answer",
            "constraints": [{"kind": "max_words", "value": 5}],
            "evidence": {"total_numbers": 3, "cited_numbers": 3},
        },
        config=CFG,
        models=FakeModels(default=0.9),
    )
    assert 0.0 <= r.score <= 1.0 and r.score_100 == int(r.score * 100)  # shown rounded down
    assert set(r.dashboard) == {"score", "band", "coverage", "freshness", "unverified"}
    assert r.dashboard["unverified"] is False
    assert r.dashboard["coverage"] == 100.0
    md = r.to_markdown()
    assert md.startswith("## Confidence Assessment")
    assert f"**Overall Score**: {r.score_100}/100" in md and "| Component | Score | Weight |" in md


def test_invalid_self_reported_confidence_warns_in_reasons():
    r = fuse(req(self_reported_confidence="very"), tracks(semantic=0.9), CFG)
    # read as medium, and never above the band's tier
    assert r.gate is not None and r.gate.tier == ("low" if r.band == "RED" else "medium")
    assert any("invalid self-reported confidence" in x for x in r.reasons)


def test_bad_request_is_a_clear_error():
    with pytest.raises(ValueError, match="constraints.0"):
        score(
            {"query": "q", "content": "c", "constraints": [{"kind": "nope"}]}, models=FakeModels()
        )
    with pytest.raises(ValueError, match="query"):
        score({"query": "  ", "content": "c"}, models=FakeModels())


def test_pure_tracks_run_metrics_and_evidence_only_when_given():
    assert set(pure_tracks(req(), CFG)) == set()  # neutral heuristics preset: not run
    r = req(
        eval_metrics=[{"name": "a", "value": 0.5}],
        evidence={},
        constraints=[{"kind": "min_words", "value": 1}],
        metadata={"task_type": "analysis"},
    )
    assert set(pure_tracks(r, CFG)) == {"heuristics", "metrics", "evidence", "reward"}


def test_an_answer_that_leaves_out_one_ask_is_capped_below_accept_with_the_ask_named():
    t = tracks(semantic=0.9, precision=0.95, reward=1.0)
    asks = [
        {"ask": "when should I go", "cosine": 0.55},
        {"ask": "what should I pack?", "cosine": 0.12},
    ]
    t["semantic"] = TrackScore(name="semantic", score=0.9, details={"asks": asks})
    r = fuse(req(), t, CFG)
    assert r.score == CFG.fusion.missed_ask_cap < CFG.actions.accept
    assert any("'what should I pack?'" in x and "0.12" in x for x in r.reasons)
    covered = [dict(a, cosine=0.5) for a in asks]
    t["semantic"] = TrackScore(name="semantic", score=0.9, details={"asks": covered})
    assert fuse(req(), t, CFG).score > CFG.fusion.missed_ask_cap


# --- 1. fusion must not fail open ---------------------------------------------------------------


@pytest.mark.parametrize("status", ["failed", "timeout"])
def test_hard_constraints_that_could_not_be_checked_cap_the_score(status):
    tracks = {
        "semantic": ok("semantic", 1.0),
        "precision": ok("precision", 1.0),
        "heuristics": ok("heuristics", 1.0),
        "reward": TrackScore(name="reward", status=status, error="worker lost"),
    }
    r = fuse(req(constraints=HARD), tracks, CFG)
    assert r.score == CFG.reward.hard_fail_cap
    assert r.band != "GREEN" and r.action != "accept"
    assert "hard constraints could not be checked" in r.reasons[0]
    assert "worker lost" in r.reasons[0]


def test_soft_constraints_that_could_not_be_checked_do_not_cap():
    tracks = {
        "semantic": ok("semantic", 1.0),
        "precision": ok("precision", 1.0),
        "heuristics": ok("heuristics", 1.0),
        "reward": TrackScore(name="reward", status="failed", error="boom"),
    }
    r = fuse(req(constraints=[{"kind": "max_lines", "value": 3}]), tracks, CFG)
    assert r.score == 1.0 and r.action == "accept"


def test_low_weight_coverage_caps_action_at_review_and_band_at_amber():
    # Only heuristics scored (5% of the default profile): a perfect score must not pass.
    tracks = {
        "semantic": TrackScore(name="semantic", status="timeout", error="no result"),
        "precision": TrackScore(name="precision", status="failed", error="model unavailable"),
        "heuristics": ok("heuristics", 1.0),
    }
    r = fuse(req(), tracks, CFG)
    # The score stays below the accept cut, so gating on it cannot accept it either.
    assert r.score == 0.9799 < CFG.actions.accept
    assert r.action == "review" and r.band == "AMBER"
    assert any(x.endswith("; score capped at 0.9799, below the accept cut 0.98") for x in r.reasons)
    p = CFG.fusion.profiles["default"]
    share = p["heuristics"] / (p["heuristics"] + p["precision"] + p["semantic"])
    assert any(f"only {share:.1%} of the default profile's weight" in x for x in r.reasons)
    # The existing notes on failed tracks and renormalisation are kept.
    assert any("precision track failed: model unavailable" in x for x in r.reasons)


@pytest.mark.parametrize("accept", [0.8, 0.985])
def test_short_coverage_caps_the_score_below_any_accept_cut(accept):
    tracks = {"heuristics": ok("heuristics", 1.0)}
    r = fuse(req(), tracks, CFG, accept_cut=accept)
    assert r.score < accept and r.score >= accept - 0.0001
    assert r.action == "review"


def test_coverage_counts_only_tracks_the_request_applies_to():
    # No constraints, evidence or metrics: admin's reward weight is not missing coverage.
    tracks = {n: ok(n, 1.0) for n in ("semantic", "precision", "heuristics")}
    r = fuse(req(metadata={"role": "admin"}), tracks, CFG)
    assert r.action == "accept" and r.band == "GREEN"


def test_min_weight_coverage_is_configurable_and_validated(tmp_path):
    cfg = load_scoring_config(overlay(tmp_path, "fusion:\n  min_weight_coverage: 0.0\n"))
    tracks = {"heuristics": ok("heuristics", 1.0)}
    assert fuse(req(), tracks, cfg).action == "accept"
    with pytest.raises(ValueError, match="min_weight_coverage"):
        load_scoring_config(overlay(tmp_path, "fusion:\n  min_weight_coverage: 1.5\n"))


# --- 3. the displayed score and the band agree --------------------------------------------------


def test_score_100_and_band_agree():
    cut = round(CFG.actions.accept * 100)  # the GREEN band is the accept zone
    below = (cut - 0.3) / 100
    tracks = {n: ok(n, below) for n in ("semantic", "precision")}
    r = fuse(req(), tracks, CFG)
    assert r.score_100 == cut - 1 and r.band == "AMBER"  # never "90/100 — AMBER"
    assert f"{cut - 1}/100 — **AMBER**" in r.to_markdown()
    tracks = {n: ok(n, cut / 100) for n in ("semantic", "precision")}
    r = fuse(req(), tracks, CFG)
    assert r.score_100 == cut and r.band == "GREEN"


def test_band_for_bands_the_whole_percent_shown():
    accept, review = CFG.actions.accept, CFG.actions.review
    assert band_for(accept - 0.0001, CFG) == "AMBER"  # shown one point below the cut
    assert band_for(accept, CFG) == "GREEN"
    assert band_for(review - 0.0001, CFG) == "RED"
    # Hysteresis on the same whole points: exactly the tolerance (4 points) still holds.
    assert band_for(accept + 0.02, CFG, previous=accept - 0.02) == "AMBER"


# --- 4. actions.reject is seed 004's minimum ----------------------------------------------------


#: Seed 004's own cut points (the defaults are fitted; docs/decisions.md maps the two).
SEED_004 = ActionThresholds(accept=0.85, review=0.65, iterate=0.50, reject=0.30)


def test_reject_threshold_is_the_minimum_the_result_reports():
    c = CFG.actions
    # The precision track alone at and under the cuts (no semantic track: no relevance gate).
    for score, action, passes in (  # noqa: F402
        (round((c.reject + c.iterate) / 2, 4), "reject", True),
        (c.reject, "reject", True),
        (round(c.reject - 0.01, 4), "reject", False),
        (c.iterate, "iterate", True),
    ):
        tracks = {"precision": ok("precision", score)}
        r = fuse(req(), tracks, CFG)
        assert (r.action, r.passes_minimum, r.minimum_threshold) == (action, passes, c.reject)
    strict = CFG.model_copy(update={"actions": SEED_004})
    strict = strict.model_copy(update={"actions": SEED_004.model_copy(update={"reject": 0.5})})
    assert passes_minimum(0.45, strict) is False and action_for(0.45, strict) == "reject"


# --- evidence hysteresis reads the evidence's own previous score --------------------------------


def test_evidence_hysteresis_uses_the_previous_evidence_score_not_the_fused_one():
    from scoregate.scoring.engine import pure_tracks

    evidence = {"total_numbers": 10, "cited_numbers": 7, "claims_total": 4, "claims_matched": 4}
    base = {"query": "q", "content": "Revenue rose 4% (source: Q3 filing).", "evidence": evidence}

    def band(request: dict) -> str:
        return pure_tracks(ScoreRequest.model_validate(request), CFG)["evidence"].details["band"]

    assert pure_tracks(ScoreRequest.model_validate(base), CFG)["evidence"].score == 0.93
    assert band(base) == "GREEN"
    # A previous *fused* score of 0.89 is another scale: it must not hold the band.
    assert band({**base, "previous_score": 0.89}) == "GREEN"
    # The evidence's own previous score does: 89 -> 93 is within the 4-point tolerance.
    assert band({**base, "evidence": {**evidence, "previous_score": 89}}) == "AMBER"
    assert band({**base, "evidence": {**evidence, "previous_score": 88}}) == "GREEN"


def test_an_answer_in_a_language_the_models_cannot_read_is_judged_on_its_form_only():
    request, tracks, cfg = GERMAN, GERMAN_TRACKS, CFG
    result = fuse(request, tracks, cfg)
    assert result.score > 0.9  # the English models' low scores are not held against it
    assert result.action == "review" and result.band == "AMBER"  # but no one accepts it unread
    assert any("in German" in r for r in result.reasons)
    english = request.model_copy(update={"content": "Pack boots, a rain jacket and water."})
    assert fuse(english, tracks, cfg).score < 0.3


@pytest.mark.parametrize("at", ["review", "iterate"])
def test_an_unverified_answer_is_reviewed_when_the_loop_threshold_leaves_no_review_zone(at):
    # A job whose loop threshold sits on the review cut (or lower) has no review zone
    # under its accept cut: an answer scored on too little is still marked review (it was
    # iterate, or reject at the iterate cut), and unverified.
    cuts = CFG.actions
    threshold = getattr(cuts, at)
    tracks = {"heuristics": ok("heuristics", 1.0)}
    r = fuse(req(), tracks, CFG, accept_cut=threshold)
    assert r.score < threshold
    assert r.action == "review" and r.band == "AMBER" and r.dashboard["unverified"] is True
    # An answer scored on too little that fell short on its own merits is not lifted.
    low = fuse(req(), {"heuristics": ok("heuristics", 0.1)}, CFG, accept_cut=threshold)
    assert low.action in ("iterate", "reject") and low.band == "RED"


def test_an_answer_in_an_unread_language_is_reviewed_and_unverified_at_a_review_cut_threshold():
    r = fuse(GERMAN, GERMAN_TRACKS, CFG, accept_cut=CFG.actions.review)
    assert r.action == "review" and r.band == "AMBER"
    assert r.dashboard["unverified"] is True
