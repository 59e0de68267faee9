"""``scoregate db``: the database's migrations; :func:`database_command`, the schema
check of every command that reads or writes jobs."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from scoregate.cli.console import console, die

if TYPE_CHECKING:
    from scoregate.config.settings import Settings

db_app = typer.Typer(help="Database migrations.", no_args_is_help=True)

P = ParamSpec("P")
R = TypeVar("R")


def database_command(command: Callable[P, R]) -> Callable[P, R]:
    """Refuse a database without scoregate's tables or at an older migration before the
    command runs (one line naming `scoregate db upgrade`, exit 1).

    Without a broker the embedded context checks it (``pipelines.api.client_context``);
    with one, nothing on the client's path did, so a command on a database behind the
    code read it as empty or failed half-way. The embedded default database migrates
    itself and is not checked here; with a broker it is refused
    (:func:`refuse_private_database`).
    """

    @functools.wraps(command)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        from scoregate.config.settings import get_settings
        from scoregate.storage.db import check_schema

        settings = get_settings()
        refuse_private_database(settings, command_name(command))
        refuse_misspelt_broker(settings, command_name(command))
        if settings.broker_url is not None and not settings.uses_default_database():
            check_schema(settings.secret("database_url"))
        return command(*args, **kwargs)

    return checked


def refuse_private_database(settings: Settings, command: str) -> None:
    """A broker but no ``SCOREGATE_DATABASE_URL``: stop (exit 2) before the database is
    touched, as a worker does, naming a misspelt variable; ``scoregate COMMAND`` would
    otherwise read, write or migrate a SQLite file of this machine that no worker reads
    (and make it, empty, where there was none)."""
    from scoregate.config.settings import missing_database

    missing = missing_database(settings, f"`scoregate {command}`")
    if missing:
        raise die(missing)


def refuse_misspelt_broker(settings: Settings, command: str) -> None:
    """No ``SCOREGATE_BROKER_URL`` but a variable a typo away from it: stop (exit 2) naming
    it; ``scoregate COMMAND`` would otherwise run the embedded default on the database the
    workers share, scoring in this process, unseen by the pools."""
    from scoregate.config.settings import misspelt_broker

    line = misspelt_broker(settings, f"`scoregate {command}`")
    if line:
        raise die(line)


def command_name(command: Callable[..., Any]) -> str:
    """``jobs list`` for ``jobs_list``: the command a function serves, as typed."""
    return command.__name__.replace("_", " ")


@db_app.command("upgrade")
def db_upgrade(revision: Annotated[str, typer.Argument()] = "head") -> None:
    """Run the migrations on SCOREGATE_DATABASE_URL (forward only)."""
    from scoregate.config.settings import get_settings
    from scoregate.storage.db import current_revision, redact_url, upgrade

    settings = get_settings()
    refuse_private_database(settings, "db upgrade")
    url = settings.secret("database_url")
    shown = redact_url(url or "")
    before = current_revision(url)
    if before is not None and is_behind(revision, before):
        # Alembic's upgrade to an older revision does nothing, without a word.
        raise die(
            f"the database at {shown} is at {before}, past {revision}: `scoregate db upgrade`"
            " only migrates forward, so nothing changed; give a later revision or `head`"
        )
    upgrade(url, revision)
    after = current_revision(url)
    console.print(f"database at {shown} is at {after or 'base (no migration applied)'}")


def is_behind(target: str, current: str) -> bool:
    """True when the revision ``target`` names is ``base`` or an ancestor of ``current``;
    False for one Alembic cannot resolve here (``upgrade`` then says what is wrong)."""
    from alembic.script import ScriptDirectory

    from scoregate.storage.db import alembic_config

    script = ScriptDirectory.from_config(alembic_config())
    try:
        targets = script.get_revisions(target)
        older = {r.revision for r in script.iterate_revisions(current, "base")} - {current}
    except Exception:  # an unknown or relative revision: not ours to judge
        return False
    return all(t is not None and t.revision in older for t in targets)


#: ``scoregate db status`` exit statuses: the schema is usable; it needs ``db upgrade``.
STATUS_USABLE, STATUS_BEHIND = 0, 1


@db_app.command("status")
def db_status() -> None:
    """Where SCOREGATE_DATABASE_URL's migrations stand against this scoregate's, without
    changing anything; exit 1 when it needs `scoregate db upgrade`."""
    from scoregate.config.settings import get_settings
    from scoregate.storage.db import schema_problem, schema_state

    settings = get_settings()
    refuse_private_database(settings, "db status")
    state = schema_state(settings.secret("database_url"))
    at = state.current or "no scoregate tables"
    console.print(
        f"database at {state.shown_url}: {at}; this scoregate: {state.head} ({state.state})"
    )
    problem = schema_problem(state)
    if problem is not None and settings.uses_default_database():
        console.print("the embedded default: scoregate migrates it itself at first use")
        return
    if problem is not None:
        raise die(problem, STATUS_BEHIND)
    if state.state == "newer":
        console.print(
            "a newer scoregate migrated it: this one runs on it (migrations only add), but"
            " upgrade the code"
        )
