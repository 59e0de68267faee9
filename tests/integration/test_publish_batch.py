"""Publishing many messages at once on real Redis: every message arrives, in order, as
JSON, across the publish batch's flushes (kombu pipelines them)."""

from __future__ import annotations

import base64
import json

import pytest
import redis

from scoregate.config.settings import Settings
from scoregate.pipelines.dispatch import PUBLISH_BATCH, CeleryDispatcher, Message
from scoregate.workers.app import create_app

pytestmark = pytest.mark.integration
QUEUE = "publish-batch-probe"


def test_send_many_delivers_every_message_in_order(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.delete(QUEUE)
    dispatcher = CeleryDispatcher(create_app(Settings(broker_url=redis_url, task_events=True)))
    n = PUBLISH_BATCH * 2 + 7  # more commands than two batches hold: several flushes
    dispatcher.send_many(
        [Message("scoregate.control.sweep", {"i": i, "text": "é"}, QUEUE) for i in range(n)]
    )
    assert client.llen(QUEUE) == n
    # kombu LPUSHes and consumers BRPOP: the oldest message sits at the right end.
    raw = [json.loads(m) for m in reversed(client.lrange(QUEUE, 0, -1))]
    assert {m["content-type"] for m in raw} == {"application/json"}
    assert [m["headers"]["task"] for m in raw] == ["scoregate.control.sweep"] * n
    kwargs = [json.loads(base64.b64decode(m["body"]))[1] for m in raw]
    assert [k["i"] for k in kwargs] == list(range(n))  # each once, in order
    assert {k["text"] for k in kwargs} == {"é"}
    client.delete(QUEUE)


def test_send_many_to_a_dead_broker_is_a_publish_error():
    from scoregate.pipelines.dispatch import PublishError

    app = create_app(Settings(broker_url="redis://127.0.0.1:1/0"))
    app.conf.broker_connection_retry = False
    app.conf.broker_transport_options = {"max_retries": 0}
    with pytest.raises(PublishError, match="cannot publish 2 message"):
        CeleryDispatcher(app).send_many([Message("scoregate.control.sweep", {}, QUEUE)] * 2)
