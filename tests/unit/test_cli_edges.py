"""The CLI's edges (issue 14, item 10): database errors, --status, --help, --json, Rich."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from rich.console import Console
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.cli.args import constraint_syntax
from scoregate.cli.errors import describe
from scoregate.config.settings import Settings, get_settings
from scoregate.pipelines import api
from scoregate.pipelines.embedded import embedded_context
from scoregate.reports.render import print_job
from scoregate.schemas.constraints import CONSTRAINT_KINDS
from scoregate.schemas.output import OUTPUTS, SCHEMA_VERSION, JobOutput, schema_text
from scoregate.storage import repository as repo
from scoregate.storage.tables import JOB_STATUSES
from tests.fakes import FakeModels

ROOT = Path(__file__).resolve().parents[2]
GOOD = "a faithful answer"
runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'cli.db'}"))
    ctx, inline = embedded_context(settings, models=FakeModels({GOOD: 0.99}))
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    return {"ctx": ctx}


@pytest.fixture
def database_at(monkeypatch: pytest.MonkeyPatch):
    """Point the CLI's settings (embedded mode) at a database URL."""

    def point(url: str) -> None:
        monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
        monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
        get_settings.cache_clear()
        api.client_context.cache_clear()

    yield point
    get_settings.cache_clear()
    api.client_context.cache_clear()


def _flat(text: str) -> str:
    return " ".join(text.split())


# --- 1. a database error is one line, --debug shows the traceback ------------------------------

# Nothing listens on port 1: the connection is refused at once, no server needed.
UNREACHABLE = "postgresql://scoregate:s3cret-pw@127.0.0.1:1/scoregate"


@pytest.mark.parametrize("args", [["jobs", "list"], ["jobs", "show", "abc"], ["sweep"]])
def test_unreachable_database_prints_one_line_and_exits_1(database_at, args):
    database_at(UNREACHABLE)
    out = runner.invoke(cli, args)
    assert out.exit_code == 1, out.output
    lines = out.output.strip().splitlines()
    assert len(lines) == 1, out.output
    assert lines[0].startswith("error: cannot reach the database at ")
    assert "postgresql+psycopg://scoregate:***@127.0.0.1:1/scoregate" in lines[0]
    assert "wait if it is restarting, or check that the database server is up" in lines[0]
    assert "s3cret-pw" not in out.output and "Traceback" not in out.output


def test_debug_shows_the_database_error_itself(database_at):
    from sqlalchemy.exc import OperationalError

    database_at(UNREACHABLE)
    out = runner.invoke(cli, ["--debug", "jobs", "list"])
    assert out.exit_code == 1
    assert isinstance(out.exception, OperationalError)  # raised, so Typer prints the traceback


def test_a_database_file_that_cannot_be_opened_names_the_url(database_at, tmp_path):
    (tmp_path / "a-directory").mkdir()  # SQLite cannot open a directory as its file
    database_at(f"sqlite:///{tmp_path}/a-directory")
    out = runner.invoke(cli, ["jobs", "list"])
    assert out.exit_code == 1, out.output
    assert f"cannot reach the database at sqlite:///{tmp_path}/a-directory" in _flat(out.output)


@pytest.mark.parametrize(
    ("message", "fix"),
    [
        ('relation "jobs" does not exist', "run `scoregate db upgrade`"),
        ("no such table: jobs", "run `scoregate db upgrade`"),
        ('database "x" does not exist', "create it"),
        ('password authentication failed for user "u"', "check the user and password"),
        ('role "nobody" does not exist', "check the user and password"),
    ],
)
def test_each_database_failure_says_how_to_fix_it(message, fix):
    from sqlalchemy.exc import OperationalError, ProgrammingError

    kind = ProgrammingError if "relation" in message else OperationalError

    class UndefinedTable(Exception):  # psycopg's error type for a missing table
        pass

    orig = UndefinedTable(message) if "relation" in message else Exception(message)
    line = describe(kind("SELECT 1", {}, orig), "postgresql://u:***@h/x")
    assert fix in line and "postgresql://u:***@h/x" in line and message in line


def test_other_errors_are_not_swallowed(database_at, tmp_path):
    database_at(f"sqlite:///{tmp_path / 'ok.db'}")
    out = runner.invoke(cli, ["submit", "-q", "q", "-c", "x", "--constraint", "max_lines=ten"])
    assert out.exit_code == 2 and "max_lines needs a whole number" in out.output


