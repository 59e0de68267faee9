"""An answer that repeats a few words over and over is never accepted, however well its
best chunk reads (``scoring.repetition``, ``fusion.repetition_richness``)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from scoregate.config.scoring_yaml import load_scoring_config
from scoregate.schemas.request import ScoreRequest
from scoregate.schemas.result import TrackScore
from scoregate.scoring.fusion import fuse
from scoregate.scoring.repetition import _fewest_distinct, prose_words, repeated

CFG = load_scoring_config()
ROOT = Path(__file__).resolve().parents[2]
QUERY = "Design the billing module"
VOCAB = (
    "the pasta boil water salt garlic oil tomato basil serve and with for minutes design"
    " module billing invoice customer api service queue retry table"
).split()


def _salad(lines: int) -> str:
    rng = random.Random(1)
    return "\n".join(" ".join(rng.choice(VOCAB) for _ in range(15)) + "." for _ in range(lines))


COPIED = "# Billing module design\n" + "\n".join(
    ["The billing module issues invoices and retries failed charges through a queue."] * 120
)


def _fused(content: str, cfg=CFG):
    request = ScoreRequest.model_validate({"query": QUERY, "content": content})
    tracks = {
        "semantic": TrackScore(name="semantic", score=1.0),
        "precision": TrackScore(name="precision", score=0.98),
    }
    return fuse(request, tracks, cfg)


@pytest.mark.parametrize("content", [_salad(150), _salad(300), COPIED])
def test_word_salad_and_a_copied_sentence_are_rejected_whatever_their_best_chunk(content):
    r = _fused(content)
    assert r.action == "reject" and r.score == CFG.fusion.none_asked_cap
    [reason] = [x for x in r.reasons if "repeats a few words" in x]
    found = repeated(content, 150, 2.0)
    assert found is not None and f"({found.distinct} distinct words in {found.words})" in reason


GOOD_START = (
    "The billing module owns invoices, payments and dunning. Invoices are created from"
    " subscriptions at the start of each period, priced from the plan and any usage"
    " records, and stored with their line items. Payments are taken through the provider's"
    " API; a failed charge is retried on day 1, 3 and 7 with a notice to the customer each"
    " time, then the account is suspended. Every state change is written to an audit table"
    " so that finance can reconcile the ledger with the provider's payouts each night. "
)


def test_an_answer_that_starts_well_and_then_loops_is_rejected_too():
    looped = GOOD_START + " ".join(["The retry queue retries the charge."] * 150)
    assert repeated(GOOD_START * 3, 150, 2.0) is None  # the same start, repeated less
    found = repeated(looped, 150, 2.0)
    assert found is not None and not found.whole and found.words == 150
    words = prose_words(looped)
    assert len(set(words)) / len(words) ** 0.5 >= 2.0  # the whole answer alone passes
    r = _fused(looped)
    assert r.action == "reject"
    assert any(f"({found.distinct} distinct words in 150 in a stretch)" in x for x in r.reasons)


def test_the_check_goes_off_with_null():
    cfg = CFG.model_copy(
        update={"fusion": CFG.fusion.model_copy(update={"repetition_richness": None})}
    )
    assert _fused(_salad(150), cfg).action == "accept"


def test_tables_and_code_are_not_counted():
    week = "| {} | 20 min: run 60s, walk 90s | 20 min: run 60s, walk 90s | rest |"
    table = "| Week | Mon | Wed | Sat |\n|---|---|---|---|\n" + "\n".join(
        week.format(n) for n in range(1, 60)
    )
    code = "```python\n" + "\n".join(f"x{n} = value(x{n})" for n in range(200)) + "\n```"
    answer = f"Here is the plan.\n\n{table}\n\n{code}\n\nStart slowly and rest when you need to."
    assert len(prose_words(answer)) == 12
    assert repeated(answer, 150, 2.0) is None
    assert _fused(answer).action == "accept"


def _stored_answers() -> list[str]:
    out: list[str] = []
    for base in (ROOT / "benchmarks" / "data", ROOT / "training" / "data"):
        for path in sorted(base.rglob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line) if line.strip() else None
                if not isinstance(row, dict):
                    continue
                for key in ("faithful", "violating", "off_topic", "content", "text", "response"):
                    value = row.get(key)
                    values = value if isinstance(value, list) else [value]
                    out += [v for v in values if isinstance(v, str)]
    return out


def test_no_stored_answer_is_read_as_repeating():
    """Every answer the sets and the training data hold, long ones included, is real text:
    none may be capped (the margin the default rests on: docs/decisions.md)."""
    answers = _stored_answers()
    assert len(answers) > 15_000
    long = [a for a in answers if len(prose_words(a)) >= 150]
    assert len(long) > 1_000
    assert min(repeated(a, 1, 1e9).richness for a in long) > 4.0  # type: ignore[union-attr]
    stretches = [_fewest_distinct(prose_words(a), 150) / 150**0.5 for a in long]
    assert min(stretches) > 3.0
    assert not [a[:80] for a in answers if repeated(a, 150, 2.0)]
