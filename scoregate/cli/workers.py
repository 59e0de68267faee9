"""``scoregate worker`` (start a Celery worker), ``scoregate workers`` (which workers
answer, and what they consume), and what ``scoregate submit`` says when the broker is
unreachable."""

from __future__ import annotations

import json
import warnings
from typing import Annotated, Any, NoReturn

import typer

from scoregate.cli.console import die, err
from scoregate.reports.terminal import safe

#: Exit status when no worker answered, or a pool given to ``--require`` has none.
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
    """Start a Celery worker for one pool (`celery worker -Q POOL` with scoregate's options)."""
    from scoregate.config.settings import broker_hint, get_settings, missing_database

    try:  # first: importing the workers' modules reads the settings too
        settings = get_settings()
    except ValueError as exc:
        raise refuse_worker(str(exc)) from None
    from scoregate.workers.command import worker_argv
    from scoregate.workers.startup import NO_BROKER

    try:
        argv = worker_argv(pool, concurrency=concurrency, loglevel=loglevel, beat=beat, name=name)
    except ValueError as exc:  # an unknown pool, a node name or a concurrency it refuses
        raise refuse_worker(str(exc)) from None
    if settings.broker_url is None:
        raise refuse_worker(NO_BROKER + broker_hint())
    from scoregate.workers.reliability import check_config

    try:  # here, not in the worker's start-up hook: one line and exit 2, as for a setting
        check_config()
    except (ValueError, FileNotFoundError) as exc:  # ConfigError is a ValueError
        raise refuse_worker(f"invalid configuration: {exc}") from None
    missing = missing_database(settings)  # a pool worker: here too, before Celery's lines
    if missing:
        raise refuse_worker(missing)
    code = run_celery(argv)
    if code:
        raise typer.Exit(code)


def refuse_worker(message: str) -> typer.Exit:
    """The exit (2) of a worker that will not start, once the reason is written: ``error:
    MESSAGE``, or with ``SCOREGATE_LOG_FORMAT=json`` one JSON record, as the worker's own
    start-up refusals (``scoregate.logs.refusal_line``)."""
    from scoregate.logs import WORKER_START_LOGGER, refuse_start

    refuse_start(message, WORKER_START_LOGGER)
    return typer.Exit(2)


def run_celery(argv: list[str]) -> int | None:
    """Run the ``celery`` command on scoregate's app and return its exit status.

    ``app.worker_main`` and ``app.start`` drop it (the command's status is returned by
    click, not raised), so a worker that refused to start (exit 2) would look like a clean
    stop to its supervisor; this is ``app.start`` keeping the status.
    """
    from celery.bin.celery import celery as celery_command

    from scoregate.workers.app import get_app

    celery_command.params[0].default = get_app()
    try:
        code = celery_command.main(args=argv, standalone_mode=False)
    finally:
        celery_command.params[0].default = None
    return code if isinstance(code, int) else None


