"""The agent's feedback on a weak precision score names what this request and answer give to
act on, and says plainly when no specific fault was found (issue 13, item 6)."""

from __future__ import annotations

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.fusion import fuse

CFG = load_scoring_config()
BASE = CFG.fusion.suggestions["precision"]


def weakest_precision(query: str, precision: TrackScore, **tracks: TrackScore) -> str:
    request = ScoreRequest.model_validate({"query": query, "content": "an answer"})
    result = fuse(request, {"precision": precision, **tracks}, CFG)
    (found,) = [w.suggestion for w in result.weakest_factors if w.factor == "precision"]
    return found


def test_the_default_text_claims_no_fault_it_has_not_found():
    assert "excludes" not in BASE and "may contradict" not in BASE


def test_a_found_violation_is_named_as_the_fix():
    track = TrackScore(
        name="precision",
        score=0.2,
        details={"violations": ["uses garlic, which the request excludes ('without garlic')"]},
    )
    text = weakest_precision("A pasta recipe without garlic, please.", track)
    assert text.startswith(BASE)
    assert "Fix: uses garlic, which the request excludes ('without garlic')." in text


def test_no_violation_with_exclusions_names_what_the_request_rules_out_and_the_cut():
    track = TrackScore(name="precision", score=0.73)
    text = weakest_precision("A pasta recipe without garlic, please.", track)
    assert "Nothing the request rules out ('without garlic') was found in the answer" in text
    assert "see that it answers what was asked" in text and "check" not in text
    assert "0.73, below the accept cut 0.98" in text


def test_a_plain_request_says_no_specific_fault_was_found():
    track = TrackScore(name="precision", score=0.89)
    text = weakest_precision("How do I repaint a bedroom in a weekend?", track)
    fit = "the model rates the fit 0.89, below the accept cut 0.98"
    assert text == f"{BASE} No specific fault was found, but {fit}."


def test_a_multi_part_request_names_its_parts():
    track = TrackScore(name="precision", score=0.5)
    text = weakest_precision("When is the best time to visit Kyoto, and what should I pack?", track)
    assert "each part, " in text and "'what should I pack?', has a sentence near it" in text
    assert "answer each part" not in text  # a part the answer left out is capped instead


def test_a_check_that_capped_the_score_is_pointed_to_not_denied():
    asks = [
        {"ask": "When is the best time to visit Kyoto", "cosine": 0.55},
        {"ask": "what should I pack?", "cosine": 0.10},
    ]
    semantic = TrackScore(name="semantic", score=0.9, details={"asks": asks})
    track = TrackScore(name="precision", score=0.95)
    text = weakest_precision(
        "When is the best time to visit Kyoto, and what should I pack?", track, semantic=semantic
    )
    assert "No specific fault" not in text
    assert "see the reasons for what the checks found" in text


def test_a_jobs_own_threshold_is_the_cut_named():
    request = ScoreRequest.model_validate({"query": "How do I boil an egg?", "content": "x"})
    result = fuse(
        request, {"precision": TrackScore(name="precision", score=0.7)}, CFG, accept_cut=0.8
    )
    (text,) = [w.suggestion for w in result.weakest_factors]
    assert "below the accept cut 0.80" in text


def test_a_phrase_within_a_longer_one_is_named_once():
    track = TrackScore(name="precision", score=0.5)
    query = "I don't want a dog or a cat. What's a low-maintenance pet for a small flat?"
    text = weakest_precision(query, track)
    assert "('don't want a dog or a cat')" in text and "'don't want a dog'," not in text


def test_the_fit_is_cut_not_rounded_beside_the_cut():
    """0.9779 reads 0.97 beside an accept cut of 0.98, not "0.98, below the accept cut 0.98"."""
    track = TrackScore(name="precision", score=0.9779)
    text = weakest_precision("How do I repaint a bedroom in a weekend?", track)
    assert "the model rates the fit 0.97, below the accept cut 0.98" in text


def test_an_accepted_answer_is_told_of_no_track_below_the_accept_cut():
    """The reward track (every constraint kept) lifts the fused score over the cut while the
    precision track stays under it: the cut is the fused score's, so nothing is below it."""
    query = "How do I boil an egg? Answer in under 20 words."
    request = ScoreRequest.model_validate({"query": query, "content": "Boil it for 7 minutes."})
    tracks = {
        "precision": TrackScore(name="precision", score=0.75),
        "semantic": TrackScore(name="semantic", score=0.95),
        "reward": TrackScore(name="reward", score=1.0),
    }
    result = fuse(request, tracks, CFG, accept_cut=0.8)
    assert result.action == "accept" and result.tracks["precision"].score == 0.75
    assert not [w for w in result.weakest_factors if "below the accept cut" in w.suggestion]
