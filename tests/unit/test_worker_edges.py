"""What a person running workers meets: step log lines, start-up checks, recovery timings,
queue declarations, `scoregate workers` and `submit` with the broker away."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from scoregate.config import Settings
from scoregate.pipelines.embedded import embedded_context
from tests.fakes import GOOD, SCORES, FakeModels
from tests.fakes import job_dict as _job
from tests.fakes import submit_job as _submit


@pytest.fixture
def env(tmp_path: Path) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'p.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels(SCORES))
    return {"ctx": ctx, "inline": inline}


def test_every_step_of_a_job_logs_one_info_line(env, caplog):
    caplog.set_level(logging.INFO, logger="scoregate.steps")
    job_id = _job(env, _submit(env, GOOD))["id"]
    lines = [r.getMessage() for r in caplog.records if r.name == "scoregate.steps"]
    score = r"score (\d\.\d{3}|-)(?: band \w+)? \(\d+ ms\)$"
    pattern = re.compile(rf"^job {job_id} iteration 1: (\w+(?: \w+)?) " + score)
    steps = [m.group(1) for line in lines if (m := pattern.match(line))]
    assert len(steps) == len(lines) == 5, lines
    assert sorted(steps[:3]) == ["precision", "reward", "semantic"]
    assert steps[3:] == ["fusion", "decide complete"]
