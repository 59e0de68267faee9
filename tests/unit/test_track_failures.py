"""A model track that fails is seen: a WARNING per job, a counter by track and reason, a
model pool that refuses to start without its model, and a model load that the soft time
limit cannot leave half-done."""

from __future__ import annotations

import importlib
import logging
import os
import signal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from prometheus_client import CollectorRegistry
from pydantic import SecretStr

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.config.settings import Settings
from scoregate.pipelines import steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.result import ScoreResult, TrackScore
from scoregate.storage import repository as repo
from scoregate.telemetry import prometheus as obs
from scoregate.workers import models as worker_models
from scoregate.workers import startup
from scoregate.workers.models import WatchedModels, score_pool, soft_limit_held
from tests.fakes import FakeModels

# --- the counter -------------------------------------------------------------------------------


def _fused(**tracks: TrackScore) -> ScoreResult:
    return ScoreResult(
        score=0.5, score_100=50, band="AMBER", action="review", calibrated=0.5, tracks=tracks
    )


def test_each_track_a_fused_score_went_without_is_counted_by_reason() -> None:
    registry = CollectorRegistry()
    m = obs.build_metrics(registry)
    ok = TrackScore(name="reward", score=0.9)
    soft = TrackScore(name="semantic", status="failed", error="SoftTimeLimitExceeded: ()")
    missing = TrackScore(name="semantic", status="failed", error="ValueError: model 'x' ...")
    late = TrackScore(name="precision", status="timeout", error="took too long: 31 s")
    obs.record_fused(_fused(semantic=soft, reward=ok), into=m)
    obs.record_fused(_fused(semantic=missing, precision=late, reward=ok), into=m)

    def count(track: str, reason: str) -> float | None:
        return registry.get_sample_value(
            "scoregate_track_failures_total", {"track": track, "reason": reason}
        )

    assert count("semantic", "SoftTimeLimitExceeded") == 1.0
    assert count("semantic", "ValueError") == 1.0
    assert count("precision", "timeout") == 1.0  # free text is no label: the status is
    assert count("reward", "ok") is None


# --- the WARNING per job ------------------------------------------------------------------------


class _Broken(FakeModels):
    def score_pairs(self, track: str, pairs: list[tuple[str, str]]) -> Any:
        raise ValueError(f"model '/nowhere/{track}' not found")


def test_a_failed_track_is_a_warning_naming_the_job_track_and_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 't.db'}"))
    models = WatchedModels(_Broken(), lambda pool: [pool])
    ctx, _ = embedded_context(settings, models=models)  # type: ignore[arg-type]
    spec = steps.build_spec(ctx, {"request": {"query": "Name a fish", "content": "Trout."}})
    job_id = steps.submit_jobs(ctx, [spec])[0]
    item = {"job_id": job_id, "n": 1, "query": "Name a fish", "content": "Trout."}
    caplog.set_level(logging.INFO)
    score_pool(ctx, "semantic", [item])
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, caplog.text
    line = warnings[0].getMessage()
    assert line.startswith(f"job {job_id} iteration 1: semantic track failed: ValueError: model")
    assert line.endswith("; the job is fused without it")
    with ctx.session() as s:
        assert repo.track_results(s, job_id=job_id, n=1)["semantic"].status == "failed"


# --- a model load the soft time limit cannot cut -------------------------------------------


class _SoftLimit(Exception):
    pass


@pytest.fixture
def soft_limit_handler() -> Any:
    def fire(signum: int, frame: Any) -> None:
        raise _SoftLimit("soft time limit")

    previous = signal.signal(signal.SIGUSR1, fire)
    yield
    signal.signal(signal.SIGUSR1, previous)


class _SlowLoad:
    """Loads a model in two halves; the soft limit fires between them."""

    def __init__(self) -> None:
        self.loaded: dict[str, str] = {}

    def model(self, track: str) -> str:
        if track not in self.loaded:
            os.kill(os.getpid(), signal.SIGUSR1)
            half = "half"  # the signal's handler runs at the next bytecode
            self.loaded[track] = half + " and whole"
        return self.loaded[track]

    def score_pairs(self, track: str, pairs: list[tuple[str, str]]) -> list[TrackScore]:
        assert self.model(track) == "half and whole"
        return [TrackScore(name=track, score=0.8) for _ in pairs]


