"""``scoregate serve`` and ``scoregate api-key``: the HTTP API and its keys."""

from __future__ import annotations

from typing import Annotated

import typer

# the project's consoles: not wrapped at 80 columns when written to a file or a pipe
from scoregate.cli.console import console, err
from scoregate.cli.console import die as _die


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
    from scoregate.server import create_app
    from scoregate.server.serve import check_host, load_keys, production_service, run, warm_up

    try:
        keys = load_keys(get_settings())
        check_host(host, keys)
    except ValueError as exc:
        raise _die(str(exc)) from None
    if demo:
        from scoregate.server.demo import demo_service

        with console.status("running the demo jobs (loads the models once)..."):
            service, ids = demo_service(console)
        console.print(f"demo jobs: {', '.join(ids)}")
    else:
        service = production_service()
        refusal = schema_refusal(service.ctx.settings.secret("database_url"))
        if refusal is not None:
            raise _die(refusal)
    if load_models:
        with console.status("loading the models..."):
            try:
                took = warm_up(service)
            except Exception as exc:  # a model that cannot load: say which, then decide
                problem = f"the models did not load ({type(exc).__name__}: {exc})"
                if service.mode == "embedded":  # the embedded worker scores every job here
                    raise _die(
                        f"{problem}: the embedded worker scores every job in this process;"
                        " fix the models (`scoregate score -q test -c test` shows the same"
                        " error) and start again"
                    ) from None
                err.print(
                    f"[yellow]warning: {problem}: POST /v1/score will fail; jobs are scored"
                    " by the workers[/]"
                )
            else:
                console.print(f"models loaded in {took:.1f} s")
    if keys:
        console.print(f"API keys: {', '.join(k.name for k in keys)}")
    else:
        console.print(
            "[yellow]no API keys configured (SCOREGATE_API_KEYS): listening on loopback only,"
            " every local caller may submit, read and review[/]"
        )
    console.print(
        f"mode: {service.mode}; review queue http://{host}:{port}/review,"
        f" API docs http://{host}:{port}/docs"
    )
    run(create_app(service, keys), host, port)


def schema_refusal(url: str | None) -> str | None:
    """Why the database cannot serve (no scoregate tables, or an older migration), as the
    workers refuse it; None when it can, or when it does not answer yet (``/healthz`` then
    says so, and the server serves once it is back: a start order must not matter)."""
    from sqlalchemy.exc import SQLAlchemyError

    from scoregate.storage.db import schema_problem, schema_state

    try:
        return schema_problem(schema_state(url))
    except SQLAlchemyError as exc:
        err.print(f"[yellow]warning: the database does not answer yet ({type(exc).__name__})[/]")
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
