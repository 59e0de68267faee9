"""The training mix for the precision cross-encoder: what goes in, and how much.

Relevance (a request answered in other words, at 1.0) is a large share on purpose:
a model trained on negation pairs alone learns "wording changed, so contradiction"
and scores faithful answers near 0.1.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from scoregate_training import negation_data as neg
from scoregate_training.pairs import Pair, sample
from scoregate_training.templates import advice_pairs, choice_pairs, fact_pairs, scene_pairs

DATA_ENV = "SCOREGATE_DATA_DIR"


@dataclass(frozen=True)
class Mix:
    """How many examples of each kind the training set holds."""

    plain: int = 3000
    excl_ok: int = 2000
    excl_bad: int = 1600
    part_ok: int = 1500
    part_bad: int = 2000
    absent_ok: int = 2000
    off_topic: int = 2000
    choice_quads: int = 500
    fact_rounds: int = 2
    advice_rounds: int = 3
    negated: int = 3000
    identity_share: float = 0.25
    random_sentences: int = 300
    heldout_fraction: float = 0.3
    #: Passes over the hand-written realistic requests (training/data/realistic): each
    #: request with its faithful answers, same-topic violations and an off-topic answer.
    realistic_rounds: int = 3
    #: Share of the templated examples kept (they teach exclusions, not relevance).
    template_share: float = 0.5
    #: Target of an answer that does the ask but breaks a stated form (count, length,
    #: case): the reward track checks form mechanically.
    format_label: float = 0.6
    #: Passes over the minimal edits (None: as many as ``realistic_rounds``).
    edit_rounds: int | None = None


@dataclass(frozen=True)
class TrainingData:
    """Training pairs and the SemAntoNeg rows held out for evaluation."""

    pairs: list[Pair]
    heldout: list[neg.SemRow]

    def summary(self) -> dict[str, int]:
        """Number of pairs per source."""
        return dict(sorted(Counter(p.source for p in self.pairs).items()))


def default_data_dir() -> Path:
    """``$SCOREGATE_DATA_DIR``, else ``../shared/data/negation`` relative to the cwd."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else Path.cwd().parent / "shared" / "data" / "negation"


def check_data_dir(data_dir: Path) -> Path:
    """Raise ``FileNotFoundError`` with a fix unless ``data_dir`` holds the SemAntoNeg file."""
    if not (data_dir / neg.SEMANTONEG).is_file():
        raise FileNotFoundError(
            f"{data_dir / neg.SEMANTONEG} not found: the CANNOT negation TSV files"
            " (dmlls/cannot-dataset on GitHub, CC BY-SA 4.0; not in the repository) belong in"
            " the project's data folder, ../shared/data/negation from the checkout's root: run"
            f" from there, or pass --data-dir (or set {DATA_ENV}) to the folder that holds them"
        )
    return data_dir


def template_pairs(mix: Mix, rng: random.Random) -> list[Pair]:
    """Every templated request/response example of the mix."""
    out = scene_pairs("plain", mix.plain, rng)
    out += scene_pairs("excl-ok", mix.excl_ok, rng)
    out += scene_pairs("excl-bad", mix.excl_bad, rng)
    out += scene_pairs("off-topic", mix.off_topic, rng)
    out += scene_pairs("part-ok", mix.part_ok, rng)
    out += scene_pairs("part-bad", mix.part_bad, rng)
    out += scene_pairs("absent-ok", mix.absent_ok, rng)
    out += choice_pairs(mix.choice_quads, rng)
    for _ in range(mix.fact_rounds):
        out += fact_pairs(rng)
    for _ in range(mix.advice_rounds):
        out += advice_pairs(rng)
    return out


#: Where the hand-written realistic training requests live (JSONL, see its README).
REALISTIC_DIR = Path(__file__).resolve().parents[2] / "training" / "data" / "realistic"
#: Target of a violating answer by what is wrong with it. A broken form (count, length,
#: case) is left to the reward track's mechanical checks: the answer still does the ask.
VIOLATION_LABELS: dict[str, float] = {
    "includes_excluded": 0.0,
    "ignores_preference": 0.0,
    "contradicts_request_facts": 0.0,
    "wrong_question": 0.05,
    "refuses_or_deflects": 0.1,
    "drops_part": 0.3,
    "breaks_format": 0.6,
}


def read_realistic(folder: Path = REALISTIC_DIR) -> list[dict[str, object]]:
    """Every realistic request object (query, faithful answers, violating answers)."""
    import json

    rows: list[dict[str, object]] = []
    for path in sorted(folder.glob("*.jsonl")):
        with path.open(encoding="utf-8") as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


