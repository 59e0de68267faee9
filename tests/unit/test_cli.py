"""The CLI's argument handling (no models: the score command is covered by model tests)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from scoregate.cli import app, parse_constraint

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
    from scoregate.config import get_settings
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
