"""Docs review, finding 3 on Postgres: a read-only command without a broker leaves a
database that has no tables, or is behind, as it was, and names ``scoregate db upgrade``."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from scoregate.cli import app as cli
from scoregate.config.settings import get_settings
from scoregate.pipelines import api
from scoregate.storage.db import current_revision, dispose_engines, redact_url, upgrade
from tests.integration.conftest import fresh_database

pytestmark = [pytest.mark.integration]
runner = CliRunner()


@pytest.fixture
def named_postgres(monkeypatch: pytest.MonkeyPatch):
    url = fresh_database("scoregate_docs_review")
    monkeypatch.delenv("SCOREGATE_BROKER_URL", raising=False)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", url)
    monkeypatch.setenv("COLUMNS", "300")
    get_settings.cache_clear()
    api.client_context.cache_clear()
    yield url
    get_settings.cache_clear()
    api.client_context.cache_clear()
    dispose_engines()


@pytest.mark.parametrize("revision", [None, "0002"])
def test_jobs_list_does_not_migrate_postgres(named_postgres, revision):
    if revision:
        upgrade(named_postgres, revision)
    out = runner.invoke(cli, ["jobs", "list"])
    assert out.exit_code == 1, out.output
    [line] = out.output.strip().splitlines()
    assert f"the database at {redact_url(named_postgres)}" in line
    assert "run `scoregate db upgrade`" in line
    assert current_revision(named_postgres) == revision
