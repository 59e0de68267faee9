"""The model pools' models in a worker: resolved at start, loaded before the first batch,
never left half-loaded, and every failed track said at WARNING.

- At start (main process) each model a pool needs is resolved to its files; a model that
  is not there refuses the worker (exit 2, one line), instead of failing every batch.
- Each pool process loads its models as it starts, before it takes a batch (the
  worker allows it :data:`PROCESS_START_S` to come up).
- A load that does happen inside a task (the start-up load failed) is not cut short by
  the soft time limit: the limit is held back until the load is done, then raised. A
  load interrupted half-way leaves torch's and transformers' imports broken for the life
  of the process (every later batch failed in milliseconds until a restart).
- A track the model fails is logged at WARNING with the job, the track and the error;
  the job is fused without it (``scoring.engine.model_tracks``).
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scoregate.config.scoring_yaml import ScoringConfig
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.steps import score_model_track
from scoregate.scoring.engine import ShouldStop, score_pairs_until

log = logging.getLogger(__name__)

#: Seconds a model pool's process may take to come up (its models load then); Celery's
#: default of 4 s would kill it and fork another, forever.
PROCESS_START_S = 300.0
#: Billiard's soft time limit signal (``billiard.pool.SIG_SOFT_TIMEOUT``).
SOFT_LIMIT_SIGNAL = getattr(signal, "SIGUSR1", None)

Pair = tuple[str, str]


def needed_models(pool: str, config: ScoringConfig) -> list[str]:
    """The model tracks a pool's process loads: its own, and the embedder precision uses
    for its exclusion check."""
    if pool == "semantic":
        return ["semantic"]
    if pool == "precision":
        precision = config.precision
        uses_embedder = precision.exclusion_check and precision.member_min_cosine < 1.0
        return ["precision", "semantic"] if uses_embedder else ["precision"]
    return []


#: Weight files a model directory must hold one of (anywhere under it).
WEIGHT_FILES = ("*.safetensors", "*.bin")


def missing_model_line(pools: list[str], config: ScoringConfig) -> str | None:
    """The refusal of a model pool whose model is not on disk, or not a model (a config
    that names no known architecture, no weights); None when every one is. Cheap: only
    the model's config is read here; its processes load the weights as they start."""
    from scoregate.scoring.encoders import resolve_model_path

    for pool in pools:
        for track in needed_models(pool, config):
            try:
                unusable = model_dir_problem(resolve_model_path(getattr(config, track).model))
            except ValueError as exc:
                unusable = str(exc)
            if unusable is not None:
                return f"scoregate: the {pool} pool needs the {track} model: {unusable}"
    return None


def model_dir_problem(path: str) -> str | None:
    """Why the directory at ``path`` cannot be loaded as a model, or None."""
    from transformers import AutoConfig

    try:
        AutoConfig.from_pretrained(path, local_files_only=True)
    except (ValueError, OSError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"{path} is not a model directory this scoregate can load ({first})"
    root = Path(path)
    if not any(next(root.rglob(pattern), None) for pattern in WEIGHT_FILES):
        return f"{path} holds no weights ({' or '.join(WEIGHT_FILES)}): copy the whole model"
    return None


@contextmanager
def soft_limit_held() -> Iterator[None]:
    """Hold the soft time limit back during the block, then raise it if it fired.

    Only the main thread can swap a signal handler; elsewhere the block runs unguarded.
    """
    if SOFT_LIMIT_SIGNAL is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[tuple[int, Any]] = []
    previous = signal.signal(SOFT_LIMIT_SIGNAL, lambda signum, frame: fired.append((signum, frame)))
    try:
        yield
    finally:
        signal.signal(SOFT_LIMIT_SIGNAL, previous)
    if fired and callable(previous):
        previous(*fired[0])


class WatchedModels:
    """A model provider that loads whole or not at all, and remembers what failed.

    ``needs`` names the models a track loads (:func:`needed_models`). ``failures`` maps
    each pair of the last failed call to its error, for the log lines of :func:`score_pool`.
    """

    def __init__(self, inner: Any, needs: Callable[[str], list[str]]) -> None:
        self.inner = inner
        self._needs = needs
        self.failures: dict[Pair, str] = {}

    def load(self, pools: list[str]) -> None:
        """Load every model the ``pools`` need, each under :func:`soft_limit_held`."""
        load = getattr(self.inner, "model", None)
        if load is None:  # a provider without models to load (tests' fakes)
            return
        for track in dict.fromkeys(t for pool in pools for t in self._needs(pool)):
            with soft_limit_held():
                load(track)

    def score_pairs(
        self, track: str, pairs: list[Pair], should_stop: ShouldStop | None = None
    ) -> Any:
        """The inner provider's scores; ``should_stop`` is passed on to it (``POST
        /v1/score`` of a server with a broker scores through this wrapper)."""
        try:
            self.load([track])
            return score_pairs_until(self.inner, track, pairs, should_stop)
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            self.failures.update(dict.fromkeys(pairs, error))
            raise


def score_pool(ctx: PipelineContext, track: str, items: list[dict[str, Any]]) -> None:
    """Score a batch of a model pool; log each job whose track failed, at WARNING."""
    models = ctx.models
    failures = models.failures if isinstance(models, WatchedModels) else {}
    failures.clear()
    score_model_track(ctx, track, items)
    for item in items:
        error = failures.get((str(item["query"]), str(item["content"])))
        if error is not None:
            log.warning(
                "job %s iteration %s: %s track failed: %s; the job is fused without it",
                item["job_id"],
                item["n"],
                track,
                error[:500],
            )
