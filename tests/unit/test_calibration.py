"""Calibration from outcomes: isotonic (PAV), Platt, expected calibration error."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoregate.scoring.calibration import (
    Calibrator,
    apply,
    expected_calibration_error,
    fit,
    fit_isotonic,
    fit_platt,
)


def _overconfident(n: int, seed: int = 0) -> tuple[list[float], list[bool]]:
    """Scores uniform in [0, 1]; an output is accepted with probability score**2."""
    rng = np.random.default_rng(seed)
    scores = rng.uniform(0, 1, n)
    accepted = rng.uniform(0, 1, n) < scores**2
    return scores.round(4).tolist(), accepted.tolist()


def test_ece_of_a_perfect_and_of_a_wrong_forecast():
    assert expected_calibration_error([0.0, 1.0], [False, True]) == 0.0
    # Bin 0.8-0.9 says 0.8 but half were accepted; bin 0.2-0.3 says 0.2, none were.
    ece = expected_calibration_error([0.8, 0.8, 0.2, 0.2], [True, False, False, False])
    assert ece == pytest.approx((2 * 0.3 + 2 * 0.2) / 4)


def test_pav_pools_the_violators():
    cal = fit_isotonic([0.1, 0.2, 0.3, 0.4], [False, True, False, True])
    # 0.2 (accepted) and 0.3 (rejected) violate the order and pool at 0.5.
    assert [apply(cal, x) for x in (0.1, 0.2, 0.3, 0.4)] == [0.0, 0.5, 0.5, 1.0]
    assert apply(cal, 0.0) == 0.0 and apply(cal, 1.0) == 1.0  # clamped at the ends


def test_ties_are_pooled_before_fitting():
    cal = fit_isotonic([0.5, 0.5, 0.5, 0.9], [True, False, False, True])
    assert apply(cal, 0.5) == pytest.approx(1 / 3, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1, allow_nan=False), st.booleans()), min_size=2, max_size=60)
)
def test_isotonic_map_is_monotone_and_in_range(pairs):
    cal = fit_isotonic([s for s, _ in pairs], [y for _, y in pairs])
    grid = [apply(cal, x) for x in np.linspace(0, 1, 101)]
    assert all(0.0 <= v <= 1.0 for v in grid)
    assert all(a <= b + 1e-12 for a, b in zip(grid, grid[1:], strict=False))


def test_platt_recovers_a_logistic_curve():
    rng = np.random.default_rng(1)
    scores = rng.uniform(0, 1, 4000)
    accepted = rng.uniform(0, 1, 4000) < 1 / (1 + np.exp(-(8 * scores - 5)))
    cal = fit_platt(scores.tolist(), accepted.tolist())
    assert cal.params["a"] == pytest.approx(8, rel=0.15)
    assert cal.params["b"] == pytest.approx(-5, rel=0.15)


def test_platt_stays_finite_on_separable_verdicts():
    cal = fit_platt([0.1, 0.2, 0.3, 0.7, 0.8, 0.9], [False] * 3 + [True] * 3)
    assert np.isfinite([cal.params["a"], cal.params["b"]]).all()
    assert apply(cal, 0.1) < 0.5 < apply(cal, 0.9)


@pytest.mark.parametrize("method", ["isotonic", "platt"])
def test_fit_lowers_the_held_out_error_of_an_overconfident_score(method):
    scores, accepted = _overconfident(400)
    result = fit(scores, accepted, method)
    assert result.n == 400 and result.accepted == sum(accepted)
    assert result.ece_before > 0.12
    assert result.ece_after < result.ece_before / 2
    # The map lowers a middling score towards the observed rate (0.5 -> about 0.25).
    assert apply(result.calibrator, 0.5) == pytest.approx(0.25, abs=0.1)


@pytest.mark.parametrize(
    ("scores", "outcomes", "message"),
    [
        ([0.2, 0.9], [True, True], "both accepted and rejected"),
        ([0.2], [True], "at least two"),
        ([0.2, 1.2], [True, False], r"in \[0, 1\]"),
        ([0.2, 0.3], [True], "2 scores but 1 outcomes"),
    ],
)
def test_fit_refuses_what_it_cannot_calibrate(scores, outcomes, message):
    with pytest.raises(ValueError, match=message):
        fit(scores, outcomes)


def test_unknown_kind_is_an_error():
    with pytest.raises(ValueError, match="unknown calibration kind"):
        apply(Calibrator(kind="spline", params={}), 0.5)  # type: ignore[arg-type]
