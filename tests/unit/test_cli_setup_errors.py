"""Errors in the user's setup (an environment variable, a config file, a path, a broker
URL) are one line and exit 2, before anything is recorded; a track that cannot run is no
verdict on the answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.scoring_yaml import ConfigError, load_scoring_config
from scoregate.config.settings import SettingsError, get_settings

runner = CliRunner()


pytestmark = pytest.mark.usefixtures("fresh_settings")


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        (
            "SCOREGATE_DEVICE",
            "gpu",
            "SCOREGATE_DEVICE='gpu': Input should be 'auto', 'cpu' or 'cuda'",
        ),
        (
            "SCOREGATE_STUCK_AFTER_S",
            "-1",
            "SCOREGATE_STUCK_AFTER_S='-1': Input should be greater than 0",
        ),
        ("SCOREGATE_BROKER_URL", "foo://bar", "SCOREGATE_BROKER_URL: no broker transport 'foo'"),
    ],
)
def test_a_refused_variable_is_named_in_one_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, says: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as info:
        get_settings()
    assert says in str(info.value)
    assert "\n" not in str(info.value) and "pydantic.dev" not in str(info.value)


def test_an_unknown_broker_stops_submit_before_a_job_is_recorded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from scoregate.storage.db import upgrade

    url = f"sqlite:///{tmp_path / 'jobs.db'}"
    upgrade(url)  # a database the user names is migrated by `scoregate db upgrade`, not here
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    monkeypatch.setenv("SCOREGATE_BROKER_URL", "foo://bar")
    result = runner.invoke(cli, ["submit", "-q", "Name a vegetable", "-c", "Leek"])
    assert result.exit_code == 2
    assert "no broker transport 'foo'" in result.output
    assert "Traceback" not in result.output
    monkeypatch.delenv("SCOREGATE_BROKER_URL")
    get_settings.cache_clear()
    from scoregate.pipelines import api

    api.client_context.cache_clear()
    try:
        assert api.list_jobs() == []  # nothing was recorded
    finally:
        api.client_context.cache_clear()


@pytest.mark.parametrize(
    "scheme", ["redis://localhost:6379/0", "amqp://guest@localhost//", "memory://"]
)
def test_known_brokers_are_accepted(monkeypatch: pytest.MonkeyPatch, scheme: str) -> None:
    monkeypatch.setenv("SCOREGATE_BROKER_URL", scheme)
    assert get_settings().secret("broker_url") == scheme


def test_a_config_error_names_the_file_and_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "cuts.yaml"
    path.write_text("actions:\n  accept: 0.5\n  review: 0.7\n")
    with pytest.raises(ConfigError) as info:
        load_scoring_config(path)
    message = str(info.value)
    assert message.startswith(f"scoring config {path}: actions: ")
    assert "accept >= review" in message and "pydantic.dev" not in message


def test_score_reads_the_config_the_service_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREGATE_SCORING_CONFIG", "/nope/scoring.yaml")
    result = runner.invoke(cli, ["score", "-q", "hi", "-c", "hello"])
    assert result.exit_code == 2
    assert "scoring config /nope/scoring.yaml does not exist" in result.output


def test_an_unknown_migration_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(
        cli,
        ["db", "upgrade", "no-such-revision"],
        env={"SCOREGATE_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"},
    )
    assert result.exit_code == 2
    assert "database migration: Can't locate revision" in result.output


def test_db_status_says_where_the_migrations_stand_without_changing_them(tmp_path: Path) -> None:
    env = {"SCOREGATE_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}"}
    empty = runner.invoke(cli, ["db", "status"], env=env)
    assert empty.exit_code == 1, empty.output
    assert "no scoregate tables; this scoregate: " in empty.output
    assert "run `scoregate db upgrade`" in empty.output
    assert runner.invoke(cli, ["db", "status"], env=env).exit_code == 1  # still: nothing ran
    assert runner.invoke(cli, ["db", "upgrade"], env=env).exit_code == 0
    done = runner.invoke(cli, ["db", "status"], env=env)
    assert done.exit_code == 0 and "(current)" in done.output, done.output


def test_a_track_that_cannot_run_is_no_verdict(tmp_path: Path) -> None:
    config = tmp_path / "models.yaml"
    config.write_text("semantic:\n  model: /nonexistent/model\n")
    result = runner.invoke(cli, ["score", "-q", "hi", "-c", "hello", "--config", str(config)])
    assert result.exit_code == 3
    assert "the semantic track failed" in result.output and "/nonexistent/model" in result.output
    assert "reject" not in result.output


def test_a_task_type_or_role_that_matches_nothing_is_warned_of() -> None:
    from scoregate.schemas.request import ScoringMetadata
    from scoregate.scoring.fusion import unmatched_metadata

    cfg = load_scoring_config()
    warnings = unmatched_metadata(ScoringMetadata(task_type="creatve", role="admn"), cfg)
    assert warnings[0].startswith("task_type 'creatve' matches no fusion rule or preset")
    assert "creative" in warnings[0] and "admin" in warnings[1]
    assert unmatched_metadata(ScoringMetadata(task_type="Creative", role="admin"), cfg) == []


@pytest.mark.parametrize(
    ("flag", "spec", "says"),
    [
        ("--constraint", "valid_json=false", "takes no value"),
        ("--hard", '{"kind":"max_lines","value":3,"hard":false}', 'says "hard": false'),
        (
            "--hard",
            '{"kind":"instruction","check":"count","unit":"bullets","value":-3}',
            "a value of 0 or more, not -3",
        ),
    ],
)
def test_constraints_that_would_not_do_what_they_say_are_refused(
    flag: str, spec: str, says: str
) -> None:
    result = runner.invoke(cli, ["score", "-q", "hi", "-c", "hello", flag, spec])
    assert result.exit_code == 2 and says in result.output


def test_an_external_task_in_embedded_mode_is_refused_before_a_job_is_recorded(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from scoregate.storage.db import upgrade

    url = f"sqlite:///{tmp_path / 'jobs.db'}"
    upgrade(url)  # a database the user names is migrated by `scoregate db upgrade`
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    monkeypatch.setenv("SCOREGATE_ALLOWED_TASKS", "myapp.agents.write")
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    from scoregate.pipelines import api

    api.client_context.cache_clear()
    try:
        result = runner.invoke(
            cli,
            [
                "submit",
                "-q",
                "Summarise it",
                "-c",
                "A draft.",
                "--loop",
                "--agent",
                "myapp.agents.write",
            ],
        )
        assert result.exit_code == 2
        assert (
            "the agent task 'myapp.agents.write' cannot run in the embedded default"
            in result.output
        )
        assert api.list_jobs() == []
        # an external agent answers over HTTP (scoregate serve on this database): taken
        external = runner.invoke(
            cli, ["submit", "-q", "Summarise it", "-c", "A draft.", "--agent", "external"]
        )
        assert external.exit_code == 0, external.output
        (job,) = api.list_jobs()
        asked = api.get_job(job["id"])["agent_request"]
        assert asked["iteration"] == 2 and asked["previous_content"] == "A draft."
        assert "content" not in api.get_job(job["id"])["iterations"][0]  # not asked for
    finally:
        api.client_context.cache_clear()


def test_an_api_key_name_that_would_break_the_entry_is_refused() -> None:
    result = runner.invoke(cli, ["api-key", "bad:name"])
    assert result.exit_code == 2 and "must be a plain word" in result.output
    read_only = runner.invoke(cli, ["api-key", "ci"])
    assert read_only.exit_code == 0 and "can only read" in read_only.output
    assert ":read:sha256:" in read_only.output
