"""Split one list of scores of concatenated pairs files back into one list per file.

    python benchmarks/split_scores.py SCORES.json NAME dev.pairs holdout.pairs fit.pairs ...

A sweep's ``--score-pairs`` reads one file, so a run on another machine scores the pairs of
every evaluation at once: ``cat dev.pairs holdout.pairs fit.pairs > all.pairs``, then
``--score-pairs all.pairs``. This writes ``dev.NAME.json``, ``holdout.NAME.json``... beside
each pairs file (its name less ``.pairs``), the slice of ``SCORES.json`` its lines got, for
``eval_gate.py --replay``, ``fit_cuts.py --replay`` and ``accept_trade.py``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scoregate_training.sweep import read_pairs


def split(scores: list[float], files: list[Path], name: str) -> list[Path]:
    """Write each file's slice of ``scores``; the counts must add up exactly."""
    counts = [len(read_pairs(f)) for f in files]
    if sum(counts) != len(scores):
        raise SystemExit(
            f"{len(scores)} scores for {sum(counts)} pairs in "
            + ", ".join(f"{f} ({n})" for f, n in zip(files, counts, strict=True))
            + ": name the files in the order they were concatenated, and only those"
        )
    out, start = [], 0
    for f, n in zip(files, counts, strict=True):
        target = f.with_name(f"{f.name.removesuffix('.pairs')}.{name}.json")
        target.write_text(json.dumps(scores[start : start + n]), encoding="utf-8")
        out.append(target)
        start += n
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("scores", type=Path, help="the JSON list the sweep wrote for the pairs")
    ap.add_argument("name", help="the model's name in the files written (dev.NAME.json)")
    ap.add_argument("pairs", type=Path, nargs="+", help="the pairs files, in their order")
    args = ap.parse_args(argv)
    missing = [p for p in [args.scores, *args.pairs] if not p.is_file()]
    if missing:
        raise SystemExit(f"no file {missing[0]}")
    scores = json.loads(args.scores.read_text(encoding="utf-8"))
    if not isinstance(scores, list):
        raise SystemExit(f"{args.scores}: expected a JSON list of scores")
    for target in split([float(s) for s in scores], args.pairs, args.name):
        print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
