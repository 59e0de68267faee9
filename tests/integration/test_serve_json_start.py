"""``scoregate serve`` with ``SCOREGATE_LOG_FORMAT=json``, as a process: from its first line
to its last (start-up, listening, shutdown) everything it writes is one JSON object per
line (SQLite; no Redis or Postgres needed)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, stop
from tests.json_lines import json_records

LISTENING = '"Uvicorn running on http://127.0.0.1:'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def json_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREGATE_")}
    env.update(
        {
            "SCOREGATE_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
            "SCOREGATE_LOG_FORMAT": "json",
            "HF_HUB_OFFLINE": "1",
            "PYTHONPATH": str(ROOT),
            **settings,
        }
    )
    return env


def serve_until_listening(tmp_path: Path, env: dict[str, str], *args: str) -> dict[str, str]:
    """Start ``scoregate serve``, wait until it listens, stop it (SIGTERM); its stdout and
    stderr, whole."""
    cli = [sys.executable, "-m", "scoregate.cli"]
    out, err = tmp_path / "serve.out", tmp_path / "serve.err"
    cmd = [*cli, "serve", "--port", str(free_port()), *args]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=out.open("wb"), stderr=err.open("wb"))
    try:
        deadline = time.monotonic() + 180
        while LISTENING not in err.read_text(errors="replace"):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"serve did not listen: {err.read_text()[-3000:]}")
            time.sleep(0.2)
    finally:
        stop(proc)
    return {"stdout": out.read_text(), "stderr": err.read_text()}


@pytest.mark.model
def test_serve_writes_only_json_lines_from_start_to_stop(tmp_path: Path):
    env = json_env(tmp_path)
    cli = [sys.executable, "-m", "scoregate.cli"]
    subprocess.run([*cli, "db", "upgrade"], env=env, cwd=ROOT, check=True, capture_output=True)
    written = serve_until_listening(tmp_path, env)
    assert written["stdout"] == ""
    found = json_records(written["stderr"])
    said = {r["message"].split(" in ")[0]: r for r in found}
    assert said["models loaded"]["logger"] == "scoregate.server.startup"
    assert said["models loaded"]["load_s"] > 0
    assert any(r["message"].startswith("mode: embedded; review queue") for r in found)
    assert any(r["message"] == "Application shutdown complete." for r in found)  # to the end


def test_serve_warns_in_json_of_a_database_that_does_not_answer(tmp_path: Path):
    """With a broker, ``serve`` starts though its database is down: the warning is a
    record too (nothing listens on port 9 of loopback)."""
    env = json_env(
        tmp_path,
        SCOREGATE_DATABASE_URL="postgresql+psycopg://scoregate@127.0.0.1:9/scoregate",
        SCOREGATE_BROKER_URL="redis://127.0.0.1:9/0",
    )
    written = serve_until_listening(tmp_path, env, "--no-load-models")
    found = json_records(written["stdout"] + written["stderr"])
    [warning] = [r for r in found if "does not answer yet" in r["message"]]
    assert warning["level"] == "WARNING" and warning["logger"] == "scoregate.server.startup"
    assert any(r["message"].startswith("mode: celery;") for r in found)
