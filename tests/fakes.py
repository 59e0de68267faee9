"""Fakes behind the pipeline's Protocols: deterministic model tracks, recording tasks."""

from __future__ import annotations

from typing import Any

from scoregate.schemas.result import TrackScore


class FakeModels:
    """Scores a pair from a table keyed by content (default ``default``); counts calls."""

    def __init__(self, scores: dict[str, float] | None = None, default: float = 0.5) -> None:
        self.scores = scores or {}
        self.default = default
        self.calls: list[tuple[str, int]] = []
        self.fail_track: str | None = None

    def score_pairs(self, track: str, pairs: list[tuple[str, str]]) -> list[TrackScore]:
        self.calls.append((track, len(pairs)))
        if track == self.fail_track:
            raise RuntimeError(f"{track} model unavailable")
        return [
            TrackScore(
                name=track,
                score=self.scores.get(content, self.default),
                reasons=[f"fake {track}"],
                elapsed_ms=1.0,
            )
            for _, content in pairs
        ]


class Recorder:
    """A stand-in for an allow-listed task: records every call's kwargs."""

    def __init__(self, returns: Any = None) -> None:
        self.calls: list[dict[str, Any]] = []
        self.returns = returns

    def __call__(self, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        if callable(self.returns):
            return self.returns(**kwargs)
        return self.returns


#: Contents the fake models score high, low and in between.
GOOD, BAD, MEH = "a faithful answer", "a wrong answer", "a so-so answer"
SCORES = {GOOD: 0.99, BAD: 0.10, MEH: 0.70}


class DictCache:
    """An in-memory stand-in for the Redis byte caches (embeddings, pair results)."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self.data.get(key)

    def set(self, key: str, value: bytes) -> None:
        self.data[key] = value


def submit_job(env: dict[str, Any], content: str, **body: Any) -> str:
    """Submit one job to an embedded pipeline ``{"ctx", "inline"}`` and run it to its next wait."""
    from scoregate.pipelines import steps

    request = {"query": "Write a helpful answer.", "content": content}
    spec = steps.build_spec(env["ctx"], {"request": request, **body})
    job_id = steps.submit_jobs(env["ctx"], [spec])[0]
    env["inline"].drain()
    return job_id


def job_dict(env: dict[str, Any], job_id: str) -> dict[str, Any]:
    """The job's record as ``scoregate.get_job`` returns it."""
    from scoregate.storage import repository as repo

    with env["ctx"].session() as s:
        job = repo.get_job(s, job_id=job_id)
        assert job is not None, f"no job {job_id}"
        return repo.job_to_dict(job)


def embedded_client(tmp_path: Any, monkeypatch: Any, tasks: dict[str, Recorder]) -> tuple[Any, Any]:
    """An embedded pipeline on a fresh SQLite file under ``tmp_path`` with fake models and
    ``tasks`` as its local agent and hook tasks, installed as the Python API's context
    (``scoregate.submit``, ``get_job``...); returns ``(ctx, inline)``."""
    from pydantic import SecretStr

    from scoregate.config.settings import Settings
    from scoregate.pipelines import api
    from scoregate.pipelines.embedded import embedded_context

    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'jobs.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES), local_tasks=dict(tasks))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    return ctx, inline
