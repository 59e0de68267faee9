"""The reward track never raises: a check that blows up, or a regex whose counted repeats
would take seconds to compile, is a failed constraint with a reason."""

from __future__ import annotations

import pytest
import regex

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.constraints import CONSTRAINT_ADAPTER
from scoregate.scoring import reward as reward_module
from scoregate.scoring.reward import evaluate_constraint, evaluate_reward

CFG = load_scoring_config()


# --- 2. reward constraints never raise ----------------------------------------------------------


def test_any_exception_in_a_check_is_a_failed_constraint(monkeypatch):
    def explode(*_a):
        raise MemoryError("out of memory compiling")

    monkeypatch.setitem(reward_module._CHECKS, "regex", explode)
    k = CONSTRAINT_ADAPTER.validate_python({"kind": "regex", "value": "a", "hard": True})
    r = evaluate_constraint("abc", k, CFG.reward)
    assert not r.passed and r.hard
    assert "could not be checked" in r.reason and "MemoryError" in r.reason
    track = evaluate_reward("abc", [k], CFG.reward)
    assert track is not None and track.score == 0.0 and track.details["hard_failures"]


def _no_compiling(monkeypatch):
    """Compiling such a pattern takes seconds: the test fails if it is ever attempted."""

    def refuse(pattern, *_a, **_k):
        raise AssertionError(f"{pattern!r} was compiled")

    monkeypatch.setattr(regex, "compile", refuse)


def test_a_regex_whose_nested_counts_multiply_is_refused_before_compiling(monkeypatch):
    k = CONSTRAINT_ADAPTER.validate_python({"kind": "regex", "value": "(((a{50}){50}){50}){50}"})
    _no_compiling(monkeypatch)
    r = evaluate_constraint("aaaa", k, CFG.reward)
    assert not r.passed and "counted repeats" in r.reason


@pytest.mark.parametrize("pattern", ["a{2000000}", "x{" + "9" * 1500 + "}", "(ab{400}){400}"])
def test_a_regex_with_a_huge_count_is_refused(pattern):
    k = CONSTRAINT_ADAPTER.validate_python({"kind": "regex", "value": pattern})
    r = evaluate_constraint("ab", k, CFG.reward)
    assert not r.passed and "counted repeats" in r.reason and "regex_max_unrolled" in r.reason


def test_a_json_schema_pattern_whose_counts_multiply_is_refused(monkeypatch):
    schema = {"type": "string", "pattern": "(((a{50}){50}){50}){50}"}
    k = CONSTRAINT_ADAPTER.validate_python({"kind": "json_schema", "value": schema})
    _no_compiling(monkeypatch)
    r = evaluate_constraint('"aaaa"', k, CFG.reward)
    assert not r.passed and "counted repeats" in r.reason


@pytest.mark.parametrize(
    "pattern",
    [
        r"^\d{3}-\d{4}$",
        r"(\d{1,3}\.){3}\d{1,3}",
        r"[A-Za-z0-9._%+-]{1,64}@[a-z]{2,}\.[a-z]{2,6}",
        r".{0,100000}",
        r"\p{L}{2,5}",
        r"(?:x{1,10000}){1,10000}",
        r"\{(\d+)\}",
    ],
)
def test_ordinary_patterns_with_counts_still_run(pattern):
    k = CONSTRAINT_ADAPTER.validate_python({"kind": "regex", "value": pattern})
    r = evaluate_constraint("nothing to see", k, CFG.reward)
    assert "counted repeats" not in r.reason and "could not be checked" not in r.reason
