"""`scoregate report` and `rethreshold` over a record written by the in-process pipeline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.cli import app
from scoregate.config.scoring_yaml import ActionThresholds, load_scoring_config
from scoregate.config.settings import Settings, get_scoring_config, get_settings
from scoregate.pipelines.api import client_context
from scoregate.pipelines.embedded import embedded_context
from scoregate.reports import window as reporting
from scoregate.storage import stats
from scoregate.storage.tables import utcnow
from tests.fakes import BAD, GOOD, MEH, SCORES, FakeModels, Recorder
from tests.fakes import submit_job as _submit

LOOP = {"enabled": True, "threshold": 0.8, "max_iterations": 3}
runner = CliRunner()


def _clear() -> None:
    for fn in (get_settings, get_scoring_config, client_context):
        fn.cache_clear()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """An embedded pipeline on a SQLite file that the CLI commands also read."""
    url = f"sqlite:///{tmp_path / 'r.db'}"
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    _clear()
    agent = Recorder(returns=BAD)
    ctx, inline = embedded_context(
        Settings(database_url=SecretStr(url)),
        models=FakeModels(SCORES),
        local_tasks={"agent": agent},
    )
    yield {"ctx": ctx, "inline": inline}
    _clear()


@pytest.fixture
def record(env: dict[str, Any]) -> dict[str, Any]:
    """One accepted job, one that exhausts 3 iterations (3 RED scores), one AMBER."""
    ids = {
        "good": _submit(env, GOOD, loop=LOOP, agent="agent"),
        "bad": _submit(env, BAD, loop=LOOP, agent="agent"),
        "meh": _submit(env, MEH),
    }
    return {**env, "ids": ids}


def test_parse_window():
    assert reporting.parse_window("30m") == timedelta(minutes=30)
    assert reporting.parse_window("7d") == timedelta(days=7)
    with pytest.raises(ValueError, match="looks like 30m, 1h"):
        reporting.parse_window("1 hour")


def test_window_report_counts_bands_iterations_exits_and_alerts(record):
    with record["ctx"].session() as s:
        rep = reporting.window_report(s, load_scoring_config(), window="1h")
    assert rep.scores == 5 and rep.by_band == {"GREEN": 1, "AMBER": 1, "RED": 3}
    assert rep.red_share == 0.6 and rep.alert
    assert "ALERT: RED share 60% of 5 score(s) in the last 1h exceeds the limit 20%" == (
        rep.alert_message
    )
    assert rep.iterations_histogram == {1: 2, 3: 1}
    assert rep.iterations_mean == pytest.approx(5 / 3, abs=0.01) and rep.iterations_p95 == 3
    assert rep.exits == {"max_iterations_reached": 1}
    assert rep.decisions == {"accept": 1, "iterate": 2, "exit": 1, "complete": 1}


def test_scores_outside_the_window_are_left_out(record):
    later = utcnow() + timedelta(hours=2)
    with record["ctx"].session() as s:
        rep = reporting.window_report(s, load_scoring_config(), window="1h", now=later)
    assert rep.scores == 0 and not rep.alert and rep.decisions == {}
    assert rep.alert_message.startswith("ok: RED share 0%")


def test_report_cli_json_markdown_and_check(record):
    out = runner.invoke(app, ["report", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["by_band"]["RED"] == 3 and data["alert"] is True
    md = runner.invoke(app, ["report", "--markdown", "--since", "24h"])
    assert "**ALERT: RED share 60%" in md.stdout
    assert "| loop exits | max_iterations_reached 1 |" in md.stdout
    assert runner.invoke(app, ["report", "--check"]).exit_code == 1
    table = runner.invoke(app, ["report"])
    assert "RED share" in table.stdout and "ALERT" in table.stdout


def test_report_cli_rejects_a_bad_window(env):
    out = runner.invoke(app, ["report", "--since", "yesterday"])
    assert out.exit_code == 2 and "looks like 30m, 1h" in out.output


def test_report_of_a_job_and_its_plot(record, tmp_path):
    png = tmp_path / "job.png"
    out = runner.invoke(app, ["report", record["ids"]["bad"], "--json", "--plot", str(png)])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [it["n"] for it in data["iterations"]] == [1, 2, 3]
    assert set(data["iterations"][0]["tracks"]) >= {"semantic", "precision"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000
    md = runner.invoke(app, ["report", record["ids"]["good"], "--markdown"])
    assert "| 1 | 0.99 | GREEN | accept |" in md.stdout


def test_window_histogram_plot(record, tmp_path):
    png = tmp_path / "hist.png"
    out = runner.invoke(app, ["report", "--plot", str(png)])
    assert out.exit_code == 0 and png.read_bytes()[:4] == b"\x89PNG"


def test_report_of_an_unknown_job(env):
    out = runner.invoke(app, ["report", "no-such-job"])
    assert out.exit_code == 1 and "no job 'no-such-job'" in out.output


# --- rethreshold --------------------------------------------------------------------------------


def test_rethreshold_shows_which_actions_change(record):
    with record["ctx"].session() as s:
        rows = stats.fused_scores(s, since=utcnow() - timedelta(hours=1))
    cfg = load_scoring_config()
    strict = cfg.model_copy(update={"actions": cfg.actions.model_copy(update={"accept": 0.995})})
    result = reporting.rethreshold(rows, strict)
    assert result.scores == 5
    # 0.99 (no heuristics track by default) is no longer accepted
    assert result.actions["accept"] == {"review": 1}
    # One threshold model: the band is the action's zone, so it moves with the accept cut.
    assert result.action_changes == 1 and result.band_changes == {"GREEN->AMBER": 1}
    assert reporting.rethreshold(rows, cfg).action_changes == 0


def test_rethreshold_cli(record):
    out = runner.invoke(app, ["rethreshold", "--accept", "0.995", "--since", "1h", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["action_changes"] == 1 and data["actions"]["accept"] == {"review": 1}
    table = runner.invoke(app, ["rethreshold", "--green", "0.995"])  # GREEN is the accept cut
    assert "1 of 5 action(s) would change" in table.stdout
    assert "band GREEN->AMBER: 1" in table.stdout
    clash = runner.invoke(app, ["rethreshold", "--green", "0.98", "--accept", "0.9"])
    assert clash.exit_code == 2 and "conflicts with --accept 0.9" in clash.output


def test_rethreshold_refuses_unordered_thresholds(env):
    out = runner.invoke(app, ["rethreshold", "--accept", "0.3"])  # below the review cut
    assert out.exit_code == 2 and "accept >= review >= iterate >= reject" in out.output
    out = runner.invoke(app, ["rethreshold", "--green", "0.35"])  # GREEN = accept, below review
    assert out.exit_code == 2 and "accept >= review >= iterate >= reject" in out.output


#: Seed 004's own cut points (the defaults are fitted; docs/decisions.md maps the two).
SEED_004 = ActionThresholds(accept=0.85, review=0.65, iterate=0.50, reject=0.30)
CFG = load_scoring_config()


def test_rethreshold_reject_moves_the_minimum():
    from datetime import UTC, datetime

    from scoregate.cli.report import _with_thresholds
    from scoregate.reports import window as reporting
    from scoregate.storage.stats import FusedScore

    now = datetime.now(UTC)
    rows = [
        FusedScore("a", 1, 0.40, "RED", "reject", None, now),
        FusedScore("b", 1, 0.20, "RED", "reject", None, now),
    ]
    seed4 = CFG.model_copy(update={"actions": SEED_004})  # the seed's own cut points
    assert reporting.rethreshold(rows, seed4).below_minimum == 1
    stricter = reporting.rethreshold(rows, _with_thresholds(seed4, {"reject": 0.45}, {}))
    assert (stricter.below_minimum, stricter.minimum_threshold) == (2, 0.45)
    assert stricter.action_changes == 0  # the minimum does not change the action (seed 004)
