"""The real models: the packaged MiniLM embedder and the trained precision cross-encoder.

Run with ``python -m pytest -m model tests/integration/test_models.py`` (CPU, seconds).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.scoring.encoders import load_cross_encoder, load_embedder, resolve_model_path
from scoregate.scoring.precision import precision_scores
from scoregate.scoring.semantic import semantic_scores

pytestmark = pytest.mark.model
os.environ.setdefault("HF_HUB_OFFLINE", "1")

CFG = load_scoring_config()
DOG = "Here is a picture of a dog"
FAITHFUL = (
    "Write a short email declining the meeting on Friday.",
    "Hi Sam, thanks for the invite, but I can't make the meeting on Friday. Could we find"
    " another time next week? Best, Alex",
)
UNRELATED = (
    "Write a short email declining the meeting on Friday.",
    "The train to Glasgow leaves from platform four at ten past nine.",
)


@pytest.fixture(scope="module")
def cross_encoder() -> Any:
    return load_cross_encoder(CFG.precision)


@pytest.fixture(scope="module")
def embedder() -> Any:
    return load_embedder(CFG.semantic)


def test_packaged_precision_model_is_fp16_safetensors_and_small() -> None:
    path = Path(resolve_model_path("scoregate:precision"))
    weights = path / "model.safetensors"
    assert weights.is_file() and weights.stat().st_size < 60 * 1024 * 1024
    from safetensors import safe_open

    with safe_open(str(weights), framework="np") as f:
        dtypes = {str(f.get_tensor(k).dtype) for k in f.keys()}
    assert dtypes == {"float16"}
    assert (path / "MODEL_CARD.md").is_file() and (path / "tokenizer.json").is_file()


def test_cross_encoder_runs_in_float32_on_cpu(cross_encoder: Any) -> None:
    import torch

    assert next(cross_encoder.model.parameters()).dtype == torch.float32


def test_dog_probe_negation_scores_far_below(cross_encoder: Any) -> None:
    not_want, want = precision_scores(
        cross_encoder,
        [("I do NOT want a picture of a dog", DOG), ("I want a picture of a dog", DOG)],
        CFG.precision,
    )
    assert not_want.score is not None and want.score is not None
    assert want.score - not_want.score >= 0.5
    assert any(r.startswith("uses dog, which the request excludes") for r in not_want.reasons)


def test_dog_probe_model_alone_orders_correctly(cross_encoder: Any) -> None:
    bare = CFG.precision.model_copy(update={"exclusion_check": False})
    not_want, want = precision_scores(
        cross_encoder,
        [("I do NOT want a picture of a dog", DOG), ("I want a picture of a dog", DOG)],
        bare,
    )
    assert want.score is not None and not_want.score is not None
    assert want.score > not_want.score


def test_faithful_high_unrelated_low(cross_encoder: Any) -> None:
    good, bad = precision_scores(cross_encoder, [FAITHFUL, UNRELATED], CFG.precision)
    assert good.score is not None and good.score >= 0.5
    # the model itself; the track lifts a short answer's score (12 words here), and an
    # off-topic answer is the relevance gate's to stop (fusion), not this track's alone
    assert bad.details["raw_model_score"] < 0.2 and bad.details["words"] == 12
    assert bad.score is not None and bad.score < 0.5 and good.score - bad.score >= 0.4


def test_semantic_track_orders_relevance(embedder: Any) -> None:
    good, bad = semantic_scores(embedder, [FAITHFUL, UNRELATED], CFG.semantic)
    assert good.score is not None and bad.score is not None
    assert good.score > bad.score and bad.score < 0.2


def test_semantic_chunks_long_content(embedder: Any) -> None:
    long = " ".join(["The committee reviewed the annual budget in detail."] * 60)
    [t] = semantic_scores(embedder, [("annual budget review", long)], CFG.semantic)
    assert t.details["chunks"] > 1


def test_int8_backend_quantizes_both_models_and_keeps_their_order(
    cross_encoder: Any, embedder: Any
) -> None:
    from torch.ao.nn.quantized.dynamic import Linear as QuantizedLinear

    ce8 = load_cross_encoder(CFG.precision, backend="int8")
    st8 = load_embedder(CFG.semantic, backend="int8")
    assert any(isinstance(m, QuantizedLinear) for m in ce8.model.modules())
    assert any(isinstance(m, QuantizedLinear) for m in st8[0].auto_model.modules())
    pairs = [FAITHFUL, UNRELATED, ("I want a picture of a dog", DOG)]
    bare = CFG.precision.model_copy(update={"exclusion_check": False})
    full = [t.score for t in precision_scores(cross_encoder, pairs, bare)]
    quant = [t.score for t in precision_scores(ce8, pairs, bare)]
    assert None not in full and None not in quant
    # int8 moves a score by 0.07 on average and by up to 0.27 for 95% of the gate's pairs
    # (docs/performance.md): the order of these three must hold, each within that bound
    faithful, unrelated, dog = quant
    assert faithful > unrelated and dog > unrelated
    for a, b in zip(full, quant, strict=True):
        assert abs(a - b) < 0.3
    good, bad = semantic_scores(st8, [FAITHFUL, UNRELATED], CFG.semantic)
    assert good.score is not None and bad.score is not None and good.score > bad.score


def test_an_unknown_cpu_backend_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown CPU backend 'onnx'; choose one of torch, int8"):
        load_cross_encoder(CFG.precision, backend="onnx")
