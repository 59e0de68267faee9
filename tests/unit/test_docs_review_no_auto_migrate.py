"""Docs review, finding 3: without a broker, a command migrates only the embedded default.

A database the user named (here a SQLite file; Postgres in
``tests/integration/test_docs_review_no_auto_migrate.py``) that has no tables or is behind
gets one line naming ``scoregate db upgrade``, exit 1, and is left as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.settings import get_settings
from scoregate.pipelines import api
from scoregate.storage.db import current_revision, dispose_engines, upgrade

runner = CliRunner()


def _head() -> str | None:
    from alembic.script import ScriptDirectory

    from scoregate.storage.db import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


HEAD = _head()


@pytest.fixture
def no_broker(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """The CLI without a broker, its home (where the embedded default lives) in tmp."""
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    monkeypatch.delenv("SCOREGATE_DATABASE_URL", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "300")
    get_settings.cache_clear()
    api.client_context.cache_clear()
    yield
    get_settings.cache_clear()
    api.client_context.cache_clear()
    dispose_engines()


def _named(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    get_settings.cache_clear()
    api.client_context.cache_clear()


@pytest.mark.parametrize("args", [["jobs", "list"], ["jobs", "show", "abc"], ["report"]])
def test_a_named_database_without_tables_is_not_migrated(no_broker, monkeypatch, tmp_path, args):
    url = f"sqlite:///{tmp_path / 'named.db'}"
    _named(monkeypatch, url)
    out = runner.invoke(cli, args)
    assert out.exit_code == 1, out.output
    [line] = out.output.strip().splitlines()
    assert line.startswith(f"error: the database at {url} has no scoregate tables")
    assert "run `scoregate db upgrade`" in line
    assert current_revision(url) is None, "the command migrated a database it was only reading"


def test_a_named_database_at_an_older_revision_is_left_there(no_broker, monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    upgrade(url, "0002")
    _named(monkeypatch, url)
    out = runner.invoke(cli, ["jobs", "list"])
    assert out.exit_code == 1, out.output
    [line] = out.output.strip().splitlines()
    assert f"the database at {url} is at migration 0002, older than this scoregate's" in line
    assert "run `scoregate db upgrade`" in line
    assert current_revision(url) == "0002"

    upgrade_out = runner.invoke(cli, ["db", "upgrade"])  # the documented fix
    assert upgrade_out.exit_code == 0, upgrade_out.output
    api.client_context.cache_clear()
    listed = runner.invoke(cli, ["jobs", "list"])
    assert listed.exit_code == 0, listed.output
    assert current_revision(url) == HEAD


def test_the_embedded_default_is_created_and_migrated(no_broker, tmp_path):
    assert get_settings().uses_default_database()
    out = runner.invoke(cli, ["jobs", "list"])
    assert out.exit_code == 0, out.output
    default = tmp_path / "home" / ".local" / "share" / "scoregate" / "scoregate.db"
    assert default.exists() and current_revision(f"sqlite:///{default}") == HEAD


def test_the_python_api_refuses_a_named_database_without_tables(no_broker, monkeypatch, tmp_path):
    from scoregate.storage.db import SchemaNotCurrent

    _named(monkeypatch, f"sqlite:///{tmp_path / 'py.db'}")
    with pytest.raises(SchemaNotCurrent, match="scoregate db upgrade"):
        api.list_jobs()
