"""``scoregate score``: score one output in process and print the breakdown."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scoregate.cli.args import (
    AsJson,
    Constraints,
    Content,
    ContentFile,
    HardConstraints,
    Query,
    Role,
    TaskType,
    read_content,
    request_body,
)
from scoregate.cli.console import console, die, err
from scoregate.reports.terminal import safe


def score(
    query: Query,
    content: Content = None,
    content_file: ContentFile = None,
    constraint: Constraints = None,
    hard: HardConstraints = None,
    role: Role = None,
    task_type: TaskType = None,
    as_json: AsJson = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the report.")] = False,
    config: Annotated[Path | None, typer.Option(help="A scoring YAML overlay.")] = None,
) -> None:
    """Score one output in process and print the breakdown."""
    from scoregate.config.scoring_yaml import load_scoring_config
    from scoregate.config.settings import get_scoring_config, get_settings
    from scoregate.extras import require
    from scoregate.scoring.engine import parse_request
    from scoregate.scoring.engine import score as run
    from scoregate.scoring.fusion import misspelt_metadata, unmatched_metadata

    require("models", "`scoregate score` (it runs the semantic and precision tracks)")
    body = request_body(
        query, read_content(content, content_file), constraint, hard, role, task_type
    )
    try:
        # --config, else SCOREGATE_SCORING_CONFIG, else the packaged defaults: the same
        # config the service and the workers read
        cfg = load_scoring_config(config) if config is not None else get_scoring_config()
        request = parse_request(body)  # one line per problem, as `submit` says it
        typo = misspelt_metadata(request.metadata, cfg)  # "--task-type creatve": refused
        if typo is not None:
            flag = typo.replace("metadata.task_type", "--task-type")
            raise die(flag.replace("metadata.role", "--role"))
        for warning in unmatched_metadata(request.metadata, cfg):
            err.print(f"[yellow]warning:[/] {safe(warning)}")
        with console.status("loading models and scoring..."):
            result = run(request, config=cfg, backend=get_settings().cpu_backend)
    except (ValueError, FileNotFoundError) as exc:
        raise die(str(exc)) from None
    failed = [t for t in result.tracks.values() if t.status == "failed"]
    if failed:
        # a track that could not run (a model missing, a broken install) is no verdict on
        # the answer: a "reject" here would send an agent round the loop for nothing
        for t in failed:
            err.print(f"[bold red]error:[/] the {t.name} track failed: {safe(t.error or '')}")
        raise typer.Exit(3)
    if as_json:
        from scoregate.cli.output import score_json

        print(score_json(result))
    elif markdown:
        print(result.to_markdown())
    else:
        from scoregate.reports.render import print_result

        print_result(console, result)
