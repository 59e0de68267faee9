"""``scoregate review``: resolve a job that waits for a human."""

from __future__ import annotations

from typing import Annotated

import typer

from scoregate.cli.args import actor_name
from scoregate.cli.console import console, die
from scoregate.reports.terminal import safe


def review(
    job_id: str,
    approve: Annotated[
        bool,
        typer.Option(
            "--approve", help="The answer may be used: the job ends accepted (its on_pass runs)."
        ),
    ] = False,
    reject: Annotated[
        bool,
        typer.Option(
            "--reject",
            help="The answer may not be used: the job ends rejected (on_loop_exit runs).",
        ),
    ] = False,
    research: Annotated[
        bool,
        typer.Option(
            "--research",
            help="Send it to the job's research task (the hourly quota allows it or exits 1).",
        ),
    ] = False,
    cancel: Annotated[
        bool,
        typer.Option("--cancel", help="Stop the job without a verdict on the answer."),
    ] = False,
    actor: Annotated[
        str | None, typer.Option(help="Who decides (default: $USER, else the login name).")
    ] = None,
    note: Annotated[str | None, typer.Option(help="Why.")] = None,
) -> None:
    """Resolve a job waiting for a human: --approve, --reject, --research or --cancel."""
    from scoregate.pipelines import api
    from scoregate.pipelines.review import QuotaUnavailable

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
        raise die("give exactly one of --approve, --reject, --research, --cancel")
    who = actor_name(actor)
    try:
        status = api.review(job_id, chosen[0], who, note)
    except (LookupError, ValueError) as exc:
        raise die(str(exc), 1) from None
    except QuotaUnavailable as exc:
        raise die(f"{exc} ({exc.cause})", 1) from None
    console.print(f"job {safe(job_id)}: {chosen[0]} by {safe(who)} -> [bold]{safe(status)}[/]")
    if research:
        try:
            left, limit = api.research_quota()
        except QuotaUnavailable:  # the verdict is taken; only the count left is unknown
            console.print("research quota: unknown (its Redis does not answer)")
        else:
            console.print(f"research quota: {left}/{limit} remaining this hour")
