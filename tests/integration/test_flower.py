"""A real Flower process on loopback finds a job's tasks through its HTTP API."""

from __future__ import annotations

import base64
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

import scoregate
from tests.integration.conftest import ROOT, stop, wait_final

pytestmark = [pytest.mark.integration, pytest.mark.model]
AUTH = ("ops", "s3cret-test")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(port: int, path: str, auth: bool = True) -> tuple[int, bytes]:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if auth:
        token = base64.b64encode(f"{AUTH[0]}:{AUTH[1]}".encode()).decode()
        req.add_header("Authorization", f"Basic {token}")
    try:
        with urllib.request.urlopen(req, timeout=5) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, b""


def _tasks(port: int) -> dict[str, dict]:
    status, body = _get(port, "/api/tasks")
    assert status == 200, status
    return json.loads(body)


def test_flower_lists_the_jobs_tasks_by_name(stack, tmp_path):
    port = _free_port()
    log = tmp_path / "flower.log"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "scoregate.workers",
            "flower",
            f"--port={port}",
            "--address=127.0.0.1",
            f"--basic-auth={AUTH[0]}:{AUTH[1]}",
        ],
        env=stack["env"],
        cwd=ROOT,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_http(port, proc, log)
        _wait_events_flowing(port)
        job_id = scoregate.submit(
            {
                "query": "What is the capital of France?",
                "content": "The capital of France is Paris.",
            }
        )
        assert wait_final(job_id)["status"] == "completed"
        names = _names_for(port, job_id)
        expected = {
            "scoregate.semantic.score",
            "scoregate.precision.score",
            "scoregate.reward.score",
            "scoregate.fusion.fuse",
            "scoregate.control.decide",
        }
        assert expected <= names, names
        assert _get(port, "/api/tasks", auth=False)[0] == 401
    finally:
        stop(proc)


def _names_for(port: int, job_id: str, timeout: float = 30.0) -> set[str]:
    deadline = time.monotonic() + timeout
    names: set[str] = set()
    while time.monotonic() < deadline:
        names = {
            t.get("name")
            for t in _tasks(port).values()
            if job_id in str(t.get("kwargs", "")) or job_id in str(t.get("args", ""))
        }
        if len(names) >= 5:
            break
        time.sleep(0.5)
    return names


def _wait_events_flowing(port: int, timeout: float = 90.0) -> None:
    """Flower answers HTTP before its event receiver has bound a queue.

    Events sent in that gap are lost to Flower, so wait until a warm-up job's
    last task is visible before submitting the job under test.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        warm = scoregate.submit({"query": "warm up", "content": "warm up"})
        assert wait_final(warm)["status"] == "completed"
        if "scoregate.control.decide" in _names_for(port, warm, timeout=5.0):
            return
    raise AssertionError("flower never received task events from the workers")


def _wait_http(port: int, proc: subprocess.Popen[bytes], log) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"flower exited: {log.read_text()[-2000:]}")
        try:
            if _get(port, "/healthcheck")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"flower did not start: {log.read_text()[-2000:]}")
