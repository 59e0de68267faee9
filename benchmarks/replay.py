"""Record the pairs the precision model reads in an evaluation; replay scores for them.

A GPU sweep trains several candidate models; each evaluation here (the whole gate: the
tracks, the fusion, the cuts) would need every candidate's weights back on this machine.
Instead:

1. ``eval_gate.py --record-pairs pairs.jsonl`` runs with the configured model and writes
   every (query, content) pair the precision model read, in a stable order;
2. ``python -m scoregate_training.sweep --score-pairs pairs.jsonl`` scores them with each
   candidate (``out/scores/NAME.json``: one float per pair, same order);
3. ``eval_gate.py --replay pairs.jsonl NAME.json`` (or ``fit_cuts.py``) runs the gate with
   those scores in place of the model. The chunking still reads the packaged tokenizer,
   which every candidate shares (they all start from MiniLM's vocabulary).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoregate.scoring.engine import LocalModels
from scoregate_training.sweep import read_pairs


class Recorder:
    """Wraps a cross-encoder: scores as it does and remembers every pair it read."""

    def __init__(self, model: Any) -> None:
        self._model = model
        self.tokenizer = model.tokenizer
        self.pairs: dict[tuple[str, str], None] = {}

    def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> Any:
        self.pairs.update(dict.fromkeys((q, c) for q, c in sentences))
        return self._model.predict(sentences, **kwargs)

    def save(self, path: Path) -> int:
        with path.open("w", encoding="utf-8") as f:
            for q, c in self.pairs:
                f.write(json.dumps({"query": q, "content": c}, ensure_ascii=False) + "\n")
        return len(self.pairs)


class Replay:
    """Answers ``predict`` from recorded scores; a pair never recorded is an error."""

    def __init__(self, scores: dict[tuple[str, str], float], tokenizer: Any) -> None:
        self._scores = scores
        self.tokenizer = tokenizer

    def predict(self, sentences: list[tuple[str, str]], **kwargs: Any) -> list[float]:
        missing = [p for p in sentences if p not in self._scores]
        if missing:
            raise SystemExit(
                f"{len(missing)} pair(s) have no replayed score (first: {missing[0][0][:60]!r}):"
                " record them with --record-pairs on the same data, then score them again"
            )
        return [self._scores[p] for p in sentences]


def read_replay(pairs_file: Path, scores_file: Path, tokenizer: Any) -> Replay:
    """A ``Replay`` from a recorded pairs file and a list of scores in the same order."""
    pairs = read_pairs(pairs_file)
    scores = json.loads(scores_file.read_text(encoding="utf-8"))
    if not isinstance(scores, list) or len(scores) != len(pairs):
        got = len(scores) if isinstance(scores, list) else type(scores).__name__
        raise SystemExit(
            f"{scores_file}: expected a list of {len(pairs)} scores (one per line of"
            f" {pairs_file}), got {got}"
        )
    table = {p: float(s) for p, s in zip(pairs, scores, strict=True)}
    return Replay(table, tokenizer)


def install(models: LocalModels, record: str | None, replay: list[str] | None) -> Recorder | None:
    """Put a ``Recorder`` or a ``Replay`` in place of ``models``' precision model."""
    if replay:
        tokenizer = models.model("precision").tokenizer
        models.use("precision", read_replay(Path(replay[0]), Path(replay[1]), tokenizer))
    if record:
        recorder = Recorder(models.model("precision"))
        models.use("precision", recorder)
        return recorder
    return None


def add_arguments(ap: Any) -> None:
    """``--record-pairs FILE`` and ``--replay PAIRS SCORES`` on an argparse parser."""
    ap.add_argument("--record-pairs", help="write every pair the precision model read here")
    ap.add_argument(
        "--replay",
        nargs=2,
        metavar=("PAIRS", "SCORES"),
        help="use these scores (a JSON list, one per recorded pair) instead of the model",
    )


def score_pairs(
    model_dir: str | None, pairs: list[tuple[str, str]], config: str | None = None
) -> list[float]:
    """The precision model's scores of ``pairs``, the model loaded as the gate loads it
    (``config`` or the packaged configuration, with ``model_dir`` when given)."""
    from eval_gate import scoring_config  # eval_gate imports this module

    from scoregate.scoring.encoders import load_cross_encoder

    model = load_cross_encoder(scoring_config(config, model_dir).precision, device="cpu")
    scores = model.predict(pairs, batch_size=64, show_progress_bar=True)
    return [float(s) for s in scores]


def score_file(model_dir: str, pairs_file: Path, out: Path) -> int:
    """Score every recorded pair with the precision model in ``model_dir``; write the JSON
    list."""
    pairs = read_pairs(pairs_file)
    out.write_text(json.dumps(score_pairs(model_dir, pairs)), encoding="utf-8")
    return len(pairs)


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(
        description="Score recorded pairs with a precision model, for --replay."
    )
    ap.add_argument("--model", required=True, help="precision model folder")
    ap.add_argument("pairs", type=Path, help="a file written by --record-pairs")
    ap.add_argument("out", type=Path, help="where the JSON list of scores goes")
    args = ap.parse_args(argv)
    n = score_file(args.model, args.pairs, args.out)
    print(f"scored {n} pairs with {args.model}: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
