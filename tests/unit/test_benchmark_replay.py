"""benchmarks/replay.py: record the pairs the precision model reads, replay their scores."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.scoring.engine import LocalModels
from scoregate.scoring.precision import precision_scores

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import replay


class _Tokenizer:
    def __call__(self, text: str, **kwargs: Any) -> dict[str, Any]:
        words = text.split()
        spans, at = [], 0
        for w in words:
            start = text.index(w, at)
            spans.append((start, start + len(w)))
            at = start + len(w)
        return {"input_ids": list(range(len(words))), "offset_mapping": spans}


class _Model:
    """Scores by answer length, so every pair has its own score."""

    tokenizer = _Tokenizer()

    def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> list[float]:
        return [min(1.0, len(c) / 100) for _, c in sentences]


def test_a_recorded_evaluation_replays_to_the_same_scores(tmp_path: Path) -> None:
    cfg = load_scoring_config()
    pairs = [
        ("A pasta recipe without garlic?", "Lemon butter spaghetti, no garlic needed."),
        ("Three tips for sleep.", "1. Dark room. 2. No screens. 3. Same bedtime."),
        ("A pasta recipe without garlic?", "Lemon butter spaghetti, no garlic needed."),
    ]
    model = _Model()
    recorder = replay.Recorder(model)
    before = [t.score for t in precision_scores(recorder, pairs, cfg.precision)]
    assert recorder.save(tmp_path / "pairs.jsonl") == len(recorder.pairs) >= 2
    lines = (tmp_path / "pairs.jsonl").read_text().splitlines()
    scores = model.predict([(json.loads(x)["query"], json.loads(x)["content"]) for x in lines])
    (tmp_path / "s.json").write_text(json.dumps(scores))
    rep = replay.read_replay(tmp_path / "pairs.jsonl", tmp_path / "s.json", _Tokenizer())
    after = [t.score for t in precision_scores(rep, pairs, cfg.precision)]
    assert after == pytest.approx(before)
    with pytest.raises(SystemExit, match="no replayed score"):
        rep.predict([("never", "recorded")])


def test_a_scores_file_of_the_wrong_length_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pairs.jsonl").write_text('{"query": "q", "content": "c"}\n')
    (tmp_path / "s.json").write_text("[0.1, 0.2]")
    with pytest.raises(SystemExit, match="expected a list of 1 scores"):
        replay.read_replay(tmp_path / "pairs.jsonl", tmp_path / "s.json", _Tokenizer())


def test_install_puts_the_recorder_or_the_replay_in_place_of_the_model(tmp_path: Path) -> None:
    models = LocalModels(load_scoring_config(), device="cpu")
    models.use("precision", _Model())
    recorder = replay.install(models, str(tmp_path / "p.jsonl"), None)
    assert recorder is models.model("precision")
    (tmp_path / "pairs.jsonl").write_text('{"query": "q", "content": "c"}\n')
    (tmp_path / "s.json").write_text("[0.25]")
    models.use("precision", _Model())
    files = [str(tmp_path / "pairs.jsonl"), str(tmp_path / "s.json")]
    assert replay.install(models, None, files) is None
    assert models.model("precision").predict([("q", "c")]) == [0.25]
