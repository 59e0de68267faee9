"""Seed 000, the confidence scorer: weighted average, raw mode, missing metrics."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoregate.scoring.metrics import EvalMetric, compute_confidence, metrics_track, raw_scores

# The seed's workflow YAML: eval_metrics weights for task design-l1.
SEED_WEIGHTS = {"requirement_coverage": 2.0, "design_completeness": 1.5, "clarity_score": 1.0}


def _m(name: str, value: float | None, weight: float = 1.0) -> EvalMetric:
    return EvalMetric(name=name, value=value, weight=weight)


def test_confidence_is_the_weighted_average_of_metric_values():
    metrics = [_m("a", 0.9, 2.0), _m("b", 0.6, 1.0), _m("c", 0.3, 1.0)]
    assert compute_confidence(metrics) == pytest.approx((0.9 * 2 + 0.6 + 0.3) / 4)


def test_a_heavier_metric_pulls_the_score_towards_its_value():
    light = compute_confidence([_m("good", 1.0, 1.0), _m("bad", 0.0, 1.0)])
    heavy = compute_confidence([_m("good", 1.0, 3.0), _m("bad", 0.0, 1.0)])
    assert light == pytest.approx(0.5)
    assert heavy == pytest.approx(0.75)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.floats(0.0, 1.0)),
            st.floats(0.0, 1e6, allow_nan=False, allow_infinity=False),
        ),
        max_size=12,
    )
)
def test_confidence_is_always_a_number_between_zero_and_one(rows):
    metrics = [_m(f"m{i}", v, w) for i, (v, w) in enumerate(rows)]
    score = compute_confidence(metrics)
    assert math.isfinite(score)
    assert 0.0 <= score <= 1.0


def test_missing_value_counts_as_zero_not_an_error():
    with_missing = [_m("done", 0.8), _m("pending", None)]
    with_zero = [_m("done", 0.8), _m("pending", 0.0)]
    assert compute_confidence(with_missing) == compute_confidence(with_zero) == pytest.approx(0.4)


def test_zero_total_weight_gives_zero():
    assert compute_confidence([_m("a", 0.9, 0.0), _m("b", 1.0, 0.0)]) == 0.0
    assert compute_confidence([]) == 0.0


def test_workflow_weights_override_the_metrics_own():
    metrics = [
        _m("requirement_coverage", 1.0),
        _m("design_completeness", 0.5),
        _m("clarity_score", 0.0),
    ]
    expected = (1.0 * 2.0 + 0.5 * 1.5 + 0.0 * 1.0) / 4.5
    assert compute_confidence(metrics, SEED_WEIGHTS) == pytest.approx(expected)
    assert compute_confidence(metrics) == pytest.approx(0.5)


def test_a_configured_metric_the_agent_did_not_report_counts_as_zero():
    # Leaving out a metric the workflow asks for must not raise the confidence.
    reported = [_m("requirement_coverage", 1.0), _m("design_completeness", 1.0)]
    assert compute_confidence(reported, SEED_WEIGHTS) == pytest.approx(3.5 / 4.5)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1.0])
def test_invalid_override_weight_is_a_clear_value_error(bad):
    with pytest.raises(ValueError, match="weight for 'clarity_score' must be a finite number"):
        compute_confidence([_m("clarity_score", 0.5)], {"clarity_score": bad})


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("value", float("nan")),
        ("value", 1.5),
        ("value", -0.1),
        ("weight", -1.0),
        ("weight", float("inf")),
    ],
)
def test_eval_metric_refuses_values_outside_the_seed_ranges(field, value):
    with pytest.raises(ValueError):
        EvalMetric(name="m", **{field: value})


def test_duplicate_metric_names_are_refused():
    metrics = [_m("clarity", 0.5), _m("clarity", 0.9)]
    with pytest.raises(ValueError, match="duplicate metric name.*clarity"):
        compute_confidence(metrics)
    with pytest.raises(ValueError, match="duplicate"):
        raw_scores(metrics)


def test_raw_mode_returns_each_score_by_name_without_a_composite():
    metrics = [_m("coverage", 0.9, 5.0), _m("clarity", None), _m("style", 0.2, 0.0)]
    assert raw_scores(metrics) == {"coverage": 0.9, "clarity": 0.0, "style": 0.2}


def test_raw_track_carries_raw_scores_and_says_it_is_raw():
    track = metrics_track([_m("a", 0.9, 9.0), _m("b", 0.3)], raw=True)
    assert track.name == "metrics"
    assert track.details["mode"] == "raw"
    assert track.details["raw"] == {"a": 0.9, "b": 0.3}
    assert track.score == pytest.approx(0.6)  # unweighted: the weight 9 is ignored
    assert "raw metrics mode" in track.reasons[0]


def test_weighted_track_scores_with_the_workflow_weights_and_names_missing_metrics():
    metrics = [_m("requirement_coverage", 1.0), _m("design_completeness", None)]
    track = metrics_track(metrics, raw=False, weights=SEED_WEIGHTS)
    assert track.score == pytest.approx(compute_confidence(metrics, SEED_WEIGHTS))
    assert track.details["weights"] == SEED_WEIGHTS
    assert any("design_completeness has no value yet" in r for r in track.reasons)
    assert any("clarity_score is configured but was not reported" in r for r in track.reasons)


def test_track_with_no_weight_says_why_the_score_is_zero():
    track = metrics_track([_m("a", 1.0, 0.0)], raw=False)
    assert track.score == 0.0
    assert any("no weight" in r for r in track.reasons)


# --- 7. huge metric weights do not overflow -----------------------------------------------------


def test_huge_metric_weights_do_not_overflow():
    metrics = [
        EvalMetric(name="a", value=0.8, weight=1e308),
        EvalMetric(name="b", value=0.6, weight=1e308),
    ]
    assert compute_confidence(metrics) == pytest.approx(0.7)
    assert metrics_track(metrics, raw=False).score == pytest.approx(0.7)
    mixed = [
        EvalMetric(name="a", value=1.0, weight=1e308),
        EvalMetric(name="b", value=0.0, weight=1.0),
    ]
    assert compute_confidence(mixed) == pytest.approx(1.0)
