"""Verdicts are stored; `scoregate calibrate` fits them; `calibrated` uses the live map."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app
from scoregate.config.settings import Settings, get_scoring_config, get_settings
from scoregate.pipelines import api, control, live_map
from scoregate.pipelines.api import client_context
from scoregate.pipelines.embedded import embedded_context
from scoregate.scoring.calibration import Calibrator, apply
from scoregate.storage import repository as repo
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels
from tests.fakes import submit_job as _submit

runner = CliRunner()


def _clear() -> None:
    for fn in (get_settings, get_scoring_config, client_context):
        fn.cache_clear()
    live_map.forget()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    url = f"sqlite:///{tmp_path / 'o.db'}"
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    _clear()
    ctx, inline = embedded_context(Settings(database_url=SecretStr(url)), models=FakeModels(SCORES))
    yield {"ctx": ctx, "inline": inline}
    _clear()


def _verdicts(env: dict[str, Any]) -> list[tuple[str, int, float, bool, str]]:
    with env["ctx"].session() as s:
        return [(v.job_id, v.n, v.score, v.accepted, v.actor) for v in repo.list_verdicts(s)]


def _iteration(env: dict[str, Any], job_id: str, n: int = 1) -> Any:
    with env["ctx"].session() as s:
        return repo.get_iteration(s, job_id=job_id, n=n)


def test_a_reviewers_approve_and_reject_are_stored_as_verdicts(env):
    approved = _submit(env, MEH, loop={"gating": True})
    rejected = _submit(env, MEH, loop={"gating": True})
    control.review(env["ctx"], approved, "approve", "alice")
    control.review(env["ctx"], rejected, "reject", "bob")
    score = _iteration(env, approved).score
    assert _verdicts(env) == [
        (approved, 1, score, True, "alice"),
        (rejected, 1, score, False, "bob"),
    ]


def test_cancel_is_not_a_verdict_on_the_output(env):
    job_id = _submit(env, MEH, loop={"gating": True})
    control.review(env["ctx"], job_id, "cancel", "alice")
    assert _verdicts(env) == []


def test_an_orchestrator_records_the_outcome_of_the_latest_iteration(env):
    job_id = _submit(env, GOOD)
    api.record_outcome(job_id, accepted=False, actor="orchestrator")
    assert _verdicts(env) == [(job_id, 1, _iteration(env, job_id).score, False, "orchestrator")]
    with pytest.raises(LookupError, match="no job"):
        api.record_outcome("missing", accepted=True, actor="o")
    with pytest.raises(LookupError, match="has no iteration 4"):
        api.record_outcome(job_id, accepted=True, actor="o", n=4)


def _seed_verdicts(env: dict[str, Any], n: int) -> None:
    """``n`` verdicts on one job: accepted with probability score**2 (an overconfident score)."""
    job_id = _submit(env, BAD)
    rng = np.random.default_rng(7)
    with env["ctx"].session() as s:
        for i in range(n):
            score = float(rng.uniform(0, 1))
            accepted = bool(rng.uniform(0, 1) < score**2)
            repo.add_verdict(s, job_id=job_id, n=i + 1, score=score, accepted=accepted)


def test_calibrate_refuses_below_the_minimum(env):
    _seed_verdicts(env, 49)
    out = runner.invoke(app, ["calibrate"])
    assert out.exit_code == 1
    assert "only 49 verdict(s) recorded; calibration needs at least 50" in out.output
    with env["ctx"].session() as s:
        assert repo.latest_calibration_map(s) is None


@pytest.mark.parametrize("method", ["isotonic", "platt"])
def test_calibrate_stores_a_versioned_map_that_new_scores_use(env, method):
    _seed_verdicts(env, 200)
    before = _iteration(env, _submit(env, MEH))
    out = runner.invoke(app, ["calibrate", "--method", method, "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)
    assert summary["version"] == 1 and summary["verdicts"] == 200
    assert summary["ece_after"] < summary["ece_before"]
    with env["ctx"].session() as s:
        stored = repo.latest_calibration_map(s)
        assert stored is not None and stored.kind == method and stored.n_samples == 200
    after = _iteration(env, _submit(env, MEH))
    mapped = round(apply(Calibrator(kind=method, params=stored.params), after.score), 4)
    assert after.score == before.score and after.calibrated == mapped
    assert after.calibrated < before.calibrated  # the map corrects the overconfident score
    assert after.result["calibrated"] == mapped
    again = runner.invoke(app, ["calibrate", "--method", method])
    assert "stored calibration map v2" in again.stdout
    assert "expected calibration error" in again.stdout


def test_calibrate_rejects_an_unknown_method(env):
    out = runner.invoke(app, ["calibrate", "--method", "spline"])
    assert out.exit_code == 2 and "--method must be one of isotonic, platt" in out.output


def test_the_live_map_is_cached_per_database(env):
    with env["ctx"].session() as s:
        assert live_map.live_calibrator(s) is None
        repo.save_calibration_map(s, kind="platt", params={"a": 5.0, "b": -3.0}, n_samples=60)
        assert live_map.live_calibrator(s) is None  # cached until the TTL or forget()
        live_map.forget()
        assert live_map.live_calibrator(s) == Calibrator(kind="platt", params={"a": 5.0, "b": -3.0})
