"""The second reader of the top of the score: what it trains on and how it combines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoregate_training.top_reader import cascade, combine, main, top_pairs

SCORED = [
    ("q1", "faithful high", "faithful", 0.95),
    ("q1", "faithful low", "faithful", 0.40),
    ("q1", "edit high", "edit", 0.97),
    ("q2", "hard high", "hard", 0.91),
    ("q2", "hard low", "hard", 0.10),
    ("q2", "soft high", "soft", 0.99),
    ("q2", "off high", "off", 0.93),
    ("q3", "faithful high 2", "faithful", 0.99),
    ("q3", "faithful high 3", "faithful", 0.90),
    ("q3", "faithful high 4", "faithful", 0.92),
]


def test_top_pairs_keeps_the_top_and_balances_it() -> None:
    pairs = top_pairs(SCORED, threshold=0.90)
    violations = [p for p in pairs if p.label == 0.0]
    faithful = [p for p in pairs if p.label == 1.0]
    assert sorted(p.content for p in violations) == ["edit high", "hard high"]
    assert len(faithful) == 2
    assert {p.content for p in faithful} <= {
        "faithful high",
        "faithful high 2",
        "faithful high 3",
        "faithful high 4",
    }
    # soft violations, off-topic answers and anything under the threshold are left out
    assert not {p.content for p in pairs} & {"soft high", "off high", "faithful low", "hard low"}


def test_top_pairs_can_take_soft_violations_and_every_faithful_answer() -> None:
    pairs = top_pairs(SCORED, 0.9, roles=frozenset({"hard", "edit", "soft"}), balance=False)
    assert sorted(p.content for p in pairs if p.label == 0.0) == [
        "edit high",
        "hard high",
        "soft high",
    ]
    assert len([p for p in pairs if p.label == 1.0]) == 4


def test_top_pairs_draw_is_seeded() -> None:
    assert top_pairs(SCORED, 0.9, seed=1) == top_pairs(SCORED, 0.9, seed=1)
    draws = {tuple(p.content for p in top_pairs(SCORED, 0.9, seed=s)) for s in range(20)}
    assert len(draws) > 1


def test_cascade_reorders_only_the_top() -> None:
    assert cascade(0.5, 0.99) == 0.5
    assert cascade(0.899, 0.0) == 0.899
    assert cascade(0.95, 0.0) == pytest.approx(0.90)
    assert cascade(0.91, 1.0) == pytest.approx(1.0)
    assert cascade(0.999, 0.2) < cascade(0.91, 0.8)
    with pytest.raises(ValueError, match="between 0 and 1"):
        cascade(0.5, 0.5, threshold=1.0)


def test_combine_needs_aligned_lists() -> None:
    assert combine([0.2, 0.95], [0.0, 0.5]) == pytest.approx([0.2, 0.95])
    with pytest.raises(ValueError, match="same pairs file"):
        combine([0.2, 0.95], [0.5])


def test_combine_command_writes_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second, out = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    first.write_text(json.dumps([0.3, 0.98]))
    second.write_text(json.dumps([0.0, 0.1]))
    assert main(["combine", str(first), str(second), str(out)]) == 0
    assert json.loads(out.read_text()) == pytest.approx([0.3, 0.91])
    assert "2 cascade scores" in capsys.readouterr().out
    second.write_text(json.dumps({"not": "a list"}))
    with pytest.raises(SystemExit, match="JSON list of scores"):
        main(["combine", str(first), str(second), str(out)])
    second.write_text(json.dumps([0.1]))
    with pytest.raises(SystemExit, match="same pairs file"):
        main(["combine", str(first), str(second), str(out)])
    with pytest.raises(SystemExit):
        main(["combine", str(first), str(first), str(out), "--threshold", "1.5"])
