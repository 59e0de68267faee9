"""The Celery app's contract: names, routes, JSON only, late acks; no torch outside models."""

from __future__ import annotations

import subprocess
import sys

from scoregate.config.settings import Settings
from scoregate.pipelines.context import POOLS, queue_of
from scoregate.workers.app import celery_config, create_app


def test_every_task_has_a_stable_name_routed_to_its_pool():
    app = create_app(Settings())
    app.loader.import_default_modules()
    names = {n for n in app.tasks if n.startswith("scoregate.")}
    assert {
        "scoregate.semantic.score",
        "scoregate.precision.score",
        "scoregate.reward.score",
        "scoregate.fusion.fuse",
        "scoregate.control.decide",
        "scoregate.control.submit",
        "scoregate.control.agent_result",
        "scoregate.control.agent_error",
        "scoregate.control.review",
        "scoregate.control.sweep",
    } <= names
    for name in names:
        assert queue_of(name) in POOLS
        route = app.amqp.router.route({}, name)
        assert route["queue"].name == queue_of(name)


def test_json_only_late_acks_and_visibility_timeout():
    conf = celery_config(Settings(visibility_timeout_s=7200, task_time_limit_s=600))
    assert conf["accept_content"] == ["json"] and conf["task_serializer"] == "json"
    assert conf["task_acks_late"] and conf["task_reject_on_worker_lost"]
    assert conf["broker_transport_options"]["visibility_timeout"] > conf["task_time_limit"]
    assert conf["worker_send_task_events"] and conf["task_send_sent_event"]


def test_task_events_can_be_switched_off():
    conf = celery_config(Settings(task_events=False))
    assert not conf["worker_send_task_events"] and not conf["task_send_sent_event"]


def test_cpu_pools_never_import_torch():
    code = (
        "import sys\n"
        "import scoregate.workers.app, scoregate.workers.reward, scoregate.workers.fusion\n"
        "import scoregate.workers.control, scoregate.workers.semantic\n"
        "import scoregate.workers.precision, scoregate.scoring.engine\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
        "assert 'sentence_transformers' not in sys.modules\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_query_embeddings_are_cached_apart_per_number_format(monkeypatch):
    import fakeredis

    from scoregate.workers import runtime

    monkeypatch.setattr(runtime, "redis_client", lambda: fakeredis.FakeRedis())
    prefixes = []
    for backend in ("torch", "int8", "torch"):
        monkeypatch.setattr(
            runtime, "get_settings", lambda b=backend: Settings(device="cpu", cpu_backend=b)
        )
        prefixes.append(runtime._models()._cache._prefix)
    fp32, int8, again = prefixes
    assert fp32 != int8 and fp32 == again and fp32.startswith("scoregate:emb:")
