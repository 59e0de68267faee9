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
