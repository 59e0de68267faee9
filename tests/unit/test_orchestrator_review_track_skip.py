"""Finding 6: a track message whose iteration no longer waits for it (decided, or its
track already landed: the sweeper re-published a message that was only slow) is skipped
before the scoring, with a log line, instead of scoring the answer a second time."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.storage import repository as repo
from tests.fakes import GOOD, SCORES, FakeModels
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 't.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks={})
    return {"ctx": ctx, "inline": inline}


def _refuse(*_: Any, **__: Any) -> Any:
    raise AssertionError("scored again")


def test_a_decided_iteration_is_not_scored_again(env, monkeypatch, caplog):
    job_id = _submit(env, GOOD)
    assert _job(env, job_id)["status"] == "completed"
    monkeypatch.setattr(steps, "model_tracks", _refuse)
    monkeypatch.setattr(steps, "run_pure_tracks", _refuse)
    message = {"job_id": job_id, "n": 1, "query": "Write a helpful answer.", "content": GOOD}
    with caplog.at_level(logging.INFO, logger="scoregate.pipelines.steps"):
        steps.score_model_track(env["ctx"], "semantic", [message])
        request = {"query": "Write a helpful answer.", "content": GOOD}
        steps.score_reward_track(env["ctx"], [{"job_id": job_id, "n": 1, "request": request}])
    assert "semantic track skipped" in caplog.text and "reward track skipped" in caplog.text


def test_a_track_already_landed_is_skipped_and_the_others_still_scored(env, monkeypatch):
    spec = steps.build_spec(env["ctx"], {"request": {"query": "q", "content": GOOD}})
    (job_id,) = steps.submit_jobs(env["ctx"], [spec])
    sem = [m for m in env["inline"].queue if m.queue == "semantic"]
    env["inline"].drain()  # every track lands, the job is decided
    with env["ctx"].session() as s:
        repo.start_iterations(  # a second in-flight iteration, to score in the same batch
            s,
            starts=[(job_id, GOOD, spec.request.model_dump(mode="json"))],
            n=2,
            expected_tracks=("semantic", "precision", "reward"),
        )
    scored: list[Any] = []
    real = steps.model_tracks
    monkeypatch.setattr(
        steps, "model_tracks", lambda todo, *a: scored.extend(todo) or real(todo, *a)
    )
    fresh = {**sem[0].kwargs, "n": 2, "content": "another answer"}
    steps.score_model_track(env["ctx"], "semantic", [sem[0].kwargs, fresh])
    assert scored == [("q", "another answer")]  # iteration 1's copy was skipped
