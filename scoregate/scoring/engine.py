"""``score()``: every applicable track in process, then fusion.

The same functions back the Celery pools: :func:`model_tracks` for the semantic and
precision pools, :func:`pure_tracks` for the reward pool, :func:`fuse` for fusion.
"""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from pydantic import ValidationError

from scoregate.config.scoring_yaml import ScoringConfig, load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import ScoreResult, TrackScore
from scoregate.scoring.evidence import evidence_track
from scoregate.scoring.fusion import fuse
from scoregate.scoring.heuristics import score_heuristics
from scoregate.scoring.metrics import metrics_track
from scoregate.scoring.request_analysis import inferred_constraints
from scoregate.scoring.reward import check_constraints, evaluate_reward

log = logging.getLogger(__name__)

MODEL_TRACKS: tuple[str, ...] = ("semantic", "precision")
Pair = tuple[str, str]
#: Asked during scoring whether to stop: True once nobody waits for the score.
ShouldStop = Callable[[], bool]


class ScoreAbandoned(BaseException):
    """Raised where scoring stops because ``should_stop`` said so: before a model track
    (``inside`` False), or inside one, before a batch or a layer of a model call.

    A ``BaseException``, as ``asyncio.CancelledError`` is: the scorer turns an
    ``Exception`` in a track into a failed track and goes on, which is not wanted here.
    """

    def __init__(self, track: str, *, inside: bool = False) -> None:
        self.track = track
        self.inside = inside
        super().__init__(f"scoring abandoned {self.where} the {track} track")

    @property
    def where(self) -> str:
        """``before`` or ``in`` (the track)."""
        return "in" if self.inside else "before"


class ModelProvider(Protocol):
    """Scores (query, content) pairs with a model track, many pairs per call.

    With ``should_stop``, the provider asks it while its models run (before each batch
    and layer) and raises :class:`ScoreAbandoned` once it says True. A provider whose
    ``score_pairs`` has no ``should_stop`` parameter still works: it is called without
    one and runs each call to its end (see :func:`score_pairs_until`).
    """

    def score_pairs(
        self, track: str, pairs: list[Pair], should_stop: ShouldStop | None = None
    ) -> list[TrackScore]: ...


def takes_should_stop(models: Any) -> bool:
    """Whether ``models.score_pairs`` has a ``should_stop`` parameter."""
    try:
        return "should_stop" in inspect.signature(models.score_pairs).parameters
    except (TypeError, ValueError):  # no signature to read: called the plain way
        return False


def score_pairs_until(
    models: Any, track: str, pairs: list[Pair], should_stop: ShouldStop | None
) -> list[TrackScore]:
    """``models.score_pairs(track, pairs)``, passing ``should_stop`` on when there is one
    and the provider takes it (a wrapper around a provider calls its inner one so)."""
    if should_stop is None or not takes_should_stop(models):
        return list(models.score_pairs(track, pairs))
    return list(models.score_pairs(track, pairs, should_stop=should_stop))


