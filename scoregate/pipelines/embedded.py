"""The embedded default: the same steps, an in-process worker and SQLite, no servers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoregate.config.scoring_yaml import ScoringConfig
from scoregate.config.settings import Settings, get_scoring_config, get_settings
from scoregate.pipelines import agent_errors, control, steps
from scoregate.pipelines import context as names
from scoregate.pipelines.context import PipelineContext
from scoregate.pipelines.dispatch import InlineDispatcher
from scoregate.pipelines.workflow import load_workflow
from scoregate.scoring.engine import LocalModels, ModelProvider
from scoregate.storage.db import check_schema, session_scope, upgrade
from scoregate.storage.quota import MemoryQuota


def _pipeline_tasks(ctx: PipelineContext) -> dict[str, Callable[..., Any]]:
    return {
        names.SUBMIT: lambda body: steps.submit_body(ctx, body),
        names.SEMANTIC: lambda **kw: steps.score_model_track(ctx, "semantic", [kw]),
        names.PRECISION: lambda **kw: steps.score_model_track(ctx, "precision", [kw]),
        names.REWARD: lambda **kw: steps.score_reward_track(ctx, [kw]),
        names.FUSE: lambda job_id, n: control.fuse_iteration(ctx, job_id, n),
        names.DECIDE: lambda job_id, n: control.decide_iteration(ctx, job_id, n),
        names.AGENT_RESULT: lambda output, job_id, iteration=None, n=None: control.agent_result(
            ctx, output, job_id, int(control.answered_iteration(iteration, n))
        ),
        names.AGENT_ERROR: lambda **kw: agent_errors.record_agent_error(
            ctx, agent_errors.parse_report(kw)
        ),
        names.REVIEW: lambda job_id, verdict, actor, note=None: control.review(
            ctx, job_id, verdict, actor, note
        ),
        names.SWEEP: lambda older_than_s=None: control.sweep(
            ctx, older_than_s or ctx.settings.stuck_after_s
        ),
    }


def embedded_context(
    settings: Settings | None = None,
    *,
    config: ScoringConfig | None = None,
    models: ModelProvider | None = None,
    local_tasks: dict[str, Callable[..., Any]] | None = None,
    migrate: bool = True,
) -> tuple[PipelineContext, InlineDispatcher]:
    """A context whose dispatcher runs every message in this process (call ``drain``).

    Args:
        migrate: bring the database up to date first (a database this process owns: the
            embedded default, the demo's, a test's); False refuses one that is not
            (:class:`~scoregate.storage.db.SchemaNotCurrent`) and changes nothing.
    """
    settings = settings or get_settings()
    cfg = config or get_scoring_config()
    url = settings.secret("database_url")
    if migrate:
        upgrade(url)
    else:
        check_schema(url)
    dispatcher = InlineDispatcher()
    ctx = PipelineContext(
        settings=settings,
        config=cfg,
        dispatcher=dispatcher,
        session=lambda: session_scope(url),
        quota=MemoryQuota(),
        models_factory=(lambda: models)
        if models is not None
        else (
            lambda: LocalModels(
                cfg,
                device=settings.device,
                threads=settings.torch_threads,
                backend=settings.cpu_backend,
            )
        ),
        workflow=load_workflow(settings.workflow_config) if settings.workflow_config else None,
        local_tasks=dict(local_tasks or {}),
    )
    dispatcher.tasks.update(_pipeline_tasks(ctx))
    dispatcher.tasks.update(ctx.local_tasks)
    return ctx, dispatcher
