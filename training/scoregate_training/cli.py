"""``scoregate models ...``: train the packaged precision cross-encoder.

Mounted by ``scoregate.cli.training`` when this package is installed (``scoregate[train]``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from scoregate_training.dataset import DATA_ENV, default_data_dir
from scoregate_training.train import TRAIN_MAX_LENGTH

models_app = typer.Typer(
    help="Train and inspect the packaged scoring models.", no_args_is_help=True
)


@models_app.callback()
def _models() -> None:
    """Train and inspect the packaged scoring models."""


def _device(value: str) -> str:
    """Refuse a device torch does not know, or a GPU that is not there, before training."""
    if value == "auto":
        return value
    try:
        import torch
    except ImportError:  # the command says which extra to install
        return value
    try:
        kind = torch.device(value)
    except RuntimeError:
        raise typer.BadParameter(
            f"{value!r} is not a device: give auto, cpu, cuda or cuda:N"
        ) from None
    if kind.type == "cuda" and (kind.index or 0) >= torch.cuda.device_count():
        raise typer.BadParameter(
            f"{value!r}: this machine has {torch.cuda.device_count()} visible GPU(s);"
            " give --device cpu or auto"
        )
    return value


@models_app.command("train-precision")
def train_precision_cmd(
    out: Annotated[Path, typer.Option(help="Output directory for the fp16 model.")] = Path(
        "scoregate/weights/precision-minilm"
    ),
    seed: Annotated[int, typer.Option(help="Seed for data, head init and batch order.")] = 13,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the training set.")] = 1,
    batch_size: Annotated[int, typer.Option(min=1, help="Pairs per optimiser step.")] = 32,
    lr: Annotated[
        float, typer.Option(min=0.0, help="Peak encoder learning rate (head: 20x).")
    ] = 8e-5,
    max_pairs: Annotated[
        int | None, typer.Option(min=1, help="Train on a subset (quick runs).")
    ] = None,
    max_length: Annotated[
        int, typer.Option(min=16, max=512, help="Tokens per (request, answer) pair.")
    ] = TRAIN_MAX_LENGTH,
    device: Annotated[
        str,
        typer.Option(
            callback=_device,
            help="'auto' (a GPU when one is visible), 'cpu', 'cuda', 'cuda:1'...",
        ),
    ] = "auto",
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help=f"CANNOT negation TSV folder (default: ${DATA_ENV}, else"
            " ../shared/data/negation from the current directory)."
        ),
    ] = None,
) -> None:
    """Train the precision cross-encoder (about 40 minutes on 2 CPU cores, 2-3 on a GPU)."""
    from scoregate.extras import require
    from scoregate_training.train import train_precision

    require("train", "`scoregate models train-precision`")

    report = train_precision(
        out,
        seed=seed,
        epochs=epochs,
        batch_size=batch_size,
        lr=lr,
        max_pairs=max_pairs,
        max_length=max_length,
        device=device,
        data_dir=data_dir or default_data_dir(),
        progress=True,
    )
    typer.echo(
        f"trained on {report.pairs} pairs, {report.steps} steps in {report.seconds / 60:.1f} min;"
        f" saved to {report.out_dir} (final loss {report.final_loss:.3f})"
    )


if __name__ == "__main__":
    models_app()
