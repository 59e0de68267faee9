"""benchmarks/accept_trade.py: the most faithful answers accepted within a violating share."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import accept_trade


def test_sets_are_pooled_and_the_best_cut_within_each_limit_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()

    def fake(folder: Path, pairs: Path, scores: Path, *models: object) -> tuple[int, dict]:
        # cut i steps below 0.99: set a (10 triples) accepts i faithful answers and one
        # violating answer from 0.97 down; set b (30) 2i faithful and i // 3 violating
        a = folder.name == "a"
        per_cut = {
            cut: (i if a else 2 * i, int(i >= 2) if a else i // 3)
            for i, cut in enumerate(accept_trade.GRID)
        }
        return (10 if a else 30), per_cut

    monkeypatch.setattr(accept_trade, "accepted", fake)
    monkeypatch.setattr(accept_trade, "LocalModels", lambda *a, **k: None)
    (tmp_path / "p").write_text("")
    (tmp_path / "s").write_text("")
    p, s = str(tmp_path / "p"), str(tmp_path / "s")
    sets = ["--set", str(tmp_path / "a"), p, s, "--set", str(tmp_path / "b"), p, s]
    assert accept_trade.main([*sets, "--limit", "0.03", "--limit", "0.0", "--limit", "0.9"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("40 triples")
    # pooled over the 40 triples: at 0.97 set a accepts 10% of its violations and set b
    # none, 1 of 40 in all (a mean of the two shares would read 0.05)
    assert "| 0.98 | 0.075 | 0.000 |" in out
    assert "| 0.97 | 0.150 | 0.025 |" in out
    assert "violating accepted <= 0.03: cut 0.97, faithful 0.150, violating 0.025" in out
    assert "violating accepted <= 0.0: cut 0.98, faithful 0.075, violating 0.000" in out
    # 0.03 lies a fifth of the way from 0.97 (0.025) to 0.96 (0.050): 0.150 + 0.075 / 5
    assert "on the curve at 0.03: faithful 0.165 (between cuts 0.97 and 0.96)" in out
    assert "on the curve at 0.0: faithful 0.075 (between cuts 0.98 and 0.97)" in out
    # even the lowest cut accepts 17 of 40 violating answers: 0.9 lies past the grid
    assert "on the curve at 0.9: not reached within cuts 0.99-0.5" in out


def test_on_curve_reads_between_cuts_and_says_when_no_cut_is_low_enough() -> None:
    shares = {0.99: (0.1, 0.01), 0.98: (0.3, 0.03), 0.97: (0.5, 0.07)}
    assert accept_trade.on_curve(shares, 0.05) == pytest.approx((0.4, 0.98, 0.97))
    assert accept_trade.on_curve(shares, 0.03) == pytest.approx((0.3, 0.98, 0.97))
    assert accept_trade.on_curve(shares, 0.005) is None
    assert accept_trade.on_curve(shares, 0.5) is None  # past the lowest cut: unknown


def test_a_set_that_is_no_folder_is_named() -> None:
    with pytest.raises(SystemExit, match="no-such-set: not a folder"):
        accept_trade.main(["--set", "no-such-set", "p", "s"])


def test_a_missing_pairs_or_scores_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "pairs.jsonl").write_text("")
    args = ["--set", str(tmp_path), str(tmp_path / "pairs.jsonl"), str(tmp_path / "none.json")]
    with pytest.raises(SystemExit, match="no file .*none.json .*record the pairs"):
        accept_trade.main(args)


def test_a_config_overlay_reaches_the_scoring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a").mkdir()
    seen = []

    def fake(folder: Path, pairs: Path, scores: Path, cfg: object, *_: object) -> tuple[int, dict]:
        seen.append(cfg)
        return 10, dict.fromkeys(accept_trade.GRID, (0, 0))

    monkeypatch.setattr(accept_trade, "accepted", fake)
    monkeypatch.setattr(accept_trade, "LocalModels", lambda *a, **k: None)
    (tmp_path / "p").write_text("")
    (tmp_path / "s").write_text("")
    overlay = tmp_path / "o.yaml"
    overlay.write_text("precision: {short_answer_lift: 0.5}\n")
    sets = ["--set", str(tmp_path / "a"), str(tmp_path / "p"), str(tmp_path / "s")]
    assert accept_trade.main([*sets, "--config", str(overlay)]) == 0
    assert [c.precision.short_answer_lift for c in seen] == [0.5]  # type: ignore[attr-defined]
    assert accept_trade.main(sets) == 0
    assert seen[-1].precision.short_answer_lift == 1.5  # type: ignore[attr-defined]
