"""``scoregate submit``, ``scoregate jobs list|show|cancel`` and ``scoregate sweep``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.progress import Progress
from rich.table import Table

from scoregate.cli.args import (
    AsJson,
    Constraints,
    Content,
    ContentFile,
    HardConstraints,
    Role,
    TaskType,
    actor_name,
    read_content,
    request_body,
)
from scoregate.cli.console import console, die, err
from scoregate.cli.db import database_command
from scoregate.cli.wait import TIMED_OUT, WAIT_DONE
from scoregate.pipelines.validation import JobLine
from scoregate.reports.terminal import safe

jobs_app = typer.Typer(help="Inspect jobs.", no_args_is_help=True)


def _jsonl_bodies(path: Path) -> list[JobLine]:
    from scoregate.pipelines.validation import read_jobs_file

    try:
        return read_jobs_file(path)
    except (ValueError, FileNotFoundError) as exc:
        raise die(f"{exc}; nothing was submitted") from None


def _check_jobs(api: Any, jobs: list[JobLine], options: dict[str, Any], path: Path) -> None:
    """Validate every job of a file before submitting any: a bad line names itself."""
    from scoregate.pipelines.steps import build_spec

    try:
        ctx = api.client_context()[0]
    except ValueError as exc:
        raise die(f"{exc}; nothing was submitted") from None
    for job in jobs:
        try:
            build_spec(ctx, {**options, **job.body})
        except ValueError as exc:
            raise die(f"{path}:{job.line}: {exc}; nothing was submitted") from None


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
            help=(
                "Enable the confidence loop (on by itself with --threshold, --max-iterations"
                " or --agent)."
            )
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
    task: Annotated[
        str | None,
        typer.Option(
            help="Workflow task NAME (SCOREGATE_WORKFLOW_CONFIG): its loop policy and agent"
            " task, the flags given overriding them."
        ),
    ] = None,
    on_pass: Annotated[
        str | None,
        typer.Option(help="Task NAME\\[@QUEUE] on acceptance (queue default: hooks)."),
    ] = None,
    wait: Annotated[
        bool,
        typer.Option(
            help=(
                "Wait until every job is final or waits for a human. Exit 0 when every job"
                " is approved (accepted, or completed with action accept), 4 when one is"
                " not (awaiting review, escalated, rejected, failed, cancelled, or completed"
                " with action review, iterate or reject), 5 when the wait timed out, 1 when"
                " the database could not be read until then (the job ids are printed first)."
                " Without --wait too: exit 3 when the broker did not take the jobs (they are"
                " recorded; the sweeper publishes them once it is back)."
            )
        ),
    ] = False,
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
    if task is not None:  # the workflow task's policy, changed only by the flags given
        options["task_name"] = task
        if not gating:
            del options["loop"]["gating"]
    if jobs_file is not None:
        jobs = _jsonl_bodies(jobs_file)
        if not jobs:
            raise die(f"{jobs_file}: no jobs in the file (one JSON object per line)")
        _check_jobs(api, jobs, options, jobs_file)
        bodies = [job.body for job in jobs]
    elif query is not None:
        req = request_body(
            query, read_content(content, content_file), constraint, hard, role, task_type
        )
        bodies = [{"request": req}]
    else:
        raise die("give --query (with --content or --content-file) or --file JOBS.jsonl")
    ids = _submit_bodies(api, bodies, options, as_json=as_json)
    if not wait:
        if as_json:
            from scoregate.cli.output import submit_json

            print(submit_json(ids))
        else:
            print("\n".join(ids))
        return
    _wait(ids, timeout, as_json=as_json)


def _wait(ids: list[str], timeout: float, *, as_json: bool) -> None:
    """Wait for the jobs, print each one's state (or the JSON document) and exit with the
    verdict (:func:`scoregate.cli.wait.exit_status`); a database error that lasts until
    the timeout exits 1 after the ids (and with ``--json`` the document) are printed."""
    from scoregate.cli.output import submit_json
    from scoregate.cli.wait import WaitAborted, exit_status, wait_for

    warned = False

    def retrying(exc: BaseException) -> None:
        nonlocal warned
        if warned:  # once: a blip of a few seconds is not worth a line a second
            return
        from scoregate.cli.errors import database_url, describe

        err.print(
            f"[yellow]warning:[/] {safe(describe(exc, database_url()))}; the jobs are"
            f" recorded: reading them again until the --timeout ({timeout:g} s)",
            soft_wrap=True,
        )
        warned = True

    if not as_json:
        print("\n".join(ids))
    try:
        if as_json:
            jobs = wait_for(ids, timeout, on_retry=retrying)
        else:
            with console.status("waiting for jobs...") as shown:
                jobs = wait_for(
                    ids,
                    timeout,
                    progress=lambda n: shown.update(f"waiting for {n} of {len(ids)} job(s)..."),
                    on_retry=retrying,
                )
    except WaitAborted as exc:
        _wait_aborted(ids, exc, as_json=as_json)
    if as_json:
        print(submit_json(ids, jobs))
    else:
        for job in jobs:
            console.print(_wait_line(job), soft_wrap=True)
    code = exit_status(jobs)
    if code == TIMED_OUT:
        running = sum(job["status"] not in WAIT_DONE for job in jobs)
        raise die(
            f"{running} job(s) still running after {timeout:g} s: follow them with"
            " `scoregate jobs show ID`, or wait longer with --timeout",
            code,
        )
    if code:
        raise typer.Exit(code)


def _wait_aborted(ids: list[str], exc: Any, *, as_json: bool) -> NoReturn:
    """The database could not be read: the ids (already printed as text) or the JSON
    document with every job not known to have stopped in ``pending``, then the error."""
    from scoregate.cli.errors import DB_ERROR_EXIT, report
    from scoregate.cli.output import submit_json

    if as_json:
        read = exc.jobs
        pending = [j for j in ids if j not in read or read[j]["status"] not in WAIT_DONE]
        known = [read[j] for j in ids] if len(read) == len(ids) else None
        print(submit_json(ids, known, pending))
    report(exc.cause, command="submit")
    raise typer.Exit(DB_ERROR_EXIT) from None


def _wait_line(job: dict[str, Any]) -> str:
    """``ID STATUS score=S`` and, once the job has a final result, ``action=A``; a job
    waiting for a person names the command that decides it."""
    from scoregate.cli.wait import final_action
    from scoregate.reports.render import latest_score
    from scoregate.scoring.figures import score_text

    score = latest_score(job)
    shown = "—" if score is None else score_text(score)
    line = f"{safe(job['id'])} {safe(job['status'])} score={shown}"
    action = final_action(job)
    if action is not None:
        return f"{line} action={safe(action)}"
    if job["status"] == "awaiting_review":
        decide = f"scoregate review {safe(job['id'])} --approve or --reject"
        return f"{line} (a person decides: {decide})"
    return line


def _task_ref(text: str | None) -> dict[str, str] | None:
    from scoregate.schemas.loop import task_ref_fields

    return task_ref_fields(text) if text else None


def _submit_bodies(
    api: Any, bodies: list[dict[str, Any]], options: dict[str, Any], *, as_json: bool
) -> list[str]:
    from scoregate.cli.workers import exit_not_published
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
                left = len(bodies) - len(ids) - len(exc.job_ids)
                exit_not_published(ids + exc.job_ids, left, as_json=as_json)
            except ValueError as exc:
                at = f" (jobs {start + 1}-{start + len(part)})" if len(bodies) > 1 else ""
                raise die(f"{exc}{at}; {len(ids)} job(s) submitted before it") from None
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
@database_command
def jobs_list(
    status: Annotated[
        str | None,
        typer.Option(
            help="Only jobs with this status (pending, awaiting_review, failed...).",
            callback=_job_status,
        ),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 20,
    waiting: Annotated[
        bool,
        typer.Option(
            "--waiting",
            help="The review queue: jobs waiting for a human (gate reviews and escalations"
            " alike), longest waiting first.",
        ),
    ] = False,
    as_json: AsJson = False,
) -> None:
    """The newest jobs (--waiting: the review queue)."""
    from scoregate.pipelines import api

    rows = api.list_jobs(status=status, limit=limit, waiting=waiting)
    if as_json:
        from scoregate.cli.output import jobs_list_json

        print(jobs_list_json(rows))
        return
    console.print(_jobs_table(rows, waiting))


def _jobs_table(rows: list[dict[str, Any]], waiting: bool) -> Table:
    """``jobs list``: one row a job; ``action`` is the gate's verdict in its final result
    (a ``completed`` job's answer is approved only when it is ``accept``)."""
    from scoregate.reports.render import BAND_STYLE
    from scoregate.reports.terminal import plain
    from scoregate.scoring.figures import score_text

    table = Table(title="jobs waiting for a human, longest first" if waiting else "jobs")
    # The id column never shrinks: a cut id cannot be pasted into `jobs show`.
    table.add_column("id", no_wrap=True, min_width=36)
    for col in ("status", "iteration", "score", "band", "action", "created (UTC)"):
        table.add_column(col)
    for row in rows:
        band = row["band"] or "—"
        table.add_row(
            plain(row["id"]),
            plain(row["status"]),
            str(row["iteration"]),
            "—" if row["score"] is None else score_text(row["score"]),
            plain(band, BAND_STYLE.get(band, "")),
            plain(row.get("action") or "—"),
            str(row["created_at"])[:19].replace("T", " "),
        )
    return table


@jobs_app.command("show")
@database_command
def jobs_show(job_id: str, as_json: AsJson = False) -> None:
    """Every iteration's breakdown and every decision of one job."""
    from scoregate.pipelines import api
    from scoregate.reports.render import print_job

    try:
        data = api.get_job(job_id)
    except LookupError as exc:
        raise die(str(exc), 1) from None
    if as_json:
        from scoregate.cli.output import job_json

        print(job_json(data))
        return
    print_job(console, data)
    waiting = _waiting_for(data)
    if waiting is not None:
        console.print(f"  {safe(waiting)}", soft_wrap=True)


#: Job statuses at which the latest iteration is still in the pools' hands.
_IN_THE_POOLS = frozenset({"pending", "running"})


def _waiting_for(job: dict[str, Any]) -> str | None:
    """What a running job waits for: the tracks that have landed on its latest iteration
    and those still out (their pools), or fusion, or the decision; ``None`` otherwise."""
    if job["status"] not in _IN_THE_POOLS or not job.get("iterations"):
        return None
    it = job["iterations"][-1]
    head = f"iteration {it['n']} ({it['status']} since {str(it['created_at'])[11:19]})"
    if it["status"] == "fused":
        return f"{head}: fused; waiting for the decision (control pool)"
    if it["status"] != "scoring":
        return None
    tracks = it.get("tracks") or {}
    expected = list(it.get("expected_tracks") or [])
    landed = [
        name if tracks[name].get("status") == "ok" else f"{name} ({tracks[name].get('status')})"
        for name in [*expected, *sorted(set(tracks) - set(expected))]
        if name in tracks
    ]
    missing = [name for name in expected if name not in tracks]
    if not missing:
        return f"{head}: every track landed; waiting for fusion (fusion pool)"
    return (
        f"{head}: landed {', '.join(landed) or 'none'}; waiting for {', '.join(missing)}"
        f" ({'its pool' if len(missing) == 1 else 'their pools'}: `scoregate workers"
        f" --require {','.join(missing)}` tells whether a worker serves"
        f" {'it' if len(missing) == 1 else 'them'})"
    )


@jobs_app.command("cancel")
@database_command
def jobs_cancel(
    job_id: str,
    actor: Annotated[
        str | None, typer.Option(help="Who cancels (default: $USER, else the login name).")
    ] = None,
    note: Annotated[str | None, typer.Option(help="Why.")] = None,
) -> None:
    """Cancel a job that is not final yet (whatever it waits for); recorded in its audit trail."""
    from scoregate.pipelines import api

    who = actor_name(actor)
    try:
        was = api.cancel(job_id, who, note)
    except (LookupError, ValueError) as exc:
        raise die(str(exc), 1) from None
    console.print(f"job {job_id}: cancelled by {who} (was {was})")


def sweep(
    older_than: Annotated[
        float | None,
        typer.Option(
            help="Seconds an iteration must be stuck (default SCOREGATE_STUCK_AFTER_S, 30)."
        ),
    ] = None,
) -> None:
    """Re-publish iterations stuck longer than the timeout."""
    from scoregate.pipelines import api

    count = api.sweep(older_than)
    console.print(f"re-published {count} message(s)")
