"""The real models stop inside a batch once ``should_stop`` says so, and a call whose
``should_stop`` never does scores exactly as one without it.

Run with ``python -m pytest -m model tests/integration/test_score_stop_inside_models.py``
(CPU, about a minute on two cores).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.scoring.engine import MODEL_TRACKS, LocalModels, ScoreAbandoned
from scoregate.scoring.engine import score as run_score

pytestmark = pytest.mark.model
os.environ.setdefault("HF_HUB_OFFLINE", "1")

CFG = load_scoring_config()
#: Without meat and with two asks: the precision track reads it three ways (and embeds
#: words for the excluded class), the semantic track compares each ask with each sentence.
QUERY = "How do I cook a pasta dinner without meat, and what wine goes with it?"
SENTENCES = (
    "Boil salted water, add the pasta and stir so it does not stick.",
    "Meanwhile simmer tomatoes, garlic and olive oil in a wide pan until the sauce thickens.",
    "Drain the pasta, keep a cup of the water, and toss it with the sauce and some basil.",
    "A dry Italian red such as Chianti suits the tomatoes; a crisp white works as well.",
)
#: About 9,000 characters: several chunks for each track.
CONTENT = " ".join(SENTENCES[i % len(SENTENCES)] for i in range(120))


@pytest.fixture(scope="module")
def models() -> LocalModels:
    return LocalModels(CFG, device="cpu")


def compared(result: Any) -> dict[str, Any]:
    """What a score is: every field but the tracks' timings."""
    doc = result.model_dump()
    for track in doc["tracks"].values():
        track.pop("elapsed_ms")
    return doc


def test_checks_that_never_stop_leave_every_score_as_it_was(models: LocalModels):
    request = ScoreRequest(query=QUERY, content=CONTENT)
    plain = run_score(request, config=CFG, models=models)
    asked: list[int] = []

    def never() -> bool:
        asked.append(1)
        return False

    checked = run_score(request, config=CFG, models=models, should_stop=never)
    assert compared(checked) == compared(plain)
    assert len(asked) > 2 * 6  # inside the tracks too: at least each layer of one batch
    assert plain.tracks["semantic"].details["chunks"] > 1
    assert plain.tracks["precision"].details["chunks"] > 1


@pytest.mark.parametrize("track", MODEL_TRACKS)
def test_the_models_stop_inside_their_first_batch(models: LocalModels, track: str):
    pairs = [(QUERY, CONTENT)]
    before = models.score_pairs(track, pairs)
    asked: list[int] = []

    def on_the_third_ask() -> bool:  # the batch's start, its first layer, its second
        asked.append(1)
        return len(asked) >= 3

    with pytest.raises(ScoreAbandoned) as raised:
        models.score_pairs(track, pairs, should_stop=on_the_third_ask)
    assert (raised.value.track, raised.value.where) == (track, "in")
    assert len(asked) == 3
    after = models.score_pairs(track, pairs)  # a stopped call leaves the model as it was
    assert [t.score for t in after] == [t.score for t in before]
    assert [t.details for t in after] == [t.details for t in before]
