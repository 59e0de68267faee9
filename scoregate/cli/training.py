"""``scoregate models``: the training package's commands, or a stand-in without it.

The training code lives in ``training/scoregate_training`` of a source checkout, outside
the runtime package. When it is installed, :func:`training_app` mounts its commands;
when it is not, the stand-in :data:`models_app` keeps the command and says how to
install it.
"""

from __future__ import annotations

import typer

NOT_INSTALLED = (
    "scoregate: the training code (package scoregate_training) is not installed: from a"
    " source checkout, pip install -e \".[train]\" (or pip install 'scoregate[train]')"
)

models_app = typer.Typer(help="Train the packaged precision model.", no_args_is_help=True)


@models_app.callback()
def _models() -> None:
    """Train the packaged precision model."""


@models_app.command(
    "train-precision",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def train_precision_cmd(ctx: typer.Context) -> None:
    """Train the precision cross-encoder (needs the training package: scoregate[train])."""
    _ = ctx
    typer.echo(NOT_INSTALLED, err=True)
    raise typer.Exit(1)


def training_app() -> typer.Typer:
    """The ``scoregate models`` group: the training package's, or the stand-in."""
    try:
        from scoregate_training.cli import models_app as installed
    except ImportError:  # the training package is not on the path: say how to get it
        return models_app
    return installed
