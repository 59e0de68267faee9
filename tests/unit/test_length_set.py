"""benchmarks/eval_length.py and its length-matched set: length says nothing there."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from scoregate.schemas.result import ScoreResult, TrackScore

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import eval_length

ROOT = Path(__file__).resolve().parents[2]
SHORT, LONG = (8, 30), (90, 220)


def _rows() -> list[dict]:
    return eval_length.read_jsonl(eval_length.LENGTH_SET.glob("*.jsonl"))


def _words(row: dict, name: str) -> int:
    field, index = next((f, i) for n, f, i in eval_length.SLOTS if n == name)
    return len(eval_length.answer(row, field, index).split())


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def test_every_request_has_a_short_and_a_long_answer_on_each_side() -> None:
    rows = _rows()
    assert len(rows) == 250
    assert {r["kind"] for r in rows} == set(eval_length.KINDS)
    for row in rows:
        for name, _, _ in eval_length.SLOTS:
            low, high = SHORT if name.endswith("short") else LONG
            assert low <= _words(row, name) <= high, (row["id"], name)
        assert all(v["why"] for v in row["violating"]), row["id"]


def test_the_length_set_is_apart_from_training_and_the_other_sets() -> None:
    mine = {_norm(r["query"]) for r in _rows()}
    assert len(mine) == 250
    others: set[str] = set()
    folders = [ROOT / "training" / "data" / "realistic", ROOT / "benchmarks" / "data"]
    for folder in folders:
        for path in folder.rglob("*.jsonl"):
            if path.parent.name == "length_matched":
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    row = json.loads(line)
                    others.add(_norm(row.get("query") or row.get("prompt") or ""))
    assert len(others) > 2000
    assert not mine & others


def _result(score: float, action: str) -> ScoreResult:
    precision = TrackScore(name="precision", score=score)
    return ScoreResult(
        score=score,
        score_100=int(score * 100),
        band="AMBER",
        action=action,
        calibrated=score,
        tracks={"precision": precision},
    )


def test_the_report_pairs_each_faithful_slot_with_each_violating_slot() -> None:
    rows = [{"kind": "plain"}, {"kind": "exclusion"}]
    results = {
        "faithful short": [_result(0.5, "iterate"), _result(0.5, "iterate")],
        "faithful long": [_result(0.9, "accept"), _result(0.9, "accept")],
        "violating long": [_result(0.8, "review"), _result(0.4, "reject")],
        "violating short": [_result(0.1, "reject"), _result(0.1, "reject")],
    }
    report = eval_length.length_report(rows, results)
    fused = {k: v["fused"] for k, v in report["pairings"]["overall"].items() if k != "n"}
    assert fused == {
        "faithful short > violating long": 0.5,
        "faithful long > violating long": 1.0,
        "faithful short > violating short": 1.0,
        "faithful long > violating short": 1.0,
    }
    assert report["slots"]["violating long"]["actions"] == {
        "accept": 0.0,
        "review": 0.5,
        "iterate": 0.0,
        "reject": 0.5,
    }
    assert report["pairings"]["plain"]["n"] == 1
    assert report["slots"]["faithful long"]["precision_mean"] == 0.9
