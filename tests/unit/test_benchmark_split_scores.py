"""benchmarks/split_scores.py: one score list of concatenated pairs files, split back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import split_scores


def pairs_file(path: Path, n: int) -> Path:
    rows = [json.dumps({"query": f"q{i}", "content": f"c{i}"}) for i in range(n)]
    path.write_text("\n".join(rows) + "\n\n")  # a trailing blank line is no pair
    return path


def test_each_file_gets_its_slice_in_order(tmp_path: Path) -> None:
    a, b = pairs_file(tmp_path / "dev.pairs", 2), pairs_file(tmp_path / "fit.pairs", 3)
    scores = tmp_path / "all.json"
    scores.write_text(json.dumps([0.1, 0.2, 0.3, 0.4, 0.5]))
    assert split_scores.main([str(scores), "soup", str(a), str(b)]) == 0
    assert json.loads((tmp_path / "dev.soup.json").read_text()) == [0.1, 0.2]
    assert json.loads((tmp_path / "fit.soup.json").read_text()) == [0.3, 0.4, 0.5]


def test_counts_that_do_not_add_up_are_refused(tmp_path: Path) -> None:
    a = pairs_file(tmp_path / "dev.pairs", 2)
    with pytest.raises(SystemExit, match=r"3 scores for 2 pairs in .*dev.pairs \(2\)"):
        split_scores.split([0.1, 0.2, 0.3], [a], "m")
    assert not (tmp_path / "dev.m.json").exists()


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no file .*none.json"):
        split_scores.main([str(tmp_path / "none.json"), "m", str(tmp_path / "x.pairs")])
