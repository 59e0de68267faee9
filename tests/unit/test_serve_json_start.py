"""``scoregate serve``'s start-up lines with ``SCOREGATE_LOG_FORMAT=json``: every line is a
JSON record (stderr, like the server's later records); in text mode the console lines are
those of before. ``scoregate api-key`` prints for a person in either format."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from typer.testing import CliRunner

from scoregate.config.settings import Settings, get_settings
from scoregate.pipelines.dispatch import InlineDispatcher
from scoregate.pipelines.embedded import embedded_context
from scoregate.server import ApiService
from tests.fakes import SCORES, FakeModels
from tests.json_lines import json_records


@pytest.fixture
def ctx(tmp_path: Path) -> Any:
    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'start.db'}"))
    made, _ = embedded_context(settings, models=FakeModels(SCORES))
    return made


@pytest.fixture
def serve_cli(monkeypatch: pytest.MonkeyPatch, logging_restored: None) -> Iterator[dict[str, Any]]:
    """``scoregate serve`` up to the point it would listen; ``format`` sets the log format."""
    for name in ("SCOREGATE_API_KEYS", "SCOREGATE_LOG_FORMAT", "SCOREGATE_BROKER_URL"):
        monkeypatch.delenv(name, raising=False)
    seen: dict[str, Any] = {"listened": 0}

    def run(app: Any, host: str, port: int) -> None:
        seen["listened"] += 1

    def log_format(value: str) -> None:
        monkeypatch.setenv("SCOREGATE_LOG_FORMAT", value)
        get_settings.cache_clear()

    monkeypatch.setattr("scoregate.server.serve.run", run)
    seen["format"] = log_format
    get_settings.cache_clear()
    yield seen
    get_settings.cache_clear()


def invoke(monkeypatch: Any, service: ApiService | None, *args: str) -> Any:
    from scoregate.cli import app

    if service is not None:
        monkeypatch.setattr("scoregate.server.serve.production_service", lambda: service)
    return CliRunner().invoke(app, list(args))


def records(result: Any) -> list[dict[str, Any]]:
    """Every line ``serve`` wrote (stdout and stderr) as a JSON record, or the test fails."""
    return json_records(result.output)


def by_message(found: list[dict[str, Any]], start: str) -> dict[str, Any]:
    [record] = [r for r in found if r["message"].startswith(start)]
    return record


def test_json_start_up_lines_are_records_with_their_fields(ctx, serve_cli, monkeypatch):
    serve_cli["format"]("json")
    result = invoke(monkeypatch, ApiService(ctx), "serve", "--port", "8123")
    assert result.exit_code == 0, result.output
    assert serve_cli["listened"] == 1 and result.stdout == ""  # all on stderr
    found = records(result)
    assert {r["logger"] for r in found} == {"scoregate.server.startup"}
    assert by_message(found, "loading the models")["level"] == "INFO"
    loaded = by_message(found, "models loaded in ")
    assert loaded["level"] == "INFO" and isinstance(loaded["load_s"], float)
    no_keys = by_message(found, "no API keys configured (SCOREGATE_API_KEYS)")
    assert no_keys["level"] == "WARNING"
    mode = by_message(found, "mode: celery; review queue http://127.0.0.1:8123/review")
    assert (mode["mode"], mode["host"], mode["port"]) == ("celery", "127.0.0.1", 8123)


def test_json_names_the_api_keys(ctx, serve_cli, monkeypatch):
    from scoregate.server.auth import new_key, settings_entry

    entries = [settings_entry(n, ["read"], new_key()) for n in ("ci", "alice")]
    monkeypatch.setenv("SCOREGATE_API_KEYS", ",".join(entries))
    serve_cli["format"]("json")
    result = invoke(monkeypatch, ApiService(ctx), "serve", "--no-load-models")
    assert result.exit_code == 0, result.output
    keys = by_message(records(result), "API keys: ")
    assert keys["api_keys"] == ["ci", "alice"] and keys["level"] == "INFO"


def no_models() -> Any:
    raise OSError("no model files in the cache (HF_HUB_OFFLINE=1)")


@pytest.mark.parametrize("embedded", [True, False])
def test_json_models_that_do_not_load(ctx, serve_cli, monkeypatch, embedded):
    serve_cli["format"]("json")
    broken = dataclasses.replace(ctx, models_factory=no_models)
    inline = InlineDispatcher() if embedded else None
    result = invoke(monkeypatch, ApiService(broken, inline), "serve")
    found = records(result)
    problem = by_message(found, "the models did not load (OSError: no model files")
    if embedded:
        assert result.exit_code == 2 and problem["level"] == "ERROR"
        assert serve_cli["listened"] == 0
    else:
        assert result.exit_code == 0 and problem["level"] == "WARNING"
        assert problem["error"] == "OSError" and serve_cli["listened"] == 1


def test_json_a_database_that_does_not_answer_yet(ctx, serve_cli, monkeypatch):
    from sqlalchemy.exc import OperationalError

    def down(url: Any) -> Any:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("refused"))

    monkeypatch.setattr("scoregate.storage.db.schema_state", down)
    serve_cli["format"]("json")
    result = invoke(monkeypatch, ApiService(ctx), "serve", "--no-load-models")
    assert result.exit_code == 0, result.output
    warning = by_message(records(result), "the database does not answer yet (OperationalError)")
    assert warning["level"] == "WARNING" and warning["error"] == "OperationalError"


def test_json_a_refusal_is_an_error_record(ctx, serve_cli, monkeypatch):
    serve_cli["format"]("json")
    result = invoke(monkeypatch, ApiService(ctx), "serve", "--host", "0.0.0.0")
    assert result.exit_code == 2 and serve_cli["listened"] == 0
    refused = by_message(records(result), "no API keys are configured")
    assert refused["level"] == "ERROR" and "will not bind 0.0.0.0" in refused["message"]


@pytest.mark.parametrize("fmt", ["json", " JSON "])
def test_json_settings_that_cannot_be_read_are_an_error_record(serve_cli, monkeypatch, fmt):
    """A bad setting: the one line that says so is a record too, in the format the
    environment asks for (the settings it would come from are not there)."""
    monkeypatch.setenv("SCOREGATE_LOG_FORMAT", fmt)
    monkeypatch.setenv("SCOREGATE_AGENT_ERROR_RETRIES", "many")
    result = invoke(monkeypatch, None, "serve")
    assert result.exit_code == 2 and serve_cli["listened"] == 0
    [refused] = records(result)
    assert refused["level"] == "ERROR" and refused["logger"] == "scoregate.server.startup"
    assert "SCOREGATE_AGENT_ERROR_RETRIES" in refused["message"]


def test_text_settings_that_cannot_be_read_are_an_error_line(serve_cli, monkeypatch):
    monkeypatch.setenv("SCOREGATE_LOG_FORMAT", "xml")  # itself the bad setting
    result = invoke(monkeypatch, None, "serve")
    assert result.exit_code == 2 and serve_cli["listened"] == 0
    assert result.output.startswith("error: ") and "SCOREGATE_LOG_FORMAT='xml'" in result.output


def test_json_the_demos_lines_are_records(ctx, serve_cli, monkeypatch):
    def demo_service(console: Any) -> tuple[ApiService, list[str]]:
        console.print("  [cyan]agent[/] job 1234abcd read feedback of iteration 1")
        console.print("[green]on_pass[/] fired: job 1234abcd score 0.84\nsecond line")
        return ApiService(ctx), ["1234abcd"]

    monkeypatch.setattr("scoregate.server.demo.demo_service", demo_service)
    serve_cli["format"]("json")
    result = invoke(monkeypatch, None, "serve", "--demo", "--no-load-models")
    assert result.exit_code == 0, result.output
    found = records(result)
    assert [r["logger"] for r in found[:5]] == ["scoregate.server.startup"] + [
        "scoregate.server.demo"
    ] * 3 + ["scoregate.server.startup"]
    messages = [r["message"] for r in found]
    assert messages[:5] == [
        "running the demo jobs (loads the models once)...",
        "agent job 1234abcd read feedback of iteration 1",
        "on_pass fired: job 1234abcd score 0.84",
        "second line",
        "demo jobs: 1234abcd",
    ]


def test_text_start_up_lines_are_the_consoles_as_before(ctx, serve_cli, monkeypatch):
    from sqlalchemy.exc import OperationalError

    def down(url: Any) -> Any:
        raise OperationalError("SELECT 1", {}, ConnectionRefusedError("refused"))

    monkeypatch.setattr("scoregate.storage.db.schema_state", down)
    result = invoke(monkeypatch, ApiService(ctx), "serve", "--port", "8123")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-2:] == [
        "no API keys configured (SCOREGATE_API_KEYS): listening on loopback only, every local"
        " caller may submit, read and review",
        "mode: celery; review queue http://127.0.0.1:8123/review, API docs"
        " http://127.0.0.1:8123/docs",
    ]
    assert result.stdout.splitlines()[0].startswith("models loaded in ")
    assert result.stderr == "warning: the database does not answer yet (OperationalError)\n"


def test_api_key_prints_for_a_person_in_json_mode(serve_cli, monkeypatch):
    serve_cli["format"]("json")
    result = invoke(monkeypatch, None, "api-key", "ci", "--scope", "submit")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("key (give it to ci; it is not stored anywhere): ")
    assert lines[1] == "settings entry (append to SCOREGATE_API_KEYS, comma-separated):"
    assert lines[2].startswith("ci:")
    with pytest.raises(json.JSONDecodeError):
        json.loads(lines[0])
