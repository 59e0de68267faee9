"""``scoregate worker`` (start a Celery worker), ``scoregate workers`` (which workers
answer, and what they consume), and what ``scoregate submit`` says when the broker is
unreachable."""

from __future__ import annotations

import json
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from scoregate.cli.console import die

err = Console(stderr=True)

#: Exit status when no worker answered.
NONE_ANSWERED = 1
#: Exit status of ``submit`` when the broker did not take the jobs (they are recorded).
NOT_PUBLISHED = 3


def worker(
    pool: Annotated[str, typer.Option(help="semantic, precision, reward, fusion, control or all")],
    concurrency: Annotated[int | None, typer.Option("-c", "--concurrency")] = None,
    loglevel: Annotated[str, typer.Option("--loglevel", "-l")] = "INFO",
    beat: Annotated[
        bool,
        typer.Option(help="Also run Celery beat (control workers sweep without it)."),
    ] = False,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            "-n",
            help="Node name (default POOL@%h); give each worker of a pool on one host its"
            " own, e.g. precision-gpu1@%h.",
        ),
    ] = None,
) -> None:
    """Start a Celery worker for one pool (``celery worker -Q POOL``)."""
    from scoregate.workers.command import worker_argv

    try:
        argv = worker_argv(pool, concurrency=concurrency, loglevel=loglevel, beat=beat, name=name)
    except ValueError as exc:
        raise die(str(exc)) from None
    from scoregate.config.settings import get_settings
    from scoregate.workers.startup import NO_BROKER

    if get_settings().broker_url is None:
        raise die(NO_BROKER.removeprefix("scoregate: "))
    from scoregate.workers.app import get_app

    get_app().worker_main(argv)


def workers(
    timeout: Annotated[
        float, typer.Option(min=0.1, max=60.0, help="Seconds to wait for answers.")
    ] = 2.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Live workers (Celery ping) with the queues each consumes; exit 1 when none answers."""
    from scoregate.config.settings import get_settings

    if get_settings().broker_url is None:
        err.print(
            "[bold red]error:[/] SCOREGATE_BROKER_URL is not set: there is no broker to ask"
            " (the embedded default runs no workers)",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    found = live_workers(timeout)
    if as_json:
        print(json.dumps(found, indent=2))
    else:
        for name, queues in sorted(found.items()):
            print(f"{name}\t{','.join(queues) or '-'}")
    if not found:
        err.print(
            f"no worker answered within {timeout:g} s: start one with"
            " `scoregate worker --pool all` (or one per pool), and check SCOREGATE_BROKER_URL",
            soft_wrap=True,
        )
        raise typer.Exit(NONE_ANSWERED)


def live_workers(timeout: float) -> dict[str, list[str]]:
    """Node name -> queues it consumes, for every worker that answered a ping."""
    from kombu.exceptions import OperationalError

    from scoregate.workers.app import get_app

    inspector = get_app().control.inspect(timeout=timeout)
    try:
        pongs: dict[str, Any] = inspector.ping() or {}
        active: dict[str, Any] = (inspector.active_queues() or {}) if pongs else {}
    except (OSError, OperationalError) as exc:
        err.print(f"[bold red]error:[/] broker unreachable: {exc}")
        raise typer.Exit(NONE_ANSWERED) from None
    return {
        name: sorted(str(q.get("name")) for q in active.get(name) or [] if isinstance(q, dict))
        for name in pongs
    }


def exit_not_published(recorded: list[str], left: int) -> NoReturn:
    """The broker did not take the jobs: they are recorded; say what happens next."""
    from scoregate.config.settings import get_settings

    settings = get_settings()
    for job_id in recorded:
        print(job_id)
    rest = f"; {left} job(s) of the file were not submitted" if left else ""
    err.print(
        f"[bold red]error:[/] broker unreachable: {len(recorded)} job(s) recorded, will be"
        " published by the sweeper when the broker and a control worker are back (within"
        f" about {settings.stuck_after_s + settings.sweep_interval_s:g} s of that){rest}",
        soft_wrap=True,  # one line, whatever the terminal's width
    )
    raise typer.Exit(NOT_PUBLISHED)
