"""The ``scoregate`` command: one module per command group, assembled here.

``score`` (:mod:`.score`), ``demo`` (:mod:`.demo`), ``worker`` and ``workers``
(:mod:`.workers`), ``submit``, ``sweep`` and ``jobs`` (:mod:`.jobs`), ``review``
(:mod:`.review`), ``report``, ``calibrate`` and ``rethreshold`` (:mod:`.report`),
``serve`` and ``api-key`` (:mod:`.serve`), ``db`` (:mod:`.db`), ``models``
(:mod:`.training`). Every heavy import happens inside a command, so ``scoregate
--help`` stays fast. ``scoregate --help`` lists the commands in the order below, then
the groups.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from scoregate.cli import db, demo, jobs, report, review, score, serve, training, version, workers
from scoregate.cli.args import constraint_epilog
from scoregate.cli.console import err
from scoregate.cli.db import database_command
from scoregate.cli.errors import ScoregateGroup

app = typer.Typer(
    help="Score AI agents' output and gate their workflow.",
    no_args_is_help=True,
    cls=ScoregateGroup,  # a database error: one line and exit 1 (scoregate/cli/errors.py)
)


@app.callback()
def _options(
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the full traceback of a database error.")
    ] = False,
    _version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=version.show_version,
            help="Print the version and the database migration it expects, and exit.",
        ),
    ] = False,
) -> None:
    """Score AI agents' output and gate their workflow."""


app.command(epilog=constraint_epilog())(score.score)
app.command()(demo.demo)
app.command()(workers.worker)
app.command(epilog=constraint_epilog())(database_command(jobs.submit))
app.command()(database_command(review.review))
app.command()(database_command(jobs.sweep))
app.command()(database_command(report.report))
app.command()(database_command(report.calibrate))
app.command()(database_command(report.rethreshold))
app.command()(serve.serve)
app.command("api-key")(serve.api_key)
app.command()(workers.workers)
app.command()(version.version)
app.add_typer(jobs.jobs_app, name="jobs")
app.add_typer(db.db_app, name="db")
app.add_typer(training.training_app(), name="models", help="Train the project's precision model.")


def main() -> None:
    """Run the ``scoregate`` command (``scoregate.cli:main``); Ctrl-C exits 130."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(130)
