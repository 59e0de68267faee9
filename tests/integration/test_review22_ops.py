"""The ops review's findings as real processes (twenty-second session): with
``SCOREGATE_LOG_FORMAT=json`` a worker's refusal to start is one JSON record, through
``scoregate worker`` and through ``celery -A scoregate.workers worker`` (a broken YAML's
lines included); with a broker but a misspelt ``SCOREGATE_DATABASE_URL``, ``scoregate
serve`` and ``scoregate submit`` refuse as the worker does and make no SQLite file.

Every process here refuses before it connects: the broker's port has nothing behind it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT
from tests.json_lines import json_records

pytestmark = pytest.mark.integration

NOWHERE = "redis://127.0.0.1:9/0"  # nothing listens: a refusal must come before connecting
MISSPELT = "SCOREGATE_DATABSE_URL"


def _env(tmp_path: Path, **settings: str) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
    env.update({"HOME": str(home), "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT), **settings})
    return env


def _run(tmp_path: Path, args: list[str], **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        env=_env(tmp_path, **settings),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _files_under_home(tmp_path: Path) -> list[Path]:
    return [p for p in (tmp_path / "home").rglob("*") if p.is_file()]


def test_celerys_worker_refuses_broken_yaml_in_one_json_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("actions:\n  accept: 0.5\n  review: [0.7\n")
    celery = ["-m", "celery", "-A", "scoregate.workers", "--quiet", "worker", "-Q", "fusion"]
    out = _run(
        tmp_path,
        [*celery, "-c", "1", "-n", "rev22@%h"],
        SCOREGATE_LOG_FORMAT="json",
        SCOREGATE_BROKER_URL=NOWHERE,
        SCOREGATE_DATABASE_URL=f"sqlite:///{tmp_path / 'x.db'}",
        SCOREGATE_SCORING_CONFIG=str(bad),
    )
    assert out.returncode == 2, out.stdout + out.stderr  # was 1, with the YAML in 7 plain lines
    found = json_records(out.stdout + out.stderr)  # every line a record
    refusals = [r for r in found if r["level"] == "ERROR"]
    assert len(refusals) == 1 and refusals[0]["logger"] == "scoregate.workers.startup"
    assert refusals[0]["message"].startswith(f"invalid configuration: {bad} is not valid YAML")
    assert "review: [0.7" in refusals[0]["message"]


@pytest.mark.parametrize("via", ["scoregate", "celery"])
def test_a_worker_with_a_misspelt_database_url_refuses_in_one_json_record(
    tmp_path: Path, via: str
) -> None:
    if via == "scoregate":
        args = ["-m", "scoregate", "worker", "--pool", "reward", "-n", "rev22@%h"]
    else:
        args = ["-m", "celery", "-A", "scoregate.workers", "--quiet", "worker", "-Q", "reward"]
    out = _run(
        tmp_path,
        args,
        SCOREGATE_LOG_FORMAT="json",
        SCOREGATE_BROKER_URL=NOWHERE,
        **{MISSPELT: "postgresql+psycopg://postgres@127.0.0.1:5432/rev_ops"},
    )
    assert out.returncode == 2, out.stdout + out.stderr
    found = json_records(out.stdout + out.stderr)
    [refusal] = [r for r in found if r["level"] == "ERROR"]
    assert refusal["logger"] == "scoregate.workers.startup"
    assert refusal["message"].endswith(f"did you mean SCOREGATE_DATABASE_URL? {MISSPELT} is set")
    assert not _files_under_home(tmp_path)


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_serve_and_submit_with_a_misspelt_database_url_refuse_and_make_no_file(
    tmp_path: Path, log_format: str
) -> None:
    settings = {
        "SCOREGATE_LOG_FORMAT": log_format,
        "SCOREGATE_BROKER_URL": NOWHERE,
        MISSPELT: "postgresql+psycopg://postgres@127.0.0.1:5432/rev_ops",
    }
    serve = _run(tmp_path, ["-m", "scoregate", "serve", "--port", "8391"], **settings)
    submit = _run(tmp_path, ["-m", "scoregate", "submit", "-q", "hi", "-c", "hello"], **settings)
    for out, who in ((serve, "serve"), (submit, "submit")):
        assert out.returncode == 2, out.stdout + out.stderr
        assert f"`scoregate {who}` needs the database the workers share" in out.stderr
        assert f"{MISSPELT} is set" in out.stderr
        assert "run `scoregate db upgrade`" not in out.stderr
    if log_format == "json":
        [record] = json_records(serve.stderr)
        assert record["level"] == "ERROR" and record["logger"] == "scoregate.server.startup"
    else:
        assert serve.stderr.startswith("error: SCOREGATE_DATABASE_URL is not set")
    assert not _files_under_home(tmp_path)  # no empty ~/.local/share/scoregate/scoregate.db
