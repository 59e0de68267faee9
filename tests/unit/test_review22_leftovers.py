"""What the twenty-second session's reviewers found outside the files their fixers held:
the dispatcher never waits on a result backend, Celery bodies read hooks and agents as the
HTTP and Python bodies do."""

from __future__ import annotations

from typing import Any

import pytest
from celery import Celery

from scoregate.pipelines.dispatch import CeleryDispatcher, Message


class _Backend:
    """A result backend that must not be touched: a real one that is down would make the
    publish wait on its connection (~20 s) and fail."""

    def on_task_call(self, *_: Any, **__: Any) -> None:
        raise AssertionError("the dispatcher subscribed to a result it never reads")


@pytest.mark.parametrize("many", [False, True])
def test_the_dispatcher_never_subscribes_to_a_result(many: bool, monkeypatch):
    app = Celery("dispatch-test", broker="memory://", set_as_current=False)
    app.conf.task_serializer = "json"
    app.conf.accept_content = ["json"]
    monkeypatch.setattr(Celery, "backend", property(lambda _self: _Backend()))
    dispatcher = CeleryDispatcher(app)
    message = Message(task="scoregate.semantic.score", kwargs={"job_id": "j"}, queue="semantic")
    if many:
        dispatcher.send_many([message, message])
    else:
        dispatcher.send(message)


def test_a_task_with_an_errback_keeps_its_result(monkeypatch):
    """An agent in a foreign app that raises reaches its job through the error the result
    backend stores (its type and message): that send keeps its result."""
    subscribed: list[str] = []

    class _Recording:
        def on_task_call(self, _producer: Any, task_id: str) -> None:
            subscribed.append(task_id)

    app = Celery("dispatch-test", broker="memory://", set_as_current=False)
    app.conf.task_serializer = "json"
    app.conf.accept_content = ["json"]
    monkeypatch.setattr(Celery, "backend", property(lambda _self: _Recording()))
    errback = Message(task="scoregate.control.agent_error", kwargs={"job_id": "j"})
    agent = Message(task="orchestrator.write", kwargs={}, queue="agents", link_error=errback)
    CeleryDispatcher(app).send(agent)
    assert len(subscribed) == 1


def _spec(tmp_path: Any, body: dict[str, Any]) -> Any:
    from pydantic import SecretStr

    from scoregate.config.settings import Settings
    from scoregate.pipelines.embedded import embedded_context
    from scoregate.pipelines.steps import build_spec
    from tests.fakes import FakeModels

    settings = Settings(database_url=SecretStr(f"sqlite:///{tmp_path / 'd.db'}"))
    noop = {name: (lambda **_: None) for name in ("myapp.agent", "myapp.pass", "myapp.other")}
    ctx, _ = embedded_context(settings, models=FakeModels({}), local_tasks=noop)
    return build_spec(ctx, body)


REQUEST = {"query": "Write a haiku about rain", "content": "Rain on the tin roof"}


def test_a_celery_body_with_one_hook_named_twice_as_two_tasks_is_refused(tmp_path):
    """As HTTP and Python bodies are: one of the two was dropped without a word."""
    body = {"request": REQUEST, "on_pass": "myapp.pass", "hooks": {"on_pass": "myapp.other"}}
    with pytest.raises(ValueError, match="on_pass is given twice"):
        _spec(tmp_path, body)
    same = {"request": REQUEST, "on_pass": "myapp.pass", "hooks": {"on_pass": "myapp.pass"}}
    assert _spec(tmp_path, same).hooks.on_pass.task == "myapp.pass"


def test_a_celery_bodys_agent_may_name_its_queue(tmp_path):
    """ "NAME@QUEUE", as README teaches for the CLI and the HTTP body takes."""
    spec = _spec(tmp_path, {"request": REQUEST, "agent": "myapp.agent@gpu"})
    assert (spec.agent.task, spec.agent.queue) == ("myapp.agent", "gpu")


@pytest.mark.parametrize(
    ("env", "says"),
    [
        (
            {"SCOREGATE_BROKER_URL": "redis://127.0.0.1:1/0"},
            "SCOREGATE_DATABASE_URL is not set, but SCOREGATE_BROKER_URL is",
        ),
        (
            {"SCOREGATE_BROKR_URL": "redis://127.0.0.1:1/0"},
            "did you mean SCOREGATE_BROKER_URL?",
        ),
    ],
)
def test_the_python_api_refuses_what_the_cli_refuses(env, says, monkeypatch):
    """A script calling scoregate.submit with a broker but no database URL recorded its
    jobs in a SQLite file no worker reads (they waited for ever); with the broker variable
    misspelt it scored them in its own process. Both are refused, as the CLI refuses them."""
    from scoregate.config.settings import SettingsError, get_settings
    from scoregate.pipelines import api

    for name in ("SCOREGATE_BROKER_URL", "SCOREGATE_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    get_settings.cache_clear()
    try:
        with pytest.raises(SettingsError, match=says):
            api.client_context()
    finally:
        get_settings.cache_clear()
