"""``scoregate serve`` and ``scoregate api-key``: the HTTP API and its keys.

``serve``'s start-up lines (the models loaded, the API keys, the addresses, a warning) go
to the console, or with ``SCOREGATE_LOG_FORMAT=json`` out as JSON log records on stderr
like every record the server logs after (logger ``scoregate.server.startup``).
``api-key`` prints for a person to copy (a secret, a settings entry), whatever the format.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.console import Console

# the project's consoles: not wrapped at 80 columns when written to a file or a pipe
from scoregate.cli.console import console, err
from scoregate.cli.console import die as _die
from scoregate.reports.terminal import PIPE_WIDTH

#: ``serve``'s start-up records in JSON mode (under ``scoregate.server``, which the
#: server's log config sets to INFO; the workers' are ``scoregate.workers.startup``).
log = logging.getLogger("scoregate.server.startup")


class StartLines:
    """Where ``serve``'s start-up lines go: the console as always (``json`` False), or
    records of :data:`log` through the JSON handler (``SCOREGATE_LOG_FORMAT=json``), each
    with its fields, where a console line would break a log shipper's stream."""

    def __init__(self, json: bool) -> None:
        self.json = json

    def info(self, message: str, **fields: Any) -> None:
        if self.json:
            log.info(message, extra=fields)
        else:
            console.print(message)

    def note(self, message: str, **fields: Any) -> None:
        """A warning the console shows in yellow on stdout."""
        if self.json:
            log.warning(message, extra=fields)
        else:
            console.print(f"[yellow]{message}[/]")

    def warning(self, message: str, **fields: Any) -> None:
        """``warning: MESSAGE`` in yellow on stderr."""
        if self.json:
            log.warning(message, extra=fields)
        else:
            err.print(f"[yellow]warning: {message}[/]")

    def fail(self, message: str) -> typer.Exit:
        """The exit (2) to raise, once the message is an ERROR record or ``error:`` line."""
        if not self.json:
            return _die(message)
        log.error(message)
        return typer.Exit(2)

    @contextmanager
    def status(self, message: str) -> Iterator[None]:
        """The console's spinner; in JSON mode, one INFO record as the step begins."""
        if not self.json:
            with console.status(message):
                yield
            return
        log.info(message)
        yield

    def demo_console(self) -> Console:
        """The console the demo's agent and hooks print to (at start-up, and when a
        review lets a job go on): the project's, or one whose every line is an INFO
        record of ``scoregate.server.demo``."""
        if not self.json:
            return console
        records = _Records(logging.getLogger("scoregate.server.demo"))
        return Console(file=records, width=PIPE_WIDTH, soft_wrap=True, color_system=None)


class _Records(io.StringIO):
    """A text stream whose every line written is an INFO record of ``logger`` (and not
    kept)."""

    def __init__(self, logger: logging.Logger) -> None:
        super().__init__()
        self._logger = logger
        self._partial = ""

    def write(self, text: str) -> int:
        *lines, self._partial = (self._partial + text).split("\n")
        for line in lines:
            if line.strip():
                self._logger.info(line.strip())
        return len(text)


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on; other than loopback needs API keys.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535)] = 8000,
    demo: Annotated[
        bool, typer.Option(help="Embedded SQLite and worker with two demo jobs, one to review.")
    ] = False,
    load_models: Annotated[
        bool,
        typer.Option(
            help="Load the models before listening, so the first POST /v1/score is not slow."
        ),
    ] = True,
) -> None:
    """Serve the HTTP API (/v1, /docs, /metrics, /healthz) and the review queue (/review)."""
    from scoregate.config.settings import get_settings
    from scoregate.extras import require

    require("server", "`scoregate serve`")
    from scoregate.logs import json_asked, start_json_logging
    from scoregate.server import create_app
    from scoregate.server.serve import check_host, load_keys, run, warm_up

    try:
        settings = get_settings()
    except ValueError as exc:  # the format as the environment asks for it, read alone
        say = StartLines(json=json_asked())
        if say.json:
            start_json_logging()
        raise say.fail(str(exc)) from None
    say = StartLines(json=settings.log_format == "json")
    if say.json:
        start_json_logging()
    try:
        keys = load_keys(settings)
        check_host(host, keys)
    except ValueError as exc:
        raise say.fail(str(exc)) from None
    if demo:
        from scoregate.server.demo import demo_service

        with say.status("running the demo jobs (loads the models once)..."):
            service, ids = demo_service(say.demo_console())
        say.info(f"demo jobs: {', '.join(ids)}", job_ids=ids)
    else:
        service = checked_service(settings, say)
    if load_models:
        with say.status("loading the models..."):
            try:
                took = warm_up(service)
            except Exception as exc:  # a model that cannot load: say which, then decide
                problem = f"the models did not load ({type(exc).__name__}: {exc})"
                if service.mode == "embedded":  # the embedded worker scores every job here
                    raise say.fail(
                        f"{problem}: the embedded worker scores every job in this process;"
                        " fix the models (`scoregate score -q test -c test` shows the same"
                        " error) and start again"
                    ) from None
                say.warning(
                    f"{problem}: POST /v1/score will fail; jobs are scored by the workers",
                    error=type(exc).__name__,
                )
            else:
                say.info(f"models loaded in {took:.1f} s", load_s=round(took, 1))
    if keys:
        names = [k.name for k in keys]
        say.info(f"API keys: {', '.join(names)}", api_keys=names)
    else:
        say.note(
            "no API keys configured (SCOREGATE_API_KEYS): listening on loopback only,"
            " every local caller may submit, read and review"
        )
    say.info(
        f"mode: {service.mode}; review queue http://{host}:{port}/review,"
        f" API docs http://{host}:{port}/docs",
        mode=service.mode,
        host=host,
        port=port,
    )
    run(create_app(service, keys), host, port)


