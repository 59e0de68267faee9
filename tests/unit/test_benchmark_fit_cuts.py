"""benchmarks/fit_cuts.py's groups and benchmarks/held_back_triples.py's triples."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import fit_cuts
import held_back_triples

import scoregate_training.dataset as dataset
import scoregate_training.sweep as sweep


def _triple(kind: str, n: int) -> dict[str, str]:
    return {
        "id": f"x-{n}",
        "domain": "d",
        "kind": kind,
        "query": f"q{n}",
        "faithful": "f",
        "violating": "v",
        "off_topic": "o",
    }


def test_the_gate_dev_groups_alone_fit_on_part_a() -> None:
    rows, groups = fit_cuts.read_rows(argparse.ArgumentParser(), [])
    assert list(groups) == ["a", "b+c", "all"]
    assert len(groups["all"]) == len(rows) == 420
    assert sorted(groups["a"] + groups["b+c"]) == groups["all"]
    assert all(rows[i]["id"].startswith("a-") for i in groups["a"])


def test_a_fit_set_joins_part_a_and_has_its_own_column(tmp_path: Path) -> None:
    lines = [_triple("plain", 1), _triple("world_knowledge", 2), _triple("exclusion", 3)]
    (tmp_path / "x.jsonl").write_text("\n".join(json.dumps(t) for t in lines) + "\n")
    rows, groups = fit_cuts.read_rows(argparse.ArgumentParser(), [tmp_path])
    assert list(groups) == ["a", "b+c", "all", "fit set", "fit"]
    assert [rows[i]["query"] for i in groups["fit set"]] == ["q1", "q3"]  # judged kinds only
    assert groups["fit"] == groups["a"] + groups["fit set"]
    assert len(groups["all"]) == 420


def test_an_empty_fit_set_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        fit_cuts.read_rows(argparse.ArgumentParser(), [tmp_path])
    assert "no .jsonl files" in capsys.readouterr().err


def test_held_back_requests_become_two_triples_each(monkeypatch: pytest.MonkeyPatch) -> None:
    def row(n: int, violations: int) -> dict[str, object]:
        return {
            "id": f"r{n}",
            "domain": "d",
            "kind": "plain",
            "query": f"q{n}",
            "faithful": [f"short {n}", f"long {n}"],
            "violating": [{"text": f"v{n}.{k}", "why": "drops_part"} for k in range(violations)],
        }

    rows = [row(1, 3), row(2, 1), row(3, 2)]
    monkeypatch.setattr(dataset, "read_realistic", lambda: rows)
    monkeypatch.setattr(sweep, "is_validation", lambda r: r["id"] != "r3")
    triples = held_back_triples.held_back_triples()
    assert [(t["faithful"], t["violating"]) for t in triples] == [
        ("short 1", "v1.0"),
        ("long 1", "v1.1"),
        ("short 2", "v2.0"),
    ]
    # the off-topic answer is the next held-back request's, never one of its own
    assert [t["off_topic"] for t in triples] == ["short 2", "long 2", "short 1"]
    assert {t["kind"] for t in triples} == {"plain"}