# --- 2. --status is checked; --help shows the constraint syntax --------------------------------


def test_unknown_status_is_refused_with_the_valid_ones():
    out = runner.invoke(cli, ["jobs", "list", "--status", "bogus"])
    assert out.exit_code == 2
    text = _flat(out.output)
    assert "'bogus' is not a job status" in text
    assert all(status in text for status in JOB_STATUSES)


@pytest.mark.parametrize("command", ["score", "submit"])
def test_help_shows_kind_value_syntax_and_every_constraint_kind(command):
    out = runner.invoke(cli, [command, "--help"])
    assert out.exit_code == 0
    text = _flat(out.output)
    assert "--constraint KIND=VALUE" in text and "--hard KIND=VALUE" in text
    assert "max_lines=N" in text and "not_contains=TEXT" in text and "json_schema=JSON" in text
    assert all(kind in text for kind in CONSTRAINT_KINDS)


def test_help_kinds_come_from_the_constraint_schema():
    assert [k.kind for k in constraint_syntax()] == list(CONSTRAINT_KINDS)
    syntax = {k.kind: k.value for k in constraint_syntax()}
    assert syntax["max_words"] == "N" and syntax["valid_python"] == ""
    assert syntax["regex"] == "TEXT" and syntax["instruction"] is None


# --- 3. --json: versioned documents matching docs/json ------------------------------------------


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_exported_json_schemas_match_the_models(name):
    path = ROOT / "docs" / "json" / f"{name}.schema.json"
    assert path.read_text(encoding="utf-8") == schema_text(OUTPUTS[name]), (
        f"{path} is stale: run `python -m scoregate.schemas.output docs/json`"
    )


def test_submit_list_and_show_print_versioned_json(env):
    out = runner.invoke(cli, ["submit", "-q", "Write a helpful answer.", "-c", GOOD, "--json"])
    assert out.exit_code == 0, out.output
    submitted = json.loads(out.stdout)
    assert submitted["schema_version"] == SCHEMA_VERSION and len(submitted["job_ids"]) == 1
    job_id = submitted["job_ids"][0]

    listed = json.loads(runner.invoke(cli, ["jobs", "list", "--json"]).stdout)
    assert listed["schema_version"] == SCHEMA_VERSION
    assert [j["id"] for j in listed["jobs"]] == [job_id]
    assert listed["jobs"][0]["status"] == "completed" and listed["jobs"][0]["band"] == "GREEN"

    shown = json.loads(runner.invoke(cli, ["jobs", "show", job_id, "--json"]).stdout)
    assert shown["schema_version"] == SCHEMA_VERSION and shown["id"] == job_id
    assert shown["iterations"][0]["band"] == "GREEN"
    JobOutput.model_validate(shown)


def test_submit_wait_json_reports_each_state(env):
    out = runner.invoke(
        cli, ["submit", "-q", "Write a helpful answer.", "-c", GOOD, "--json", "--wait"]
    )
    assert out.exit_code == 0, out.output
    doc = json.loads(out.stdout)
    assert doc["jobs"][0]["status"] == "completed" and doc["pending"] == []


def test_filtered_list_json_is_empty_for_no_match(env):
    runner.invoke(cli, ["submit", "-q", "Write a helpful answer.", "-c", GOOD])
    doc = json.loads(runner.invoke(cli, ["jobs", "list", "--status", "failed", "--json"]).stdout)
    assert doc == {"schema_version": 1, "jobs": []}


# --- 4. Rich: no MarkupError, user text printed as written --------------------------------------


def _job_without_band(env: dict[str, Any]) -> str:
    with env["ctx"].session() as s:
        job = repo.create_job(s, request={"query": "q", "content": "c"}, policy={})
        repo.start_iteration(
            s, job_id=job.id, n=1, content="c", request={}, expected_tracks=["semantic"]
        )
        repo.append_decision(
            s, job_id=job.id, n=1, action="fail", rationale="agent said [/] and [bold]hi[/bold]"
        )
        repo.set_job_status(
            s, job_id=job.id, status="failed", failure_reason="regex [a-z]+[/x] refused"
        )
        return job.id