class LocalModels:
    """Loads each model once, lazily, and keeps it for the life of the process.

    Each model gets the checks of :func:`~scoregate.scoring.encoders.add_checks` as it is
    loaded or installed (:meth:`use`), before any call runs it: a ``score_pairs`` call
    with ``should_stop`` stops inside the model, one without runs as it always did.
    """

    def __init__(
        self,
        cfg: ScoringConfig,
        device: str = "auto",
        cache: Any = None,
        threads: int | None = None,
        backend: str = "torch",
    ) -> None:
        """``backend``: ``torch`` or ``int8`` on a CPU (see ``encoders.CPU_BACKENDS``); the
        caller passes ``SCOREGATE_CPU_BACKEND`` (scoring reads no process settings)."""
        self._cfg = cfg
        self._device = device
        self._backend = backend
        self._threads = threads
        self._cache = cache
        self._models: dict[str, Any] = {}
        self._lock = threading.Lock()

    def model(self, track: str) -> Any:
        with self._lock:
            if track not in self._models:
                self._models[track] = self._load(track)
            return self._models[track]

    def use(self, track: str, model: Any) -> None:
        """Score ``track`` with ``model`` (one already loaded, or a wrapper around one)
        instead of loading it from the configuration.

        A ``model`` that is not a torch module (a wrapper, say) cannot be stopped inside a
        call: a ``score_pairs`` call with ``should_stop`` then stops before the track, not
        during it. That is logged once, at INFO, here.
        """
        from scoregate.scoring.encoders import add_checks

        with self._lock:
            if not add_checks(model):
                log.info(
                    "the %s track's model (%s) is not a torch module: a call whose caller"
                    " has gone stops before this track, not inside it",
                    track,
                    type(model).__name__,
                )
            self._models[track] = model

    def _load(self, track: str) -> Any:
        """``track``'s model from the configuration, with its checks in place."""
        from scoregate.scoring.encoders import add_checks

        model = self._read(track)
        add_checks(model)
        return model

    def _read(self, track: str) -> Any:
        from scoregate.extras import require
        from scoregate.scoring.encoders import load_cross_encoder, load_embedder, pick_device

        require("models", f"the {track} track")

        device = pick_device(self._device)
        if self._threads is not None:
            import torch

            torch.set_num_threads(self._threads)
        if track == "semantic":
            return load_embedder(self._cfg.semantic, device=device, backend=self._backend)
        if track == "precision":
            return load_cross_encoder(self._cfg.precision, device=device, backend=self._backend)
        raise ValueError(f"unknown model track {track!r}; known: {', '.join(MODEL_TRACKS)}")

    def score_pairs(
        self, track: str, pairs: list[Pair], should_stop: ShouldStop | None = None
    ) -> list[TrackScore]:
        """Score ``pairs`` with ``track``'s model. With ``should_stop``, it is asked before
        each batch and each layer the models compute, and the call raises
        :class:`ScoreAbandoned` once it says True; the scores are those of a call without
        it (same batches, same numbers)."""
        if should_stop is None:
            return self._score_pairs(track, pairs)
        from scoregate.scoring.encoders import checks_inside

        def check() -> None:
            if should_stop():
                raise ScoreAbandoned(track, inside=True)

        with checks_inside(check):
            return self._score_pairs(track, pairs)

    def _embeds_members(self) -> bool:
        """Whether the precision track embeds words for excluded-class membership."""
        precision = self._cfg.precision
        return precision.exclusion_check and precision.member_min_cosine < 1.0

    def _score_pairs(self, track: str, pairs: list[Pair]) -> list[TrackScore]:
        if track == "semantic":
            from scoregate.scoring.semantic import semantic_scores

            return semantic_scores(self.model(track), pairs, self._cfg.semantic, cache=self._cache)
        from scoregate.scoring.precision import precision_scores

        embed = None
        if self._embeds_members():
            embedder = self.model("semantic")

            def embed(texts: list[str]) -> Any:
                return embedder.encode(texts, normalize_embeddings=True, show_progress_bar=False)

        return precision_scores(self.model(track), pairs, self._cfg.precision, embed=embed)


_DEFAULT_MODELS: list[tuple[ScoringConfig, str, LocalModels]] = []


def default_models(cfg: ScoringConfig, backend: str = "torch") -> LocalModels:
    """The process-wide model set for ``cfg`` and ``backend`` (loaded on first use; a new
    config or backend replaces it)."""
    if not _DEFAULT_MODELS or _DEFAULT_MODELS[0][0] is not cfg or _DEFAULT_MODELS[0][1] != backend:
        _DEFAULT_MODELS[:] = [(cfg, backend, LocalModels(cfg, backend=backend))]
    return _DEFAULT_MODELS[0][2]


def parse_request(request: ScoreRequest | dict[str, Any]) -> ScoreRequest:
    """Validate at the boundary; a ``ValueError`` says what is wrong."""
    if isinstance(request, ScoreRequest):
        return request
    if not isinstance(request, dict):
        raise ValueError(f"a score request must be a mapping, got {type(request).__name__}")
    try:
        return ScoreRequest.model_validate(request)
    except ValidationError as exc:
        raise ValueError(describe_validation_error(exc)) from exc


def describe_validation_error(exc: ValidationError) -> str:
    """One line per problem: where it is and what is wrong."""
    parts = []
    for err in exc.errors()[:10]:
        where = ".".join(str(p) for p in err["loc"]) or "request"
        parts.append(f"{where}: {err['msg']}")
    more = len(exc.errors()) - 10
    if more > 0:
        parts.append(f"... {more} more error(s)")
    return "invalid request: " + "; ".join(parts)


