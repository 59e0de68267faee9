"""The CLI's argument handling (no models: the score command is covered by model tests)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from scoregate.cli import app
from scoregate.cli.args import parse_constraint

runner = CliRunner()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("max_lines=400", {"kind": "max_lines", "value": 400, "hard": False}),
        ("not_contains=nuts", {"kind": "not_contains", "value": "nuts", "hard": False}),
        ("valid_json", {"kind": "valid_json", "hard": False}),
        (
            'json_schema={"type": "object"}',
            {"kind": "json_schema", "value": {"type": "object"}, "hard": False},
        ),
    ],
)
def test_parse_constraint(text, expected):
    assert parse_constraint(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("max_line=3", "unknown constraint kind 'max_line'"),
        ("max_lines=ten", "needs a whole number"),
        ("contains", "needs a value"),
    ],
)
def test_parse_constraint_errors_say_how_to_fix(text, message):
    with pytest.raises(ValueError, match=message):
        parse_constraint(text)


def test_score_rejects_both_content_sources():
    out = runner.invoke(app, ["score", "-q", "q"])
    assert out.exit_code == 2 and "exactly one of --content or --content-file" in out.output


def test_worker_rejects_unknown_pool():
    out = runner.invoke(app, ["worker", "--pool", "gpu"])
    assert out.exit_code == 2 and "unknown pool 'gpu'" in out.output


def test_worker_argv_routes_queues(monkeypatch):
    from scoregate.config.settings import get_settings
    from scoregate.workers.command import worker_argv

    argv = worker_argv("semantic")
    assert argv[:3] == ["worker", "-Q", "semantic"] and "-E" in argv and "-c" in argv
    assert worker_argv("all")[2] == "semantic,precision,reward,fusion,control"
    monkeypatch.setenv("SCOREGATE_TASK_EVENTS", "false")
    get_settings.cache_clear()
    try:
        assert "-E" not in worker_argv("semantic")
    finally:
        get_settings.cache_clear()


# --- 9. the CLI exits 2 with a clear message ----------------------------------------------------


def test_cli_content_file_that_is_a_directory(tmp_path):
    out = runner.invoke(app, ["score", "-q", "x", "-f", str(tmp_path)])
    assert out.exit_code == 2, out.output
    assert "is a directory" in " ".join(out.output.split())


def test_cli_deeply_nested_json_schema_constraint():
    deep = "json_schema=" + "[" * 100_000
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_constraint(deep)
    out = runner.invoke(app, ["score", "-q", "x", "-c", "y", "--constraint", deep])
    assert out.exit_code == 2 and "nested too deeply" in " ".join(out.output.split())
    out = runner.invoke(
        app, ["score", "-q", "x", "-c", "y", "--constraint", "{" + '"a":{' * 100_000]
    )
    assert out.exit_code == 2 and "nested too deeply" in " ".join(out.output.split())


def test_cli_config_that_is_a_directory(tmp_path):
    out = runner.invoke(app, ["score", "-q", "x", "-c", "y", "--config", str(tmp_path)])
    assert out.exit_code == 2
    flat = " ".join(out.output.split())
    assert "is a directory" in flat and "does not exist" not in flat


def _quiet(argv: list[str]) -> bool:
    """Whether `celery` itself takes `--quiet` from ``argv`` (after `worker`, it would be the
    worker's option, which does not exist: the command refuses to start)."""
    from celery.bin.celery import celery as celery_command

    top = celery_command.make_context("celery", list(argv), resilient_parsing=False)
    return bool(top.params["quiet"])


def test_worker_argv_drops_the_printed_banner_when_logs_are_json(monkeypatch):
    from scoregate.config.settings import get_settings
    from scoregate.workers.command import worker_argv

    monkeypatch.setenv("SCOREGATE_LOG_FORMAT", "json")
    get_settings.cache_clear()
    try:
        argv = worker_argv("fusion")
        assert _quiet(argv) and argv[argv.index("worker") :].count("--quiet") == 0
        monkeypatch.setenv("SCOREGATE_LOG_FORMAT", "text")
        get_settings.cache_clear()
        assert not _quiet(worker_argv("fusion"))
    finally:
        get_settings.cache_clear()