def test_jobs_show_prints_an_iteration_without_a_band_and_user_markup_verbatim(env):
    job_id = _job_without_band(env)
    out = runner.invoke(cli, ["jobs", "show", job_id])
    assert out.exit_code == 0, out.output
    assert job_id in out.output  # the whole id, not a prefix
    assert "regex [a-z]+[/x] refused" in out.output
    assert "agent said [/] and [bold]hi[/bold]" in _flat(out.output)


def test_print_job_band_cell_has_no_stray_markup(env):
    console = Console(record=True, width=200)
    print_job(console, api.get_job(_job_without_band(env)))
    assert "[]" not in console.export_text()


# --- 6. no wrapping without a terminal; ids never cut -------------------------------------------


def test_output_to_a_pipe_does_not_wrap_and_keeps_whole_ids(env):
    long_query = "Write a helpful answer. " + "word " * 60
    ids = [
        json.loads(runner.invoke(cli, ["submit", "-q", long_query, "-c", GOOD, "--json"]).stdout)[
            "job_ids"
        ][0]
        for _ in range(2)
    ]
    out = runner.invoke(cli, ["jobs", "list"])
    assert all(job_id in out.output for job_id in ids)
    shown = runner.invoke(cli, ["jobs", "show", ids[0]])
    rationale_lines = [ln for ln in shown.output.splitlines() if "accept" in ln]
    assert rationale_lines and max(len(ln) for ln in shown.output.splitlines()) > 80


# --- 4. the Markdown report: every track on the 0-1 scale ---------------------------------------


def test_markdown_report_prints_tracks_on_the_0_1_scale():
    from scoregate.schemas.result import ScoreResult, TrackScore

    result = ScoreResult(
        score=0.42,
        score_100=42,
        band="RED",
        action="iterate",
        calibrated=0.42,
        tracks={
            "semantic": TrackScore(name="semantic", score=0.8),
            "precision": TrackScore(name="precision", score=0.015),
            "reward": TrackScore(name="reward", status="failed", error="boom"),
        },
        weights={"semantic": 0.5, "precision": 0.5},
    )
    md = result.to_markdown()
    assert "| Precision (Cross-Encoder) | 0.01 | 0.50 |" in md  # was "1.5" (0-100)
    assert "| Semantic Similarity | 0.80 | 0.50 |" in md
    assert "| Constraint Compliance | failed | — |" in md


# --- 5. no "Loading weights" progress bar on a model load ---------------------------------------


def test_model_loads_run_without_transformers_progress_bars(monkeypatch, tmp_path):
    import sentence_transformers
    from transformers.utils import logging as hf_logging

    from scoregate.config.scoring_yaml import load_scoring_config
    from scoregate.scoring import encoders

    seen: list[bool] = []

    class Recording:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            seen.append(hf_logging.is_progress_bar_enabled())

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", Recording)
    monkeypatch.setattr(sentence_transformers, "CrossEncoder", Recording)
    monkeypatch.setattr(encoders, "resolve_model_path", lambda spec: str(tmp_path))
    cfg = load_scoring_config()
    hf_logging.enable_progress_bar()
    encoders.load_embedder(cfg.semantic)
    encoders.load_cross_encoder(cfg.precision)
    assert seen == [False, False]
    assert hf_logging.is_progress_bar_enabled()  # the process's own setting is restored


@pytest.mark.parametrize("kind", ["[bold]", "[/]"])
def test_error_messages_print_user_text_verbatim(kind):
    out = runner.invoke(cli, ["score", "-q", "q", "-c", "x", "--constraint", f"{kind}=1"])
    assert out.exit_code == 2, out.output
    assert f"unknown constraint kind '{kind}'" in out.output


def test_console_for_a_pipe_is_wide_and_honours_columns(monkeypatch, capsys):
    from scoregate.reports.terminal import PIPE_WIDTH, make_console

    monkeypatch.delenv("COLUMNS", raising=False)
    piped = make_console()
    assert piped.width == PIPE_WIDTH
    piped.print("word " * 60)
    assert capsys.readouterr().out.count("\n") == 1  # one line, not wrapped at 80 columns
    monkeypatch.setenv("COLUMNS", "120")
    assert make_console().width == 120


