"""An answer of invisible characters (zero-width spaces, a byte-order mark) is an empty
answer to both model tracks, as white space is: it read "fits the request 0.94" (the real
models)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.scoring.encoders import load_cross_encoder, load_embedder
from scoregate.scoring.precision import precision_scores
from scoregate.scoring.semantic import semantic_scores

pytestmark = pytest.mark.model
os.environ.setdefault("HF_HUB_OFFLINE", "1")

CFG = load_scoring_config()


@pytest.fixture(scope="module")
def models() -> tuple[Any, Any]:
    return load_cross_encoder(CFG.precision), load_embedder(CFG.semantic)


@pytest.mark.parametrize("content", ["\u200b\u200b", "\ufeff \u200b\u2060", "   "])
def test_an_answer_of_invisible_characters_is_empty(models, content):
    cross_encoder, embedder = models
    pairs = [("Write a haiku about rain", content), ("Write a haiku about rain", "Rain falls")]
    empty, written = precision_scores(cross_encoder, pairs, CFG.precision)
    assert (empty.score, empty.reasons[0]) == (0.0, "content is empty: nothing answers the query")
    assert written.score is not None and written.score > 0.0
    (close, _) = semantic_scores(embedder, pairs, CFG.semantic)
    assert close.score == 0.0 and close.reasons[0].startswith("content is empty")
