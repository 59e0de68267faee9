"""The reward track's time budget, and JSON Schema's ``uniqueItems`` in linear time."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import ValidationError

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.config.tracks import RewardConfig
from scoregate.schemas.constraints import CONSTRAINT_ADAPTER, Constraint
from scoregate.schemas.result import TrackScore
from scoregate.scoring import reward_json as reward_module
from scoregate.scoring.reward import ConstraintResult, evaluate_constraint, evaluate_reward

CFG = RewardConfig()
# (a+)+$ backtracks on this far past any timeout (the regex module is quick on "a" * 30 + "!")
CATASTROPHIC = "a" * 5000 + "!"
UNIQUE = {"type": "array", "uniqueItems": True}


def con(**kwargs: Any) -> Constraint:
    return CONSTRAINT_ADAPTER.validate_python(kwargs)


def check(content: str, cfg: RewardConfig = CFG, **kwargs: Any) -> ConstraintResult:
    return evaluate_constraint(content, con(**kwargs), cfg)


def reward(content: str, constraints: list[Constraint], cfg: RewardConfig) -> TrackScore:
    track = evaluate_reward(content, constraints, cfg)
    assert track is not None
    return track


# --- the track's budget -------------------------------------------------------------------


def test_budget_defaults_and_is_validated():
    assert CFG.time_budget_s == 5.0
    assert load_scoring_config(None).reward.time_budget_s == 5.0  # default_scoring.yaml
    for bad in (0, -1.0):
        with pytest.raises(ValidationError):
            RewardConfig(time_budget_s=bad)


def test_slow_constraints_stop_at_the_budget_and_the_rest_fail_unchecked():
    cfg = RewardConfig(time_budget_s=0.3, regex_timeout_s=0.2)
    slow = [con(kind="regex", value="(a+)+$") for _ in range(500)]
    track = reward(CATASTROPHIC, [*slow, con(kind="contains", value="a")], cfg)
    results = track.details["results"]
    assert len(results) == track.details["total"] == 501
    assert not any(r["passed"] for r in results)  # the cheap last one too: never skipped
    assert track.score == 0.0
    unchecked = [r for r in results if r["reason"].startswith("regex: not checked")]
    assert track.details["unchecked"] == len(unchecked) + 1 >= 490
    assert results[-1]["reason"] == (
        "contains: not checked: the reward track's time budget (0.3 s) ran out;"
        " counted as failed (reward.time_budget_s)"
    )
    # The first regex has its full timeout; the next runs into the budget (stopped or unchecked).
    assert "timed out after 0.2s" in results[0]["reason"]
    assert "time budget (0.3 s) ran out" in results[1]["reason"]


def test_unchecked_hard_constraints_are_hard_failures():
    cfg = RewardConfig(time_budget_s=0.1, regex_timeout_s=0.2)
    constraints = [con(kind="regex", value="(a+)+$"), con(kind="max_lines", value=5, hard=True)]
    track = reward(CATASTROPHIC, constraints, cfg)
    assert track.score == 0.0
    assert track.details["hard_failures"] == [
        "max_lines: not checked: the reward track's time budget (0.1 s) ran out;"
        " counted as failed (reward.time_budget_s)"
    ]


def test_score_stays_passed_over_total_within_the_budget():
    constraints = [con(kind="contains", value="ok"), con(kind="regex", value="(a+)+$")]
    track = reward("ok " + CATASTROPHIC, constraints, CFG)
    assert track.score == pytest.approx(1 / 2)
    assert track.details["unchecked"] == 0
    assert "regex timed out after 0.2s" in track.details["results"][1]["reason"]


def test_regex_and_schema_pattern_timeouts_are_capped_by_the_budget():
    cfg = RewardConfig(time_budget_s=0.1, regex_timeout_s=5.0)
    schema = check(
        json.dumps({"a": CATASTROPHIC}),
        cfg,
        kind="json_schema",
        value={"properties": {"a": {"pattern": "(a+)+$"}}},
    )
    regex = check(CATASTROPHIC, cfg, kind="regex", value="(a+)+$")
    for result in (schema, regex):
        assert not result.passed
        assert "time budget (0.1 s) ran out" in result.reason


# --- uniqueItems --------------------------------------------------------------------------


def _objects(n: int) -> list[dict[str, int]]:
    return [{"i": i} for i in range(n)]


@pytest.fixture
def conversions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many values uniqueItems turned into hashable forms: linear work is a few per
    value (jsonschema's own check compares every pair and converts none)."""
    count = [0]
    convert = reward_module._Canonical.__call__

    def counting(self: Any, value: Any) -> Any:
        count[0] += 1
        return convert(self, value)

    monkeypatch.setattr(reward_module._Canonical, "__call__", counting)
    return count