def test_show_takes_the_short_id_the_cli_prints(env):
    out = runner.invoke(cli, ["submit", "-q", "Write a helpful answer.", "-c", GOOD, "--json"])
    job_id = json.loads(out.stdout)["job_ids"][0]
    shown = json.loads(runner.invoke(cli, ["jobs", "show", job_id[:8], "--json"]).stdout)
    assert shown["id"] == job_id
    missing = runner.invoke(cli, ["jobs", "show", "ffffffff"])
    assert missing.exit_code == 1 and "no job 'ffffffff'" in missing.output


def test_an_empty_jobs_file_is_an_error_not_a_silent_success(env, tmp_path):
    empty = tmp_path / "jobs.jsonl"
    empty.write_text("")
    out = runner.invoke(cli, ["submit", "--file", str(empty)])
    assert out.exit_code == 2 and "no jobs in the file" in out.output


def test_review_and_cancel_take_the_short_id_the_cli_prints(env):
    # 0.5 (the fake models' default for this text) lands in the review zone: the job waits
    def waiting() -> str:
        out = runner.invoke(
            cli, ["submit", "-q", "Write a helpful answer.", "-c", "so-so", "--gating", "--json"]
        )
        job_id = json.loads(out.stdout)["job_ids"][0]
        assert (
            json.loads(runner.invoke(cli, ["jobs", "show", job_id, "--json"]).stdout)["status"]
            == "awaiting_review"
        )
        return str(job_id)

    first, second = waiting(), waiting()
    out = runner.invoke(cli, ["review", first[:8], "--approve", "--actor", "ann"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(cli, ["jobs", "cancel", second[:8], "--actor", "ann"])
    assert out.exit_code == 0, out.output
    statuses = {
        j: json.loads(runner.invoke(cli, ["jobs", "show", j, "--json"]).stdout)["status"]
        for j in (first, second)
    }
    assert statuses == {first: "accepted", second: "cancelled"}
    missing = runner.invoke(cli, ["review", "ffffffff", "--approve"])
    assert missing.exit_code == 1 and "no job 'ffffffff'" in missing.output


def test_a_job_waiting_for_review_lists_and_waits_with_its_score(env):
    out = runner.invoke(
        cli,
        ["submit", "-q", "Write a helpful answer.", "-c", "so-so", "--gating", "--wait", "--json"],
    )
    assert out.exit_code == 4, out.output  # waiting for a human: not approved yet
    doc = json.loads(out.stdout)
    [state] = doc["jobs"]
    assert state["status"] == "awaiting_review" and doc["pending"] == []
    assert state["score"] == 0.5  # the fake models score "so-so" 0.5
    listed = json.loads(runner.invoke(cli, ["jobs", "list", "--json"]).stdout)["jobs"]
    assert [j["score"] for j in listed if j["id"] == state["id"]] == [state["score"]]


def test_jobs_list_waiting_is_the_review_queue_escalations_included(tmp_path, monkeypatch):
    from scoregate.pipelines import steps
    from tests.fakes import BAD, Recorder

    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'q.db'}"))
    tasks = {"agent": Recorder(returns=BAD)}
    ctx, inline = embedded_context(
        settings, models=FakeModels({GOOD: 0.99, BAD: 0.1}), local_tasks=dict(tasks)
    )
    monkeypatch.setattr(api, "client_context", lambda: (ctx, inline))
    body = {
        "request": {"query": "Write a helpful answer.", "content": BAD},
        "loop": {"enabled": True, "max_iterations": 1},
        "agent": "agent",
    }
    (escalated,) = steps.submit_jobs(ctx, [steps.build_spec(ctx, body)])
    inline.drain()
    gated = ["submit", "-q", "Write a helpful answer.", "-c", "so-so", "--gating", "--json"]
    (reviewed,) = json.loads(runner.invoke(cli, gated).stdout)["job_ids"]
    runner.invoke(cli, ["submit", "-q", "Write a helpful answer.", "-c", GOOD])
    out = runner.invoke(cli, ["jobs", "list", "--waiting", "--json"])
    listed = json.loads(out.stdout)["jobs"]
    assert [(j["id"], j["status"]) for j in listed] == [
        (escalated, "escalated"),
        (reviewed, "awaiting_review"),
    ]
    table = runner.invoke(cli, ["jobs", "list", "--waiting"]).output
    assert "waiting for a human" in table and escalated in table and reviewed in table