@pytest.mark.usefixtures("soft_limit_handler")
def test_the_soft_limit_waits_for_a_model_load_and_the_next_batch_scores() -> None:
    inner = _SlowLoad()
    models = WatchedModels(inner, lambda pool: [pool])
    with pytest.raises(_SoftLimit):
        models.score_pairs("semantic", [("q", "c")])
    assert inner.loaded == {"semantic": "half and whole"}  # whole, not half
    assert models.failures == {("q", "c"): "_SoftLimit: soft time limit"}
    assert models.score_pairs("semantic", [("q", "c")])[0].score == 0.8


@pytest.mark.usefixtures("soft_limit_handler")
def test_after_a_load_the_soft_limit_handler_is_back_in_place() -> None:
    before = signal.getsignal(signal.SIGUSR1)
    with soft_limit_held():
        assert signal.getsignal(signal.SIGUSR1) is not before
    assert signal.getsignal(signal.SIGUSR1) is before


# --- the model at start -------------------------------------------------------------------------


def test_a_model_pool_without_its_model_refuses_to_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    overlay = tmp_path / "bad.yaml"
    overlay.write_text(f"semantic:\n  model: {tmp_path / 'no-such-model'}\n")
    config = load_scoring_config(str(overlay))
    line = worker_models.missing_model_line(["semantic"], config)
    assert line is not None and "\n" not in line
    assert line.startswith("scoregate: the semantic pool needs the semantic model: model '")
    assert "no-such-model' not found" in line
    assert worker_models.missing_model_line(["reward", "fusion"], config) is None


@pytest.mark.parametrize(
    ("files", "says"),
    [
        ({"config.json": "{}"}, "is not a model directory this scoregate can load (Unrecognized"),
        ({"config.json": '{"model_type": "bert"}'}, "holds no weights (*.safetensors or *.bin)"),
    ],
)
def test_a_model_pool_whose_model_cannot_load_refuses_to_start(
    tmp_path: Path, files: dict[str, str], says: str
) -> None:
    """A folder that is there but is no model used to give a ready worker that failed
    every track; the packaged models pass."""
    folder = tmp_path / "model"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    overlay = tmp_path / "broken.yaml"
    overlay.write_text(f"semantic:\n  model: {folder}\n")
    line = worker_models.missing_model_line(["semantic"], load_scoring_config(str(overlay)))
    assert line is not None and "\n" not in line and says in line, line
    packaged = load_scoring_config()
    assert worker_models.missing_model_line(["semantic", "precision"], packaged) is None


def test_the_start_up_check_exits_2_and_gives_model_pools_time_to_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from scoregate.config import settings as settings_module

    config = load_scoring_config()
    monkeypatch.setattr(settings_module, "get_scoring_config", lambda: config)
    monkeypatch.setattr(worker_models, "missing_model_line", lambda pools, cfg: None)
    conf = SimpleNamespace(worker_proc_alive_timeout=4.0)
    startup.refuse_model_pools_without_their_model(conf, ["semantic"])
    assert conf.worker_proc_alive_timeout == worker_models.PROCESS_START_S
    untouched = SimpleNamespace(worker_proc_alive_timeout=4.0)
    startup.refuse_model_pools_without_their_model(untouched, ["reward"])
    assert untouched.worker_proc_alive_timeout == 4.0
    monkeypatch.setattr(worker_models, "missing_model_line", lambda pools, cfg: "scoregate: no")
    with pytest.raises(SystemExit) as info:
        startup.refuse_model_pools_without_their_model(conf, ["precision"])
    assert info.value.code == startup.EXIT_CONFIG
    assert capsys.readouterr().err == "error: no\n"


def test_a_model_pool_process_loads_its_models_as_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scoregate.workers import runtime

    loaded: list[list[str]] = []

    class _Models(WatchedModels):
        def load(self, pools: list[str]) -> None:
            loaded.append(pools)

    queues = SimpleNamespace(consume_from={"precision": 1, "reward": 1})
    app = SimpleNamespace(amqp=SimpleNamespace(queues=queues))
    monkeypatch.setattr(importlib.import_module("scoregate.workers.app"), "get_app", lambda: app)
    ctx = SimpleNamespace(models=_Models(FakeModels(), lambda pool: [pool]))
    monkeypatch.setattr(runtime, "get_context", lambda: ctx)
    runtime._load_models()
    assert loaded == [["precision"]]
    queues.consume_from = {"reward": 1, "control": 1}
    runtime._load_models()
    assert loaded == [["precision"]]  # light pools load nothing


# --- a track that never lands: the sweeper names it and counts it -------------------------------


