"""benchmarks/eval_gate.py: the off-topic answers reported by style where a set labels it."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import eval_gate


def test_off_topic_answers_are_reported_by_style():
    rows = [
        {"off_topic_style": "neighbouring"},
        {"off_topic_style": "neighbouring"},
        {"off_topic_style": "unrelated"},
        {},
    ]
    actions = ["review", "reject", "reject", "accept"]
    results = {"off_topic": [SimpleNamespace(action=a) for a in actions]}
    styles = eval_gate.off_topic_styles(rows, results)  # type: ignore[arg-type]
    assert styles == {
        "neighbouring": {"n": 2, "accept": 0.0, "review": 0.5, "iterate": 0.0, "reject": 0.5},
        "unrelated": {"n": 1, "accept": 0.0, "review": 0.0, "iterate": 0.0, "reject": 1.0},
    }
    assert eval_gate.off_topic_styles([{}], {"off_topic": results["off_topic"][:1]}) == {}
