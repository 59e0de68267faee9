"""Cost of the bold and heading counts on an answer whose code fence is never closed, at
4 KB and 40 KB: a linear count takes about 10 times as long on ten times the text, a
quadratic one about 100 times.

    python benchmarks/bench_fences.py [--repeat 5]

The answer opens a block with "```python" and never writes a bare "```" to close it; its
lines that open with ``` and say more ("```python", "``` x") close nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from scoregate.scoring.counting import bold_spans, heading_lines

SIZES = (4_000, 40_000)


def answer(size: int) -> str:
    """An answer of ``size`` characters: a lead-in, then code never closed, in which
    fence lines with a language name recur (a model that opens blocks and never closes
    them)."""
    step = "Step:\n```python\nresult = compute(**options)  # **not bold**\n"
    return ("## Setup\nRun **this**:\n" + step * (size // len(step) + 1))[:size]


def best_of(fn: Callable[[str], object], text: str, repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``fn(text)``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="runs per size, the fastest kept")
    args = parser.parse_args()
    for fn in (bold_spans, heading_lines):
        small, large = (best_of(fn, answer(n), args.repeat) for n in SIZES)
        print(
            f"{fn.__name__}: {SIZES[0] // 1000} KB {small * 1000:.2f} ms, "
            f"{SIZES[1] // 1000} KB {large * 1000:.2f} ms, ratio {large / small:.1f}x"
        )


if __name__ == "__main__":
    main()