def test_the_sweeper_names_what_it_republishes_and_counts_the_stuck_iterations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from scoregate.pipelines import control, sweeper

    registry = CollectorRegistry()
    monkeypatch.setattr(obs, "_default", obs.build_metrics(registry))
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 's.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels())
    specs = [
        steps.build_spec(ctx, {"request": {"query": "q", "content": f"a{i}"}}) for i in range(5)
    ]
    jobs = steps.submit_jobs(ctx, specs)
    inline.queue.clear()  # a pool is down: nothing came of the messages
    caplog.set_level(logging.WARNING, logger="scoregate.pipelines.sweeper")
    assert control.sweep(ctx, older_than_s=0) == 15
    line = next(r.getMessage() for r in caplog.records if "re-publishing" in r.getMessage())
    assert line.startswith("sweeper: re-publishing 15 message(s): job ")
    assert f"job {jobs[0]} iteration 1: scoregate.semantic.score" in line
    assert f"job {jobs[0]} iteration 1: scoregate.reward.score" in line
    assert line.count("job ") == sweeper.NAMED_MESSAGES and line.endswith("; and 5 more")
    assert registry.get_sample_value("scoregate_stuck_iterations") == 5.0
    inline.drain()  # the pool is back
    control.sweep(ctx, older_than_s=0)
    assert registry.get_sample_value("scoregate_stuck_iterations") == 0.0


# --- latency metrics that say what this run cost -------------------------------------------------


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> CollectorRegistry:
    registry = CollectorRegistry()
    monkeypatch.setattr(obs, "_default", obs.build_metrics(registry))
    return registry


def test_a_cached_score_carries_the_lookup_time_and_counts_a_hit(registry) -> None:
    import fakeredis

    from scoregate.workers.cache import RedisScoreCache

    cache = RedisScoreCache(fakeredis.FakeRedis(), ttl_s=60, prefix="scoregate:pair:")
    first = TrackScore(name="semantic", score=0.927, elapsed_ms=13292.0)
    cache.set("semantic:abc", first.model_dump_json().encode())
    raw = cache.get("semantic:abc")
    assert raw is not None
    hit = TrackScore.model_validate_json(raw)
    assert hit.score == 0.927 and 0 <= hit.elapsed_ms < 1000  # not the first run's 13 s
    assert cache.get("semantic:nothing") is None
    hits = registry.get_sample_value("scoregate_track_cache_hits_total", {"track": "semantic"})
    assert hits == 1.0


def test_a_track_of_0_ms_is_observed(registry) -> None:
    reward = TrackScore(name="reward", score=1.0, elapsed_ms=0.0)
    obs.record_fused(_fused(reward=reward))
    count = registry.get_sample_value("scoregate_track_latency_seconds_count", {"track": "reward"})
    assert count == 1.0


def test_the_sweep_is_no_queue_wait_of_the_control_pool(registry) -> None:
    from scoregate.workers import telemetry as worker_metrics

    def task(name: str) -> Any:
        request = SimpleNamespace(
            get=lambda key: 100.0 if key == worker_metrics.SENT_HEADER else None,
            delivery_info={"routing_key": "control"},
        )
        return SimpleNamespace(name=name, request=request)

    worker_metrics._observe_wait(task=task("scoregate.control.sweep"), args=())
    waits = {"queue": "control"}
    assert registry.get_sample_value("scoregate_queue_wait_seconds_count", waits) is None
    worker_metrics._observe_wait(task=task("scoregate.control.submit"), args=())
    assert registry.get_sample_value("scoregate_queue_wait_seconds_count", waits) == 1.0


# --- one step line per iteration ------------------------------------------------------------------


def test_the_original_and_the_sweeper_s_copy_in_one_batch_are_scored_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scoregate.workers import batch_runner, reliability

    monkeypatch.setattr(batch_runner, "skip_recorded", lambda name, items: items)
    guard = reliability.DeliveryGuard(None, limit=3)
    monkeypatch.setattr(batch_runner, "delivery_guard", lambda: guard)
    pair = {"query": "q", "content": "c"}

    def message(task_id: str, job_id: str) -> Any:
        kwargs = {"job_id": job_id, "n": 1, **pair}
        return SimpleNamespace(id=task_id, args=(), kwargs=kwargs, request_dict={})

    batches: list[list[str]] = []
    task = SimpleNamespace(name="scoregate.semantic.score")
    requests = [message("t1", "job-a"), message("t2", "job-b"), message("t1-copy", "job-a")]
    out = batch_runner.run_batch(
        task,
        requests,
        ("job_id", "n", "query", "content"),
        lambda items: batches.append([i["job_id"] for i in items]),
    )
    assert batches == [["job-a", "job-b"]]  # one score, one step line for job-a
    assert out == {"failed": {}, "retried": {}}
