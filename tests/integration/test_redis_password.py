"""A Redis with a password, on its own loopback port: broker, cache and quota connect
with the URL's credentials; a wrong password fails with a clear error, never silently."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
import redis

from scoregate.config.settings import Settings
from scoregate.storage.quota import RedisQuota
from scoregate.workers.app import create_app
from tests.conftest import require_service

pytestmark = pytest.mark.integration
PASSWORD = "s3cret/with:odd@chars"
ENCODED = "s3cret%2Fwith%3Aodd%40chars"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    binary = shutil.which("redis-server")
    if binary is None:
        require_service("redis-server", FileNotFoundError("redis-server not on PATH"))
    port = _free_port()
    proc = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--requirepass",
            PASSWORD,
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(50):
            try:
                redis.Redis(port=port, password=PASSWORD).ping()
                break
            except redis.ConnectionError:
                time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_broker_url_with_password_connects_and_carries_messages(port):
    url = f"redis://:{ENCODED}@127.0.0.1:{port}/0"
    app = create_app(Settings(broker_url=url))
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1)
    app.send_task("scoregate.control.sweep", queue="control")
    assert redis.Redis(port=port, password=PASSWORD).llen("control") == 1


def test_quota_and_cache_use_the_password(port):
    client = redis.Redis.from_url(f"redis://:{ENCODED}@127.0.0.1:{port}/1")
    assert RedisQuota(client).acquire("global", 5).allowed


def test_a_wrong_password_is_a_clear_error(port):
    client = redis.Redis.from_url(f"redis://:wrong@127.0.0.1:{port}/0")
    with pytest.raises(redis.AuthenticationError):
        client.ping()
