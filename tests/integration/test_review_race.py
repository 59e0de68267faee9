"""Two reviewers at once on Postgres: exactly one verdict is applied."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import control
from scoregate.pipelines.embedded import embedded_context
from scoregate.storage import db
from tests.fakes import MEH, SCORES, FakeModels, Recorder
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit
from tests.integration.conftest import fresh_database

pytestmark = pytest.mark.integration
REVIEWERS = 8


@pytest.fixture
def env() -> Iterator[dict[str, Any]]:
    url = fresh_database("scoregate_review_race")
    on_pass = Recorder()
    ctx, inline = embedded_context(
        Settings(database_url=SecretStr(url)),
        models=FakeModels(SCORES),
        local_tasks={"on_pass": on_pass},
    )
    yield {"ctx": ctx, "inline": inline, "on_pass": on_pass}
    db.get_engine(url).dispose()


def test_concurrent_verdicts_apply_exactly_one(env):
    job_id = _submit(env, MEH, loop={"gating": True}, on_pass="on_pass")
    assert _job(env, job_id)["status"] == "awaiting_review"

    def verdict(i: int) -> str | None:
        try:
            return control.review(
                env["ctx"], job_id, "approve" if i % 2 else "reject", f"reviewer-{i}"
            )
        except ValueError:
            return None

    with ThreadPoolExecutor(REVIEWERS) as pool:
        outcomes = list(pool.map(verdict, range(REVIEWERS)))
    won = [o for o in outcomes if o is not None]
    assert len(won) == 1, outcomes
    env["inline"].drain()
    job = _job(env, job_id)
    verdicts = [d for d in job["decisions"] if d["action"] in ("approve", "reject")]
    assert len(verdicts) == 1 and job["status"] == won[0]
    assert [e["status"] for e in job["escalations"]] == [
        "approved" if won[0] == "accepted" else "rejected"
    ]
    assert len(env["on_pass"].calls) == (1 if won[0] == "accepted" else 0)
