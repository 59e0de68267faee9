"""``scoregate serve --demo``: the app over a throwaway SQLite database and the in-process
worker, with the demo's two jobs: one accepted, one escalated to the review queue."""

from __future__ import annotations

from rich.console import Console

from scoregate.cli.demo import demo_body, demo_context, demo_jobs
from scoregate.scoring.engine import ModelProvider
from scoregate.server.service import ApiService


def demo_service(
    console: Console, *, database_url: str | None = None, models: ModelProvider | None = None
) -> tuple[ApiService, list[str]]:
    """An embedded service with the demo jobs already run; returns it and their ids.

    ``on_pass`` and ``on_loop_exit`` print to ``console``, so approving the escalated job
    in the review queue shows its ``on_pass`` firing.
    """
    _, ctx, inline, agent = demo_context(
        console,
        database_url=database_url,
        models=models,
        on_pass=lambda **kw: console.print(
            f"[green]on_pass[/] fired: job {kw['job_id']} score {kw['score']:.2f}"
        ),
        on_exit=lambda **kw: console.print(
            f"[yellow]on_loop_exit[/] fired: job {kw['job_id']} reason={kw['reason']}"
        ),
        prefix="scoregate-serve-demo-",
    )
    service = ApiService(ctx, inline, models=models)
    ids = [
        service.submit({**demo_body(agent, req), "submitted_by": "demo"})[0] for req in demo_jobs()
    ]
    return service, ids