def _timed(name: str, fn: Callable[[], TrackScore | None]) -> TrackScore | None:
    """Run one pure track; an unexpected error becomes a failed track, not a crash."""
    start = time.perf_counter()
    try:
        track = fn()
    except Exception as exc:  # a broken track must not take the whole score down
        return TrackScore(
            name=name,
            status="failed",
            error=f"{type(exc).__name__}: {exc}",
            elapsed_ms=(time.perf_counter() - start) * 1000,
        )
    if track is not None and not track.elapsed_ms:
        track.elapsed_ms = (time.perf_counter() - start) * 1000
    return track


def pure_tracks(
    req: ScoreRequest, cfg: ScoringConfig, *, metric_weights: dict[str, float] | None = None
) -> dict[str, TrackScore]:
    """The CPU-only tracks: reward, heuristics, and evidence / metrics when given.

    ``metric_weights`` are the workflow's ``eval_metrics`` weights, by metric name.
    """
    constraints = list(req.constraints)
    if cfg.reward.infer_instructions:
        constraints += inferred_constraints(req.query, req.constraints)
    runs: dict[str, Callable[[], TrackScore | None]] = {
        "reward": lambda: evaluate_reward(req.content, constraints, cfg.reward),
        "heuristics": lambda: score_heuristics(req.content, req.metadata, cfg.heuristics),
    }
    if req.evidence is not None:
        evidence = req.evidence
        runs["evidence"] = lambda: evidence_track(evidence, cfg.evidence, evidence.previous_score)
    if req.eval_metrics or metric_weights:
        metrics = req.eval_metrics or []
        runs["metrics"] = lambda: metrics_track(
            metrics, raw=req.raw_metrics, weights=metric_weights
        )
    out = {name: _timed(name, fn) for name, fn in runs.items()}
    return {name: t for name, t in out.items() if t is not None}


def model_tracks(
    pairs: list[Pair], track: str, models: ModelProvider, should_stop: ShouldStop | None = None
) -> list[TrackScore]:
    """One model track over many pairs; a model failure marks every pair's track failed.

    ``should_stop`` (None for the workers) is asked before the track, and during it by a
    provider that takes it (:class:`LocalModels`, and the workers' wrapper around it;
    another runs the track to its end); once it says True, :class:`ScoreAbandoned` is
    raised.
    """
    if should_stop is not None and should_stop():
        raise ScoreAbandoned(track)
    start = time.perf_counter()
    try:
        return score_pairs_until(models, track, pairs, should_stop)
    except Exception as exc:  # model errors are reported per track, never raised to fusion
        elapsed = (time.perf_counter() - start) * 1000
        return [
            TrackScore(
                name=track,
                status="failed",
                error=f"{type(exc).__name__}: {exc}",
                elapsed_ms=elapsed,
            )
            for _ in pairs
        ]


def score(
    request: ScoreRequest | dict[str, Any],
    *,
    config: ScoringConfig | None = None,
    models: ModelProvider | None = None,
    tracks: tuple[str, ...] = MODEL_TRACKS,
    backend: str = "torch",
    should_stop: ShouldStop | None = None,
) -> ScoreResult:
    """Score one agent output: model tracks, pure tracks, fused.

    Pure of process settings: ``config`` defaults to the packaged scoring YAML and
    ``backend`` (for the default models) to ``torch``; ``scoregate.score()`` passes
    ``SCOREGATE_SCORING_CONFIG`` and ``SCOREGATE_CPU_BACKEND``.

    Raises:
        ScoreAbandoned: ``should_stop`` said True before or during a model track (see
            :func:`model_tracks`); ``POST /v1/score`` passes one for a client that hangs up.
    """
    req = parse_request(request)
    cfg = config or load_scoring_config()
    check_constraints(req, cfg.reward)
    provider = models or default_models(cfg, backend)
    results: dict[str, TrackScore] = {}
    for track in tracks:
        results[track] = model_tracks([(req.query, req.content)], track, provider, should_stop)[0]
    results.update(pure_tracks(req, cfg))
    return fuse(req, results, cfg)
