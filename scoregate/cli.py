"""The ``scoregate`` command."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import Progress

from scoregate.cli_args import constraint_epilog, kinds_with
from scoregate.cli_errors import ScoregateGroup
from scoregate.cli_ops import register as register_ops
from scoregate.cli_server import register as register_server
from scoregate.cli_workers import register as register_workers
from scoregate.pipelines.validation import JobLine
from scoregate.schemas.constraints import CONSTRAINT_KINDS
from scoregate.terminal import make_console, safe

app = typer.Typer(
    help="Score AI agents' output and gate their workflow.",
    no_args_is_help=True,
    cls=ScoregateGroup,  # a database error: one line and exit 1 (scoregate/cli_errors.py)
)
jobs_app = typer.Typer(help="Inspect jobs.", no_args_is_help=True)
db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)
app.add_typer(jobs_app, name="jobs")
app.add_typer(db_app, name="db")

console = make_console()
err = make_console(stderr=True)

_INT_KINDS = kinds_with("N")
_FLAG_KINDS = kinds_with("")


@app.callback()
def _options(
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of a database error.")
    ] = False,
) -> None:
    """Score AI agents' output and gate their workflow."""


def _die(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[bold red]error:[/] {safe(message)}")
    return typer.Exit(code)


def parse_constraint(text: str, *, hard: bool = False) -> dict[str, Any]:
    """``KIND=VALUE`` (or a JSON object) -> a constraint dict; errors name the fix."""
    text = text.strip()
    if text.startswith("{"):
        data = _load_json(text, f"constraint {text[:80]!r}")
        if not isinstance(data, dict):
            raise ValueError(f"constraint {text[:80]!r} must be a JSON object")
        return {**data, "hard": hard or data.get("hard", False)}
    kind, sep, value = text.partition("=")
    kind = kind.strip()
    if kind not in CONSTRAINT_KINDS:
        raise ValueError(f"unknown constraint kind {kind!r}; known: {', '.join(CONSTRAINT_KINDS)}")
    if kind in _FLAG_KINDS:
        return {"kind": kind, "hard": hard}
    if not sep:
        raise ValueError(f"constraint {kind!r} needs a value: {kind}=VALUE")
    return {"kind": kind, "value": _constraint_value(kind, value), "hard": hard}


def _constraint_value(kind: str, value: str) -> Any:
    if kind in _INT_KINDS:
        try:
            return int(value)
        except ValueError:
            raise ValueError(f"{kind} needs a whole number, got {value!r}") from None
    if kind == "json_schema":
        return _load_json(value, "json_schema value")
    return value


def _load_json(text: str, what: str) -> Any:
    """Parse JSON for a constraint; every failure is a ``ValueError`` naming ``what``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} is not valid JSON: {exc.msg}") from exc
    except RecursionError:
        raise ValueError(
            f"{what} is nested too deeply to read: flatten it (a schema needs only a few levels)"
        ) from None


def _read_content(content: str | None, content_file: Path | None) -> str:
    if (content is None) == (content_file is None):
        raise _die("give exactly one of --content or --content-file")
    if content_file is None:
        return content or ""
    if content_file.is_dir():
        raise _die(f"{content_file} is a directory: give the file holding the agent's output")
    try:
        return content_file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise _die(f"{content_file} does not exist") from None
    except UnicodeDecodeError as exc:
        raise _die(f"{content_file} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise _die(f"cannot read {content_file}: {exc.strerror or exc}") from None


def _request(
    query: str,
    content: str,
    constraints: list[str] | None,
    hard: list[str] | None,
    role: str | None,
    task_type: str | None,
) -> dict[str, Any]:
    try:
        parsed = [parse_constraint(c) for c in constraints or []]
        parsed += [parse_constraint(c, hard=True) for c in hard or []]
    except ValueError as exc:
        raise _die(str(exc)) from None
    metadata = {k: v for k, v in {"role": role, "task_type": task_type}.items() if v}
    return {"query": query, "content": content, "constraints": parsed, "metadata": metadata}


Query = Annotated[str, typer.Option("--query", "-q", help="The request the agent was given.")]
Content = Annotated[str | None, typer.Option("--content", "-c", help="The agent's output.")]
ContentFile = Annotated[
    Path | None, typer.Option("--content-file", "-f", help="Read the agent's output from a file.")
]
Constraints = Annotated[
    list[str] | None,
    typer.Option(
        "--constraint",
        help="KIND=VALUE, e.g. max_lines=400 or not_contains=nuts (repeatable; kinds below).",
    ),
]
HardConstraints = Annotated[
    list[str] | None,
    typer.Option("--hard", help="A hard constraint (KIND=VALUE): failing it caps the score."),
]
Role = Annotated[str | None, typer.Option("--role", help="Caller role, e.g. admin.")]
TaskType = Annotated[
    str | None, typer.Option("--task-type", help="analysis, research, creative, code...")
]
AsJson = Annotated[
    bool, typer.Option("--json", help="Print JSON (schema_version 1, docs/json-output.md).")
]


@app.command(epilog=constraint_epilog())
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
    from scoregate.config.settings import get_settings
    from scoregate.extras import require
    from scoregate.scoring.engine import score as run

    require("models", "`scoregate score` (it runs the semantic and precision tracks)")
    body = _request(query, _read_content(content, content_file), constraint, hard, role, task_type)
    try:
        cfg = load_scoring_config(config)
        with console.status("loading models and scoring..."):
            result = run(body, config=cfg, backend=get_settings().cpu_backend)
    except (ValueError, FileNotFoundError) as exc:
        raise _die(str(exc)) from None
    if as_json:
        from scoregate.cli_output import score_json

        print(score_json(result))
    elif markdown:
        print(result.to_markdown())
    else:
        from scoregate.render import print_result

        print_result(console, result)


@app.command()
def demo() -> None:
    """Run two jobs through the whole pipeline in process (SQLite, no servers)."""
    from scoregate.demo import run_demo
    from scoregate.extras import require

    require("models", "`scoregate demo` (it runs the semantic and precision tracks)")

    run_demo(console)


@app.command()
def worker(
    pool: Annotated[str, typer.Option(help="semantic, precision, reward, fusion, control or all")],
    concurrency: Annotated[int | None, typer.Option("-c", "--concurrency")] = None,
    loglevel: Annotated[str, typer.Option("--loglevel", "-l")] = "INFO",
    beat: Annotated[
        bool,
        typer.Option(help="Also run Celery beat (control workers sweep without it)."),
    ] = False,
) -> None:
    """Start a Celery worker for one pool (``celery worker -Q POOL``)."""
    from scoregate.workers.command import worker_argv

    try:
        argv = worker_argv(pool, concurrency=concurrency, loglevel=loglevel, beat=beat)
    except ValueError as exc:
        raise _die(str(exc)) from None
    from scoregate.config.settings import get_settings
    from scoregate.workers.startup import NO_BROKER

    if get_settings().broker_url is None:
        raise _die(NO_BROKER.removeprefix("scoregate: "))
    from scoregate.workers.app import get_app

    get_app().worker_main(argv)


def _jsonl_bodies(path: Path) -> list[JobLine]:
    from scoregate.pipelines.validation import read_jobs_file

    try:
        return read_jobs_file(path)
    except (ValueError, FileNotFoundError) as exc:
        raise _die(f"{exc}; nothing was submitted") from None


def _check_jobs(api: Any, jobs: list[JobLine], options: dict[str, Any], path: Path) -> None:
    """Validate every job of a file before submitting any: a bad line names itself."""
    from scoregate.pipelines.steps import build_spec

    try:
        ctx = api.client_context()[0]
    except ValueError as exc:
        raise _die(f"{exc}; nothing was submitted") from None
    for job in jobs:
        try:
            build_spec(ctx, {**options, **job.body})
        except ValueError as exc:
            raise _die(f"{path}:{job.line}: {exc}; nothing was submitted") from None


@app.command(epilog=constraint_epilog())
def submit(
    query: Annotated[str | None, typer.Option("--query", "-q")] = None,
    content: Content = None,
    content_file: ContentFile = None,
    constraint: Constraints = None,
    hard: HardConstraints = None,
    role: Role = None,
    task_type: TaskType = None,
    jobs_file: Annotated[Path | None, typer.Option("--file", help="A JSONL file of jobs.")] = None,
    loop: Annotated[
        bool | None,
        typer.Option(
            help="Enable the confidence loop (on by itself with --threshold or --max-iterations)."
        ),
    ] = None,
    threshold: Annotated[
        float | None,
        typer.Option(min=0.0, max=1.0, help="Pass threshold (default: the accept cut)."),
    ] = None,
    max_iterations: Annotated[
        int | None, typer.Option(min=1, max=50, help="Most iterations (default 3).")
    ] = None,
    gating: Annotated[bool, typer.Option(help="Seed-002 tiers: review / research.")] = False,
    agent: Annotated[
        str | None,
        typer.Option(help="Agent task NAME\\[@QUEUE] to re-run (queue default: agents)."),
    ] = None,
    on_pass: Annotated[
        str | None,
        typer.Option(help="Task NAME\\[@QUEUE] on acceptance (queue default: hooks)."),
    ] = None,
    wait: Annotated[bool, typer.Option(help="Wait until every job is final.")] = False,
    timeout: Annotated[float, typer.Option(help="Seconds to wait with --wait.")] = 600.0,
    as_json: AsJson = False,
) -> None:
    """Submit one job from flags, or many from a JSONL file (with a progress bar)."""
    from scoregate.pipelines import api

    given = {"enabled": loop, "threshold": threshold, "max_iterations": max_iterations}
    options: dict[str, Any] = {
        "loop": {"gating": gating, **{k: v for k, v in given.items() if v is not None}},
        "agent": _task_ref(agent),
        "on_pass": _task_ref(on_pass),
    }
    if jobs_file is not None:
        jobs = _jsonl_bodies(jobs_file)
        _check_jobs(api, jobs, options, jobs_file)
        bodies = [job.body for job in jobs]
    elif query is not None:
        req = _request(
            query, _read_content(content, content_file), constraint, hard, role, task_type
        )
        bodies = [{"request": req}]
    else:
        raise _die("give --query (with --content or --content-file) or --file JOBS.jsonl")
    ids = _submit_bodies(api, bodies, options)
    if as_json:
        from scoregate.cli_output import submit_json

        text, pending = submit_json(ids, wait=wait, timeout=timeout)
        print(text)
        if pending:
            raise typer.Exit(1)
        return
    for job_id in ids:
        print(job_id)
    if wait:
        from scoregate.render import wait_for_jobs

        wait_for_jobs(console, ids, timeout)


def _task_ref(text: str | None) -> dict[str, str] | None:
    if not text:
        return None
    task, _, queue = text.partition("@")
    return {"task": task, "queue": queue} if queue else {"task": task}


def _submit_bodies(api: Any, bodies: list[dict[str, Any]], options: dict[str, Any]) -> list[str]:
    from scoregate.cli_workers import exit_not_published
    from scoregate.pipelines.dispatch import JobsNotPublished

    ids: list[str] = []
    chunk = 200
    with Progress(console=err, transient=True) as progress:
        bar = progress.add_task("submitting", total=len(bodies))
        for start in range(0, len(bodies), chunk):
            part = bodies[start : start + chunk]
            try:
                ids += api.submit_bodies([{**options, **b} for b in part], strict=True)
            except JobsNotPublished as exc:
                exit_not_published(ids + exc.job_ids, len(bodies) - len(ids) - len(exc.job_ids))
            except ValueError as exc:
                at = f" (jobs {start + 1}-{start + len(part)})" if len(bodies) > 1 else ""
                raise _die(f"{exc}{at}; {len(ids)} job(s) submitted before it") from None
            progress.advance(bar, len(part))
    return ids


def _job_status(value: str | None) -> str | None:
    """Refuse an unknown ``--status`` (exit 2) with the list of statuses."""
    from scoregate.storage.tables import JOB_STATUSES

    if value is not None and value not in JOB_STATUSES:
        raise typer.BadParameter(
            f"{value!r} is not a job status; use one of: " + ", ".join(JOB_STATUSES)
        )
    return value


@jobs_app.command("list")
def jobs_list(
    status: Annotated[
        str | None,
        typer.Option(
            help="Only jobs with this status (pending, awaiting_review, failed...).",
            callback=_job_status,
        ),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 20,
    as_json: AsJson = False,
) -> None:
    """The newest jobs."""
    if as_json:
        from scoregate.cli_output import jobs_list_json
        from scoregate.pipelines import api

        print(jobs_list_json(api.list_jobs(status=status, limit=limit)))
        return
    from scoregate.render import print_jobs

    print_jobs(console, status=status, limit=limit)


@jobs_app.command("show")
def jobs_show(job_id: str, as_json: AsJson = False) -> None:
    """Every iteration's breakdown and every decision of one job."""
    from scoregate.pipelines import api
    from scoregate.render import print_job

    try:
        data = api.get_job(job_id)
    except LookupError as exc:
        raise _die(str(exc), 1) from None
    if as_json:
        from scoregate.cli_output import job_json

        print(job_json(data))
    else:
        print_job(console, data)


@jobs_app.command("cancel")
def jobs_cancel(
    job_id: str,
    actor: Annotated[str | None, typer.Option(help="Who cancels (default: $USER).")] = None,
    note: Annotated[str | None, typer.Option(help="Why.")] = None,
) -> None:
    """Cancel a job that is not final yet (whatever it waits for); recorded in its audit trail."""
    from scoregate.pipelines import api

    who = actor or os.environ.get("USER") or "unknown"
    try:
        was = api.cancel(job_id, who, note)
    except (LookupError, ValueError) as exc:
        raise _die(str(exc), 1) from None
    console.print(f"job {job_id}: cancelled by {who} (was {was})")


@app.command()
def review(
    job_id: str,
    approve: Annotated[bool, typer.Option("--approve")] = False,
    reject: Annotated[bool, typer.Option("--reject")] = False,
    research: Annotated[bool, typer.Option("--research")] = False,
    cancel: Annotated[bool, typer.Option("--cancel")] = False,
    actor: Annotated[str | None, typer.Option(help="Who decides (default: $USER).")] = None,
    note: Annotated[str | None, typer.Option(help="Why.")] = None,
) -> None:
    """Resolve a job waiting for a human: --approve, --reject, --research or --cancel."""
    from scoregate.pipelines import api

    chosen = [
        v
        for v, on in (
            ("approve", approve),
            ("reject", reject),
            ("research", research),
            ("cancel", cancel),
        )
        if on
    ]
    if len(chosen) != 1:
        raise _die("give exactly one of --approve, --reject, --research, --cancel")
    who = actor or os.environ.get("USER") or "unknown"
    try:
        status = api.review(job_id, chosen[0], who, note)
    except ValueError as exc:
        raise _die(str(exc), 1) from None
    console.print(f"job {safe(job_id)}: {chosen[0]} by {safe(who)} -> [bold]{safe(status)}[/]")


@db_app.command("upgrade")
def db_upgrade(revision: Annotated[str, typer.Argument()] = "head") -> None:
    """Run the migrations on SCOREGATE_DATABASE_URL."""
    from scoregate.config.settings import get_settings
    from scoregate.storage.db import redact_url, upgrade

    url = get_settings().secret("database_url")
    upgrade(url, revision)
    console.print(f"database at {redact_url(url or '')} is at {revision}")


@app.command()
def sweep(
    older_than: Annotated[
        float | None, typer.Option(help="Seconds; default from settings.")
    ] = None,
) -> None:
    """Re-publish iterations stuck longer than the timeout."""
    from scoregate.pipelines import api

    count = api.sweep(older_than)
    console.print(f"re-published {count} message(s)")


def _mount_models() -> None:
    try:
        from scoregate_training.cli import models_app
    except ImportError:  # the training package is not on the path: say how to get it
        from scoregate.cli_training import models_app
    app.add_typer(models_app, name="models", help="Train and inspect the project's models.")


_mount_models()
register_ops(app)  # report, calibrate, rethreshold (scoregate/cli_ops.py)
register_server(app)  # serve, api-key (scoregate/cli_server.py)
register_workers(app)  # workers (scoregate/cli_workers.py)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
