"""A ``task_type`` or ``role`` one edit from one the scoring config names is refused with
what was meant, on every surface (Python, CLI, HTTP, job bodies), not scored silently with
the default profile."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config.settings import Settings
from scoregate.pipelines import steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService, create_app
from tests.fakes import SCORES, FakeModels
from tests.server_client import AppClient

TYPO = {"query": "Write a poem about rain", "content": "Rain taps the window, soft and slow."}


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'typo.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES))
    return {"ctx": ctx, "client": AppClient(create_app(ApiService(ctx, inline)))}


@pytest.mark.parametrize(("key", "value", "meant"), [("task_type", "creatve", "creative")])
def test_a_job_body_with_a_misspelt_value_is_refused(env, key, value, meant):
    body = {"request": {**TYPO, "metadata": {key: value}}}
    with pytest.raises(ValueError, match=f"did you mean '{meant}'"):
        steps.build_spec(env["ctx"], body)
    r = env["client"].post("/v1/jobs", json=body)
    assert r.status_code == 422 and f"did you mean '{meant}'" in r.json()["detail"], r.text


def test_http_score_refuses_a_misspelt_value_and_takes_a_known_or_own_one(env):
    r = env["client"].post("/v1/score", json={**TYPO, "metadata": {"task_type": "creatve"}})
    assert r.status_code == 422 and "did you mean 'creative'" in r.json()["detail"], r.text
    for value in ("creative", "quarterly-report"):  # known, or far from every known one
        r = env["client"].post("/v1/score", json={**TYPO, "metadata": {"task_type": value}})
        assert r.status_code == 200, r.text
