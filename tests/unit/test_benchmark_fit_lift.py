"""benchmarks/fit_lift.py: the short-answer lift fitted on the held-back requests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import fit_lift

from scoregate.config.tracks import PrecisionConfig
from scoregate.scoring.precision import lift_short

SHORT, LONG = "yes " * 5, "word " * 60  # 5 and 60 words


def pairs_and_scores() -> tuple[list[fit_lift.Pair], list[float]]:
    # request 0: a short faithful answer just under the cut and a long violation above it;
    # request 1: a long faithful answer above the cut, a short violation far below, a short
    # minimal edit just under the cut (the lift carries it over) and an off-topic answer
    rows = [
        (SHORT, "faithful", 0, 0.95),
        (LONG, "hard", 0, 0.99),
        (LONG, "faithful", 1, 0.99),
        (SHORT, "hard", 1, 0.01),
        (SHORT, "edit", 1, 0.96),
        (SHORT, "off", 1, 0.50),
        (SHORT, "soft", 1, 0.99),  # the reward track's: never counted
    ]
    return [fit_lift.Pair("q", c, role, i) for c, role, i, _ in rows], [s for *_, s in rows]


def test_figures_count_what_reaches_the_cut_with_the_lift() -> None:
    pairs, scores = pairs_and_scores()
    off = fit_lift.figures(pairs, scores, PrecisionConfig(short_answer_lift=0), 0.98)
    assert off["faithful"] == 2 and off["violating"] == 3  # soft and off-topic left out
    assert (off["faithful_at_cut"], off["short_faithful_at_cut"], off["violating_at_cut"]) == (
        1,
        0,
        1,
    )
    assert off["within_p_f_gt_v"] == pytest.approx((0.0 + 1.0) / 2)
    cfg = PrecisionConfig(short_answer_lift=1.5)
    assert lift_short(0.95, 5, cfg) >= 0.98 and lift_short(0.96, 5, cfg) >= 0.98
    on = fit_lift.figures(pairs, scores, cfg, 0.98)
    assert (on["faithful_at_cut"], on["short_faithful_at_cut"], on["violating_at_cut"]) == (2, 1, 2)
    assert on["short_faithful_at_07"] == 1


def test_suggest_takes_the_largest_lift_within_the_added_violations() -> None:
    rows = {
        0.0: {"faithful_at_cut": 10, "violating_at_cut": 5},
        0.5: {"faithful_at_cut": 12, "violating_at_cut": 5},
        1.0: {"faithful_at_cut": 15, "violating_at_cut": 6},
        2.0: {"faithful_at_cut": 20, "violating_at_cut": 8},
    }
    assert fit_lift.suggest(rows, 1) == 1.0
    assert fit_lift.suggest(rows, 0) == 0.5
    assert fit_lift.suggest(rows, 3) == 2.0
    flat = {0.0: rows[0.0], 0.5: {"faithful_at_cut": 10, "violating_at_cut": 5}}
    assert fit_lift.suggest(flat, 1) == 0.0  # adds no faithful answer: no lift


def test_scores_of_another_length_are_refused(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(json.dumps([0.5, 0.5]))
    with pytest.raises(SystemExit, match="expected a list of 3 scores.*--write-pairs.*got 2"):
        fit_lift.read_scores(f, 3)


def test_main_reads_the_held_back_requests_and_prints_the_grid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "pairs.jsonl"
    n = len(fit_lift.held_back_pairs())
    scores = tmp_path / "s.json"
    scores.write_text(json.dumps([0.97] * n))  # every answer just under the cut
    assert fit_lift.main(["--scores", str(scores), "--write-pairs", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"{n} held-back pairs") and "accept cut 0.98" in text
    assert len(out.read_text().splitlines()) == n
    # every short answer crosses with any lift, short violations too: none fits at 1
    assert "suggested short_answer_lift: 0.0" in text
