"""``precision.score_each_ask``: a multi-part request is also read ask by ask, and the track's
score is the mean of the whole reading's and the lowest ask's."""

from __future__ import annotations

from typing import Any

import pytest

from scoregate.config.tracks import PrecisionConfig
from scoregate.scoring.precision import asks_read, precision_scores
from scoregate.scoring.request_analysis import analyze
from tests.unit.test_precision import WhitespaceTokenizer

QUERY = "When is the best time to visit Kyoto, and what should I pack?"
CFG = PrecisionConfig(max_length=64, chunk_overlap=4, short_answer_lift=0)
ON = CFG.model_copy(update={"score_each_ask": True})


class ByQuery:
    """0.9 for the whole request; for an ask alone, 0.8 when the content mentions its
    keyword, else 0.1."""

    def __init__(self) -> None:
        self.tokenizer = WhitespaceTokenizer()
        self.calls: list[list[tuple[str, str]]] = []

    def predict(self, sentences: list[tuple[str, str]], **_: Any) -> list[float]:
        self.calls.append(list(sentences))
        out = []
        for query, content in sentences:
            if query == QUERY:
                out.append(0.9)
            elif "pack" in query:
                out.append(0.8 if "pack" in content else 0.1)
            else:
                out.append(0.8 if "March" in content else 0.1)
        return out


def test_the_request_splits_into_the_asks_read():
    assert analyze(QUERY).asks == asks_read(QUERY, ON)
    assert len(asks_read(QUERY, ON)) == 2
    assert asks_read(QUERY, CFG) == ()  # off by default
    assert asks_read("How do I boil an egg?", ON) == ()  # one ask: nothing more to read


def test_an_answer_that_drops_a_part_scores_the_mean_with_its_weakest_ask_named():
    model = ByQuery()
    both, dropped = precision_scores(
        model,
        [(QUERY, "Go in late March; pack layers."), (QUERY, "Go in late March for blossoms.")],
        ON,
    )
    assert len(model.calls) == 1 and len(model.calls[0]) == 6  # one predict call, 3 readings each
    assert both.score == pytest.approx((0.9 + 0.8) / 2)
    assert dropped.score == pytest.approx((0.9 + 0.1) / 2)
    assert dropped.details["ask_scores"]["what should I pack?"] == 0.1
    assert "answer fits each part of the request: lowest 0.10 ('what should I pack?')" in (
        dropped.reasons
    )


def test_off_the_track_reads_the_whole_request_only():
    model = ByQuery()
    [t] = precision_scores(model, [(QUERY, "Go in late March for blossoms.")], CFG)
    assert len(model.calls[0]) == 1 and "ask_scores" not in t.details
    assert t.score == pytest.approx(0.9)
