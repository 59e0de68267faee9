"""Finding 4 on Postgres: of concurrent identical submissions with one idempotency key,
exactly one is told it created the job (HTTP 202, ``replayed: false``); the others replay."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService
from scoregate.storage import db
from tests.fakes import GOOD, SCORES, FakeModels
from tests.integration.conftest import fresh_database

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def pg() -> Iterator[str]:
    url = fresh_database("scoregate_orchestrator_race")
    db.upgrade(url)
    yield url
    db.get_engine(url).dispose()


def test_one_of_ten_concurrent_submits_creates_the_job(pg):
    settings = Settings(database_url=SecretStr(pg))
    ctx, _ = embedded_context(settings, models=FakeModels(SCORES), local_tasks={})
    service = ApiService(ctx)  # no in-process lock: the calls race as HTTP replicas do
    body = {"request": {"query": "Summarise in one line.", "content": GOOD}}
    for attempt in range(3):
        key = f"race-{attempt}"
        start = threading.Barrier(10)
        answers: list[Any] = []

        def submit(
            key: str = key, start: threading.Barrier = start, answers: list[Any] = answers
        ) -> None:
            start.wait()
            answers.append(service.submit({**body, "idempotency_key": key}))

        threads = [threading.Thread(target=submit) for _ in range(10)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len({job_id for job_id, *_ in answers}) == 1
        assert sorted(replayed for _, _, replayed, *_ in answers) == [False] + [True] * 9