#: Minimal edits of the realistic requests' faithful answers (training/data/edits): the
#: same answer with one detail changed so that it violates the request.
EDITS_DIR = REALISTIC_DIR.parent / "edits"


def read_edits(folder: Path = EDITS_DIR) -> list[dict[str, object]]:
    """Every minimal edit (source_id, kind, query, text, why)."""
    return read_realistic(folder)


def edit_pairs(edits: list[dict[str, object]], rounds: int) -> list[Pair]:
    """Each edited answer at its violation's label, ``rounds`` times (as the requests)."""
    one = [
        Pair(
            str(e["query"]),
            str(e["text"]),
            VIOLATION_LABELS.get(str(e["why"]), 0.0),
            f"edit-{e['why']}",
        )
        for e in edits
    ]
    return one * rounds


def realistic_pairs(
    rows: list[dict[str, object]], rounds: int, rng: random.Random, format_label: float = 0.6
) -> list[Pair]:
    """Faithful answers at 1.0, violations at their label, another request's answer at 0.0."""
    labels = {**VIOLATION_LABELS, "breaks_format": format_label}
    out: list[Pair] = []
    for _ in range(rounds):
        for row in rows:
            query = str(row["query"])
            out += [Pair(query, str(a), 1.0, "realistic-faithful") for a in row["faithful"]]  # type: ignore[attr-defined]
            for v in row["violating"]:  # type: ignore[attr-defined]
                label = labels.get(str(v.get("why")), 0.0)
                out.append(Pair(query, str(v["text"]), label, f"realistic-{v.get('why')}"))
            off = off_topic_pair(row, rows, rng)
            if off is not None:
                out.append(off)
    return out


def off_topic_pair(
    row: dict[str, object], rows: list[dict[str, object]], rng: random.Random
) -> Pair | None:
    """``row``'s request with a faithful answer of a request drawn from ``rows`` at 0.0;
    ``None`` when the draw is ``row`` itself."""
    other = rows[rng.randrange(len(rows))]
    if other is row:
        return None
    answers: list[str] = list(other["faithful"])  # type: ignore[call-overload]
    return Pair(str(row["query"]), str(rng.choice(answers)), 0.0, "realistic-off-topic")


def negation_pairs(data_dir: Path, mix: Mix, seed: int) -> TrainingData:
    """SemAntoNeg (group split) and the sentence/negated files, minus held-out sentences."""
    rng = random.Random(seed)
    train_rows, heldout = neg.group_split(neg.read_semantoneg(data_dir), mix.heldout_fraction, seed)
    banned = {s for r in heldout for s in (r.premise, r.hypothesis)}
    rows = neg.read_negated(data_dir)
    rng.shuffle(rows)
    pairs = neg.semantoneg_pairs(train_rows)
    pairs += neg.negated_pairs(rows[: mix.negated], banned, rng, mix.identity_share)
    sentences = sorted({s for s, _, _ in rows} - banned)
    pairs += neg.random_pairs(sentences, mix.random_sentences, rng)
    return TrainingData(pairs, heldout)


def build_training_data(
    data_dir: Path,
    seed: int = 13,
    mix: Mix | None = None,
    max_pairs: int | None = None,
    realistic: list[dict[str, object]] | None = None,
    edits: list[dict[str, object]] | None = None,
) -> TrainingData:
    """The full shuffled training set (optionally cut to ``max_pairs``) and the held-out rows.

    ``realistic`` and ``edits`` replace the hand-written requests and their minimal edits
    read from ``REALISTIC_DIR`` and ``EDITS_DIR`` (a sweep passes them less its validation
    requests).
    """
    if max_pairs is not None and max_pairs < 1:  # 0 trains nothing; -5 would slice
        raise ValueError(f"max_pairs must be at least 1, or None for every pair (got {max_pairs})")
    mix = mix or Mix()
    rng = random.Random(seed)
    negs = negation_pairs(check_data_dir(data_dir), mix, seed)
    templates = template_pairs(mix, rng)
    templates = sample(templates, int(len(templates) * mix.template_share), rng)
    rows = read_realistic() if realistic is None else realistic
    real = realistic_pairs(rows, mix.realistic_rounds, rng, mix.format_label)
    rounds = mix.realistic_rounds if mix.edit_rounds is None else mix.edit_rounds
    real += edit_pairs(read_edits() if edits is None else edits, rounds)
    pairs = sample(templates + real + negs.pairs, max_pairs, rng)
    return TrainingData(pairs, negs.heldout)
