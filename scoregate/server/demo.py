"""``scoregate serve --demo``: the app over a throwaway SQLite database and the in-process
worker, with the demo's two jobs: one accepted, one escalated to the review queue."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from rich.console import Console

from scoregate.cli.demo import (
    AGENT,
    DEMO_LOOP,
    ON_EXIT,
    ON_PASS,
    RECIPE_DRAFTS,
    RECIPE_QUERY,
    SUMMARY_DRAFTS,
    SUMMARY_QUERY,
    DemoAgent,
    demo_jobs,
)
from scoregate.config.settings import get_settings
from scoregate.scoring.engine import ModelProvider
from scoregate.server.service import ApiService


def demo_service(
    console: Console, *, database_url: str | None = None, models: ModelProvider | None = None
) -> tuple[ApiService, list[str]]:
    """An embedded service with the demo jobs already run; returns it and their ids.

    ``on_pass`` and ``on_loop_exit`` print to ``console``, so approving the escalated job
    in the review queue shows its ``on_pass`` firing.
    """
    from scoregate.pipelines.embedded import embedded_context

    settings = get_settings().model_copy()
    tmp = Path(tempfile.mkdtemp(prefix="scoregate-serve-demo-"))
    settings.database_url = SecretStr(database_url or f"sqlite:///{tmp / 'demo.db'}")
    settings.broker_url = None
    agent = DemoAgent(console, {RECIPE_QUERY: RECIPE_DRAFTS, SUMMARY_QUERY: SUMMARY_DRAFTS})
    local: dict[str, Callable[..., Any]] = {
        AGENT: agent,
        ON_PASS: lambda **kw: console.print(
            f"[green]on_pass[/] fired: job {kw['job_id']} score {kw['score']:.2f}"
        ),
        ON_EXIT: lambda **kw: console.print(
            f"[yellow]on_loop_exit[/] fired: job {kw['job_id']} reason={kw['reason']}"
        ),
    }
    ctx, inline = embedded_context(settings, models=models, local_tasks=local)
    service = ApiService(ctx, inline, models=models)
    ids = []
    for req in demo_jobs():
        req["content"] = agent.first(req["query"])
        body = {
            "request": req,
            "agent": AGENT,
            "on_pass": ON_PASS,
            "on_loop_exit": ON_EXIT,
            "loop": dict(DEMO_LOOP),
            "submitted_by": "demo",
        }
        ids.append(service.submit(body)[0])
    return service, ids