def test_unique_items_over_eight_thousand_objects_is_linear(conversions):
    content = json.dumps(_objects(8000))
    result = check(content, kind="json_schema", value=UNIQUE)
    assert result.passed, result.reason
    assert 0 < conversions[0] <= 2 * 8000  # each object and its one value, once


def test_unique_items_finds_a_duplicate_at_the_end(conversions):
    items: list[Any] = _objects(8000)
    items.append({"i": 7999.0})  # equal to the last object: 7999 == 7999.0
    result = check(json.dumps(items), kind="json_schema", value=UNIQUE)
    assert not result.passed
    assert "item 8000 repeats" in result.reason
    assert 0 < conversions[0] <= 2 * 8001


def test_nested_unique_items_stay_linear(conversions):
    schema = {"type": "array", "uniqueItems": True, "items": UNIQUE}
    rows = [[i, i + 1] for i in range(20_000)]
    assert check(json.dumps(rows), kind="json_schema", value=schema).passed
    # Outer check: each row and its two numbers; inner checks: the two numbers again.
    assert 0 < conversions[0] <= 5 * len(rows)
    assert not check("[[1, 2], [3, 3.0]]", kind="json_schema", value=schema).passed


# Arrays on which jsonschema's own (quadratic) uniqueItems is right: ours must agree.
EQUALITY_CASES = [
    [1, True],  # a boolean is not a number
    [0, False],
    [1, 1.0],  # numbers compare by value
    [1.5, 1.50],
    [2, 2.5],
    [None, False],
    ["1", 1],
    [{"a": 1, "b": 2}, {"b": 2, "a": 1.0}],  # key order does not matter
    [{"a": 1}, {"a": 1, "b": 2}],
    [{"a": True}, {"a": 1}],
    [{"a": {"b": [1, {"c": 2}]}}, {"a": {"b": [1.0, {"c": 2.0}]}}],
    [{"a": {"b": [1, {"c": 2}]}}, {"a": {"b": [1, {"c": True}]}}],
    [[1, 2], [1, 2.0]],
    [[1, 2], [2, 1]],  # order matters in arrays
    [[True], [1]],
    [[], {}],
    [[], [[]]],
    ["a", "b", "a"],
    [9007199254740993, 9007199254740992.0],  # beyond float precision: not equal
    [10**20, 1e20],
]


@pytest.mark.parametrize("items", EQUALITY_CASES, ids=json.dumps)
def test_unique_items_agrees_with_jsonschema(items):
    expected = Draft202012Validator(UNIQUE).is_valid(items)
    result = check(json.dumps(items), kind="json_schema", value=UNIQUE)
    assert result.passed is expected, result.reason


def test_unique_items_duplicate_booleans_in_arrays_are_found():
    # jsonschema sorts these and compares neighbours, missing the two [true]; the spec does not.
    result = check("[[true], [1], [true]]", kind="json_schema", value=UNIQUE)
    assert not result.passed
    assert "item 2 repeats" in result.reason


def test_unique_items_stops_when_the_budget_runs_out():
    cfg = RewardConfig(time_budget_s=0.001)
    content = json.dumps([[i] for i in range(100_000)])
    result = check(content, cfg, kind="json_schema", value=UNIQUE)
    assert not result.passed
    assert "validation stopped: the reward track's time budget (0.001 s) ran out" in result.reason


def test_unique_items_false_or_non_arrays_are_left_alone():
    assert check("[1, 1]", kind="json_schema", value={"uniqueItems": False}).passed
    assert check('{"a": 1}', kind="json_schema", value={"uniqueItems": True}).passed
