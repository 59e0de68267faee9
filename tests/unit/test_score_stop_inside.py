"""A ``POST /v1/score`` whose client hangs up stops inside the model track running: the
models check ``should_stop`` before each batch and each layer they compute.

The fake models are small torch modules that compute nothing but record each batch and
layer they run, so the test sees where a track stopped.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import SecretStr

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.config.settings import Settings
from scoregate.schemas.request import ScoreRequest
from scoregate.scoring.encoders import add_checks, checks_inside
from scoregate.scoring.engine import LocalModels, ScoreAbandoned
from scoregate.scoring.engine import score as run_score

torch = pytest.importorskip("torch")

DIM = 16
LAYERS = 3
QUERY = "Write a guide to cooking pasta at home."
#: 120 words: with a window of 24 word pieces, many chunks, so many batches of 2.
LONG = " ".join(f"Boil the water and stir the pasta step {i}." for i in range(15))


class WhitespaceTokenizer:
    def __call__(self, text: str, **_: Any) -> dict[str, list[tuple[int, int]]]:
        return {"offset_mapping": [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]}


def bag(text: str) -> list[float]:
    vec = [0.0] * DIM
    for word in re.findall(r"[a-z]+", text.lower()):
        vec[sum(map(ord, word)) % DIM] += 1.0
    return vec


class Layer(torch.nn.Module):
    def __init__(self, model: Recording, index: int) -> None:
        super().__init__()
        self.index = index
        self.record = model.layer_ran

    def forward(self, x: Any) -> Any:
        self.record(self.index)
        return x


class Recording(torch.nn.Module):
    """A model with a ``ModuleList`` of layers, called once per batch (as
    sentence-transformers calls its model); ``batches`` and ``layers`` are what ran."""

    def __init__(self, window: int = 24) -> None:
        super().__init__()
        self.tokenizer = WhitespaceTokenizer()
        self.max_seq_length = window
        self.blocks = torch.nn.ModuleList([Layer(self, i) for i in range(LAYERS)])
        self.batches: list[int] = []
        self.layers: list[tuple[int, int]] = []
        self.after_layer: Any = None  # called after each layer: a test's clock

    def layer_ran(self, index: int) -> None:
        self.layers.append((len(self.batches), index))
        if self.after_layer is not None:
            self.after_layer()

    def forward(self, x: Any) -> Any:
        for block in self.blocks:
            x = block(x)
        return x

    def batched(self, rows: list[list[float]], batch_size: int) -> np.ndarray:
        out = []
        for start in range(0, len(rows), batch_size):
            self.batches.append(start)
            out.append(self(torch.tensor(rows[start : start + batch_size])).numpy())
        return np.concatenate(out)


class Embedder(Recording):
    def encode(self, sentences: list[str], batch_size: int = 32, **_: Any) -> np.ndarray:
        rows = self.batched([bag(s) for s in sentences], batch_size)
        norms = np.linalg.norm(rows, axis=1, keepdims=True).clip(1e-12)
        return rows / norms


class CrossEncoder(Recording):
    def predict(self, pairs: list[tuple[str, str]], batch_size: int = 32, **_: Any) -> Any:
        rows = [[float("pasta" in content)] + [0.0] * (DIM - 1) for _, content in pairs]
        return 0.2 + 0.6 * self.batched(rows, batch_size)[:, 0]


def local_models() -> tuple[LocalModels, Embedder, CrossEncoder]:
    base = load_scoring_config()
    cfg = base.model_copy(
        update={
            "semantic": base.semantic.model_copy(
                update={"batch_size": 2, "chunk_tokens": 16, "chunk_overlap": 4}
            ),
            "precision": base.precision.model_copy(
                update={"batch_size": 2, "max_length": 24, "chunk_overlap": 4}
            ),
        }
    )
    models = LocalModels(cfg)
    embedder, cross = Embedder(), CrossEncoder()
    models.use("semantic", embedder)
    models.use("precision", cross)
    return models, embedder, cross


def stop_after(model: Recording, layers: int) -> threading.Event:
    """An event set once ``model`` has run ``layers`` layers (its caller hangs up)."""
    stop = threading.Event()

    def tick() -> None:
        if len(model.layers) >= layers:
            stop.set()

    model.after_layer = tick
    return stop


@pytest.mark.parametrize("track", ["semantic", "precision"])
def test_a_track_stops_at_the_next_layer_once_asked(track: str) -> None:
    models, embedder, cross = local_models()
    model: Recording = embedder if track == "semantic" else cross
    models.score_pairs(track, [(QUERY, LONG)])
    assert len(model.batches) >= 4  # the whole track: several batches
    model.batches.clear()
    model.layers.clear()
    stop = stop_after(model, LAYERS + 2)  # inside the second batch
    with pytest.raises(ScoreAbandoned) as raised:
        models.score_pairs(track, [(QUERY, LONG)], should_stop=stop.is_set)
    assert raised.value.track == track and raised.value.where == "in"
    assert len(model.batches) == 2 and model.layers[-1] == (2, 1)  # not one layer more


def test_the_score_service_stops_inside_the_running_track(tmp_path: Path) -> None:
    """The caller hangs up during the semantic track's second batch: it stops there, and
    the precision track never starts (before the change, semantic ran to its end)."""
    from scoregate.pipelines.embedded import embedded_context
    from scoregate.server.service import ApiService

    models, embedder, cross = local_models()
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'score.db'}"))
    ctx, inline = embedded_context(settings, config=models._cfg, models=models)
    stop = stop_after(embedder, LAYERS + 1)
    with pytest.raises(ScoreAbandoned) as raised:
        ApiService(ctx, inline).score(ScoreRequest(query=QUERY, content=LONG), stop)
    assert raised.value.track == "semantic" and len(embedder.batches) == 2
    assert raised.value.inside and not cross.batches


def test_a_stop_already_set_stops_before_the_track() -> None:
    models, embedder, _ = local_models()
    with pytest.raises(ScoreAbandoned) as raised:
        run_score(ScoreRequest(query=QUERY, content=LONG), models=models, should_stop=lambda: True)
    assert (raised.value.track, raised.value.where) == ("semantic", "before")
    assert not embedder.batches


def test_the_checks_leave_the_scores_and_batches_as_they_were() -> None:
    request = ScoreRequest(query=QUERY, content=LONG)
    plain, plain_embedder, plain_cross = local_models()
    checked, checked_embedder, checked_cross = local_models()
    without = run_score(request, config=plain._cfg, models=plain)
    asked: list[bool] = []

    def never() -> bool:
        asked.append(False)
        return False

    with_checks = run_score(request, config=checked._cfg, models=checked, should_stop=never)
    assert with_checks.model_dump(exclude={"tracks"}) == without.model_dump(exclude={"tracks"})
    for name, track in without.tracks.items():
        assert with_checks.tracks[name].score == track.score, name
        assert with_checks.tracks[name].details == track.details, name
    assert checked_embedder.batches == plain_embedder.batches
    assert checked_cross.batches == plain_cross.batches
    # once before each track, once per batch and once per layer of each model call
    calls = len(checked_embedder.batches) + len(checked_cross.batches)
    assert len(asked) == 2 + calls * (1 + LAYERS)


def test_the_hooks_are_in_place_once_installed_and_a_call_without_should_stop_runs_on() -> None:
    """The workers' path: no ``should_stop``, so the models run as they always did, though
    their hooks went in as the models were installed (never from a request's thread)."""
    models, embedder, _ = local_models()
    assert len(embedder._forward_pre_hooks) == 1
    assert all(len(block._forward_pre_hooks) == 1 for block in embedder.blocks)
    models.use("semantic", embedder)  # again: no second set of hooks
    assert len(embedder._forward_pre_hooks) == 1
    models.score_pairs("semantic", [(QUERY, LONG)])
    with pytest.raises(ScoreAbandoned):
        models.score_pairs("semantic", [(QUERY, LONG)], should_stop=lambda: True)
    embedder.batches.clear()
    models.score_pairs("semantic", [(QUERY, LONG)])  # outside the block: not stopped
    assert len(embedder.batches) >= 4


def test_a_model_loaded_from_the_configuration_gets_its_hooks_as_it_loads(monkeypatch) -> None:
    loaded: list[Embedder] = []

    def load_embedder(cfg: Any, device: str = "cpu", backend: str = "torch") -> Embedder:
        loaded.append(Embedder())
        assert not loaded[-1]._forward_pre_hooks
        return loaded[-1]

    monkeypatch.setattr("scoregate.scoring.encoders.load_embedder", load_embedder)
    models = LocalModels(local_models()[0]._cfg, device="cpu")
    assert models.model("semantic") is loaded[0]  # loaded once, hooks in place before use
    assert len(loaded[0]._forward_pre_hooks) == 1
    assert all(len(block._forward_pre_hooks) == 1 for block in loaded[0].blocks)
    with pytest.raises(ScoreAbandoned) as raised:
        models.score_pairs("semantic", [(QUERY, LONG)], should_stop=stop_after(loaded[0], 1).is_set)
    assert raised.value.where == "in" and loaded[0].layers == [(1, 0)] and len(loaded) == 1


def test_a_check_stops_only_its_own_thread() -> None:
    """Two calls share the loaded models: one caller's hang-up stops its own call only."""
    embedder = Embedder()
    assert add_checks(embedder)

    def hung_up() -> None:
        raise ScoreAbandoned("semantic", inside=True)

    other: list[Any] = []
    with checks_inside(hung_up):
        worker = threading.Thread(target=lambda: other.append(embedder.encode(["a b"] * 5, 2)))
        worker.start()
        worker.join()
        with pytest.raises(ScoreAbandoned):
            embedder.encode(["a b"], 2)
    assert len(other) == 1 and other[0].shape == (5, DIM)


class Plain:
    """A model that is not a torch module (a wrapper around one, say)."""

    def __init__(self) -> None:
        self.calls = 0
        self.tokenizer = WhitespaceTokenizer()
        self.max_seq_length = 24

    def encode(self, sentences: list[str], **_: Any) -> np.ndarray:
        self.calls += 1
        return np.array([bag(s) for s in sentences]) + 1.0


def test_a_model_that_is_not_a_torch_module_is_left_alone_and_said_once(caplog) -> None:
    plain = Plain()
    assert not add_checks(plain) and not hasattr(plain, "_forward_pre_hooks")
    models = local_models()[0]
    with caplog.at_level(logging.INFO, logger="scoregate.scoring.engine"):
        models.use("semantic", plain)
    said = [r for r in caplog.records if "not a torch module" in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.INFO
    assert "semantic track's model (Plain)" in said[0].getMessage()
    assert "stops before this track, not inside it" in said[0].getMessage()
    asked: list[bool] = []

    def never() -> bool:
        asked.append(False)
        return False

    models.score_pairs("semantic", [(QUERY, LONG)], should_stop=never)
    assert plain.calls >= 1 and not asked  # nothing to check inside


# --- in broker mode the server scores through the workers' wrapper -----------------------------


def watched(models: LocalModels) -> Any:
    from scoregate.workers.models import WatchedModels, needed_models

    return WatchedModels(models, lambda pool: needed_models(pool, models._cfg))


@pytest.mark.parametrize("track", ["semantic", "precision"])
def test_the_workers_wrapper_passes_the_stop_on(track: str) -> None:
    """``WatchedModels`` (the provider of a context with a broker) hands ``should_stop`` to
    the models it wraps: the track stops at its next layer, as without the wrapper."""
    models, embedder, cross = local_models()
    model: Recording = embedder if track == "semantic" else cross
    stop = stop_after(model, LAYERS + 2)
    with pytest.raises(ScoreAbandoned) as raised:
        run_score(
            ScoreRequest(query=QUERY, content=LONG),
            config=models._cfg,
            models=watched(models),
            tracks=(track,),
            should_stop=stop.is_set,
        )
    assert (raised.value.track, raised.value.where) == (track, "in")
    assert len(model.batches) == 2 and model.layers[-1] == (2, 1)


def test_a_server_with_a_broker_stops_inside_the_running_track(tmp_path: Path, monkeypatch) -> None:
    """``scoregate serve`` with ``SCOREGATE_BROKER_URL`` set: the service scores with the
    workers' context's models (``WatchedModels``), and a hang-up in the semantic track's
    second batch stops it there (before, the track ran to its end)."""
    from scoregate.config.settings import get_scoring_config, get_settings
    from scoregate.server.serve import production_service
    from scoregate.workers import runtime

    for name in [n for n in os.environ if n.startswith("SCOREGATE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "redis://127.0.0.1:9/0")  # never reached
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", f"sqlite:///{tmp_path / 'broker.db'}")
    models, embedder, cross = local_models()
    monkeypatch.setattr(runtime, "_models", lambda: models)
    monkeypatch.setattr(runtime, "redis_client", lambda: None)
    for cached in (get_settings, get_scoring_config, runtime.get_context):
        cached.cache_clear()
    try:
        service = production_service()
        assert service.mode == "celery"
        with pytest.raises(ScoreAbandoned) as raised:
            service.score(ScoreRequest(query=QUERY, content=LONG), stop_after(embedder, LAYERS + 1))
    finally:
        for cached in (get_settings, get_scoring_config, runtime.get_context):
            cached.cache_clear()
    assert (raised.value.track, raised.value.where) == ("semantic", "in")
    assert len(embedder.batches) == 2 and not cross.batches
