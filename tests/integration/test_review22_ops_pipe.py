"""The ops review's finding 6 as a real process (twenty-second session): a worker whose
stdout and stderr are a pipe whose reader went away (a log shipper or `| head` that exited)
still stops on SIGTERM, in JSON and in text mode. Celery writes "worker: Warm shutdown" from
the signal handler before it sets the flag that stops the worker; the write failed with
EPIPE and the raise cancelled the shutdown: the worker took messages on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, reachable_redis, service_env, stop

pytestmark = pytest.mark.integration

REDIS_DB = os.environ.get("SCOREGATE_TEST_OPS_REDIS_URL", "redis://127.0.0.1:6379/11")


@pytest.mark.parametrize("log_format", ["json", "text"])
def test_a_worker_whose_log_pipe_closed_still_stops_on_sigterm(
    tmp_path: Path, log_format: str
) -> None:
    from scoregate.storage.db import dispose_engines, upgrade

    url = f"sqlite:///{tmp_path / 'pipe.db'}"
    upgrade(url)
    dispose_engines()
    env = service_env(url, reachable_redis(REDIS_DB), SCOREGATE_LOG_FORMAT=log_format)
    cmd = [sys.executable, "-m", "celery", "-A", "scoregate.workers", "worker", "-Q", "fusion"]
    cmd += ["-c", "1", "-l", "INFO", "-n", f"pipe-{log_format}@%h"]
    if log_format == "json":
        cmd.insert(3, "--quiet")  # no banner: as `scoregate worker` in JSON mode
    proc = subprocess.Popen(
        cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        assert proc.stdout is not None
        seen = b""
        deadline = time.monotonic() + 90
        while b"ready." not in seen:
            assert time.monotonic() < deadline and proc.poll() is None, seen[-3000:]
            seen += proc.stdout.readline()
        proc.stdout.close()  # the reader goes away: every later write is EPIPE
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=40)  # was: still running 80 s later, taking messages
    finally:
        if proc.poll() is None:
            stop(proc)
    assert code == 0
