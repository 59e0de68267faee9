"""Interpolate two precision models' weights (a "model soup" of a model and its fine-tune).

Both models must share one architecture and one starting point (the fine-tune went on
from the other), as the sweep's ``warm-...`` candidates do from the shipped weights.
``alpha`` is the fine-tune's share: 0 gives the first model back, 1 the second.

    python -m scoregate_training.soup --base scoregate/weights/precision-minilm \\
        --tuned runs/precision --alpha 0.5 --out runs/soup-050

The result is stored as the shipped weights are (fp16 safetensors); the tokenizer and
configuration files are copied from ``--tuned``. Score it like any candidate
(``benchmarks/replay.py score`` on recorded pairs, then ``eval_gate.py --replay``).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

WEIGHTS = "model.safetensors"


def interpolate(base: Path, tuned: Path, alpha: float, out: Path) -> int:
    """Write ``(1 - alpha) * base + alpha * tuned`` to ``out``; returns the tensor count."""
    import torch
    from safetensors.torch import load_file, save_file

    if not 0.0 <= alpha <= 1.0:
        raise SystemExit(f"--alpha must be between 0 and 1 (the fine-tune's share), got {alpha}")
    a, b = load_file(str(base / WEIGHTS)), load_file(str(tuned / WEIGHTS))
    if a.keys() != b.keys():
        only = sorted(a.keys() ^ b.keys())
        raise SystemExit(
            f"{base} and {tuned} hold different tensors ({len(only)} differ, first {only[0]!r}):"
            " a soup needs one architecture"
        )
    mixed: dict[str, torch.Tensor] = {}
    for name, ta in a.items():
        tb = b[name]
        if ta.shape != tb.shape:
            raise SystemExit(
                f"{name}: shape {tuple(ta.shape)} in {base}, {tuple(tb.shape)} in {tuned}"
            )
        if not ta.is_floating_point():
            mixed[name] = tb.clone()  # integer buffers (position ids) are the same in both
            continue
        t = (1.0 - alpha) * ta.float() + alpha * tb.float()
        mixed[name] = t.to(tb.dtype).contiguous()
    out.mkdir(parents=True, exist_ok=True)
    for f in tuned.iterdir():
        if f.is_file() and f.name not in (WEIGHTS, "MODEL_CARD.md"):
            shutil.copy2(f, out / f.name)
    save_file(mixed, str(out / WEIGHTS), metadata={"format": "pt"})
    return len(mixed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", type=Path, required=True, help="the model the fine-tune started from")
    ap.add_argument("--tuned", type=Path, required=True, help="the fine-tuned model")
    ap.add_argument("--alpha", type=float, required=True, help="the fine-tune's share, 0..1")
    ap.add_argument("--out", type=Path, required=True, help="folder for the interpolated model")
    args = ap.parse_args(argv)
    for d in (args.base, args.tuned):
        if not (d / WEIGHTS).is_file():
            raise SystemExit(f"{d} has no {WEIGHTS}: pass a saved precision model folder")
    n = interpolate(args.base, args.tuned, args.alpha, args.out)
    print(f"{n} tensors, alpha {args.alpha:g}: saved to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
