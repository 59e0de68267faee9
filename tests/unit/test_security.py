"""Security: JSON only on the wire, task names from the allow-list, secrets never shown,
and broker and database URLs with passwords and TLS handled as written."""

from __future__ import annotations

import pickle
import ssl
from pathlib import Path

import pytest
from kombu.exceptions import ContentDisallowed
from kombu.serialization import dumps, loads
from pydantic import SecretStr
from sqlalchemy.engine import make_url

from scoregate.config.settings import Settings
from scoregate.pipelines import steps
from scoregate.pipelines.embedded import embedded_context
from scoregate.storage.db import redact_url, resolve_url
from scoregate.workers.app import create_app
from scoregate.workers.reliability import delivery_guard
from tests.fakes import FakeModels

PASSWORD = "s3cr3t-Pa55"
BROKER = f"rediss://:{PASSWORD}@redis.internal:6380/0"
DATABASE = (
    f"postgresql://app:{PASSWORD}@db.internal:5432/scoregate"
    "?sslmode=verify-full&sslrootcert=/etc/ssl/db-ca.pem"
)


# --- JSON only ----------------------------------------------------------------------------------


def test_the_app_refuses_pickled_message_bodies():
    conf = create_app(Settings()).conf
    pickled = dumps({"evil": object.__name__}, serializer="pickle")  # type: ignore[no-untyped-call]
    content_type, encoding, body = pickled
    with pytest.raises(ContentDisallowed, match="pickle"):
        loads(body, content_type, encoding, accept=conf.accept_content)  # type: ignore[no-untyped-call]
    assert pickle.loads(body)  # the same bytes are a valid pickle: refused by type, not luck
    assert conf.task_serializer == conf.result_serializer == conf.event_serializer == "json"
    assert conf.result_accept_content == ["json"]


# --- task names from the allow-list -------------------------------------------------------------


@pytest.fixture
def ctx(tmp_path: Path):
    settings = Settings(
        database_url=SecretStr(f"sqlite:///{tmp_path / 's.db'}"),
        allowed_tasks=["app.agents.write", "app.hooks.done"],
    )
    return embedded_context(settings, models=FakeModels())[0]


REQUEST = {"query": "q", "content": "c"}


@pytest.mark.parametrize("role", ["agent", "on_pass", "on_loop_exit", "research"])
def test_every_task_role_is_checked_against_the_allow_list(ctx, role):
    with pytest.raises(ValueError, match=f"{role} task 'app.agents.evil' is not allowed"):
        steps.build_spec(ctx, {"request": REQUEST, role: "app.agents.evil"})
    with pytest.raises(ValueError, match=f"{role} task 'celery.backend_cleanup' is not allowed"):
        steps.build_spec(ctx, {"request": REQUEST, role: {"task": "celery.backend_cleanup"}})


@pytest.mark.parametrize("role", ["on_pass", "on_loop_exit", "research"])
def test_only_the_agent_may_be_external(ctx, role):
    with pytest.raises(ValueError, match=f"only the agent may be 'external'.*give the {role}"):
        steps.build_spec(ctx, {"request": REQUEST, role: "external"})
    spec = steps.build_spec(ctx, {"request": REQUEST, "agent": "external"})
    assert spec.agent is not None and spec.agent.external


def test_allowed_names_pass_and_hooks_inside_hooks_are_checked_too(ctx):
    spec = steps.build_spec(
        ctx, {"request": REQUEST, "agent": "app.agents.write", "on_pass": "app.hooks.done"}
    )
    assert spec.agent is not None and spec.agent.task == "app.agents.write"
    with pytest.raises(ValueError, match="research task 'os.system' is not allowed"):
        steps.build_spec(ctx, {"request": REQUEST, "hooks": {"research": {"task": "os.system"}}})


def test_the_allow_list_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("SCOREGATE_ALLOWED_TASKS", " app.a , app.b,,")
    assert Settings().allowed_tasks == ["app.a", "app.b"]


# --- secrets ------------------------------------------------------------------------------------


