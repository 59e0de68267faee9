"""benchmarks/eval_exclusions.py: flags on answers that name what the request rules out."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import eval_exclusions


def _row(i: int, kind: str, query: str, short: str, long: str, violating: str) -> dict:
    return {
        "id": f"x-{i:03d}",
        "kind": kind,
        "query": query,
        "faithful_short": short,
        "faithful_long": long,
        "violating": violating,
        "excluded": "",
    }


def test_shares_per_kind_and_the_items_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        _row(
            1,
            "thing",
            "Pasta sauce without garlic please.",
            "Try a lemon butter sauce.",
            "Since garlic is out, lean on lemon zest and basil.",
            "Fry four cloves of garlic in olive oil.",
        ),
        _row(
            2,
            "thing",
            "Dinner ideas, no chicken.",
            "A mushroom risotto.",
            "Roast the chicken thighs with lemon.",  # a faithful answer the check flags
            "A lentil curry.",  # a violation it misses
        ),
    ]
    data = tmp_path / "set"
    data.mkdir()
    (data / "part.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    items = tmp_path / "items.jsonl"
    assert eval_exclusions.main(["--data", str(data), "--items", str(items)]) == 0
    out = capsys.readouterr().out
    thing = next(line for line in out.splitlines() if line.startswith("thing"))
    assert thing.split()[1:] == ["2", "0.000", "0.500", "0.500"]
    written = [json.loads(line) for line in items.read_text().splitlines()]
    assert len(written) == 6
    flagged = {(w["id"], w["role"]) for w in written if w["flags"]}
    assert flagged == {("x-001", "violating"), ("x-002", "faithful_long")}


def test_an_empty_folder_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert eval_exclusions.main(["--data", str(tmp_path)]) == 2
    assert "no rows" in capsys.readouterr().err