def checked_service(settings: Any, say: StartLines) -> Any:
    """The production service, once its database is known to be the workers' and usable.

    With a broker but no ``SCOREGATE_DATABASE_URL`` it would record jobs in a SQLite file
    of this machine that no worker reads: refused (exit 2) as a worker refuses it, naming a
    misspelt variable, before any file is made. So is a misspelt ``SCOREGATE_BROKER_URL``
    (it would serve embedded, scoring in this process). A database without scoregate's
    tables or at an older migration is refused too (:func:`schema_refusal`)."""
    from scoregate.config.settings import missing_database, misspelt_broker
    from scoregate.server.serve import production_service

    missing = missing_database(settings, "`scoregate serve`")
    if missing:
        raise say.fail(missing)
    misspelt = misspelt_broker(settings, "`scoregate serve`")
    if misspelt:  # it would serve embedded, scoring in this process, unseen by the pools
        raise say.fail(misspelt)
    service = production_service()
    refusal = schema_refusal(service.ctx.settings.secret("database_url"), say)
    if refusal is not None:
        raise say.fail(refusal)
    return service


def schema_refusal(url: str | None, say: StartLines | None = None) -> str | None:
    """Why the database cannot serve (no scoregate tables, or an older migration), as the
    workers refuse it; None when it can, or when it does not answer yet (``/healthz`` then
    says so, and the server serves once it is back: a start order must not matter)."""
    from sqlalchemy.exc import SQLAlchemyError

    from scoregate.storage.db import schema_problem, schema_state

    try:
        return schema_problem(schema_state(url))
    except SQLAlchemyError as exc:
        error = type(exc).__name__
        (say or StartLines(json=False)).warning(
            f"the database does not answer yet ({error})", error=error
        )
        return None


def api_key(
    name: Annotated[str, typer.Argument(help="Who holds the key, e.g. ci or alice.")],
    scope: Annotated[
        list[str] | None,
        typer.Option(
            "--scope", "-s", help="submit, read, review or all (repeatable); default: read only."
        ),
    ] = None,
) -> None:
    """Print a new API key and its hashed SCOREGATE_API_KEYS entry."""
    from scoregate.server.auth import new_key, settings_entry

    scopes = scope or ["read"]
    key = new_key()
    try:
        entry = settings_entry(name, scopes, key)
    except ValueError as exc:
        raise _die(str(exc)) from None
    if not scope:
        err.print("note: no --scope given, so the key can only read (add -s submit, -s review)")
    console.print(f"key (give it to {name}; it is not stored anywhere): {key}", soft_wrap=True)
    console.print("settings entry (append to SCOREGATE_API_KEYS, comma-separated):")
    print(entry)