def workers(
    timeout: Annotated[
        float, typer.Option(min=0.1, max=60.0, help="Seconds to wait for answers.")
    ] = 2.0,
    require: Annotated[
        str | None,
        typer.Option(
            help="Pools that must each have a live worker, comma-separated (or all), e.g."
            " semantic,precision,reward,fusion,control: exit 1 naming those without one.",
            metavar="POOLS",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    host: Annotated[
        str | None,
        typer.Option(
            "--host",
            help="Only the workers whose node name ends @HOST, e.g. a container's own"
            " $HOSTNAME: its health check.",
        ),
    ] = None,
) -> None:
    """Live workers, their queues, scoring config and version; exit 1 when not all are ready.

    Asks every worker on the broker (a Celery ping) which queues it consumes, which scoring
    config it runs and its scoregate version (a worker on no scoregate pool queue that says
    no config is listed as not a scoregate worker). Exit 1 when no scoregate worker answers,
    when a pool given to --require has no worker, when the fusion and control workers run
    different scoring configs, or when a worker's database has not answered since it
    started.
    """
    from scoregate.config.settings import broker_hint, get_settings

    required = required_pools(require)
    if get_settings().broker_url is None:
        err.print(
            "[bold red]error:[/] SCOREGATE_BROKER_URL is not set: there is no broker to ask"
            f" (the embedded default runs no workers){safe(broker_hint())}",
            soft_wrap=True,
        )
        raise typer.Exit(2)
    found = live_workers(timeout)
    if host is not None:
        found = {n: q for n, q in found.items() if n.rpartition("@")[2] == host}
    configs = {n: c for n, c in (worker_configs(timeout) if found else {}).items() if n in found}
    print_listing(found, configs, as_json=as_json)
    split = config_split(found, configs)
    if split:
        err.print(f"[bold red]error:[/] {split}", soft_wrap=True)
    cut_off = database_faults(configs)
    for line in cut_off:
        err.print(f"[bold red]error:[/] {safe(line)}", soft_wrap=True)
    for note in config_notes(found, configs):
        err.print(f"[yellow]warning:[/] {note}", soft_wrap=True)
    consumed = {queue for queues in found.values() for queue in queues}
    missing = [pool for pool in required if pool not in consumed]
    if missing:
        err.print(
            f"[bold red]error:[/] no live worker consumes {', '.join(missing)}: jobs wait on"
            f" {'that pool' if len(missing) == 1 else 'those pools'} until one starts"
            f" (`scoregate worker --pool {missing[0]}`)",
            soft_wrap=True,
        )
    others = not_scoregate(found, configs)
    if len(others) == len(found):
        on = f" on host {host}" if host is not None else ""
        only = f" (only {', '.join(sorted(others))}: not scoregate workers)" if others else ""
        err.print(
            f"no {'scoregate ' if others else ''}worker{on} answered within {timeout:g} s{only}:"
            " start one with `scoregate worker --pool all` (or one per pool), and check"
            " SCOREGATE_BROKER_URL",
            soft_wrap=True,
        )
    if missing or len(others) == len(found) or split or cut_off:
        raise typer.Exit(NONE_ANSWERED)


def print_listing(
    found: dict[str, list[str]], configs: dict[str, dict[str, str]], *, as_json: bool
) -> None:
    """One line per worker (node, queues, config, version, a database it has not
    reached), or with ``as_json`` one document ``{NODE: {"queues", "config"}}``."""
    if as_json:
        listing = {n: {"queues": q, "config": configs.get(n)} for n, q in found.items()}
        print(json.dumps(listing, indent=2))
        return
    others = not_scoregate(found, configs)
    for name, queues in sorted(found.items()):
        config = configs.get(name)
        shown = f"\tconfig {config['digest']} ({config['path']})" if config else ""
        if name in others:
            shown = "\t(not a scoregate worker)"
        if config:
            shown += f"\tscoregate {config.get('version', UNKNOWN_VERSION)}"
        if config and config.get("database"):
            shown += "\tdatabase unreachable"
        print(f"{name}\t{','.join(queues) or '-'}{shown}")


def not_scoregate(found: dict[str, list[str]], configs: dict[str, dict[str, str]]) -> set[str]:
    """The workers on the broker that are not scoregate's (the user's own agent or hook
    workers): they consume no scoregate pool queue and say no scoring config."""
    from scoregate.pipelines.context import POOLS

    return {n for n, queues in found.items() if n not in configs and not set(queues) & set(POOLS)}


def database_faults(configs: dict[str, dict[str, str]]) -> list[str]:
    """One line per worker whose database has not answered since it started (its
    ``scoregate_config`` answer says why): it is live and takes messages, but records none
    of them, so it is not ready."""
    return [
        f"{name} has not reached its database since it started: {config['database']}"
        for name, config in sorted(configs.items())
        if config.get("database")
    ]


#: The version shown for a worker that says its config but not its version (an older one).
UNKNOWN_VERSION = "unknown"
#: The pools whose scoring config decides a job: the cut points travel with the fused result.
DECIDING_POOLS = ("fusion", "control")


def config_split(found: dict[str, list[str]], configs: dict[str, dict[str, str]]) -> str | None:
    """What is wrong when the fusion and control workers run different scoring configs (two
    equal answers could get different decisions by the worker that fused them), or None."""
    digests: dict[str, list[str]] = {}
    for name, queues in sorted(found.items()):
        config = configs.get(name)
        if config and any(pool in queues for pool in DECIDING_POOLS):
            digests.setdefault(config["digest"], []).append(name)
    if len(digests) <= 1:
        return None
    groups = "; ".join(f"{d}: {', '.join(names)}" for d, names in sorted(digests.items()))
    deciding = [configs[n] for names in digests.values() for n in names]
    paths = {c["path"] for c in deciding}
    if len(paths) == 1:  # one file (or the packaged default) read differently
        versions = sorted({c.get("version", UNKNOWN_VERSION) for c in deciding})
        return (
            f"the fusion and control workers run {len(digests)} different scoring configs"
            f" ({groups}) from one path, {next(iter(paths))}: the file or the scoregate"
            f" package changed under some of them (versions {', '.join(versions)});"
            " restart them all on one scoregate version and one config file"
        )
    return (
        f"the fusion and control workers run {len(digests)} different scoring configs"
        f" ({groups}): give them one SCOREGATE_SCORING_CONFIG and restart them"
    )


def required_pools(text: str | None) -> list[str]:
    """The pools ``--require`` names, in its order (``all``: every pool); an unknown name
    is a usage error (exit 2) listing the pools."""
    from scoregate.pipelines.context import POOLS

    names = [n.strip() for n in (text or "").split(",") if n.strip()]
    if text is not None and not names:
        raise die("--require needs pool names, e.g. --require semantic,precision (or all)")
    unknown = [n for n in names if n != "all" and n not in POOLS]
    if unknown:
        raise die(
            f"--require: unknown pool {', '.join(map(repr, unknown))}; choose from"
            f" {', '.join(POOLS)} or all"
        )
    pools = list(POOLS) if "all" in names else names
    return list(dict.fromkeys(pools))


def live_workers(timeout: float) -> dict[str, list[str]]:
    """Node name -> queues it consumes, for every worker that answered a ping."""
    from celery.exceptions import DuplicateNodenameWarning
    from kombu.exceptions import OperationalError

    from scoregate.workers.app import get_app

    inspector = get_app().control.inspect(timeout=timeout)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DuplicateNodenameWarning)
            pongs: dict[str, Any] = inspector.ping() or {}
        active: dict[str, Any] = (inspector.active_queues() or {}) if pongs else {}
    except (OSError, OperationalError) as exc:
        err.print(f"[bold red]error:[/] broker unreachable: {safe(exc)}", soft_wrap=True)
        raise typer.Exit(NONE_ANSWERED) from None
    clashes = shared_names(pongs, [str(w.message) for w in caught])
    if clashes:
        err.print(f"[yellow]warning:[/] {safe(clash_line(clashes))}", soft_wrap=True)
    return {
        name: sorted(str(q.get("name")) for q in active.get(name) or [] if isinstance(q, dict))
        for name in pongs
    }


def shared_names(pongs: dict[str, Any], said: list[str]) -> list[str]:
    """The node names that more than one worker answered the ping under: Celery warns of
    them (``DuplicateNodenameWarning``, one answer kept); ``said`` is its warnings."""
    named: set[str] = set()
    for text in said:  # "Received multiple replies from node name: a@h, b@h.\nPlease ..."
        head = text.split("\n", 1)[0]
        if ": " in head:
            named.update(n.strip() for n in head.split(": ", 1)[1].rstrip(".").split(", "))
    return sorted(name for name in pongs if name in named)


def clash_line(names: list[str]) -> str:
    """The warning for node names that several live workers share."""
    return (
        f"more than one live worker answers to {', '.join(names)}: each name is listed once,"
        " so a pool may have more workers than shown; give each worker its own name with"
        " `scoregate worker --name NAME` (or `celery worker -n NAME@%h`)"
    )


def config_notes(found: dict[str, list[str]], configs: dict[str, dict[str, str]]) -> list[str]:
    """What to warn of in the workers' configs short of a split decision: workers that did
    not say theirs (a version before the check, as in a rolling upgrade), and track pools
    on another config than the fusion and control workers."""
    notes = []
    foreign = not_scoregate(found, configs)  # not scoregate's: nothing to compare
    silent = sorted(n for n in found if n not in configs and n not in foreign)
    if silent:
        runs = "it runs" if len(silent) == 1 else "they run"
        notes.append(
            f"{', '.join(silent)} did not say which scoring config {runs} (a scoregate"
            " older than this check): their decisions cannot be compared"
        )
    deciding = {
        c["digest"]
        for n, c in configs.items()
        if any(pool in found.get(n, []) for pool in DECIDING_POOLS)
    }
    if len(deciding) == 1:
        others = sorted(n for n, c in configs.items() if c["digest"] not in deciding)
        if others:
            notes.append(
                f"{', '.join(others)} {'runs' if len(others) == 1 else 'run'} another scoring"
                f" config than the fusion and control workers ({next(iter(deciding))}):"
                " their tracks may score differently"
            )
    return notes


def worker_configs(timeout: float) -> dict[str, dict[str, str]]:
    """Node name -> the scoring config it runs (``path``, ``digest``) and its scoregate
    ``version`` (``unknown`` from a worker older than that answer), for every worker that
    answers ``scoregate_config`` (an older worker does not: it is left out)."""
    from kombu.exceptions import OperationalError

    from scoregate.workers.app import get_app

    try:
        replies = get_app().control.broadcast("scoregate_config", reply=True, timeout=timeout)
    except (OSError, OperationalError):
        return {}
    out: dict[str, dict[str, str]] = {}
    for reply in replies or []:
        for name, answer in reply.items():
            if isinstance(answer, dict) and {"path", "digest"} <= set(answer):
                out[name] = {
                    "path": str(answer["path"]),
                    "digest": str(answer["digest"]),
                    "version": str(answer.get("version") or UNKNOWN_VERSION),
                }
                if answer.get("database"):  # its database has not answered since it started
                    out[name]["database"] = str(answer["database"])
    return out


def exit_not_published(recorded: list[str], left: int, *, as_json: bool = False) -> NoReturn:
    """The broker did not take the jobs: they are recorded; say what happens next. The ids
    come first, as text or (``--json``) as the submit document with every job ``pending``."""
    from scoregate.config.settings import get_settings

    settings = get_settings()
    if as_json:
        from scoregate.cli.output import submit_json

        print(submit_json(recorded, pending=recorded))
    for job_id in [] if as_json else recorded:
        print(job_id)
    rest = f"; {left} job(s) of the file were not submitted" if left else ""
    err.print(
        f"[bold red]error:[/] broker unreachable: {len(recorded)} job(s) recorded, will be"
        " published by the sweeper when the broker and a control worker are back (within"
        f" about {settings.stuck_after_s + settings.sweep_interval_s:g} s of that){rest}",
        soft_wrap=True,  # one line, whatever the terminal's width
    )
    raise typer.Exit(NOT_PUBLISHED)