def test_settings_never_show_their_secrets(monkeypatch):
    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    monkeypatch.setenv("SCOREGATE_DATABASE_URL", DATABASE)
    settings = Settings()
    for shown in (repr(settings), str(settings), settings.model_dump_json()):
        assert PASSWORD not in shown
    assert settings.secret("broker_url") == BROKER  # still there for whoever connects


def test_celery_shows_urls_with_the_password_masked():
    settings = Settings(broker_url=SecretStr(BROKER), result_backend=SecretStr(BROKER))
    app = create_app(settings)
    assert PASSWORD not in app.conf.humanize(with_defaults=False, censored=True)
    assert PASSWORD not in app.connection_for_write().as_uri()


def test_database_urls_are_redacted_for_logs_and_output():
    shown = redact_url(resolve_url(DATABASE))
    assert PASSWORD not in shown and "***" in shown
    assert "db.internal" in shown and "sslmode=verify-full" in shown
    assert redact_url("not a url") == "<unparseable database URL>"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://postgres:Sup@r/Secret@127.0.0.1:5432/opsrev",
        "postgresql+psycopg://app:Kq7@Zw9@Xy3@db.internal/scoregate?sslmode=require",
    ],
)
def test_a_password_with_an_unencoded_at_is_hidden_whole(url):
    shown = redact_url(url)
    secret = url.split("://", 1)[1].split(":", 1)[1].rsplit("@", 1)[0]
    assert "***" in shown
    assert not any(part and part in shown for part in secret.split("@")), shown
    assert shown.endswith(url.rsplit("@", 1)[1])  # the host, port and database stay


# --- URLs with passwords and TLS ----------------------------------------------------------------


def test_a_postgres_url_keeps_its_password_and_tls_parameters():
    url = make_url(resolve_url(DATABASE))
    assert url.drivername == "postgresql+psycopg"  # plain postgresql:// means psycopg 3
    assert url.password == PASSWORD
    assert url.query == {"sslmode": "verify-full", "sslrootcert": "/etc/ssl/db-ca.pem"}


def test_a_password_with_reserved_characters_survives_url_encoding():
    url = make_url(resolve_url("postgresql://app:p%40ss%2Fw%3Ard@db:5432/x?sslmode=require"))
    assert url.password == "p@ss/w:rd" and url.query["sslmode"] == "require"


def test_a_rediss_broker_verifies_the_server_certificate_by_default():
    app = create_app(Settings(broker_url=SecretStr(BROKER), result_backend=SecretStr(BROKER)))
    assert app.connection_for_write().ssl == {"ssl_cert_reqs": ssl.CERT_REQUIRED}
    assert app.conf.redis_backend_use_ssl == {"ssl_cert_reqs": ssl.CERT_REQUIRED}
    assert app.backend.connparams["ssl_cert_reqs"] == ssl.CERT_REQUIRED


def test_a_rediss_url_that_names_its_tls_policy_keeps_it():
    url = BROKER + "?ssl_cert_reqs=optional&ssl_ca_certs=/etc/ssl/redis-ca.pem"
    app = create_app(Settings(broker_url=SecretStr(url)))
    assert not app.conf.broker_use_ssl
    ssl_options = app.connection_for_write().ssl
    assert ssl_options["ssl_cert_reqs"] == ssl.CERT_OPTIONAL
    assert ssl_options["ssl_ca_certs"] == "/etc/ssl/redis-ca.pem"


def test_the_delivery_counter_uses_tls_on_a_rediss_broker(monkeypatch):
    from scoregate.config.settings import get_settings

    monkeypatch.setenv("SCOREGATE_BROKER_URL", BROKER)
    get_settings.cache_clear()
    delivery_guard.cache_clear()
    try:
        connection = delivery_guard().client.connection_pool.make_connection()  # not connected
    finally:
        get_settings.cache_clear()
        delivery_guard.cache_clear()
    assert connection.password == PASSWORD and connection.host == "redis.internal"
    assert connection.cert_reqs == ssl.CERT_REQUIRED
