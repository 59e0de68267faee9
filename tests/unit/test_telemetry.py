"""Prometheus recording functions and the worker's metrics plumbing, without servers."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.schemas.result import ScoreResult, TrackScore
from scoregate.telemetry import prometheus as obs
from scoregate.workers import telemetry as worker_metrics
from tests.fakes import FakeModels


@pytest.fixture
def reg() -> tuple[CollectorRegistry, obs.Metrics]:
    registry = CollectorRegistry()
    return registry, obs.build_metrics(registry)


def _result(score: float, band: str) -> ScoreResult:
    return ScoreResult(
        score=score,
        score_100=round(score * 100),
        band=band,
        action="review",
        calibrated=score,
        tracks={
            "semantic": TrackScore(name="semantic", score=0.9, elapsed_ms=40.0),
            "precision": TrackScore(name="precision", status="failed", error="down"),
        },
        components={"semantic": 0.9, "reasoning": 0.55},
    )


def test_fused_score_counts_by_band_and_observes_components_and_latency(reg):
    registry, m = reg
    obs.record_fused(_result(0.42, "RED"), into=m)
    obs.record_fused(_result(0.95, "GREEN"), into=m)
    obs.record_fused(_result(0.30, "RED"), into=m)
    assert registry.get_sample_value("scoregate_scores_total", {"band": "RED"}) == 2
    assert registry.get_sample_value("scoregate_scores_total", {"band": "GREEN"}) == 1
    assert registry.get_sample_value("scoregate_score_count") == 3
    assert registry.get_sample_value("scoregate_score_bucket", {"le": "0.45"}) == 2
    reasoning = {"component": "reasoning"}
    assert registry.get_sample_value("scoregate_component_score", reasoning) == 0.55
    latency = {"track": "semantic", "le": "0.05"}
    assert registry.get_sample_value("scoregate_track_latency_seconds_bucket", latency) == 3
    # A failed track took no measurable time and is not observed.
    failed = {"track": "precision"}
    assert registry.get_sample_value("scoregate_track_latency_seconds_count", failed) is None


def test_decisions_exits_and_iterations_per_job(reg):
    registry, m = reg
    obs.record_decision("iterate", None, 1, into=m)
    obs.record_decision("iterate", None, 2, into=m)
    obs.record_decision("exit", "max_iterations_reached", 3, into=m)
    obs.record_decision("accept", None, 1, into=m)
    value = registry.get_sample_value
    assert value("scoregate_decisions_total", {"action": "iterate"}) == 2
    assert value("scoregate_loop_exits_total", {"reason": "max_iterations_reached"}) == 1
    # Only the terminal decisions (exit after 3, accept after 1) count a job's iterations.
    assert value("scoregate_iterations_per_job_count") == 2
    assert value("scoregate_iterations_per_job_sum") == 4
    assert value("scoregate_iterations_per_job_bucket", {"le": "1.0"}) == 1


def test_queue_wait_clamps_clock_skew_to_zero(reg):
    registry, m = reg
    obs.record_queue_wait("semantic", 0.3, into=m)
    obs.record_queue_wait("semantic", -2.0, into=m)
    value = registry.get_sample_value
    assert value("scoregate_queue_wait_seconds_count", {"queue": "semantic"}) == 2
    assert value("scoregate_queue_wait_seconds_bucket", {"queue": "semantic", "le": "0.01"}) == 1


def test_recording_never_raises(caplog):
    broken = SimpleNamespace(scores=None)
    obs.record_fused(_result(0.5, "RED"), into=broken)  # type: ignore[arg-type]
    obs.record_decision("accept", None, 1, into=broken)  # type: ignore[arg-type]
    assert "could not record" in caplog.text


def test_metric_names_in_the_exposition(reg):
    registry, m = reg
    obs.record_fused(_result(0.8, "AMBER"), into=m)
    text = generate_latest(registry).decode()
    assert 'scoregate_scores_total{band="AMBER"} 1.0' in text
    assert "# HELP scoregate_queue_wait_seconds" in text


def test_a_pipeline_run_counts_its_band_on_the_process_registry(tmp_path: Path):
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'm.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels({"bad": 0.1}))
    red, complete = {"band": "RED"}, {"action": "complete"}
    before = REGISTRY.get_sample_value("scoregate_scores_total", red) or 0
    done = REGISTRY.get_sample_value("scoregate_decisions_total", complete) or 0
    request = {"query": "Write a helpful answer.", "content": "bad"}
    steps.submit_jobs(ctx, [steps.build_spec(ctx, {"request": request})])
    inline.drain()
    assert REGISTRY.get_sample_value("scoregate_scores_total", red) == before + 1
    assert REGISTRY.get_sample_value("scoregate_decisions_total", complete) == done + 1


# --- the worker side ----------------------------------------------------------------------------


def test_sent_times_of_a_plain_task_and_of_a_batch():
    request = SimpleNamespace(
        get=lambda key: 100.0 if key == worker_metrics.SENT_HEADER else None,
        delivery_info={"routing_key": "fusion"},
    )
    assert list(worker_metrics.sent_times(SimpleNamespace(request=request), ())) == [
        ("fusion", 100.0)
    ]
    semantic = {"routing_key": "semantic"}
    batch = [
        SimpleNamespace(request_dict={"scoregate_sent_at": 5.0}, delivery_info=semantic),
        SimpleNamespace(request_dict={}, delivery_info=semantic),  # not stamped
    ]
    assert list(worker_metrics.sent_times(None, (batch,))) == [("semantic", 5.0)]


def test_publishing_stamps_the_sent_time_once():
    headers: dict[str, float] = {}
    worker_metrics._stamp_sent(headers=headers)
    first = headers[worker_metrics.SENT_HEADER]
    worker_metrics._stamp_sent(headers=headers)
    assert headers[worker_metrics.SENT_HEADER] == first > 0


def test_multiproc_dir_is_made_or_emptied_and_then_used(tmp_path: Path, monkeypatch):
    from prometheus_client import values

    monkeypatch.setattr(values, "ValueClass", values.ValueClass)  # restored after the test
    monkeypatch.delenv(worker_metrics.MULTIPROC_ENV, raising=False)
    made = worker_metrics.prepare_multiproc_dir()
    assert made.is_dir() and os.environ[worker_metrics.MULTIPROC_ENV] == str(made)
    given = tmp_path / "prom"
    given.mkdir()
    (given / "counter_123.db").write_bytes(b"stale")
    monkeypatch.setenv(worker_metrics.MULTIPROC_ENV, str(given))
    assert worker_metrics.prepare_multiproc_dir() == given
    assert list(given.iterdir()) == []
    # prometheus_client was imported long before: metrics made now still go to the directory.
    obs.record_fused(_result(0.5, "RED"), into=obs.build_metrics(CollectorRegistry()))
    assert {f.name.split("_")[0] for f in given.iterdir()} >= {"counter", "histogram"}
    made.rmdir()
